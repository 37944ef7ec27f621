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
// junit, cucumber, html or coverage (in File).
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
	case "junit", "cucumber", "html", "coverage":
		if f.File == "" {
			return fmt.Errorf("format %s needs a file: %s:FILE", f.Name, f.Name)
		}
	default:
		return fmt.Errorf("unknown format %q: use pretty, progress, junit:FILE, cucumber:FILE, html:FILE or coverage:FILE", f.Name)
	}
	return nil
}

// isConsole says whether the report is written as the run goes.
func (f Format) isConsole() bool { return f.Name == "pretty" || f.Name == "progress" }

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
	// LibraryFolder is a folder the target reads where the harness writes
	// it, for the @library-folder scenarios (steps.Config.LibraryFolder).
	LibraryFolder string
	// MaxUploadBytes is the upload body size the target declares it
	// refuses beyond; 0: none, and @upload-limit scenarios are skipped.
	MaxUploadBytes int64
	// Settle bounds how long scenarios wait for what the target derives
	// from a file after the upload (steps.DefaultSettle if zero).
	Settle time.Duration
	// AdminAPIKey, or AdminEmail and AdminPassword, are an admin's
	// credentials, with which the harness makes the users it needs. Without
	// them, APIKey serves when its user is an admin.
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
	// Validator is the document the answers are validated against, loaded
	// once for many runs; nil loads the project's (spec.Load).
	Validator *spec.Validator
	// Features are the feature files; nil means the embedded ones.
	Features fs.FS
}

// hasAdmin says whether the run was given an admin's credentials.
func (cfg Config) hasAdmin() bool {
	return cfg.AdminAPIKey != "" || (cfg.AdminEmail != "" && cfg.AdminPassword != "")
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
	selection, err := cfg.check()
	if err != nil {
		return Result{}, err
	}
	cfg = cfg.withDefaults()
	if cfg.Client == nil {
		cfg.Client = NewClient()
		defer cfg.Client.CloseIdleConnections()
	}
	p, err := plan(ctx, cfg, selection)
	if err != nil {
		return Result{}, err
	}
	// The report files are opened before the run, so a path that cannot be
	// written fails at once, rather than after every scenario ran, and
	// nothing is written.
	reports, err := openReports(p.cfg.Formats)
	if err != nil {
		return Result{}, err
	}
	consoles, onOutput := p.consoles(reports)
	rec := newRecorder(p.cat, p.validator.NewCoverage(), consoles)
	rec.exchanges = slices.ContainsFunc(p.cfg.Formats, func(f Format) bool { return f.Name == "html" })
	rec.refuses = func(ctx context.Context) bool { return refusesConnections(ctx, p.cfg) }
	var waits settleWaits
	start := time.Now()
	status, left := p.runBatches(ctx, rec, &waits)
	res := rec.result(time.Since(start))
	res.Traces = left
	res.Settled = waits.stats()
	res.Notes = p.notes
	return res, p.end(ctx, res, status, reports, onOutput)
}

// check makes sure the run was asked for rightly, and reads its tags.
func (cfg Config) check() (*TagExpr, error) {
	if err := checkTarget(cfg.Target); err != nil {
		return nil, err
	}
	if err := checkFormats(cfg.Formats); err != nil {
		return nil, err
	}
	selection, err := ParseTags(cfg.Tags)
	if err != nil {
		return nil, &ConfigError{"tags: " + err.Error()}
	}
	return selection, nil
}

// withDefaults is cfg with the defaults of what it leaves out, but its
// Client.
func (cfg Config) withDefaults() Config {
	cfg.Target = strings.TrimSuffix(cfg.Target, "/")
	if cfg.Features == nil {
		cfg.Features = features.FS()
	}
	cfg.Concurrency = max(cfg.Concurrency, 1)
	if cfg.Output == nil {
		cfg.Output = io.Discard
	}
	return cfg
}

// runPlan is a run made ready: its configuration, the document its
// answers are validated against, the features' scenarios and the batches
// they run in.
type runPlan struct {
	cfg       Config
	validator *spec.Validator
	cat       *catalog
	batches   []batch
	notes     []string // what the summary says of scenarios not run
}

