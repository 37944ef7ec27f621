package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mediaspec/mediaspec/load"
)

// soakConfig is what `perf soak` runs.
type soakConfig struct {
	mediaspec                             string
	workDir                               string
	warmup, listPhase, resettle, duration time.Duration
	sampleEvery                           time.Duration
	concurrency                           int
	uploadSize                            int64
	maxListGrowth                         int64 // bytes
	maxPerAsset                           int64 // bytes
	slack                                 int64 // bytes
	attackScale                           int
	maxResidual                           float64 // a fraction of the mean RSS
	uploadFiles                           int
}

func runSoak(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("perf soak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c soakConfig
	fs.StringVar(&c.mediaspec, "mediaspec", "", "the mediaspec binary (required)")
	fs.StringVar(&c.workDir, "workdir", "", "where to put the server's log (default: a temporary folder, removed at the end)")
	fs.DurationVar(&c.duration, "duration", 60*time.Second, "time of the mixed load")
	fs.DurationVar(&c.warmup, "warmup", 40*time.Second, "mixed load before anything is judged, to bring the server's heap to its working size and store the upload files")
	fs.DurationVar(&c.listPhase, "list-phase", 15*time.Second, "time of the list-only load, between the warm-up and the mixed load")
	fs.DurationVar(&c.resettle, "resettle", 15*time.Second, "mixed load after the list-only load, not judged: the heap climbs back to the mixed load's level, which the list-only load let it fall from, before the mixed load is judged")
	fs.DurationVar(&c.sampleEvery, "sample-every", 2*time.Second, "how often to read the server's RSS")
	fs.IntVar(&c.concurrency, "concurrency", 16, "workers")
	fs.Int64Var(&c.uploadSize, "upload-size", 100<<10, "bytes of each uploaded file")
	fs.Int64Var(&c.maxListGrowth, "max-list-growth", 8<<20, "most the RSS may grow over the list-only phase, in bytes")
	fs.Int64Var(&c.maxPerAsset, "max-bytes-per-asset", 4<<10, "most the RSS may grow per stored asset over the mixed phase, in bytes")
	fs.Int64Var(&c.slack, "slack", 8<<20, "RSS growth over the mixed phase allowed beyond --max-bytes-per-asset × assets (GC timing), in bytes")
	fs.IntVar(&c.attackScale, "attack-scale", 5, "hostile clients beside the load, in units of 84 connections (half-sent uploads, unread bodies, endless headers, unread answers); 0: none")
	fs.IntVar(&c.uploadFiles, "upload-files", 20000, "different files the uploads go round (stored during the warm-up; the mixed phase then stores nothing new, and its RSS must stay flat); 0: a new file every upload, the RSS judged per asset stored")
	fs.Float64Var(&c.maxResidual, "max-residual", 0.10, "most the mixed phase's RSS may drift (last quarter's median over the first's), or with new uploads lie off its fitted growth with the assets, as a fraction")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if c.mediaspec == "" {
		return fmt.Errorf("--mediaspec is required")
	}
	if c.workDir == "" {
		dir, err := os.MkdirTemp("", "mediaspec-soak-")
		if err != nil {
			return fmt.Errorf("work folder: %w", err)
		}
		defer os.RemoveAll(dir)
		c.workDir = dir
	}
	return soak(ctx, c, stdout, stderr)
}

// sample is one reading of the server's memory.
type sample struct {
	at      time.Duration // since the soak began
	rss     int64         // bytes
	created int64         // assets the phase has created so far
}

// phaseResult is what one phase of the soak measured.
type phaseResult struct {
	name    string
	res     load.Result
	samples []sample // the first taken before the load, the last after it
	created int64
}

func (p phaseResult) first() sample { return p.samples[0] }
func (p phaseResult) last() sample  { return p.samples[len(p.samples)-1] }
func (p phaseResult) peak() int64 {
	var m int64
	for _, s := range p.samples {
		m = max(m, s.rss)
	}
	return m
}

// minCreatedToFit is how many new assets a mixed phase must store for its
// RSS to be judged per asset; with fewer, it is judged flat.
const minCreatedToFit = 1000

// low is the lowest RSS sample.
func (p phaseResult) low() int64 {
	m := p.samples[0].rss
	for _, s := range p.samples {
		m = min(m, s.rss)
	}
	return m
}

// quarterMedians are the median RSS of the first and of the last quarter
// of the samples.
func (p phaseResult) quarterMedians() (first, last int64) {
	q := max(1, len(p.samples)/4)
	return medianOf(p.samples[:q]), medianOf(p.samples[len(p.samples)-q:])
}

func medianOf(ss []sample) int64 {
	v := make([]int64, len(ss))
	for i, s := range ss {
		v[i] = s.rss
	}
	slices.Sort(v)
	return v[len(v)/2]
}

// perAsset fits rss = a + b·created over the phase's samples by least
// squares and returns b, the RSS growth per stored asset. A fit over every
// sample is steadier than last minus first, which the moment of each
// garbage collection moves by megabytes. ok is false with too few samples or
// no assets.
func (p phaseResult) perAsset() (b float64, ok bool) {
	_, b, ok = p.fit()
	return b, ok
}

// fit is the least-squares line rss = a + b·created over the samples.
func (p phaseResult) fit() (a, b float64, ok bool) {
	n := float64(len(p.samples))
	if n < 3 || p.created == 0 {
		return 0, 0, false
	}
	var sx, sy, sxx, sxy float64
	for _, s := range p.samples {
		x, y := float64(s.created), float64(s.rss)
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return 0, 0, false
	}
	b = (n*sxy - sx*sy) / den
	return (sy - b*sx) / n, b, true
}

// residual is how far the sample farthest from the fitted line lies off
// it, as a fraction of the mean RSS: memory that is flat but for the
// assets stored stays close to the line.
func (p phaseResult) residual() (float64, bool) {
	a, b, ok := p.fit()
	if !ok {
		return 0, false
	}
	var worst, sum float64
	for _, s := range p.samples {
		worst = max(worst, math.Abs(float64(s.rss)-(a+b*float64(s.created))))
		sum += float64(s.rss)
	}
	return worst / (sum / float64(len(p.samples))), true
}

func soak(ctx context.Context, c soakConfig, stdout, stderr io.Writer) error {
	p, base, err := startMediaspec(ctx, c.mediaspec, c.workDir)
	if err != nil {
		return err
	}
	defer p.stop()
	fmt.Fprintf(stdout, "soak: mediaspec serve (pid %d) at %s, %d workers, %s files\n", p.pid(), base, c.concurrency, sizeText(c.uploadSize))
	fmt.Fprintf(stdout, "phases: %s mixed warm-up (not judged), %s list only, %s mixed again (not judged), %s mixed (4 lists : 1 upload); RSS every %s\n",
		c.warmup, c.listPhase, c.resettle, c.duration, c.sampleEvery)
	if c.uploadFiles > 0 {
		fmt.Fprintf(stdout, "uploads go round %d different files: stored in the warm-up, duplicates after\n", c.uploadFiles)
	}
	fmt.Fprintln(stdout)
	tag := fmt.Sprintf("%012x", time.Now().UnixNano()&(1<<48-1))
	assetsBefore, err := countAssets(ctx, base)
	if err != nil {
		return err
	}
	attackCtx, stopAttacks := context.WithCancel(ctx)
	defer stopAttacks()
	as := attacks(c.attackScale)
	if c.attackScale == 0 {
		as = nil
	}
	for _, a := range as {
		fmt.Fprintf(stdout, "attack: %d connections of %s, each held until the server lets it go\n", a.conns, a.name)
	}
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	attackResults := runAttacks(attackCtx, u.Host, as)

	loadStart := loadAverage()
	begin := time.Now()
	var phases []phaseResult
	for _, ph := range []struct {
		name     string
		scenario load.Scenario
		d        time.Duration
	}{
		{"warm-up", load.ScenarioMixed, c.warmup},
		{"list", load.ScenarioList, c.listPhase},
		{"resettle", load.ScenarioMixed, c.resettle},
		{"mixed", load.ScenarioMixed, c.duration},
	} {
		if ph.d <= 0 {
			continue
		}
		r, err := soakPhase(ctx, c, p, base, begin, ph.name, ph.scenario, ph.d, tag, stdout)
		if err != nil {
			return err
		}
		phases = append(phases, r)
	}
	stopAttacks()
	hwm, _ := readStatus(p.pid(), "VmHWM")
	assetsAfter, err := countAssets(ctx, base)
	if err != nil {
		return err
	}

	var created int64
	fmt.Fprintln(stdout)
	for _, ph := range phases {
		created += ph.created
		t := ph.res.Total
		fmt.Fprintf(stdout, "%-8s %7d req (%.0f/s, p99 %.1f ms, %d errors), %6d assets stored; RSS first %s, last %s, peak %s\n",
			ph.name, t.Requests, t.RequestsPerSecond, t.Latency.P99Ms, t.Errors, ph.created, mib(ph.first().rss), mib(ph.last().rss), mib(ph.peak()))
	}
	fmt.Fprintf(stdout, "assets of the default user: %d before, %d after; %d uploads answered 201\n", assetsBefore, assetsAfter, created)
	fmt.Fprintf(stdout, "peak RSS of the process (VmHWM): %s\n", mib(hwm))
	for _, st := range attackResults() {
		fmt.Fprintf(stdout, "attack %s: %d connections let go by the server, %d not accepted\n", st.name, st.rounds.Load(), st.refused.Load())
	}
	fmt.Fprintf(stdout, "load average: %s at the start, %s at the end (%d cores)\n", loadStart, loadAverage(), runtime.NumCPU())

	var failures []string
	if got := int64(assetsAfter - assetsBefore); got != created {
		failures = append(failures, fmt.Sprintf("the server holds %d new assets, but %d uploads were answered 201", got, created))
	}
	for _, ph := range phases {
		if ph.res.Total.Errors > 0 {
			failures = append(failures, fmt.Sprintf("%s: %d requests failed", ph.name, ph.res.Total.Errors))
		}
		growth := ph.last().rss - ph.first().rss
		switch ph.name {
		case "list":
			verdict := "flat"
			if growth > c.maxListGrowth {
				verdict = "GREW"
				failures = append(failures, fmt.Sprintf("list only: RSS grew %s, more than %s", mib(growth), mib(c.maxListGrowth)))
			}
			fmt.Fprintf(stdout, "list only: RSS %+.1f MiB (last − first) over %s with no new data; bound +%s: %s\n",
				float64(growth)/(1<<20), c.listPhase, mib(c.maxListGrowth), verdict)
		case "mixed":
			if ph.created < minCreatedToFit {
				// Nothing new stored: the RSS must not drift. The garbage
				// collector and the attackers' rounds move it up and down
				// by a fifth of a small heap, so the medians of the first
				// and the last quarter of the samples are compared.
				first, last := ph.quarterMedians()
				drift := float64(last-first) / float64(first)
				verdict := "flat"
				if drift > c.maxResidual {
					verdict = "GREW"
					failures = append(failures, fmt.Sprintf("mixed: the RSS median went from %s (first quarter) to %s (last quarter), %+.1f%%, more than %.0f%%", mib(first), mib(last), 100*drift, 100*c.maxResidual))
				}
				fmt.Fprintf(stdout, "mixed: %d new assets; RSS median %s in the first quarter, %s in the last (%+.1f%%), from %s to %s over %d samples; bound +%.0f%%: %s\n",
					ph.created, mib(first), mib(last), 100*drift, mib(ph.low()), mib(ph.peak()), len(ph.samples), 100*c.maxResidual, verdict)
				break
			}
			verdict := "bounded"
			per, ok := ph.perAsset()
			switch {
			case !ok:
				verdict = "NOT JUDGED"
				failures = append(failures, "mixed: too few samples or no assets to judge the growth per asset")
			case per > float64(c.maxPerAsset):
				verdict = "GREW"
				failures = append(failures, fmt.Sprintf("mixed: RSS grew %.0f B per stored asset, more than %d", per, c.maxPerAsset))
			}
			if r, ok := ph.residual(); ok && r > c.maxResidual {
				verdict = "NOT FLAT"
				failures = append(failures, fmt.Sprintf("mixed: an RSS sample lies %.1f%% off the growth with the assets, more than %.0f%%", 100*r, 100*c.maxResidual))
			}
			bound := c.slack + c.maxPerAsset*ph.created
			if growth > bound {
				verdict = "GREW"
				failures = append(failures, fmt.Sprintf("mixed: RSS grew %s for %d assets, more than %s", mib(growth), ph.created, mib(bound)))
			}
			r, _ := ph.residual()
			fmt.Fprintf(stdout, "mixed: RSS %+.1f MiB (last − first) for %d new assets; fitted over %d samples: %.0f B of RSS per asset, every sample within %.1f%% of the fit; bound %d B/asset, %s in all and %.0f%%: %s\n",
				float64(growth)/(1<<20), ph.created, len(ph.samples), per, 100*r, c.maxPerAsset, mib(bound), 100*c.maxResidual, verdict)
		}
	}
	if len(failures) > 0 {
		return fmt.Errorf("soak failed:\n  %s", strings.Join(failures, "\n  "))
	}
	fmt.Fprintln(stdout, "soak passed: memory stayed flat, growing only with the assets stored")
	return nil
}

// soakPhase runs one phase's load, reading the server's RSS at each
// progress report of the load (which also says how many assets it created).
func soakPhase(ctx context.Context, c soakConfig, p *process, base string, begin time.Time, name string, sc load.Scenario, d time.Duration, tag string, stdout io.Writer) (phaseResult, error) {
	out := phaseResult{name: name}
	var mu sync.Mutex
	var sampleErr error
	take := func(created int64, note string) {
		rss, err := readStatus(p.pid(), "VmRSS")
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			sampleErr = err
			return
		}
		s := sample{at: time.Since(begin), rss: rss, created: created}
		out.samples = append(out.samples, s)
		fmt.Fprintf(stdout, "%6.1fs %-8s RSS %s  assets +%d%s\n", s.at.Seconds(), name, mib(s.rss), created, note)
	}
	take(0, "")
	res, err := load.Run(ctx, load.Config{
		Target: base, Scenario: sc, Duration: d, Concurrency: c.concurrency, UploadSize: c.uploadSize,
		UploadFiles: c.uploadFiles, Tag: tag,
		ProgressEvery: c.sampleEvery,
		Progress:      func(pr load.Progress) { take(pr.Created, "") },
	})
	if err != nil {
		return out, fmt.Errorf("%s load: %w", name, err)
	}
	if up, ok := res.Operations["upload"]; ok {
		out.created = up.Statuses["201"]
	}
	take(out.created, " (end of phase)")
	if sampleErr != nil {
		return out, fmt.Errorf("read the server's memory: %w", sampleErr)
	}
	out.res = res
	return out, nil
}

// readStatus reads a memory field (VmRSS, VmHWM) of /proc/PID/status, in bytes.
func readStatus(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read memory of pid %d: %w", pid, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || k != field {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/status %s: %w", pid, field, err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", pid, field)
}

// countAssets counts the default user's assets with the mock's control API.
func countAssets(ctx context.Context, base string) (int, error) {
	u, err := url.Parse(base)
	if err != nil {
		return 0, fmt.Errorf("count assets: %w", err)
	}
	u.Path = "/__mock/assets"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, fmt.Errorf("count assets: %w", err)
	}
	req.Header.Set("x-api-key", load.DefaultAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("count assets: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("count assets: GET %s answered %s", u, resp.Status)
	}
	var assets []json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&assets); err != nil {
		return 0, fmt.Errorf("count assets: %w", err)
	}
	return len(assets), nil
}

// mib writes bytes in MiB.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
