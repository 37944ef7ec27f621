package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/conformance"
	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/steps"
)

// formatList is the repeatable --format flag.
type formatList []conformance.Format

func (l *formatList) String() string {
	var names []string
	for _, f := range *l {
		names = append(names, strings.TrimSuffix(f.Name+":"+f.File, ":"))
	}
	return strings.Join(names, ",")
}

func (l *formatList) Set(v string) error {
	f, err := conformance.ParseFormat(v)
	if err != nil {
		return err
	}
	*l = append(*l, f)
	return nil
}

// runCheck is `mediaspec check`: the conformance features against a target,
// or against the built-in mock. Exit 0 all passed, 1 a scenario failed (or
// the target does not answer, or a report cannot be written), 2 bad usage
// (which includes a run that checks nothing: tags that select no scenario,
// or only scenarios that are skipped).
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("check")
	var formats formatList
	var (
		target         = fs.String("target", "", "base URL of the API to check, base path included (e.g. http://127.0.0.1:2283/api); default: a built-in mock started in-process")
		apiKey         = fs.String("api-key", defaultAPIKey, "API key of the user the scenarios act as")
		secondAPIKey   = fs.String("second-api-key", "", "API key of a second user, for the scenarios tagged @second-user")
		email          = fs.String("email", "", "email of the API key's user, for the scenarios that log in (default: asked of the target with the API key)")
		password       = fs.String("password", "", "password of the API key's user, for the scenarios that log in (the built-in mock's by default)")
		adminAPIKey    = fs.String("admin-api-key", "", "an admin's API key: the harness makes the users it needs with it (default: --api-key, when its user is an admin)")
		adminEmail     = fs.String("admin-email", "", "an admin's email, with --admin-password, instead of --admin-api-key")
		adminPassword  = fs.String("admin-password", "", "that admin's password")
		tags           = fs.String("tags", "", `run only the scenarios this tag expression selects, e.g. "@robustness" or "not @control and (@upload or @shared-links)" (godog's "~@new-user" and "@a,@b && @c" too)`)
		checksumHeader = fs.String("checksum-header", mockserver.DefaultChecksumHeader, "name of the header that announces a file's SHA-1")
		concurrency    = fs.Int("concurrency", 4, "scenarios run at once")
		maxUpload      = sizeFlag(fs, "max-upload-bytes", 0, "the upload body size the target declares it refuses beyond (413), e.g. 8MiB; the scenarios tagged @upload-limit judge it, and are skipped without it (the built-in mock's by default)")
		refShapes      = fs.Bool("reference-shapes", false, "start the built-in mock answering in the reference server's thin and quirky shapes (serve --reference-shapes); only without --target")
		settle         = durationFlag(fs, "settle", steps.DefaultSettle, "how long scenarios wait for what the target derives from a file after the upload (EXIF, thumbnails), e.g. 30s")
		libraryFolder  = fs.String("library-folder", "", "a folder the target reads at the path the harness writes it (the target on this machine, or a shared folder), for the scenarios tagged @library-folder, which scan files the harness puts there (in a folder of their own, removed after); the built-in mock's: a temporary folder")
		listSteps      = fs.Bool("list-steps", false, "list every step definition with the scenarios (of --tags) that use it, and those no scenario uses, then exit: nothing is checked")
	)
	fs.Var(&formats, "format", "report format, repeatable: pretty, progress (on stdout, or NAME:FILE), junit:FILE, cucumber:FILE, html:FILE, coverage:FILE (default: pretty on a terminal, else progress)")
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if _, err := conformance.ParseTags(*tags); err != nil {
		return fmt.Errorf("%w: --tags: %w", errUsage, err)
	}
	if *listSteps {
		return writeStepList(stdout, *tags)
	}
	if *settle <= 0 {
		return fmt.Errorf("%w: --settle must be a positive duration, like 30s", errUsage)
	}
	if *concurrency < 1 {
		return fmt.Errorf("%w: --concurrency must be at least 1", errUsage)
	}
	if *maxUpload < 0 {
		return fmt.Errorf("%w: --max-upload-bytes must be 0 or more, not %d", errUsage, *maxUpload)
	}
	if *refShapes && *target != "" {
		return fmt.Errorf("%w: --reference-shapes starts the built-in mock in the reference's shapes; it cannot change a --target", errUsage)
	}
	terminal := isTerminal(stdout)
	if !hasConsoleFormat(formats) && terminal {
		formats = append(formats, conformance.Format{Name: "pretty"})
	}

	base := *target
	if base == "" {
		url, stop, err := startMock(*apiKey, *checksumHeader, builtinUploadLimit, *refShapes)
		if err != nil {
			return err
		}
		defer stop()
		base = url
		if *libraryFolder == "" {
			dir, err := os.MkdirTemp("", "mediaspec-check-library-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			*libraryFolder = dir
		}
		if *password == "" {
			*password = fake.DefaultPassword
		}
		if *maxUpload == 0 {
			*maxUpload = builtinUploadLimit
		}
		fmt.Fprintf(stdout, "mediaspec check: no --target given: checking the built-in mock at %s\n", base)
	}
	res, err := conformance.Run(ctx, conformance.Config{
		Target:         base,
		APIKey:         *apiKey,
		SecondAPIKey:   *secondAPIKey,
		Email:          *email,
		Password:       *password,
		AdminAPIKey:    *adminAPIKey,
		AdminEmail:     *adminEmail,
		AdminPassword:  *adminPassword,
		Settle:         *settle,
		MaxUploadBytes: *maxUpload,
		LibraryFolder:  *libraryFolder,
		ChecksumHeader: *checksumHeader,
		Tags:           *tags,
		Formats:        formats,
		Output:         stdout,
		Colors:         terminal,
		Concurrency:    *concurrency,
	})
	return checkOutcome(stdout, res, err)
}

