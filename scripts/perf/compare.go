package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/load"
	"github.com/mediaspec/mediaspec/openapi"
)

// compareConfig is what `perf compare` runs.
type compareConfig struct {
	mediaspec, prism, prismVersion string
	workDir                        string
	duration, warmup               time.Duration
	concurrency                    int
	uploadSize                     int64
	apiKey                         string
	jsonOut                        string
}

func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("perf compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c compareConfig
	fs.StringVar(&c.mediaspec, "mediaspec", "", "the mediaspec binary (required)")
	fs.StringVar(&c.prism, "prism", "", "the prism binary of @stoplight/prism-cli (required)")
	fs.StringVar(&c.prismVersion, "prism-version", "", "the version prism must report, if set")
	fs.StringVar(&c.workDir, "workdir", "", "where to put Prism's document and the servers' logs (default: a temporary folder, removed at the end)")
	fs.DurationVar(&c.duration, "duration", 10*time.Second, "measured time of each scenario on each server")
	fs.DurationVar(&c.warmup, "warmup", 2*time.Second, "unmeasured load before each measured run, the same for both servers (Prism's JIT needs it)")
	fs.IntVar(&c.concurrency, "concurrency", 16, "workers")
	fs.Int64Var(&c.uploadSize, "upload-size", 100<<10, "bytes of each uploaded file")
	fs.StringVar(&c.apiKey, "api-key", load.DefaultAPIKey, "x-api-key of the requests (Prism only checks that it is there)")
	fs.StringVar(&c.jsonOut, "json", "", "also write every result to this file as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if c.mediaspec == "" || c.prism == "" {
		return fmt.Errorf("--mediaspec and --prism are required")
	}
	if c.workDir == "" {
		dir, err := os.MkdirTemp("", "mediaspec-compare-")
		if err != nil {
			return fmt.Errorf("work folder: %w", err)
		}
		defer os.RemoveAll(dir)
		c.workDir = dir
	}
	return compare(ctx, c, stdout, stderr)
}

// measured is the results of one server.
type measured struct {
	name    string
	list    load.Result
	upload  load.Result
	version string
}

func compare(ctx context.Context, c compareConfig, stdout, stderr io.Writer) error {
	version, err := prismVersion(ctx, c.prism)
	if err != nil {
		return err
	}
	if c.prismVersion != "" && version != c.prismVersion {
		return fmt.Errorf("prism reports version %s, not the pinned %s", version, c.prismVersion)
	}
	doc, err := prismDocument(openapi.JSON())
	if err != nil {
		return err
	}
	docPath := filepath.Join(c.workDir, "openapi-prism.json")
	if err := os.WriteFile(docPath, doc, 0o644); err != nil {
		return fmt.Errorf("write prism's document: %w", err)
	}
	fmt.Fprintf(stdout, "Stoplight Prism %s (prism mock, static examples, log level error) against mediaspec serve --quiet.\n", version)
	fmt.Fprintf(stdout, "Prism ignores the document's server prefix (/api), so it serves a copy of openapi/openapi.yaml whose\n")
	fmt.Fprintf(stdout, "paths carry /api and whose server is /: both servers answer the same URLs.\n")
	fmt.Fprintf(stdout, "Load: %d workers on this machine, %s of each scenario after %s of warm-up, Prism first.\n", c.concurrency, c.duration, c.warmup)
	fmt.Fprintf(stdout, "Machine: %d cores, load average %s at the start.\n\n", runtime.NumCPU(), loadAverage())

	prism, err := measure(ctx, c, "Prism", stderr, func() (*process, string, error) { return startPrism(ctx, c.prism, docPath, c.workDir) })
	if err != nil {
		return err
	}
	prism.version = version
	ours, err := measure(ctx, c, "mediaspec", stderr, func() (*process, string, error) { return startMediaspec(ctx, c.mediaspec, c.workDir) })
	if err != nil {
		return err
	}
	if err := writeComparison(stdout, c, prism, ours); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Load average at the end: %s (other processes on the machine lower the figures of both servers).\n", loadAverage())
	if c.jsonOut != "" {
		b, err := json.MarshalIndent(map[string]any{
			"prismVersion": version,
			"prism":        map[string]load.Result{"list": prism.list, "upload": prism.upload},
			"mediaspec":    map[string]load.Result{"list": ours.list, "upload": ours.upload},
		}, "", "  ")
		if err != nil {
			return fmt.Errorf("encode results: %w", err)
		}
		if err := os.WriteFile(c.jsonOut, b, 0o644); err != nil {
			return fmt.Errorf("write results: %w", err)
		}
	}
	for _, m := range []measured{prism, ours} {
		for _, r := range []load.Result{m.list, m.upload} {
			if r.Total.Errors > 0 {
				return fmt.Errorf("%s answered %d of %d %s requests with an error", m.name, r.Total.Errors, r.Total.Requests, r.Scenario)
			}
		}
	}
	return nil
}

