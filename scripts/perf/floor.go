package main

import (
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mediaspec/mediaspec/load"
)

// floorConfig is what `perf floor` runs.
type floorConfig struct {
	mediaspec        string
	workDir, tmpfs   string
	duration, warmup time.Duration
	rounds           int
	uploadSize       int64
	bigUpload        int64
	links            int
	jsonOut          string
	only             map[string]bool // the groups of rows to measure; nil: all
}

// floorGroups are the groups of rows of the table, as --only names them.
var floorGroups = []string{"listing", "log", "uploads", "keep", "memory", "scale"}

// wants says whether the group's rows are measured.
func (c floorConfig) wants(group string) bool { return c.only == nil || c.only[group] }

func runFloor(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("perf floor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c floorConfig
	fs.StringVar(&c.mediaspec, "mediaspec", "", "the mediaspec binary (required)")
	fs.StringVar(&c.workDir, "workdir", "", "where the servers' logs and kept uploads go, on disk (default: a temporary folder, removed at the end)")
	fs.StringVar(&c.tmpfs, "tmpfs", "/dev/shm", "a tmpfs folder for the kept uploads measured in memory (\"\": skip that row)")
	fs.DurationVar(&c.duration, "duration", 3*time.Second, "measured time of each run")
	fs.DurationVar(&c.warmup, "warmup", time.Second, "unmeasured load before each server's first run")
	fs.IntVar(&c.rounds, "rounds", 3, "runs of each server, alternating; the medians are quoted")
	fs.Int64Var(&c.uploadSize, "upload-size", 100<<10, "bytes of each uploaded file")
	fs.Int64Var(&c.bigUpload, "big-upload", 1<<30, "bytes of the one large upload whose peak memory is measured (0: skip)")
	fs.IntVar(&c.links, "links", 20000, "--links of the large dataset whose start and first listing are measured (0: skip)")
	fs.StringVar(&c.jsonOut, "json", "", "also write every figure to this file as JSON")
	only := fs.String("only", "", "measure only these groups of rows, a comma-separated list of "+strings.Join(floorGroups, ", ")+" (default: all)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *only != "" {
		c.only = map[string]bool{}
		for g := range strings.SplitSeq(*only, ",") {
			if !slices.Contains(floorGroups, g) {
				return fmt.Errorf("--only: no group %q; the groups are %s", g, strings.Join(floorGroups, ", "))
			}
			c.only[g] = true
		}
	}
	if c.mediaspec == "" {
		return fmt.Errorf("--mediaspec is required")
	}
	if c.rounds < 1 {
		return fmt.Errorf("--rounds must be 1 or more")
	}
	if c.workDir == "" {
		dir, err := os.MkdirTemp("", "mediaspec-floor-")
		if err != nil {
			return fmt.Errorf("work folder: %w", err)
		}
		defer os.RemoveAll(dir)
		c.workDir = dir
	}
	return floor(ctx, c, stdout, stderr)
}

// floorRow is one line of the table: a figure of the mock, and what it
// is measured against.
type floorRow struct {
	What    string  `json:"what"`
	Mock    float64 `json:"mock"`
	Against float64 `json:"against,omitempty"`
	Unit    string  `json:"unit"`
	// Ratio is Mock/Against where the row compares; Target is what the
	// row must reach (a ratio at least, or a figure at most).
	Ratio  float64 `json:"ratio,omitempty"`
	Target string  `json:"target"`
	Met    bool    `json:"met"`
	Note   string  `json:"note,omitempty"`
}

func floor(ctx context.Context, c floorConfig, stdout, stderr io.Writer) error {
	fmt.Fprintf(stdout, "mediaspec against the floor: a bare net/http server that writes the mock's own listing bytes, and one\n")
	fmt.Fprintf(stdout, "that only reads and SHA-1-hashes an upload's body. %d runs of %s of each, alternating, after %s of warm-up;\n", c.rounds, c.duration, c.warmup)
	fmt.Fprintf(stdout, "medians. Machine: %d cores, load average %s at the start.\n\n", runtime.NumCPU(), loadAverage())
	var rows []floorRow
	add := func(r floorRow) {
		rows = append(rows, r)
		fmt.Fprintf(stderr, "floor: %s: %s\n", r.What, r.short())
	}

	// The listing the bare server writes is the mock's own.
	quiet := []string{"--seed", "42", "--media-dir", "off"}
	mock, base, err := startMediaspec(ctx, c.mediaspec, c.workDir, quiet...)
	if err != nil {
		return err
	}
	defer mock.stop()
	listing, err := fetch(ctx, base+"/shared-links")
	if err != nil {
		return err
	}
	listingPath := filepath.Join(c.workDir, "listing.json")
	if err := os.WriteFile(listingPath, listing, 0o644); err != nil {
		return err
	}
	bare, bareBase, err := startBare(ctx, c.workDir, listingPath)
	if err != nil {
		return err
	}
	defer bare.stop()
	logged, loggedBase, err := startLogged(ctx, c.mediaspec, c.workDir)
	if err != nil {
		return err
	}
	defer logged.stop()

	for _, run := range []struct {
		group       string
		what        string
		scenario    load.Scenario
		concurrency int
		mock        string
		target      float64
	}{
		{"listing", fmt.Sprintf("GET /api/shared-links (seed 42, %s), c=16", humanSize(int64(len(listing)))), load.ScenarioList, 16, base, 0.95},
		{"listing", "GET /api/shared-links, c=64", load.ScenarioList, 64, base, 0.95},
		{"log", "GET /api/shared-links, c=16, a log line a request", load.ScenarioList, 16, loggedBase, 0.95},
		{"uploads", fmt.Sprintf("%s uploads, --media-dir off, c=16", humanSize(c.uploadSize)), load.ScenarioUpload, 16, base, 0.90},
	} {
		if !c.wants(run.group) {
			continue
		}
		ours, floor, err := alternate(ctx, c, run.scenario, run.concurrency, run.mock, bareBase, stderr)
		if err != nil {
			return err
		}
		r := floorRow{What: run.what, Mock: ours, Against: floor, Unit: "req/s", Ratio: ours / floor, Target: fmt.Sprintf("≥ %.2f of the bare server", run.target)}
		r.Met = r.Ratio >= run.target
		add(r)
	}
	// What a log line costs: the logged mock against the quiet one.
	if c.wants("log") {
		loggedRate, quietRate, err := alternate(ctx, c, load.ScenarioList, 16, loggedBase, base, stderr)
		if err != nil {
			return err
		}
		r := floorRow{What: "the request log's cost: logged against quiet, c=16", Mock: loggedRate, Against: quietRate, Unit: "req/s", Ratio: loggedRate / quietRate, Target: "≥ 0.90 of the quiet mock"}
		r.Met = r.Ratio >= 0.90
		add(r)
	}
	logged.stop()
	bare.stop()

	// Keeping the bytes: on disk, and on tmpfs, against keeping none.
	for _, keep := range []struct{ what, dir string }{{"on disk", c.workDir}, {"on tmpfs", c.tmpfs}} {
		if keep.dir == "" || !c.wants("keep") {
			continue
		}
		if info, err := os.Stat(keep.dir); err != nil || !info.IsDir() {
			fmt.Fprintf(stderr, "floor: no folder %s: kept uploads %s not measured\n", keep.dir, keep.what)
			continue
		}
		media, err := os.MkdirTemp(keep.dir, "mediaspec-floor-media-")
		if err != nil {
			return err
		}
		kept, keptBase, err := startMediaspec(ctx, c.mediaspec, c.workDir, "--seed", "42", "--media-dir", media)
		if err != nil {
			os.RemoveAll(media)
			return err
		}
		keptRate, offRate, err := alternate(ctx, c, load.ScenarioUpload, 16, keptBase, base, stderr)
		kept.stop()
		os.RemoveAll(media)
		if err != nil {
			return err
		}
		add(floorRow{
			What: fmt.Sprintf("%s uploads kept %s, against --media-dir off, c=16", humanSize(c.uploadSize), keep.what),
			Mock: keptRate, Against: offRate, Unit: "req/s", Ratio: keptRate / offRate, Target: "stated", Met: true,
		})
	}
	mock.stop()

	// Memory: idle, and a large upload's peak.
	if c.wants("memory") {
		idle, err := idleRSS(ctx, c)
		if err != nil {
			return err
		}
		add(floorRow{What: "idle RSS after start (seed 42)", Mock: mibOf(idle), Unit: "MiB", Target: "< 32 MiB", Met: idle < 32<<20})
	}
	if c.bigUpload > 0 && c.wants("memory") {
		peak, rate, err := bigUploadPeak(ctx, c)
		if err != nil {
			return err
		}
		add(floorRow{What: fmt.Sprintf("one %s upload, --media-dir off: peak RSS", humanSize(c.bigUpload)), Mock: mibOf(peak), Unit: "MiB", Target: "< 40 MiB", Met: peak < 40<<20,
			Note: fmt.Sprintf("%.0f MB/s", rate/1e6)})
	}
	if c.links > 0 && c.wants("scale") {
		sc, err := scale(ctx, c)
		if err != nil {
			return err
		}
		for _, r := range sc {
			add(r)
		}
	}

	writeFloor(stdout, rows)
	fmt.Fprintf(stdout, "\nLoad average at the end: %s (other processes on the machine lower both sides of a ratio alike, not its figures).\n", loadAverage())
	if c.jsonOut != "" {
		b, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(c.jsonOut, b, 0o644); err != nil {
			return fmt.Errorf("write results: %w", err)
		}
	}
	return nil
}

func (r floorRow) short() string {
	if r.Against != 0 {
		return fmt.Sprintf("%.0f against %.0f %s: %.2f", r.Mock, r.Against, r.Unit, r.Ratio)
	}
	return fmt.Sprintf("%.1f %s", r.Mock, r.Unit)
}

// writeFloor prints the table.
func writeFloor(w io.Writer, rows []floorRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "what\tmediaspec\tagainst\tratio\ttarget\tmet")
	for _, r := range rows {
		against, ratio := "", ""
		if r.Against != 0 {
			against = fmt.Sprintf("%.0f %s", r.Against, r.Unit)
			ratio = fmt.Sprintf("%.2f", r.Ratio)
		}
		mock := fmt.Sprintf("%.0f %s", r.Mock, r.Unit)
		if r.Unit != "req/s" {
			mock = fmt.Sprintf("%.1f %s", r.Mock, r.Unit)
		}
		if r.Note != "" {
			mock += " (" + r.Note + ")"
		}
		met := "yes"
		if !r.Met {
			met = "NO"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.What, mock, against, ratio, r.Target, met)
	}
	tw.Flush()
}