// checkOutcome is what a run's outcome makes of `mediaspec check`: its
// summary written, and the error that says why it did not pass, if it did
// not.
func checkOutcome(stdout io.Writer, res conformance.Result, err error) error {
	if len(res.Scenarios) > 0 {
		// Even a run that went wrong says what its scenarios did: which
		// were skipped and why, when all were.
		if werr := res.WriteSummary(stdout); werr != nil && err == nil {
			return werr
		}
	}
	if _, ok := errors.AsType[*conformance.ConfigError](err); ok {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if g := res.Gone; g != nil {
		return fmt.Errorf("the target stopped answering (%s) during %s: %d of %d scenarios failed, %d not run", g.Reason, g.During, res.Failed, len(res.Scenarios), res.NotRun)
	}
	if len(res.Traces) > 0 && res.Failed == 0 {
		return fmt.Errorf("the run left %d traces on the target", len(res.Traces))
	}
	if !res.OK() {
		return fmt.Errorf("%d of %d scenarios failed", res.Failed, len(res.Scenarios))
	}
	return nil
}

// writeStepList is `mediaspec check --list-steps`: every step definition
// with the scenarios that use it, read from the features; no target is
// asked anything.
func writeStepList(stdout io.Writer, tags string) error {
	list, err := conformance.ListSteps(nil, tags)
	if _, ok := errors.AsType[*conformance.ConfigError](err); ok {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if err != nil {
		return fmt.Errorf("check --list-steps: %w", err)
	}
	return list.Write(stdout)
}

func hasConsoleFormat(formats []conformance.Format) bool {
	for _, f := range formats {
		if (f.Name == "pretty" || f.Name == "progress") && f.File == "" {
			return true
		}
	}
	return false
}

// isTerminal says whether w is a terminal, where pretty output, colours and
// a progress line redrawn in place belong.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// builtinUploadLimit is the upload body size the built-in mock refuses
// beyond, so that the @upload-limit scenarios run against it.
const builtinUploadLimit = 8 << 20

// startMock starts the built-in mock, with the dataset `mediaspec serve`
// starts with and the checksum header the run uses, in the http.Server
// serve uses, on a free loopback port; stop shuts it down.
func startMock(apiKey, checksumHeader string, maxUpload int64, referenceShapes bool) (baseURL string, stop func(), err error) {
	df := datasetFlags{seed: defaultSeed, apiKey: apiKey, links: defaultLinks, users: defaultUsers}
	d, err := df.generate(time.Now())
	if err != nil {
		return "", nil, err
	}
	logger := slog.New(slog.DiscardHandler)
	media, err := os.MkdirTemp("", "mediaspec-check-media-")
	if err != nil {
		return "", nil, fmt.Errorf("starting the built-in mock: %w", err)
	}
	h, err := mockserver.New(mockserver.Config{Dataset: func() model.Dataset { return d }, ChecksumHeader: checksumHeader, Logger: logger, MediaDir: media, MediaDirTemporary: true, MaxUploadBytes: maxUpload, ReferenceShapes: referenceShapes})
	if err != nil {
		os.RemoveAll(media)
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.RemoveAll(media)
		return "", nil, fmt.Errorf("starting the built-in mock: %w", err)
	}
	srv := mockserver.HTTPServer(h, logger)
	go func() { _ = srv.Serve(mockserver.Listener(ln, 0)) }()
	// The run is over when stop is called: no request is worth waiting for.
	stop = func() {
		_ = srv.Close()
		_ = h.Close() // the picture workers, before their folder goes
		_ = os.RemoveAll(media)
	}
	return "http://" + ln.Addr().String() + "/api", stop, nil
}