// measure starts a server, runs the list then the upload scenario on it,
// each after a warm-up, and stops it.
func measure(ctx context.Context, c compareConfig, name string, stderr io.Writer, start func() (*process, string, error)) (measured, error) {
	m := measured{name: name}
	p, base, err := start()
	if err != nil {
		return m, err
	}
	defer p.stop()
	for _, sc := range []load.Scenario{load.ScenarioList, load.ScenarioUpload} {
		cfg := load.Config{Target: base, APIKey: c.apiKey, Scenario: sc, Concurrency: c.concurrency, UploadSize: c.uploadSize}
		fmt.Fprintf(stderr, "%s: %s, %s warm-up, %s measured...\n", name, sc, c.warmup, c.duration)
		if c.warmup > 0 {
			cfg.Duration = c.warmup
			if _, err := load.Run(ctx, cfg); err != nil {
				return m, fmt.Errorf("%s %s warm-up: %w", name, sc, err)
			}
		}
		cfg.Duration = c.duration
		res, err := load.Run(ctx, cfg)
		if err != nil {
			return m, fmt.Errorf("%s %s: %w", name, sc, err)
		}
		select {
		case <-p.exited:
			return m, fmt.Errorf("%s exited during the %s load (%v); its output ends:\n%s", name, sc, p.waitErr, p.logTail())
		default:
		}
		if sc == load.ScenarioList {
			m.list = res
		} else {
			m.upload = res
		}
	}
	return m, nil
}

