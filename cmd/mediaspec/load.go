package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mediaspec/mediaspec/load"
)

// errNoSuccess marks a load run in which no request succeeded: its report
// is printed, and the exit status says the target is not serving.
var errNoSuccess = errors.New("no request succeeded")

// runLoad is `mediaspec load`: it sends load to a server of the API for a
// while and prints what it measured, as text or JSON. A progress line is
// drawn on stderr when stderr is a terminal.
func runLoad(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mediaspec load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		cfg        load.Config
		scenario   string
		uploadSize string
		asJSON     bool
	)
	fs.StringVar(&cfg.Target, "target", "", "the API's base URL, base path included, e.g. http://127.0.0.1:2283/api (required)")
	fs.DurationVar(&cfg.Duration, "duration", load.DefaultDuration, "how long to send requests")
	fs.IntVar(&cfg.Concurrency, "concurrency", load.DefaultConcurrency, "workers, each with one request at a time")
	fs.StringVar(&scenario, "scenario", string(load.ScenarioList), "list (GET /shared-links), upload (POST /asset/upload, a new file each time), mixed (4 lists to 1 upload) or album (GET /albums/{id} of an album of 500 assets it makes first)")
	fs.StringVar(&uploadSize, "upload-size", "100KiB", "size of each uploaded file: bytes, or with a unit (KiB, MiB, GiB, kB, MB, GB)")
	fs.StringVar(&cfg.APIKey, "api-key", defaultAPIKey, "API key sent in the x-api-key header")
	fs.DurationVar(&cfg.Timeout, "timeout", load.DefaultTimeout, "limit of each request")
	fs.BoolVar(&cfg.AllowRemote, "allow-remote", false, "allow a target that is not on this machine (by default only localhost and loopback addresses)")
	fs.BoolVar(&asJSON, "json", false, "print the result as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if cfg.Target == "" {
		return fmt.Errorf("%w: --target is required, e.g. --target http://127.0.0.1:2283/api", errUsage)
	}
	if cfg.Duration <= 0 || cfg.Concurrency <= 0 || cfg.Timeout <= 0 {
		return fmt.Errorf("%w: --duration, --concurrency and --timeout must be positive", errUsage)
	}
	size, err := parseSize(uploadSize)
	if err != nil {
		return fmt.Errorf("%w: --upload-size: %w", errUsage, err)
	}
	cfg.UploadSize = size
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

// parseSize reads a byte count: a number, optionally followed by a unit.
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		factor int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	num, factor := strings.TrimSpace(s), int64(1)
	for _, u := range units {
		if strings.HasSuffix(num, u.suffix) {
			num, factor = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.factor
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/factor {
		return 0, fmt.Errorf("%q is not a positive size such as 102400, 100KiB or 1GiB", s)
	}
	return n * factor, nil
}