// plan makes the run ready: it loads the document and the features,
// splits the selected scenarios into batches, and asks the target what the
// run needs to know of it (preflight).
func plan(ctx context.Context, cfg Config, selection *TagExpr) (*runPlan, error) {
	validator := cfg.Validator
	if validator == nil {
		var err error
		if validator, err = spec.Load(ctx); err != nil {
			return nil, err
		}
	}
	cat, err := loadCatalog(cfg.Features)
	if err != nil {
		return nil, err
	}
	p := &runPlan{validator: validator, cat: cat}
	// A target that declares no upload limit has none to judge: those
	// scenarios are not run at all (not skipped), and the summary says so.
	if cfg.MaxUploadBytes <= 0 {
		selection = selection.and(&TagExpr{root: &tagNot{operand: tagLiteral(steps.TagUploadLimit)}})
		p.notes = append(p.notes, fmt.Sprintf("Not run: the scenarios of a declared upload size limit (%s); give --max-upload-bytes where the target declares one.", steps.TagUploadLimit))
	}
	if _, _, selected := godogFilter(selection, cat); selected == 0 {
		return nil, &ConfigError{fmt.Sprintf("the tags %q select no scenario", cfg.Tags)}
	}
	// The scenarios that change or judge what every user sees run after
	// the others, one at a time: none reads what another is changing. Those
	// that may kill a server run last, one at a time: a server that dies on
	// one takes no other scenario with it, and which one it died on is known.
	robust := &TagExpr{root: tagLiteral(steps.TagRobustness)}
	serial := &TagExpr{root: tagLiteral(steps.TagSerial)}
	notRobust := &TagExpr{root: &tagNot{operand: robust.root}}
	p.batches = []batch{
		{selection: selection.and(notRobust).and(&TagExpr{root: &tagNot{operand: serial.root}}), concurrency: cfg.Concurrency},
		{selection: selection.and(notRobust).and(serial), concurrency: 1},
		{selection: selection.and(robust), concurrency: 1},
	}
	facts, err := preflight(ctx, cfg)
	if err != nil {
		return nil, err
	}
	// An admin's --api-key makes the users the scenarios need when no
	// admin's credentials were given: the harness asked whose key it is.
	if facts.apiKeyIsAdmin && !cfg.hasAdmin() {
		cfg.AdminAPIKey = cfg.APIKey
		fmt.Fprintln(cfg.Output, "mediaspec check: the --api-key is an admin's, and no --admin-api-key was given: it makes the users the scenarios need.")
	}
	p.cfg = cfg
	return p, nil
}

// consoles are the run's console reports: those in files, and the one on
// Output (two would interleave), progress by default.
func (p *runPlan) consoles(reports reportFiles) (all []console, onOutput console) {
	var order []*scenarioInfo
	for _, b := range p.batches {
		order = append(order, selectedScenarios(p.cat, b.selection)...)
	}
	for _, r := range reports {
		if r.format.isConsole() {
			r.console = newConsole(r.format.Name, r.file, false, true, order)
			all = append(all, r.console)
		}
	}
	for _, f := range p.cfg.Formats {
		if f.isConsole() && f.File == "" && onOutput == nil {
			onOutput = newConsole(f.Name, p.cfg.Output, p.cfg.Colors, false, order)
		}
	}
	if onOutput == nil && len(all) == 0 {
		onOutput = newConsole("progress", p.cfg.Output, p.cfg.Colors, false, order)
	}
	if onOutput != nil {
		all = append(all, onOutput)
	}
	return all, onOutput
}

// stepsConfig is the configuration of the steps of every scenario: what
// they make is kept in traces, and how long they waited in waits.
func (p *runPlan) stepsConfig(traces *steps.Traces, waits *settleWaits) steps.Config {
	cfg := p.cfg
	return steps.Config{
		Traces:         traces,
		BaseURL:        cfg.Target,
		APIKey:         cfg.APIKey,
		SecondAPIKey:   cfg.SecondAPIKey,
		Email:          cfg.Email,
		Password:       cfg.Password,
		AdminAPIKey:    cfg.AdminAPIKey,
		Settle:         cfg.Settle,
		Settled:        waits.add,
		MaxUploadBytes: cfg.MaxUploadBytes,
		LibraryFolder:  cfg.LibraryFolder,
		AdminEmail:     cfg.AdminEmail,
		AdminPassword:  cfg.AdminPassword,
		ChecksumHeader: cfg.ChecksumHeader,
		Client:         cfg.Client,
		Validator:      p.validator,
	}
}

// runBatches runs the batches with godog, one after the other, recording
// their scenarios in rec, and takes away what each batch made once its
// scenarios have ended, even when the run was cut short. It returns
// godog's worst status and what could not be taken away.
func (p *runPlan) runBatches(ctx context.Context, rec *recorder, waits *settleWaits) (status int, left []string) {
	traces := steps.NewTraces()
	stepsConfig := p.stepsConfig(traces, waits)
	for _, b := range p.batches {
		filter, files, selected := godogFilter(b.selection, p.cat)
		if selected == 0 || ctx.Err() != nil {
			continue
		}
		suite := godog.TestSuite{
			Name: "mediaspec",
			ScenarioInitializer: func(sc *godog.ScenarioContext) {
				rec.register(sc, func(sc *godog.ScenarioContext, exchanged func(steps.Exchange)) {
					c := stepsConfig
					c.Exchanged = exchanged
					steps.Register(sc, c)
				})
			},
			Options: &godog.Options{
				// The reports are written from the recorded results: godog's
				// own goes nowhere (console.go says why).
				Format:         "progress",
				Output:         io.Discard,
				NoColors:       true,
				Tags:           filter,
				Concurrency:    b.concurrency,
				Strict:         true,
				FS:             p.cfg.Features,
				Paths:          files,
				DefaultContext: ctx,
			},
		}
		status = max(status, suite.Run())
		left = append(left, traces.TakeAway()...)
	}
	return status, left
}

