package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mediaspec/mediaspec/load"
)

// errNoSuccess marks a load run in which no request succeeded: its report
// is printed, and the exit status says the target is not serving.
var errNoSuccess = errors.New("no request succeeded")

// runLoad is `mediaspec load`: it sends load to a server of the API for a
// while and prints what it measured, as text or JSON. A progress line is
// drawn on stderr when stderr is a terminal.
func runLoad(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("load")
	var (
		cfg      load.Config
		scenario string
		asJSON   bool
	)
	fs.StringVar(&cfg.Target, "target", "", "the API's base URL, base path included, e.g. http://127.0.0.1:2283/api (required)")
	durationFlagVar(fs, &cfg.Duration, "duration", load.DefaultDuration, "how long to send requests, e.g. 30s")
	fs.IntVar(&cfg.Concurrency, "concurrency", load.DefaultConcurrency, "workers, each with one request at a time")
	fs.StringVar(&scenario, "scenario", string(load.ScenarioList), "list (GET /shared-links), upload (POST /asset/upload, a new file each time), mixed (4 lists to 1 upload), album (GET /albums/{id} of an album of 500 assets it makes first), thumbnail or file (of the first asset of the caller's first link), or archive (POST /download/archive of --archive-files files of --upload-size it uploads first)")
	cfg.UploadSize = load.DefaultUploadSize
	fs.Var((*sizeValue)(&cfg.UploadSize), "upload-size", "size of each uploaded file: bytes, or with a unit (KiB, MiB, GiB, kB, MB, GB)")
	fs.IntVar(&cfg.ArchiveFiles, "archive-files", load.DefaultArchiveFiles, "files of the archive scenario's zip, each of --upload-size")
	fs.StringVar(&cfg.APIKey, "api-key", defaultAPIKey, "API key sent in the x-api-key header")
	durationFlagVar(fs, &cfg.Timeout, "timeout", load.DefaultTimeout, "limit of each request, e.g. 10s")
	fs.BoolVar(&cfg.AllowRemote, "allow-remote", false, "allow a target that is not on this machine (by default only localhost and loopback addresses)")
	fs.BoolVar(&asJSON, "json", false, "print the result as JSON")
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if cfg.Target == "" {
		return fmt.Errorf("%w: --target is required, e.g. --target http://127.0.0.1:2283/api", errUsage)
	}
	if cfg.Duration <= 0 || cfg.Concurrency <= 0 || cfg.Timeout <= 0 {
		return fmt.Errorf("%w: --duration, --concurrency and --timeout must be positive", errUsage)
	}
	if cfg.UploadSize <= 0 {
		return fmt.Errorf("%w: --upload-size must be a positive size, like 100KiB", errUsage)
	}
	cfg.Scenario = load.Scenario(scenario)
	if isTerminal(stderr) {
		cfg.Progress = func(p load.Progress) { fmt.Fprintf(stderr, "\r%s\x1b[K", p) }
	}

	res, err := load.Run(ctx, cfg)
	if cfg.Progress != nil {
		fmt.Fprint(stderr, "\r\x1b[K")
	}
	if err != nil && !res.Interrupted {
		if errors.Is(err, load.ErrConfig) {
			return fmt.Errorf("%w: %w", errUsage, err)
		}
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if werr := enc.Encode(res); werr != nil {
			return fmt.Errorf("write result: %w", werr)
		}
	} else if werr := res.WriteText(stdout); werr != nil {
		return fmt.Errorf("write result: %w", werr)
	}
	if err != nil {
		return err
	}
	if res.Total.OK == 0 {
		return fmt.Errorf("%w: %d requests to %s, %d errors", errNoSuccess, res.Total.Requests, res.Target, res.Total.Errors)
	}
	return nil
}