// alternate runs the scenario on a and on b in turn, rounds times each,
// after a warm-up of each, and returns the median rates.
func alternate(ctx context.Context, c floorConfig, sc load.Scenario, concurrency int, a, b string, stderr io.Writer) (float64, float64, error) {
	run := func(target string, d time.Duration) (float64, error) {
		res, err := load.Run(ctx, load.Config{Target: target, Scenario: sc, Concurrency: concurrency, UploadSize: c.uploadSize, Duration: d})
		if err != nil {
			return 0, fmt.Errorf("%s %s: %w", target, sc, err)
		}
		if res.Total.Errors > 0 {
			return 0, fmt.Errorf("%s %s: %d of %d requests failed", target, sc, res.Total.Errors, res.Total.Requests)
		}
		return res.Total.RequestsPerSecond, nil
	}
	for _, t := range []string{a, b} {
		if _, err := run(t, c.warmup); err != nil {
			return 0, 0, err
		}
	}
	var as, bs []float64
	for range c.rounds {
		ra, err := run(a, c.duration)
		if err != nil {
			return 0, 0, err
		}
		rb, err := run(b, c.duration)
		if err != nil {
			return 0, 0, err
		}
		as, bs = append(as, ra), append(bs, rb)
	}
	fmt.Fprintf(stderr, "floor: %s c=%d: %v against %v\n", sc, concurrency, rounded(as), rounded(bs))
	return median(as), median(bs), nil
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

func rounded(xs []float64) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x + 0.5)
	}
	return out
}

