package load

import (
	"context"
	"crypto/sha1"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testKey = "k-test"

// fakeAPI is a small server of the two operations that remembers what it
// got: the SHA-1 of every uploaded file, and how many listings.
type fakeAPI struct {
	mu      sync.Mutex
	sums    map[[20]byte]int
	lists   atomic.Int64
	badKeys atomic.Int64
}

func newFakeAPI(t *testing.T) (*fakeAPI, *httptest.Server) {
	t.Helper()
	api := &fakeAPI{sums: map[[20]byte]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/shared-links", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-api-key") != testKey {
			api.badKeys.Add(1)
			http.Error(w, `{"message":"Invalid API key"}`, http.StatusUnauthorized)
			return
		}
		api.lists.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `[{"id":"1","key":"abc"}]`)
	})
	mux.HandleFunc("POST /api/asset/upload", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-api-key") != testKey {
			api.badKeys.Add(1)
			http.Error(w, `{"message":"Invalid API key"}`, http.StatusUnauthorized)
			return
		}
		_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			if p.FormName() != "assetData" {
				continue
			}
			h := sha1.New()
			if _, err := io.Copy(h, p); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			api.mu.Lock()
			api.sums[[20]byte(h.Sum(nil))]++
			api.mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"id":"x","duplicate":false}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return api, srv
}

func (a *fakeAPI) uploads() (files, distinct int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, n := range a.sums {
		files += n
	}
	return files, len(a.sums)
}

func TestRunScenarios(t *testing.T) {
	tests := []struct {
		scenario          Scenario
		wantList, wantUpl bool
	}{
		{ScenarioList, true, false},
		{ScenarioUpload, false, true},
		{ScenarioMixed, true, true},
	}
	for _, tt := range tests {
		t.Run(string(tt.scenario), func(t *testing.T) {
			api, srv := newFakeAPI(t)
			res, err := Run(t.Context(), Config{
				Target: srv.URL + "/api/", Scenario: tt.scenario, APIKey: testKey,
				Duration: 300 * time.Millisecond, Concurrency: 4, UploadSize: 2048,
			})
			require.NoError(t, err)
			assert.Equal(t, srv.URL+"/api", res.Target)
			assert.Positive(t, res.Total.Requests)
			assert.Equal(t, res.Total.Requests, res.Total.OK)
			assert.Zero(t, res.Total.Errors)
			assert.Zero(t, api.badKeys.Load(), "every request carries the API key")
			assert.Positive(t, res.Total.RequestsPerSecond)
			assert.Positive(t, res.Total.Latency.P50Ms)
			assert.LessOrEqual(t, res.Total.Latency.P50Ms, res.Total.Latency.P90Ms)
			assert.LessOrEqual(t, res.Total.Latency.P90Ms, res.Total.Latency.P99Ms)
			assert.LessOrEqual(t, res.Total.Latency.P99Ms, res.Total.Latency.MaxMs)
			assert.Positive(t, res.BytesSent)
			assert.Greater(t, res.BytesReceived, res.Total.BodyBytesReceived, "the wire carries headers too")

			files, distinct := api.uploads()
			list, upload := res.Operations["list"], res.Operations["upload"]
			assert.Equal(t, api.lists.Load(), list.Requests, "every listing the server answered is counted")
			assert.EqualValues(t, files, upload.Requests, "every upload the server stored is counted")
			assert.Equal(t, files, distinct, "every uploaded file is new content")
			assert.Equal(t, tt.wantList, list.Requests > 0)
			assert.Equal(t, tt.wantUpl, upload.Requests > 0)
			if tt.wantUpl {
				assert.Equal(t, map[string]int64{"201": upload.Requests}, upload.Statuses)
				assert.Greater(t, upload.BodyBytesSent, 2048*upload.Requests)
				assert.EqualValues(t, 2048, res.UploadSize)
			}
			if tt.scenario == ScenarioMixed {
				// One in five of each worker's requests: at most one off per worker.
				assert.InDelta(t, float64(res.Total.Requests)/5, float64(upload.Requests), 4, "one upload in five")
			}
		})
	}
}

func TestRunCountsErrorsByStatus(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) % 3 {
		case 0:
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"message":"busy"}`)
		case 1:
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"message":"Invalid API key"}`)
		default:
			_, _ = io.WriteString(w, `[]`)
		}
	}))
	t.Cleanup(srv.Close)
	res, err := Run(t.Context(), Config{Target: srv.URL + "/api", Duration: 200 * time.Millisecond, Concurrency: 3})
	require.NoError(t, err)
	s := res.Total
	assert.Equal(t, s.Requests, s.OK+s.Errors)
	assert.Equal(t, s.ErrorsByStatus["503"]+s.ErrorsByStatus["401"], s.Errors)
	assert.InDelta(t, float64(s.Requests)/3, float64(s.ErrorsByStatus["503"]), 2)
	assert.Equal(t, s.OK, s.Statuses["200"])
	assert.Equal(t, `{"message":"busy"}`, s.ErrorSamples["503"])
	assert.Equal(t, `{"message":"Invalid API key"}`, s.ErrorSamples["401"])
	assert.Empty(t, s.TransportErrors)
}

func TestRunWithoutServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	res, err := Run(t.Context(), Config{Target: "http://" + addr + "/api", Duration: 100 * time.Millisecond, Concurrency: 2})
	require.NoError(t, err, "a server that is down is a result, not a failure to run")
	assert.Zero(t, res.Total.OK)
	assert.Positive(t, res.Total.TransportErrors["connection refused"])
	assert.Equal(t, res.Total.Requests, res.Total.Errors)
	assert.Contains(t, res.Total.FirstTransportError, "refused")
}

func TestRunStopsByItself(t *testing.T) {
	tests := []struct {
		name    string
		delay   time.Duration
		timeout time.Duration
		kind    string
	}{
		{"slow answers finish after the duration", 100 * time.Millisecond, time.Second, ""},
		{"a server that never answers is cut at the timeout", time.Hour, 200 * time.Millisecond, "timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			release := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-time.After(tt.delay):
				case <-release:
				case <-r.Context().Done():
				}
			}))
			t.Cleanup(srv.Close)
			t.Cleanup(func() { close(release) })
			// The deadline only keeps a broken Run from hanging the test;
			// what is checked is that the run ended by itself before it.
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			cfg := Config{Target: srv.URL, Duration: 300 * time.Millisecond, Concurrency: 2, Timeout: tt.timeout}
			res, err := Run(ctx, cfg)
			require.NoError(t, err, "the run ended by itself, not by the context's deadline")
			assert.False(t, res.Interrupted)
			assert.GreaterOrEqual(t, res.ElapsedSeconds, 0.3)
			// Every request lasts at least min(delay, timeout), and none is
			// sent after the duration: each worker sent at most this many.
			perWorker := int64(cfg.Duration/min(tt.delay, tt.timeout)) + 1
			assert.LessOrEqual(t, res.Total.Requests, int64(cfg.Concurrency)*perWorker, "no request sent after the duration")
			if tt.kind != "" {
				assert.Positive(t, res.Total.TransportErrors[tt.kind], "%+v", res.Total)
				assert.Equal(t, res.Total.Requests, res.Total.TransportErrors[tt.kind], "every request was cut at the timeout")
			} else {
				assert.Zero(t, res.Total.Errors, "the requests under way at the end were let finish")
				assert.Equal(t, res.Total.Requests, res.Total.OK)
				assert.GreaterOrEqual(t, res.Total.Latency.P50Ms, 100.0)
			}
		})
	}
}

func TestRunInterrupted(t *testing.T) {
	_, srv := newFakeAPI(t)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(200*time.Millisecond, cancel)
	cfg := Config{Target: srv.URL + "/api", APIKey: testKey, Scenario: ScenarioMixed, Duration: time.Minute, Concurrency: 2}
	res, err := Run(ctx, cfg)
	require.ErrorIs(t, err, context.Canceled)
	assert.True(t, res.Interrupted)
	// Which of the two ended the run, the interruption or the duration, is
	// only seen in how long it took: the run's own measure, held against a
	// duration far beyond the interruption.
	assert.Less(t, res.ElapsedSeconds, cfg.Duration.Seconds(), "the interruption ended the run, not its duration")
	assert.Positive(t, res.Total.OK)
	assert.Zero(t, res.Total.Errors, "requests cut short by the interruption are not errors")
}

func TestRunDoesNotFollowRedirects(t *testing.T) {
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	t.Cleanup(other.Close)
	srv := httptest.NewServer(http.RedirectHandler(other.URL, http.StatusFound))
	t.Cleanup(srv.Close)
	res, err := Run(t.Context(), Config{Target: srv.URL + "/api", Duration: 100 * time.Millisecond, Concurrency: 1})
	require.NoError(t, err)
	assert.Equal(t, res.Total.Requests, res.Total.ErrorsByStatus["302"])
	assert.Zero(t, elsewhere.Load())
}

func TestRunReportsProgress(t *testing.T) {
	_, srv := newFakeAPI(t)
	var mu sync.Mutex
	var seen []Progress
	_, err := Run(t.Context(), Config{
		Target: srv.URL + "/api", APIKey: testKey, Scenario: ScenarioMixed, Duration: 300 * time.Millisecond, Concurrency: 2,
		ProgressEvery: 50 * time.Millisecond,
		Progress: func(p Progress) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, p)
		},
	})
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	require.GreaterOrEqual(t, len(seen), 3)
	last := seen[len(seen)-1]
	assert.Positive(t, last.Requests)
	assert.GreaterOrEqual(t, last.Requests, seen[0].Requests)
	assert.Positive(t, last.BytesReceived)
	assert.Positive(t, last.Created, "uploads answered 201 are counted")
	assert.Contains(t, last.String(), "req/s")
}