// prismVersion asks the prism binary for its version.
func prismVersion(ctx context.Context, bin string) (string, error) {
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", bin, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// prismDocument returns the OpenAPI document (JSON) for Prism: every path
// moved under /api, the server's base path, and the server made "/". Prism
// matches requests against the paths alone and ignores the servers' path
// prefix, so without this it would answer /shared-links and 404 the
// /api/shared-links that clients (and mediaspec) use.
func prismDocument(doc []byte) ([]byte, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(doc, &top); err != nil {
		return nil, fmt.Errorf("read the OpenAPI document: %w", err)
	}
	var paths map[string]json.RawMessage
	if err := json.Unmarshal(top["paths"], &paths); err != nil {
		return nil, fmt.Errorf("read the document's paths: %w", err)
	}
	var servers []struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal(top["servers"], &servers); err != nil || len(servers) != 1 {
		return nil, fmt.Errorf("the document should have one server, not %s", top["servers"])
	}
	prefix := strings.TrimSuffix(servers[0].URL, "/")
	moved := make(map[string]json.RawMessage, len(paths))
	for p, item := range paths {
		moved[prefix+p] = item
	}
	var err error
	if top["paths"], err = json.Marshal(moved); err != nil {
		return nil, fmt.Errorf("write the document's paths: %w", err)
	}
	top["servers"] = json.RawMessage(`[{"url":"/"}]`)
	out, err := json.MarshalIndent(top, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("write the document: %w", err)
	}
	return out, nil
}

// startPrism starts `prism mock` on the document on a free loopback port,
// logging only errors (as mediaspec runs --quiet), and returns it with its
// base URL once it answers.
func startPrism(ctx context.Context, bin, docPath, logDir string) (*process, string, error) {
	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	p, err := startProcess("prism", logDir, bin, "mock", "--host", "127.0.0.1", "--port", strconv.Itoa(port), "--verboseLevel", "error", docPath)
	if err != nil {
		return nil, "", err
	}
	base := fmt.Sprintf("http://127.0.0.1:%d/api", port)
	// Without credentials: any answer (401) says it is up.
	if err := p.waitReady(ctx, base+"/shared-links", 90*time.Second); err != nil {
		p.stop()
		return nil, "", err
	}
	return p, base, nil
}

// row is one line of the comparison: a measure of both servers.
type row struct {
	label        string
	prism, ours  float64
	format       func(float64) string
	noRatio      bool
	prismS, ourS string // text instead of numbers, when set
}

func writeComparison(w io.Writer, c compareConfig, prism, ours measured) error {
	num := func(digits int) func(float64) string {
		return func(v float64) string { return strconv.FormatFloat(v, 'f', digits, 64) }
	}
	sections := []struct {
		title      string
		p, o       load.Result
		bodyMBRows func(p, o load.Stats) []row
	}{
		{"list: GET /api/shared-links", prism.list, ours.list, func(p, o load.Stats) []row {
			return []row{
				{label: "response body, kB each", prism: perAnswer(p.BodyBytesReceived, p.Requests) / 1e3, ours: perAnswer(o.BodyBytesReceived, o.Requests) / 1e3, format: num(1)},
				{label: "JSON received, MB/s", prism: p.BodyMBPerSecondReceived, ours: o.BodyMBPerSecondReceived, format: num(2)},
			}
		}},
		{fmt.Sprintf("upload: POST /api/asset/upload, %s files, each new", sizeText(c.uploadSize)), prism.upload, ours.upload, func(p, o load.Stats) []row {
			return []row{{label: "file bytes sent, MB/s", prism: p.BodyMBPerSecondSent, ours: o.BodyMBPerSecondSent, format: num(1)}}
		}},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-28s %14s %14s %16s\n", "", "Prism "+prism.version, "mediaspec", "mediaspec/Prism")
	for _, s := range sections {
		p, o := s.p.Total, s.o.Total
		rows := []row{
			{label: "requests", prism: float64(p.Requests), ours: float64(o.Requests), format: num(0)},
			{label: "requests/s", prism: p.RequestsPerSecond, ours: o.RequestsPerSecond, format: num(1)},
			{label: "latency p50, ms", prism: p.Latency.P50Ms, ours: o.Latency.P50Ms, format: num(2)},
			{label: "latency p90, ms", prism: p.Latency.P90Ms, ours: o.Latency.P90Ms, format: num(2)},
			{label: "latency p99, ms", prism: p.Latency.P99Ms, ours: o.Latency.P99Ms, format: num(2)},
			{label: "latency max, ms", prism: p.Latency.MaxMs, ours: o.Latency.MaxMs, format: num(2)},
			{label: "errors (non-2xx, no answer)", prism: float64(p.Errors), ours: float64(o.Errors), format: num(0), noRatio: true},
			{label: "statuses", prismS: statusText(p), ourS: statusText(o), noRatio: true},
		}
		rows = append(rows, s.bodyMBRows(p, o)...)
		fmt.Fprintf(&b, "%s\n", s.title)
		for _, r := range rows {
			pText, oText := r.prismS, r.ourS
			if pText == "" && oText == "" {
				pText, oText = r.format(r.prism), r.format(r.ours)
			}
			ratio := ""
			if !r.noRatio {
				ratio = ratioText(r.ours, r.prism)
			}
			fmt.Fprintf(&b, "  %-26s %14s %14s %16s\n", r.label, pText, oText, ratio)
		}
	}
	b.WriteString("\nRatios are mediaspec ÷ Prism: above 1 is more requests or bytes per second, below 1 a shorter latency.\n")
	b.WriteString("mediaspec's listing carries the full generated dataset; Prism's is its static example of the schema.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func perAnswer(bytes, n int64) float64 {
	if n == 0 {
		return 0
	}
	return float64(bytes) / float64(n)
}

func ratioText(ours, prism float64) string {
	if prism == 0 {
		return "-"
	}
	r := ours / prism
	switch {
	case r >= 100:
		return fmt.Sprintf("%.0f×", r)
	case r >= 10:
		return fmt.Sprintf("%.1f×", r)
	}
	return fmt.Sprintf("%.2f×", r)
}

// statusText writes the statuses of s as "200:123 401:4".
func statusText(s load.Stats) string {
	var parts []string
	for _, code := range slices.Sorted(maps.Keys(s.Statuses)) {
		parts = append(parts, fmt.Sprintf("%s:%d", code, s.Statuses[code]))
	}
	for _, kind := range slices.Sorted(maps.Keys(s.TransportErrors)) {
		parts = append(parts, fmt.Sprintf("%s:%d", kind, s.TransportErrors[kind]))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}