// end judges the run (godog refused it, or it checked nothing) and writes
// its reports; a run in which no scenario ran writes none.
func (p *runPlan) end(ctx context.Context, res Result, status int, reports reportFiles, onOutput console) error {
	var errs []error
	switch {
	case status == 2: // godog's "option error": it printed why on stderr
		errs = append(errs, &ConfigError{"the features could not be run (bad tags, format or feature file?)"})
	case ctx.Err() != nil:
	case len(res.Scenarios) == 0:
		errs = append(errs, &ConfigError{fmt.Sprintf("the tags %q select no scenario", p.cfg.Tags)})
	case res.Passed+res.Failed == 0:
		errs = append(errs, &ConfigError{"every selected scenario was skipped, so nothing was checked: " + skipReasons(res)})
	}
	if len(res.Scenarios) == 0 {
		// No scenario ran: an empty report would read as a pass.
		errs = append(errs, reports.discard())
	} else {
		if onOutput != nil {
			errs = append(errs, onOutput.close(res))
		}
		errs = append(errs, reports.write(res))
	}
	errs = append(errs, ctx.Err())
	return errors.Join(errs...)
}

// batch is a part of the run: the scenarios selection selects, run
// concurrency at a time.
type batch struct {
	selection   *TagExpr
	concurrency int
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

// selectedScenarios lists the scenarios the selection runs, in the order
// of the features.
func selectedScenarios(c *catalog, selection *TagExpr) []*scenarioInfo {
	var list []*scenarioInfo
	for _, f := range c.features {
		for _, s := range f.scenarios {
			if selection.Match(s.tags) {
				list = append(list, s)
			}
		}
	}
	return list
}

func newConsole(name string, w io.Writer, colors, summary bool, order []*scenarioInfo) console {
	if name == "pretty" {
		return newPretty(w, colors, summary, order)
	}
	return &progress{w: w, colors: colors, summary: summary}
}

// reportFile is a report's file, opened before the run.
type reportFile struct {
	format Format
	// file is where the report goes; it is emptied only when the report is
	// first written, so a run that writes nothing leaves it as it was.
	file *lazyFile
	// console writes a pretty or progress report as the run goes; nil for
	// the others, which are written from the results once the run is over.
	console console
	// created says the run made the file: it is removed if the run cannot
	// be made. A file that was there already is left as it was.
	created bool
}

type reportFiles []*reportFile

// openReports opens the file of every format that has one, without
// truncating it.
func openReports(formats []Format) (reportFiles, error) {
	var reports reportFiles
	for _, f := range formats {
		if f.File == "" {
			continue
		}
		r := &reportFile{format: f, created: true}
		file, err := os.OpenFile(f.File, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			r.created = false
			file, err = os.OpenFile(f.File, os.O_WRONLY, 0)
		}
		if err != nil {
			return nil, errors.Join(fmt.Errorf("report %s: %w", f.Name, err), reports.discard())
		}
		r.file = &lazyFile{f: file}
		reports = append(reports, r)
	}
	return reports, nil
}

// lazyFile empties its file when first written to.
type lazyFile struct {
	f       *os.File
	started bool
}

func (l *lazyFile) Write(p []byte) (int, error) {
	if !l.started {
		l.started = true
		if err := l.f.Truncate(0); err != nil {
			return 0, err
		}
	}
	return l.f.Write(p)
}

// write writes the reports and closes their files.
func (reports reportFiles) write(res Result) error {
	var errs []error
	for _, r := range reports {
		errs = append(errs, writeReport(r, res))
	}
	return errors.Join(errs...)
}

// discard closes the report files and removes those the run created: a run
// that could not be made leaves no report behind.
func (reports reportFiles) discard() error {
	var errs []error
	for _, r := range reports {
		errs = append(errs, r.file.f.Close())
		if r.created {
			if err := os.Remove(r.format.File); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("report %s: %w", r.format.File, err))
			}
		}
	}
	return errors.Join(errs...)
}

// writeReport ends one file report, over what the file held, and closes it.
func writeReport(r *reportFile, res Result) (err error) {
	defer func() {
		if cerr := r.file.f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("report %s: %w", r.format.File, cerr)
		}
	}()
	switch r.format.Name {
	case "pretty", "progress":
		err = r.console.close(res)
	case "junit":
		err = WriteJUnit(r.file, res)
	case "cucumber":
		err = WriteCucumber(r.file, res)
	case "html":
		err = WriteHTML(r.file, res)
	case "coverage":
		err = WriteCoverage(r.file, res)
	default:
		err = fmt.Errorf("unknown report format %q", r.format.Name)
	}
	if err != nil {
		return fmt.Errorf("report %s: %w", r.format.File, err)
	}
	return nil
}
