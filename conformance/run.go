// Package conformance runs the harness's Gherkin features against a server
// of the media-asset API and reports what it found: Run drives godog with
// the steps of package steps, records every scenario's outcome itself, and
// writes the reports (godog's pretty and progress output on the console,
// JUnit XML and Cucumber JSON from the recorded results).
package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/mediaspec/mediaspec/features"
	"github.com/mediaspec/mediaspec/spec"
	"github.com/mediaspec/mediaspec/steps"
)

// ErrUnreachable is returned (wrapped) when the target does not answer.
var ErrUnreachable = errors.New("the target does not answer")

// ErrNotReady is returned (wrapped) when the preflight finds the target
// cannot be checked as asked: its base path answers 404 to every API
// route, or it refuses a credential the run was given.
var ErrNotReady = errors.New("the target cannot be checked")

// ConfigError is returned when the run was asked for wrongly: a target that
// is not an http(s) URL, a report format that is unknown or lacks its file,
// two reports in one file, options godog refuses, or tags that select no
// scenario or only scenarios that are skipped (a run that checks nothing
// must not pass; the reports of skipped scenarios are written all the same).
type ConfigError struct{ Reason string }

func (e *ConfigError) Error() string { return e.Reason }

// Format is a report to write: pretty or progress (on Output, or in File),
// junit or cucumber (in File).
type Format struct {
	Name string
	File string
}

// ParseFormat reads a --format value: NAME or NAME:FILE.
func ParseFormat(v string) (Format, error) {
	name, file, _ := strings.Cut(v, ":")
	f := Format{Name: name, File: file}
	return f, f.check()
}

func (f Format) check() error {
	switch f.Name {
	case "pretty", "progress":
	case "junit", "cucumber":
		if f.File == "" {
			return fmt.Errorf("format %s needs a file: %s:FILE", f.Name, f.Name)
		}
	default:
		return fmt.Errorf("unknown format %q: use pretty, progress, junit:FILE or cucumber:FILE", f.Name)
	}
	return nil
}

// checkFormats makes sure every format is known, has the file it needs,
// and has a file of its own.
func checkFormats(formats []Format) error {
	files := map[string]string{}
	for _, f := range formats {
		if err := f.check(); err != nil {
			return &ConfigError{err.Error()}
		}
		if f.File == "" {
			continue
		}
		if other, ok := files[filepath.Clean(f.File)]; ok {
			return &ConfigError{fmt.Sprintf("the %s and %s reports would both be written to %s", other, f.Name, f.File)}
		}
		files[filepath.Clean(f.File)] = f.Name
	}
	return nil
}

// Config is a conformance run.
type Config struct {
	// Target is the API's base URL, base path included, e.g.
	// http://127.0.0.1:2283/api.
	Target string
	// APIKey is the API key of the user the scenarios act as.
	APIKey string
	// SecondAPIKey is another user's API key (optional).
	SecondAPIKey string
	// Email and Password are the login of APIKey's user (optional: the
	// scenarios that use a session then log in as a user the harness makes,
	// or are skipped).
	Email, Password string
	// MaxUploadBytes is the upload body size the target declares it
	// refuses beyond; 0: none, and @upload-limit scenarios are skipped.
	MaxUploadBytes int64
	// Settle bounds how long scenarios wait for what the target derives
	// from a file after the upload (steps.DefaultSettle if zero).
	Settle time.Duration
	// AdminAPIKey, or AdminEmail and AdminPassword, are an admin's
	// credentials, with which the harness makes the users it needs.
	AdminAPIKey, AdminEmail, AdminPassword string
	// ChecksumHeader names the duplicate-detection header (optional).
	ChecksumHeader string
	// Tags selects the scenarios, in Cucumber's tag expression syntax
	// (ParseTags), e.g. "@robustness" or "not @control and (@upload or
	// @shared-links)"; godog's older "~@new-user" and "@a,@b && @c" are read
	// too. Empty selects every scenario.
	Tags string
	// Formats are the reports to write; with no pretty or progress among
	// them, progress is written to Output.
	Formats []Format
	// Output receives the console reports; nil discards them.
	Output io.Writer
	// Colors colours the console reports.
	Colors bool
	// Concurrency is how many scenarios run at once (at least 1).
	Concurrency int
	// Client sends the requests; nil means a client with timeouts.
	Client *http.Client
	// Features are the feature files; nil means the embedded ones.
	Features fs.FS
}