// startLogged starts the mock as startMediaspec does, but with its request
// log on (text, into its log file).
func startLogged(ctx context.Context, bin, logDir string) (*process, string, error) {
	return startServe(ctx, "mediaspec-logged", bin, logDir, "--seed", "42", "--media-dir", "off")
}

// startBare starts this program's bare server on a free port.
func startBare(ctx context.Context, logDir, listing string) (*process, string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, "", err
	}
	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	p, err := startProcess("bare", logDir, self, "bare", "--addr", addr, "--listing", listing)
	if err != nil {
		return nil, "", err
	}
	base := "http://" + addr + "/api"
	if err := p.waitReady(ctx, base+"/openapi.json", 30*time.Second); err != nil {
		p.stop()
		return nil, "", err
	}
	return p, base, nil
}

// runBare is `perf bare`: the floor. It answers GET /api/shared-links with
// the listing file's bytes and POST /api/asset/upload by reading and
// hashing the body, with no parsing and no state; and GET
// /api/openapi.json, to say it is up.
func runBare(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("perf bare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "where to listen")
	listingPath := fs.String("listing", "", "the bytes of GET /api/shared-links")
	if err := fs.Parse(args); err != nil {
		return err
	}
	listing, err := os.ReadFile(*listingPath)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/shared-links", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write(listing)
	})
	mux.HandleFunc("POST /api/asset/upload", func(w http.ResponseWriter, r *http.Request) {
		h := sha1.New()
		if _, err := io.Copy(h, r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var id [16]byte
		_, _ = rand.Read(id[:])
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"id":%q,"duplicate":false,"sha1":%q}`, hex.EncodeToString(id[:]), hex.EncodeToString(h.Sum(nil)))
	})
	mux.HandleFunc("GET /api/openapi.json", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "{}") })
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { <-ctx.Done(); _ = srv.Close() }()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		return err
	}
	return nil
}

// idleRSS starts the mock (seed 42) and reads its RSS once it has settled.
func idleRSS(ctx context.Context, c floorConfig) (int64, error) {
	p, _, err := startMediaspec(ctx, c.mediaspec, c.workDir, "--seed", "42")
	if err != nil {
		return 0, err
	}
	defer p.stop()
	time.Sleep(time.Second)
	return readStatus(p.pid(), "VmRSS")
}

// bigUploadPeak sends one large upload to a fresh mock that keeps no
// files, and returns the mock's peak RSS and the upload's bytes a second.
func bigUploadPeak(ctx context.Context, c floorConfig) (int64, float64, error) {
	p, base, err := startMediaspec(ctx, c.mediaspec, c.workDir, "--seed", "42", "--media-dir", "off")
	if err != nil {
		return 0, 0, err
	}
	defer p.stop()
	// The peak of the upload, not of the start.
	if err := resetPeak(p.pid()); err != nil {
		return 0, 0, err
	}
	res, err := load.Run(ctx, load.Config{Target: base, Scenario: load.ScenarioUpload, Concurrency: 1, UploadSize: c.bigUpload, Duration: time.Millisecond, Timeout: 10 * time.Minute})
	if err != nil {
		return 0, 0, err
	}
	if res.Total.Requests != 1 || res.Total.Errors != 0 {
		return 0, 0, fmt.Errorf("the large upload: %d requests, %d failed", res.Total.Requests, res.Total.Errors)
	}
	peak, err := readStatus(p.pid(), "VmHWM")
	return peak, float64(res.BytesSent) / res.ElapsedSeconds, err
}

// scale starts the mock with c.links links and measures when it answers,
// its memory a link, and what its first listing costs in memory against
// the bytes it writes.
func scale(ctx context.Context, c floorConfig) ([]floorRow, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	args := []string{"serve", "--quiet", "--addr", addr, "--seed", "42", "--links", fmt.Sprint(c.links), "--media-dir", "off"}
	base := "http://" + addr + "/api"
	var rows []floorRow
	start := time.Now()
	p, err := startProcess("mediaspec-scale", c.workDir, append([]string{c.mediaspec}, args...)...)
	if err != nil {
		return nil, err
	}
	if err := p.waitReady(ctx, base+"/server-info/ping", 60*time.Second); err != nil {
		// Refused: at once, saying what fits and the flag that raises the
		// bound? Then measured with the bound raised.
		refused := time.Since(start)
		said := p.logTail()
		p.stop()
		ok := strings.Contains(said, "fits") && strings.Contains(said, "--max-listed-assets")
		rows = append(rows, floorRow{What: fmt.Sprintf("serve --links %d: refused", c.links), Mock: refused.Seconds(), Unit: "s",
			Target: "at once, naming what fits and the flag", Met: ok && refused < 3*time.Second, Note: "then with --max-listed-assets raised"})
		start = time.Now()
		if p, err = startProcess("mediaspec-scale", c.workDir, append([]string{c.mediaspec}, append(args, "--max-listed-assets", "1000000")...)...); err != nil {
			return nil, err
		}
		if err := p.waitReady(ctx, base+"/server-info/ping", 60*time.Second); err != nil {
			p.stop()
			return nil, err
		}
	}
	defer p.stop()
	ready := time.Since(start)
	time.Sleep(500 * time.Millisecond)
	rss, err := readStatus(p.pid(), "VmRSS")
	if err != nil {
		return nil, err
	}
	// The peak of the listing, from where the server stands before it.
	if err := resetPeak(p.pid()); err != nil {
		return nil, err
	}
	before, err := readStatus(p.pid(), "VmHWM")
	if err != nil {
		return nil, err
	}
	body, err := fetch(ctx, base+"/shared-links")
	if err != nil {
		return nil, err
	}
	after, err := readStatus(p.pid(), "VmHWM")
	if err != nil {
		return nil, err
	}
	perLink := float64(rss) / float64(c.links) / 1e3
	growth := after - before
	return append(rows,
		floorRow{What: fmt.Sprintf("serve --links %d: ready", c.links), Mock: ready.Seconds(), Unit: "s", Target: "< 3 s", Met: ready < 3*time.Second},
		floorRow{What: fmt.Sprintf("serve --links %d: RSS a link", c.links), Mock: perLink, Unit: "KB", Target: "≤ 40 KB", Met: perLink <= 40, Note: fmt.Sprintf("%.0f MiB in all", mibOf(rss))},
		floorRow{What: "its first listing: peak memory growth against the bytes written", Mock: mibOf(growth), Against: mibOf(int64(len(body))), Unit: "MiB", Ratio: float64(growth) / float64(len(body)), Target: "≤ 2 × the bytes", Met: growth <= 2*int64(len(body))},
	), nil
}

// resetPeak sets the process's peak RSS (VmHWM) back to its RSS now, as
// Linux allows (clear_refs 5), so that a peak read after is of what
// followed.
func resetPeak(pid int) error {
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
		return fmt.Errorf("reset the peak memory of pid %d: %w", pid, err)
	}
	return nil
}

// fetch GETs url with the default API key and returns the body.
func fetch(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("x-api-key", load.DefaultAPIKey)
	resp, err := (&http.Client{Timeout: 2 * time.Minute}).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return b, nil
}

func mibOf(n int64) float64 { return float64(n) / (1 << 20) }

func humanSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", mibOf(n))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}
