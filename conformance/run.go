// Package conformance runs the harness's Gherkin features against a server
// of the media-asset API and reports what it found: Run drives godog with
// the steps of package steps, records every scenario's outcome itself, and
// writes the reports (godog's pretty and progress output on the console,
// JUnit XML and Cucumber JSON from the recorded results).
package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/mediaspec/mediaspec/features"
	"github.com/mediaspec/mediaspec/spec"
	"github.com/mediaspec/mediaspec/steps"
)

// ErrUnreachable is returned (wrapped) when the target does not answer.
var ErrUnreachable = errors.New("the target does not answer")

// ConfigError is returned when the run was asked for wrongly: a target that
// is not an http(s) URL, options godog refuses, or tags that select no
// scenario (a run that checks nothing must not pass).
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
	switch name {
	case "pretty", "progress":
	case "junit", "cucumber":
		if file == "" {
			return f, fmt.Errorf("format %s needs a file: %s:FILE", name, name)
		}
	default:
		return f, fmt.Errorf("unknown format %q: use pretty, progress, junit:FILE or cucumber:FILE", name)
	}
	return f, nil
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
	// ChecksumHeader names the duplicate-detection header (optional).
	ChecksumHeader string
	// Tags filters the scenarios, in godog's tag expression syntax, e.g.
	// "@robustness" or "~@control".
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
// report that cannot be written); failed scenarios are in the Result.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if err := checkTarget(cfg.Target); err != nil {
		return Result{}, err
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
	if err := probe(ctx, cfg.Client, cfg.Target); err != nil {
		return Result{}, err
	}
	control := hasControl(ctx, cfg.Client, cfg.Target)

	var console []string
	var files []Format
	for _, f := range cfg.Formats {
		switch f.Name {
		case "pretty", "progress":
			if f.File != "" {
				console = append(console, f.Name+":"+f.File)
			} else {
				console = append(console, f.Name)
			}
		default:
			files = append(files, f)
		}
	}
	if len(console) == 0 {
		console = []string{"progress"}
	}

	// The report files are made before the run, so a path that cannot be
	// written fails at once rather than after every scenario ran.
	reports := make([]*os.File, len(files))
	for i, f := range files {
		out, err := os.Create(f.File)
		if err != nil {
			for _, r := range reports[:i] {
				r.Close()
			}
			return Result{}, fmt.Errorf("report %s: %w", f.Name, err)
		}
		reports[i] = out
	}

	stepsConfig := steps.Config{
		BaseURL:        cfg.Target,
		APIKey:         cfg.APIKey,
		SecondAPIKey:   cfg.SecondAPIKey,
		ChecksumHeader: cfg.ChecksumHeader,
		Client:         cfg.Client,
		Validator:      validator,
		Control:        control,
	}
	rec := newRecorder(cat)
	suite := godog.TestSuite{
		Name: "mediaspec",
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			rec.register(sc)
			steps.Register(sc, stepsConfig)
		},
		Options: &godog.Options{
			Format:         strings.Join(console, ","),
			Output:         output,
			NoColors:       !cfg.Colors,
			Tags:           cfg.Tags,
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
	var errs []error
	for i, f := range files {
		errs = append(errs, writeReport(reports[i], f, res))
	}
	switch {
	case status == 2: // godog's "option error": it printed why on stderr
		errs = append(errs, &ConfigError{"the features could not be run (bad tags or format?)"})
	case len(res.Scenarios) == 0 && ctx.Err() == nil:
		errs = append(errs, &ConfigError{fmt.Sprintf("the tags %q select no scenario", cfg.Tags)})
	}
	errs = append(errs, ctx.Err())
	return res, errors.Join(errs...)
}

func checkTarget(target string) error {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &ConfigError{fmt.Sprintf("target %q is not an http(s) URL with the API's base path, like http://127.0.0.1:2283/api", target)}
	}
	return nil
}

// probe makes sure the target answers at all before any scenario runs, so
// that a wrong URL fails at once with one clear error.
func probe(ctx context.Context, client *http.Client, target string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, target+"/shared-links", nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(r)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrUnreachable, target, err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return nil
}

// hasControl says whether the target has the mock's control API, at the
// root of its host: GET /__mock/dataset answers a dataset there.
func hasControl(ctx context.Context, client *http.Client, target string) bool {
	u, err := url.Parse(target)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, u.Scheme+"://"+u.Host+"/__mock/dataset", nil)
	if err != nil {
		return false
	}
	resp, err := client.Do(r)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false
	}
	var d struct {
		Users []json.RawMessage `json:"users"`
	}
	return json.NewDecoder(resp.Body).Decode(&d) == nil && len(d.Users) > 0
}

// writeReport writes one file report and closes its file.
func writeReport(out *os.File, f Format, res Result) (err error) {
	defer func() {
		if cerr := out.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("report %s: %w", f.File, cerr)
		}
	}()
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