// NewClient returns the HTTP client the harness uses by default: every
// request and connection has a deadline, so a server that hangs fails its
// scenario instead of the run.
func NewClient() *http.Client {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.DialContext = (&net.Dialer{Timeout: 5 * time.Second}).DialContext
	transport.ResponseHeaderTimeout = 20 * time.Second
	transport.MaxIdleConnsPerHost = 16
	return &http.Client{
		Timeout:   30 * time.Second,
		Transport: transport,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a redirect is an answer to judge, not to follow
		},
	}
}

// Run runs the features against cfg.Target. It returns an error when the
// run could not be made (a bad configuration, an unreachable target, a
// report that cannot be written) or checked nothing; failed scenarios are
// in the Result. A report file that cannot be opened fails the run before
// any scenario runs, and a run in which no scenario ran (godog refused it,
// or the tags select none) leaves no report file behind.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if err := checkTarget(cfg.Target); err != nil {
		return Result{}, err
	}
	if err := checkFormats(cfg.Formats); err != nil {
		return Result{}, err
	}
	selection, err := ParseTags(cfg.Tags)
	if err != nil {
		return Result{}, &ConfigError{"tags: " + err.Error()}
	}
	cfg.Target = strings.TrimSuffix(cfg.Target, "/")
	if cfg.Client == nil {
		cfg.Client = NewClient()
		defer cfg.Client.CloseIdleConnections()
	}
	if cfg.Features == nil {
		cfg.Features = features.FS()
	}
	cfg.Concurrency = max(cfg.Concurrency, 1)
	output := cfg.Output
	if output == nil {
		output = io.Discard
	}
	validator, err := spec.Load(ctx)
	if err != nil {
		return Result{}, err
	}
	cat, err := loadCatalog(cfg.Features)
	if err != nil {
		return Result{}, err
	}
	// A target that declares no upload limit has none to judge: those
	// scenarios are not run at all (not skipped), and the summary says so.
	var notes []string
	if cfg.MaxUploadBytes <= 0 {
		selection = selection.and(&TagExpr{root: &tagNot{operand: tagLiteral(steps.TagUploadLimit)}})
		notes = append(notes, fmt.Sprintf("Not run: the scenarios of a declared upload size limit (%s); give --max-upload-bytes where the target declares one.", steps.TagUploadLimit))
	}
	filter, selected := godogFilter(selection, cat)
	if selected == 0 {
		return Result{}, &ConfigError{fmt.Sprintf("the tags %q select no scenario", cfg.Tags)}
	}
	if err := preflight(ctx, cfg); err != nil {
		return Result{}, err
	}

	var console []string
	for _, f := range cfg.Formats {
		if f.Name == "pretty" || f.Name == "progress" {
			console = append(console, strings.TrimSuffix(f.Name+":"+f.File, ":"))
		}
	}
	if len(console) == 0 {
		console = []string{"progress"}
	}

	// The report files are opened before the run, so a path that cannot be
	// written fails at once, rather than after every scenario ran, and
	// nothing is written.
	reports, err := openReports(cfg.Formats)
	if err != nil {
		return Result{}, err
	}

	var waits settleWaits
	stepsConfig := steps.Config{
		BaseURL:        cfg.Target,
		APIKey:         cfg.APIKey,
		SecondAPIKey:   cfg.SecondAPIKey,
		Email:          cfg.Email,
		Password:       cfg.Password,
		AdminAPIKey:    cfg.AdminAPIKey,
		Settle:         cfg.Settle,
		Settled:        waits.add,
		MaxUploadBytes: cfg.MaxUploadBytes,
		AdminEmail:     cfg.AdminEmail,
		AdminPassword:  cfg.AdminPassword,
		ChecksumHeader: cfg.ChecksumHeader,
		Client:         cfg.Client,
		Validator:      validator,
	}
	rec := newRecorder(cat)
	suite := godog.TestSuite{
		Name: "mediaspec",
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			rec.register(sc, func(sc *godog.ScenarioContext) { steps.Register(sc, stepsConfig) })
		},
		Options: &godog.Options{
			Format:         strings.Join(console, ","),
			Output:         output,
			NoColors:       !cfg.Colors,
			Tags:           filter,
			Concurrency:    cfg.Concurrency,
			Strict:         true,
			FS:             cfg.Features,
			Paths:          []string{"."},
			DefaultContext: ctx,
		},
	}
	start := time.Now()
	status := suite.Run()
	res := rec.result(time.Since(start))
	res.Settled = waits.stats()
	res.Notes = notes
	var errs []error
	switch {
	case status == 2: // godog's "option error": it printed why on stderr
		errs = append(errs, &ConfigError{"the features could not be run (bad tags, format or feature file?)"})
	case ctx.Err() != nil:
	case len(res.Scenarios) == 0:
		errs = append(errs, &ConfigError{fmt.Sprintf("the tags %q select no scenario", cfg.Tags)})
	case res.Passed+res.Failed == 0:
		errs = append(errs, &ConfigError{"every selected scenario was skipped, so nothing was checked: " + skipReasons(res)})
	}
	if len(res.Scenarios) == 0 {
		// No scenario ran: an empty report would read as a pass.
		errs = append(errs, reports.discard())
	} else {
		errs = append(errs, reports.write(res))
	}
	errs = append(errs, ctx.Err())
	return res, errors.Join(errs...)
}

