package load

import (
	"fmt"
	"io"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Result is the report of a run. Byte rates are in MB/s of 10^6 bytes.
type Result struct {
	Target      string   `json:"target"`
	Scenario    Scenario `json:"scenario"`
	Concurrency int      `json:"concurrency"`
	// UploadSize is the size of each uploaded file (not of the whole
	// multipart body), for scenarios that upload.
	UploadSize int64 `json:"uploadSize,omitempty"`
	// DurationSeconds is the time asked for; ElapsedSeconds the time the
	// run took, the last requests included. Rates are over ElapsedSeconds.
	DurationSeconds float64 `json:"durationSeconds"`
	ElapsedSeconds  float64 `json:"elapsedSeconds"`
	// Interrupted is set when the run was stopped before its time.
	Interrupted bool `json:"interrupted,omitempty"`

	// Total is over every request; Operations splits it by operation
	// ("list", "upload"), listing those that were sent.
	Total      Stats            `json:"total"`
	Operations map[string]Stats `json:"operations"`

	// BytesSent and BytesReceived are on the wire: HTTP headers, bodies and
	// framing, as the connections counted them.
	BytesSent           int64   `json:"bytesSent"`
	BytesReceived       int64   `json:"bytesReceived"`
	MBPerSecondSent     float64 `json:"mbPerSecondSent"`
	MBPerSecondReceived float64 `json:"mbPerSecondReceived"`
}

// Stats is what was measured of a set of requests.
type Stats struct {
	// Requests counts requests that got an answer or failed, not those cut
	// short by an interruption.
	Requests          int64   `json:"requests"`
	RequestsPerSecond float64 `json:"requestsPerSecond"`
	// OK counts 2xx answers; Errors every other answer and every transport error.
	OK     int64 `json:"ok"`
	Errors int64 `json:"errors"`
	// Statuses counts answers by status code, successes included.
	Statuses map[string]int64 `json:"statuses"`
	// ErrorsByStatus counts the non-2xx answers by status code.
	ErrorsByStatus map[string]int64 `json:"errorsByStatus,omitempty"`
	// ErrorSamples holds the start of the first body of each error status.
	ErrorSamples map[string]string `json:"errorSamples,omitempty"`
	// TransportErrors counts requests that got no answer, by kind
	// ("timeout", "connection refused", ...); FirstTransportError is the
	// first one's message.
	TransportErrors     map[string]int64 `json:"transportErrors,omitempty"`
	FirstTransportError string           `json:"firstTransportError,omitempty"`
	// Latency is over the requests that got an answer, whatever its status.
	Latency Latency `json:"latency"`
	// BodyBytesSent and BodyBytesReceived count request and response bodies.
	BodyBytesSent           int64   `json:"bodyBytesSent"`
	BodyBytesReceived       int64   `json:"bodyBytesReceived"`
	BodyMBPerSecondSent     float64 `json:"bodyMBPerSecondSent"`
	BodyMBPerSecondReceived float64 `json:"bodyMBPerSecondReceived"`
}

// Latency summarizes a latency histogram, in milliseconds.
type Latency struct {
	MeanMs float64 `json:"meanMs"`
	P50Ms  float64 `json:"p50Ms"`
	P90Ms  float64 `json:"p90Ms"`
	P99Ms  float64 `json:"p99Ms"`
	MaxMs  float64 `json:"maxMs"`
	// Histogram counts the latencies in power-of-two buckets of
	// milliseconds: each bucket holds those up to LeMs and above the
	// previous bucket's.
	Histogram []Bucket `json:"histogram,omitempty"`
}

// Bucket is one bar of a latency histogram.
type Bucket struct {
	LeMs  float64 `json:"leMs"`
	Count int64   `json:"count"`
}

// summarize merges the workers' measures into a Result.
func summarize(cfg Config, target *url.URL, elapsed time.Duration, workers []*worker, wire *wireCounter) Result {
	secs := elapsed.Seconds()
	res := Result{
		Target:              target.String(),
		Scenario:            cfg.Scenario,
		Concurrency:         cfg.Concurrency,
		DurationSeconds:     cfg.Duration.Seconds(),
		ElapsedSeconds:      round(secs, 3),
		Operations:          map[string]Stats{},
		BytesSent:           wire.sent.Load(),
		BytesReceived:       wire.received.Load(),
		MBPerSecondSent:     rate(wire.sent.Load(), secs),
		MBPerSecondReceived: rate(wire.received.Load(), secs),
	}
	if cfg.Scenario == ScenarioUpload || cfg.Scenario == ScenarioMixed {
		res.UploadSize = cfg.UploadSize
	}
	total := newOpStats()
	for op := range numOps {
		merged := newOpStats()
		for _, w := range workers {
			merged.add(w.ops[op])
		}
		if merged.count() == 0 {
			continue
		}
		res.Operations[op.String()] = merged.stats(secs)
		total.add(merged)
	}
	res.Total = total.stats(secs)
	return res
}

// add adds o's measures to s.
func (s *opStats) add(o *opStats) {
	s.hist.merge(o.hist)
	for k, v := range o.statuses {
		s.statuses[k] += v
	}
	for k, v := range o.transport {
		s.transport[k] += v
	}
	for k, v := range o.samples {
		if _, ok := s.samples[k]; !ok {
			s.samples[k] = v
		}
	}
	if s.firstFailure == "" {
		s.firstFailure = o.firstFailure
	}
	s.bodySent += o.bodySent
	s.bodyReceived += o.bodyReceived
}

// count returns the number of requests measured.
func (s *opStats) count() int64 {
	n := s.hist.n
	for _, v := range s.transport {
		n += v
	}
	return n
}

// stats reports s over secs seconds.
func (s *opStats) stats(secs float64) Stats {
	out := Stats{
		Requests:            s.count(),
		Statuses:            map[string]int64{},
		FirstTransportError: s.firstFailure,
		Latency: Latency{
			MeanMs:    ms(s.hist.mean()),
			P50Ms:     ms(s.hist.quantile(0.50)),
			P90Ms:     ms(s.hist.quantile(0.90)),
			P99Ms:     ms(s.hist.quantile(0.99)),
			MaxMs:     ms(s.hist.max),
			Histogram: s.hist.coarse(),
		},
		BodyBytesSent:           s.bodySent,
		BodyBytesReceived:       s.bodyReceived,
		BodyMBPerSecondSent:     rate(s.bodySent, secs),
		BodyMBPerSecondReceived: rate(s.bodyReceived, secs),
	}
	if secs > 0 {
		out.RequestsPerSecond = round(float64(out.Requests)/secs, 1)
	}
	for status, n := range s.statuses {
		code := strconv.Itoa(status)
		out.Statuses[code] = n
		if ok(status) {
			out.OK += n
			continue
		}
		out.Errors += n
		if out.ErrorsByStatus == nil {
			out.ErrorsByStatus = map[string]int64{}
			out.ErrorSamples = map[string]string{}
		}
		out.ErrorsByStatus[code] = n
		out.ErrorSamples[code] = s.samples[status]
	}
	for kind, n := range s.transport {
		if out.TransportErrors == nil {
			out.TransportErrors = map[string]int64{}
		}
		out.TransportErrors[kind] = n
		out.Errors += n
	}
	return out
}

// rate returns n bytes over secs seconds in MB/s.
func rate(n int64, secs float64) float64 {
	if secs <= 0 {
		return 0
	}
	return round(float64(n)/1e6/secs, 2)
}

func round(v float64, digits int) float64 {
	p := math.Pow10(digits)
	return math.Round(v*p) / p
}

// WriteText writes r for a person to read.
func (r Result) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s load on %s: %d workers, %.1fs", r.Scenario, r.Target, r.Concurrency, r.ElapsedSeconds)
	if r.UploadSize > 0 {
		fmt.Fprintf(&b, ", %s files", sizeText(r.UploadSize))
	}
	if r.Interrupted {
		b.WriteString(" (interrupted)")
	}
	b.WriteString("\n")
	writeStats(&b, "", r.Total)
	fmt.Fprintf(&b, "  %-10s %s sent (%.2f MB/s), %s received (%.2f MB/s)\n", "wire",
		humanBytes(r.BytesSent), r.MBPerSecondSent, humanBytes(r.BytesReceived), r.MBPerSecondReceived)
	if len(r.Operations) > 1 {
		for _, name := range slices.Sorted(maps.Keys(r.Operations)) {
			b.WriteString(name + ":\n")
			writeStats(&b, "  ", r.Operations[name])
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeStats(b *strings.Builder, indent string, s Stats) {
	fmt.Fprintf(b, "%s  %-10s %s (%s/s), %s ok, %s errors\n", indent, "requests",
		group(s.Requests), group(int64(math.Round(s.RequestsPerSecond))), group(s.OK), group(s.Errors))
	l := s.Latency
	fmt.Fprintf(b, "%s  %-10s p50 %s  p90 %s  p99 %s  max %s  mean %s\n", indent, "latency",
		msText(l.P50Ms), msText(l.P90Ms), msText(l.P99Ms), msText(l.MaxMs), msText(l.MeanMs))
	fmt.Fprintf(b, "%s  %-10s %s\n", indent, "statuses", countsText(s.Statuses))
	if len(s.TransportErrors) > 0 {
		fmt.Fprintf(b, "%s  %-10s %s; first: %s\n", indent, "no answer", countsText(s.TransportErrors), s.FirstTransportError)
	}
	for _, code := range slices.Sorted(maps.Keys(s.ErrorSamples)) {
		fmt.Fprintf(b, "%s  %-10s %s\n", indent, code+" body", strings.Join(strings.Fields(s.ErrorSamples[code]), " "))
	}
	fmt.Fprintf(b, "%s  %-10s %s sent (%.2f MB/s), %s received (%.2f MB/s)\n", indent, "bodies",
		humanBytes(s.BodyBytesSent), s.BodyMBPerSecondSent, humanBytes(s.BodyBytesReceived), s.BodyMBPerSecondReceived)
}

// countsText writes counts as "k: n, k: n" in key order; "none" if empty.
func countsText(m map[string]int64) string {
	if len(m) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s: %s", k, group(m[k])))
	}
	return strings.Join(parts, ", ")
}

// msText writes milliseconds with three significant digits or so.
func msText(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0fms", v)
	case v >= 10:
		return fmt.Sprintf("%.1fms", v)
	}
	return fmt.Sprintf("%.2fms", v)
}

// sizeText writes a size in binary units when it is a whole number of them
// (100 KiB), in decimal ones otherwise.
func sizeText(n int64) string {
	for _, u := range []struct {
		name  string
		bytes int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.bytes && n%u.bytes == 0 {
			return fmt.Sprintf("%d %s", n/u.bytes, u.name)
		}
	}
	return humanBytes(n)
}