// TestUploadFilesGoRound: with UploadFiles, the uploads send that many
// different files, over and over; a second run with the same tag sends the
// very same files.
func TestUploadFilesGoRound(t *testing.T) {
	api, srv := newFakeAPI(t)
	cfg := Config{
		Target: srv.URL + "/api", Scenario: ScenarioUpload, APIKey: testKey,
		Duration: 300 * time.Millisecond, Concurrency: 4, UploadSize: 2048, UploadFiles: 8, Tag: "00112233aabb",
	}
	res, err := Run(t.Context(), cfg)
	require.NoError(t, err)
	files, distinct := api.uploads()
	require.Greater(t, files, 16, "enough uploads to go round")
	assert.EqualValues(t, files, res.Operations["upload"].Requests)
	assert.Equal(t, 8, distinct)
	_, err = Run(t.Context(), cfg)
	require.NoError(t, err)
	_, distinct = api.uploads()
	assert.Equal(t, 8, distinct, "the same tag, the same files")
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no target", Config{}, "not an http"},
		{"not a URL", Config{Target: "::nope"}, "target"},
		{"ftp", Config{Target: "ftp://127.0.0.1/api"}, "not an http"},
		{"a query", Config{Target: "http://127.0.0.1/api?key=x"}, "query"},
		{"remote", Config{Target: "http://192.0.2.1/api"}, "not a loopback"},
		{"remote name", Config{Target: "http://example.com/api"}, "not a loopback"},
		{"scenario", Config{Target: "http://127.0.0.1/api", Scenario: "delete"}, "unknown scenario"},
		{"concurrency", Config{Target: "http://127.0.0.1/api", Concurrency: -1}, "concurrency"},
		{"tiny file", Config{Target: "http://127.0.0.1/api", Scenario: ScenarioUpload, UploadSize: 10}, "upload size"},
		{"files", Config{Target: "http://127.0.0.1/api", Scenario: ScenarioUpload, UploadFiles: -1}, "upload files"},
		{"tag", Config{Target: "http://127.0.0.1/api", Scenario: ScenarioUpload, Tag: "run-1"}, "12 hex digits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Run(t.Context(), tt.cfg)
			require.ErrorIs(t, err, ErrConfig)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

func TestParseTarget(t *testing.T) {
	tests := []struct {
		raw         string
		allowRemote bool
		want        string // "" for an error
	}{
		{"http://127.0.0.1:2283/api", false, "http://127.0.0.1:2283/api"},
		{"http://127.9.9.9:2283/api/", false, "http://127.9.9.9:2283/api"},
		{"http://localhost:4010/api", false, "http://localhost:4010/api"},
		{"http://[::1]:4010/api", false, "http://[::1]:4010/api"},
		{"https://localhost/api", false, "https://localhost/api"},
		{"http://10.0.0.1/api", false, ""},
		{"http://10.0.0.1/api", true, "http://10.0.0.1/api"},
		{"127.0.0.1:2283/api", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			u, err := ParseTarget(tt.raw, tt.allowRemote)
			if tt.want == "" {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, u.String())
		})
	}
}

func TestResultReports(t *testing.T) {
	_, srv := newFakeAPI(t)
	res, err := Run(t.Context(), Config{Target: srv.URL + "/api", APIKey: testKey, Scenario: ScenarioMixed, Duration: 200 * time.Millisecond, Concurrency: 2, UploadSize: 1000})
	require.NoError(t, err)

	var text strings.Builder
	require.NoError(t, res.WriteText(&text))
	for _, want := range []string{"mixed load on " + srv.URL + "/api: 2 workers", "1.0 kB files", "requests", "p50", "p99", "statuses", "201: ", "wire", "list:", "upload:"} {
		assert.Contains(t, text.String(), want)
	}

	b, err := json.Marshal(res)
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(b, &doc))
	for _, key := range []string{"target", "scenario", "concurrency", "uploadSize", "elapsedSeconds", "total", "operations", "bytesSent", "bytesReceived", "mbPerSecondSent", "mbPerSecondReceived"} {
		assert.Contains(t, doc, key)
	}
	total := doc["total"].(map[string]any)
	for _, key := range []string{"requests", "requestsPerSecond", "ok", "errors", "statuses", "latency"} {
		assert.Contains(t, total, key)
	}
	for _, key := range []string{"p50Ms", "p90Ms", "p99Ms", "maxMs", "meanMs", "histogram"} {
		assert.Contains(t, total["latency"], key)
	}
	var back Result
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, res, back)
}