// skipReasons lists the distinct reasons scenarios were skipped for.
func skipReasons(res Result) string {
	var reasons []string
	for _, s := range res.Scenarios {
		if s.Status == Skipped && !slices.Contains(reasons, s.SkipReason) {
			reasons = append(reasons, s.SkipReason)
		}
	}
	return strings.Join(reasons, "; ")
}

func checkTarget(target string) error {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &ConfigError{fmt.Sprintf("target %q is not an http(s) URL with the API's base path, like http://127.0.0.1:2283/api", target)}
	}
	return nil
}

// reportFile is a report's file, opened before the run.
type reportFile struct {
	format Format
	// file is open for the junit and cucumber reports, which Run writes;
	// nil for pretty and progress, which godog writes itself.
	file *os.File
	// created says the run made the file: it is removed if the run cannot
	// be made. A junit or cucumber file that was there already is left as
	// it was; a pretty or progress one is emptied by godog, which creates
	// it anew as soon as it starts.
	created bool
}

type reportFiles []reportFile

// openReports opens the file of every format that has one, without
// truncating it: a junit or cucumber file that was there is only rewritten
// when there are results to write in it.
func openReports(formats []Format) (reportFiles, error) {
	var reports reportFiles
	for _, f := range formats {
		if f.File == "" {
			continue
		}
		r := reportFile{format: f, created: true}
		file, err := os.OpenFile(f.File, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			r.created = false
			file, err = os.OpenFile(f.File, os.O_WRONLY, 0)
		}
		if err != nil {
			return nil, errors.Join(fmt.Errorf("report %s: %w", f.Name, err), reports.discard())
		}
		r.file = file
		if f.Name == "pretty" || f.Name == "progress" {
			r.file = nil // godog opens it again, by its name
			if err := file.Close(); err != nil {
				reports = append(reports, r)
				return nil, errors.Join(fmt.Errorf("report %s: %w", f.File, err), reports.discard())
			}
		}
		reports = append(reports, r)
	}
	return reports, nil
}

// write writes the junit and cucumber reports and closes their files.
func (reports reportFiles) write(res Result) error {
	var errs []error
	for _, r := range reports {
		if r.file != nil {
			errs = append(errs, writeReport(r.file, r.format, res))
		}
	}
	return errors.Join(errs...)
}

// discard closes the report files and removes those the run created: a run
// that could not be made leaves no report behind.
func (reports reportFiles) discard() error {
	var errs []error
	for _, r := range reports {
		if r.file != nil {
			errs = append(errs, r.file.Close())
		}
		if r.created {
			if err := os.Remove(r.format.File); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("report %s: %w", r.format.File, err))
			}
		}
	}
	return errors.Join(errs...)
}

// writeReport writes one file report over what the file held and closes it.
func writeReport(out *os.File, f Format, res Result) (err error) {
	defer func() {
		if cerr := out.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("report %s: %w", f.File, cerr)
		}
	}()
	if err := out.Truncate(0); err != nil {
		return fmt.Errorf("report %s: %w", f.File, err)
	}
	switch f.Name {
	case "junit":
		err = WriteJUnit(out, res)
	case "cucumber":
		err = WriteCucumber(out, res)
	default:
		err = fmt.Errorf("unknown report format %q", f.Name)
	}
	if err != nil {
		return fmt.Errorf("report %s: %w", f.File, err)
	}
	return nil
}