func TestGroupAndBytes(t *testing.T) {
	tests := []struct {
		n           int64
		group, size string
	}{
		{0, "0", "0 B"},
		{999, "999", "999 B"},
		{1000, "1,000", "1.0 kB"},
		{1234567, "1,234,567", "1.2 MB"},
		{-1234, "-1,234", "-1234 B"},
		{3_500_000_000, "3,500,000,000", "3.50 GB"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.group, group(tt.n))
		assert.Equal(t, tt.size, humanBytes(tt.n))
	}
	assert.Equal(t, "100 KiB", sizeText(100<<10))
	assert.Equal(t, "1 GiB", sizeText(1<<30))
	assert.Equal(t, "1.0 kB", sizeText(1000))
}

// TestPictureScenarios: thumbnail and file fetch the pictures of the first
// asset of the caller's first shared link that has one.
func TestPictureScenarios(t *testing.T) {
	var thumbs, files atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/shared-links", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `[{"id":"1","assets":[]},{"id":"2","assets":[{"id":"a-1"},{"id":"a-2"}]}]`)
	})
	mux.HandleFunc("GET /api/asset/thumbnail/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") == "a-1" && r.Header.Get("x-api-key") == testKey {
			thumbs.Add(1)
		}
		w.Header().Set("Content-Type", "image/webp")
		_, _ = io.WriteString(w, "RIFF....WEBP")
	})
	mux.HandleFunc("GET /api/asset/file/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") == "a-1" && r.Header.Get("x-api-key") == testKey {
			files.Add(1)
		}
		_, _ = io.WriteString(w, "the original")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	for _, tt := range []struct {
		scenario Scenario
		op       string
		count    *atomic.Int64
	}{{ScenarioThumbnail, "thumbnail", &thumbs}, {ScenarioFile, "file", &files}} {
		res, err := Run(t.Context(), Config{Target: srv.URL + "/api", Scenario: tt.scenario, APIKey: testKey, Duration: 200 * time.Millisecond, Concurrency: 2})
		require.NoError(t, err)
		op := res.Operations[tt.op]
		assert.Positive(t, op.Requests)
		assert.Equal(t, tt.count.Load(), op.Requests, "every request was for the asset's %s", tt.op)
		assert.Equal(t, map[string]int64{"200": op.Requests}, op.Statuses)
	}

	empty := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, `[]`) }))
	t.Cleanup(empty.Close)
	_, err := Run(t.Context(), Config{Target: empty.URL + "/api", Scenario: ScenarioThumbnail, APIKey: testKey, Duration: 100 * time.Millisecond})
	assert.ErrorContains(t, err, "the caller's shared links hold none")
}

// TestTimelineScenarios: the assets are uploaded first, dated one after
// the other back from now, each once; then the workers ask for the
// months, or for the newest month's bucket.
func TestTimelineScenarios(t *testing.T) {
	var (
		mu    sync.Mutex
		dates = map[string]int{}
		asks  = map[string]int{}
	)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/asset/upload", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		dates[r.FormValue("fileCreatedAt")]++
		mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"id":"x"}`)
	})
	mux.HandleFunc("GET /api/timeline/buckets", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asks["buckets?"+r.URL.RawQuery]++
		mu.Unlock()
		_, _ = io.WriteString(w, `[{"count":3,"timeBucket":"2026-11-01T00:00:00.000Z"},{"count":1,"timeBucket":"2026-10-01T00:00:00.000Z"}]`)
	})
	mux.HandleFunc("GET /api/timeline/bucket", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asks["bucket?"+r.URL.RawQuery]++
		mu.Unlock()
		_, _ = io.WriteString(w, `[]`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	for _, tt := range []struct {
		scenario Scenario
		op, ask  string
	}{
		{ScenarioTimelineBuckets, "buckets", "buckets?size=MONTH"},
		{ScenarioTimelineBucket, "bucket", "bucket?size=MONTH&timeBucket=2026-11-01T00%3A00%3A00.000Z"},
	} {
		clear(dates)
		clear(asks)
		res, err := Run(t.Context(), Config{Target: srv.URL + "/api", Scenario: tt.scenario, APIKey: testKey, Duration: 200 * time.Millisecond, Concurrency: 2, TimelineAssets: 30})
		require.NoError(t, err)
		op := res.Operations[tt.op]
		assert.Positive(t, op.Requests)
		assert.Equal(t, map[string]int64{"200": op.Requests}, op.Statuses)
		mu.Lock()
		assert.Len(t, dates, 30, "thirty files, each of its own date")
		assert.EqualValues(t, op.Requests, asks[tt.ask], "every request asks the same")
		mu.Unlock()
	}
}
