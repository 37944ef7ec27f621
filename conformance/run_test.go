package conformance_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// TestMockPassesEverything runs every feature against the in-process mock:
// every scenario must pass, none may be skipped, and the run leaves no
// trace: the mock's whole state (every user, asset, album, link, key,
// session, partner, person, activity, preference and setting) is after it
// what it was before.
func TestMockPassesEverything(t *testing.T) {
	t.Parallel()
	target := startMock(t, defaultData, nil)
	before := dataset(t, target)
	res, summary := runEverything(t, target)
	t.Log(summary)
	assert.Empty(t, stateDiff(t, before, dataset(t, target)), "the run left a trace")
	assert.NotEmpty(t, res.Scenarios)
	assert.Zero(t, res.Failed, "failed scenarios")
	assert.Zero(t, res.Skipped, "skipped scenarios")
	assert.Empty(t, res.Violations)
	assert.Equal(t, len(res.Scenarios), res.Passed)
}

// TestInterruptedRunLeavesNoTrace: a run cut short in the middle (Ctrl-C
// cancels its context) still takes away what its scenarios made: the
// mock's state is what it was before. The mock keeps no uploads here (no
// media folder): what is judged is the harness's taking away, and making
// the pictures of uploads would only take most of the test's time.
func TestInterruptedRunLeavesNoTrace(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	var uploads atomic.Int32
	// The run is cut short once the mock has taken its tenth upload: in
	// the middle of the run, with scenarios under way.
	cutShort := func(h http.Handler, _ model.Dataset) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r)
			if r.URL.Path == "/api/asset/upload" && uploads.Add(1) == 10 {
				cancel()
			}
		})
	}
	target := startMockWith(t, mockserver.Config{MaxUploadBytes: uploadLimit}, defaultData, cutShort)
	before := dataset(t, target)
	var out bytes.Buffer
	_, err := conformance.Run(ctx, conformance.Config{
		Target: target, APIKey: apiKey, Password: fake.DefaultPassword, AdminAPIKey: apiKey,
		MaxUploadBytes: uploadLimit, Output: &out, Concurrency: 4, Settle: testSettle,
	})
	require.ErrorIs(t, err, context.Canceled, out.String())
	assert.Empty(t, stateDiff(t, before, dataset(t, target)), "the interrupted run left a trace")
}

// dataset is the whole state of the mock whose API is at target, as its
// control API writes it.
func dataset(t *testing.T, target string) string {
	t.Helper()
	resp, err := http.Get(strings.TrimSuffix(target, "/api") + "/__mock/dataset")
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
	return string(b)
}

// stateDiff says how two of the mock's datasets differ, record by record:
// for each kind of record, those added, removed and changed, by id. The
// audit of deletions is no trace: every server records the deletions a
// run's clean-up makes, so that the mobile app's delta sync hears of them.
func stateDiff(t *testing.T, before, after string) []string {
	t.Helper()
	var b, a map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(before), &b))
	require.NoError(t, json.Unmarshal([]byte(after), &a))
	var out []string
	for _, kind := range slices.Sorted(maps.Keys(mergeKeys(a, b))) {
		if kind == "audit" || bytes.Equal(a[kind], b[kind]) {
			continue
		}
		var was, is []json.RawMessage
		if json.Unmarshal(b[kind], &was) != nil || json.Unmarshal(a[kind], &is) != nil {
			out = append(out, fmt.Sprintf("%s: %s, then %s", kind, b[kind], a[kind]))
			continue
		}
		byID := func(records []json.RawMessage) map[string]string {
			m := map[string]string{}
			for i, r := range records {
				var rec struct {
					ID string `json:"id"`
				}
				_ = json.Unmarshal(r, &rec)
				m[cmp.Or(rec.ID, fmt.Sprint("#", i))] = string(r)
			}
			return m
		}
		wasBy, isBy := byID(was), byID(is)
		for id, r := range isBy {
			switch old, ok := wasBy[id]; {
			case !ok:
				out = append(out, fmt.Sprintf("%s: added %s", kind, r))
			case old != r:
				out = append(out, fmt.Sprintf("%s: changed %s\n  from %s", kind, r, old))
			}
		}
		for id := range wasBy {
			if _, ok := isBy[id]; !ok {
				out = append(out, fmt.Sprintf("%s: removed %s", kind, id))
			}
		}
	}
	return out
}

func mergeKeys(a, b map[string]json.RawMessage) map[string]bool {
	m := map[string]bool{}
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

// TestScenariosWaitForMetadata runs the scenarios that judge a file's EXIF
// against a target that reads it half a second after the upload, as a real
// server does: they wait for it, within --settle, and fail, saying how long
// they waited, when it takes longer than that.
func TestScenariosWaitForMetadata(t *testing.T) {
	t.Parallel()
	lateExif := func(h http.Handler, _ model.Dataset) http.Handler {
		var mu sync.Mutex
		uploaded := map[string]time.Time{}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id, isAsset := strings.CutPrefix(r.URL.Path, "/api/asset/")
			mu.Lock()
			at, seen := uploaded[id]
			if isAsset && r.Method == http.MethodGet && !seen {
				uploaded[id], at = time.Now(), time.Now()
			}
			mu.Unlock()
			if !isAsset || r.Method != http.MethodGet || time.Since(at) > 500*time.Millisecond {
				h.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			body, _ := decode(rec.Body.Bytes()).(map[string]any)
			if body != nil {
				delete(body, "exifInfo")
			}
			writeJSON(w, rec.Code, body)
		})
	}
	for _, tt := range []struct {
		settle time.Duration
		failed bool
	}{{5 * time.Second, false}, {100 * time.Millisecond, true}} {
		var out bytes.Buffer
		res, err := conformance.Run(t.Context(), conformance.Config{
			Target: startMock(t, smallData, lateExif), APIKey: apiKey, AdminAPIKey: apiKey,
			// The scenarios that wait for what a link shows of a photo's
			// EXIF (the pictures', which wait for thumbnails, would fail
			// on their own with a short settle).
			Features: onlyScenario(t, "An uploaded photo appears in a link made for it"),
			Tags:     onlyTag, Settle: tt.settle, Output: &out, Concurrency: 4,
		})
		require.NoError(t, err)
		var failures []string
		for _, s := range res.Scenarios {
			if s.Status == conformance.Failed {
				failures = append(failures, s.Failure)
			}
		}
		if !tt.failed {
			assert.Empty(t, failures, "with --settle %s", tt.settle)
			// The summary says how long the target took: its EXIF came
			// 500 ms after it was first asked for.
			require.Positive(t, res.Settled.Waits)
			assert.GreaterOrEqual(t, res.Settled.Longest, 500*time.Millisecond)
			assert.LessOrEqual(t, res.Settled.Median, res.Settled.Longest)
			var summary bytes.Buffer
			require.NoError(t, res.WriteSummary(&summary))
			assert.Contains(t, summary.String(), "The target derived what it derives from files (EXIF, pictures) within ")
			continue
		}
		require.NotEmpty(t, failures, "with --settle %s", tt.settle)
		for _, f := range failures {
			assert.Contains(t, f, "the photo has no exifInfo (still so after")
		}
	}
}

// testSettle is how long the runs that must pass wait for the pictures and
// metadata an upload gets: a run under the race detector, beside the other
// tests on two cores, may take longer than a real server should (a burst of
// uploads from the scenario outlines leaves a queue of pictures that took
// 43 s to clear here, and longer on a slower machine); a run that passes
// does not wait it out.
const testSettle = 5 * time.Minute

// TestReferenceShapesPass runs every feature against the mock as CI meets
// a real server: answering in the reference's documented shapes (serve
// --reference-shapes), refusing a null in a request body as the reference
// does, without the control API, and checked with one user's API key and
// an admin's apart, so that the harness makes every user it needs through
// the API. Nothing fails, nothing is skipped. TestMockPassesEverything runs
// them against its full shapes, with its control API.
func TestReferenceShapesPass(t *testing.T) {
	t.Parallel()
	var userKey string
	target := startMockWith(t, mockserver.Config{
		MediaDir: t.TempDir(), MaxUploadBytes: uploadLimit, ReferenceShapes: true, NoControl: true,
	}, defaultData, func(h http.Handler, d model.Dataset) http.Handler {
		userKey = d.Users[1].APIKey
		return refusesNull(h, d)
	})
	require.NotEqual(t, apiKey, userKey, "the dataset's second user has a key of their own")
	res, summary := runEverythingAs(t, target, userKey)
	assert.Zero(t, res.Failed, summary)
	assert.Zero(t, res.Skipped, summary)
}

// runEverything runs every feature against a mock of the tests' dataset,
// with every credential the scenarios may need, and returns the result and
// its summary.
func runEverything(t *testing.T, target string) (conformance.Result, string) {
	t.Helper()
	return runEverythingAs(t, target, apiKey)
}

// runEverythingAs is runEverything as the user of key, with the admin's
// key beside it.
func runEverythingAs(t *testing.T, target, key string) (conformance.Result, string) {
	t.Helper()
	var out bytes.Buffer
	res, err := conformance.Run(t.Context(), conformance.Config{
		Target:         target,
		APIKey:         key,
		Password:       fake.DefaultPassword,
		AdminAPIKey:    apiKey,
		MaxUploadBytes: uploadLimit,
		LibraryFolder:  t.TempDir(), // the mock reads where the harness writes
		Output:         &out,
		Concurrency:    4,
		Settle:         testSettle,
	})
	require.NoError(t, err, out.String())
	var summary bytes.Buffer
	require.NoError(t, res.WriteSummary(&summary))
	return res, summary.String()
}

// TestHostileTargets runs the harness against servers that answer HTML,
// hang, reset every connection or send 10 MB error bodies: the run ends
// within the client's deadlines, without a panic, and every scenario that
// fails says why in a first line a person can read.
func TestHostileTargets(t *testing.T) {
	t.Parallel()
	for name, h := range map[string]http.HandlerFunc{
		"answers HTML": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = io.WriteString(w, "<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>")
		},
		"hangs on every upload": func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				// Longer than the client waits; bounded, as a closed
				// connection is not noticed while the body is unread.
				select {
				case <-r.Context().Done():
				case <-time.After(2 * time.Second):
				}
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, "[]")
		},
		"resets every upload": func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, "[]")
				return
			}
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				if tc, ok := conn.(*net.TCPConn); ok {
					_ = tc.SetLinger(0)
				}
				_ = conn.Close()
			}
		},
		"sends 10 MB error bodies": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write(bytes.Repeat([]byte("x"), 10<<20))
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(h)
			t.Cleanup(srv.Close)
			client := conformance.NewClient()
			client.Timeout = 300 * time.Millisecond
			start := time.Now()
			res, err := conformance.Run(t.Context(), conformance.Config{
				Target: srv.URL + "/api", APIKey: apiKey, Tags: "@upload && ~@robustness", Client: client, Concurrency: 4,
			})
			t.Logf("%s: %d scenarios, %d failed, in %s (err %v)", name, len(res.Scenarios), res.Failed, time.Since(start).Round(time.Millisecond), err)
			if err != nil {
				assert.NotContains(t, err.Error(), "\n", "a run that cannot start says why in one line")
				return
			}
			assert.Positive(t, res.Failed)
			for _, s := range res.Scenarios {
				if s.Status != conformance.Failed {
					continue
				}
				first, _, _ := strings.Cut(s.Failure, "\n")
				assert.NotEmpty(t, first, s.Name)
				assert.LessOrEqual(t, len(first), 600, "%s: %.200s", s.Name, first)
				assert.True(t, utf8.ValidString(first))
			}
		})
	}
}

// targetThatGoesAway is a target that dies in the middle of a run.
type targetThatGoesAway struct {
	name string
	// diesOn selects the request the target dies on, by the answer
	// the mock gave and whether its body came whole.
	diesOn func(r *http.Request, answer *httptest.ResponseRecorder, whole bool) bool
	tags   string
	// resets is how long the dying target resets every connection
	// before it refuses them, as a process on its way out.
	resets time.Duration
	// during is the scenario running when it went away; "" when
	// scenarios ran at once and any might be.
	during string
}

// targetsThatGoAway are the ways a target dies that a run must report,
// made anew for each run of the test (one counts the requests it sees).
func targetsThatGoAway() []targetThatGoesAway {
	return []targetThatGoesAway{
		{
			name: "on a body cut off before its end",
			// A body sent whole that ends before its closing boundary: not
			// an empty one, nor one whose connection dropped.
			diesOn: func(r *http.Request, answer *httptest.ResponseRecorder, whole bool) bool {
				return isUpload(r) && whole && r.ContentLength > 0 && answer.Code == http.StatusBadRequest &&
					strings.Contains(answer.Body.String(), "closing boundary")
			},
			tags:   "@robustness or @server-info",
			during: "upload_robustness.feature:39 A body cut off before its end is refused and the server keeps answering (problem: multipart whose closing boundary is missing)",
		},
		{
			name: "on a body cut off before its end, resetting connections a while before it refuses them",
			diesOn: func(r *http.Request, answer *httptest.ResponseRecorder, whole bool) bool {
				return isUpload(r) && whole && r.ContentLength > 0 && answer.Code == http.StatusBadRequest &&
					strings.Contains(answer.Body.String(), "closing boundary")
			},
			tags:   "@robustness",
			resets: 500 * time.Millisecond,
			during: "upload_robustness.feature:39 A body cut off before its end is refused and the server keeps answering (problem: multipart whose closing boundary is missing)",
		},
		{
			name: "in the middle of scenarios that run at once",
			// The 80th request, whichever it is: scenarios have passed by
			// then, and others are running.
			diesOn: func() func(*http.Request, *httptest.ResponseRecorder, bool) bool {
				var seen atomic.Int64
				return func(*http.Request, *httptest.ResponseRecorder, bool) bool { return seen.Add(1) == 80 }
			}(),
			tags: "@server-info or (@upload and not @pictures)", // this mock keeps no picture
		},
	}
}

// TestTargetThatGoesAway runs the harness against a mock that stops
// listening in the middle of the run, as the reference does on a multipart
// body cut off before its end: the scenario running then fails, the
// scenarios after it are reported once as not run, with that scenario, and
// the run is not OK.
func TestTargetThatGoesAway(t *testing.T) {
	t.Parallel()
	for _, tt := range targetsThatGoAway() {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			res, err := conformance.Run(t.Context(), conformance.Config{
				Target: startDyingMock(t, tt.diesOn, tt.resets), APIKey: apiKey, AdminAPIKey: apiKey, Password: fake.DefaultPassword,
				Tags: tt.tags, Output: &out, Concurrency: 4, Settle: 5 * time.Second,
			})
			require.NoError(t, err, out.String())
			var summary bytes.Buffer
			require.NoError(t, res.WriteSummary(&summary))
			t.Log(summary.String())

			require.NotNil(t, res.Gone, "the run says the target went away")
			assert.Equal(t, "connection refused", res.Gone.Reason)
			assert.False(t, res.OK())
			assert.Positive(t, res.NotRun)
			assert.Positive(t, res.Passed, "the scenarios before ran")
			assert.Equal(t, len(res.Scenarios), res.Passed+res.Failed+res.Skipped+res.NotRun)
			if tt.during != "" {
				assert.Equal(t, tt.during, res.Gone.During)
				assert.Equal(t, 1, res.Failed, "only the scenario the target died on failed")
			}
			failed := 0
			for _, s := range res.Scenarios {
				switch s.Status {
				case conformance.Failed:
					failed++
					if tt.during != "" {
						assert.Equal(t, tt.during, fmt.Sprintf("upload_robustness.feature:%d %s", s.Line, s.Name))
					}
				case conformance.NotRun:
					assert.Contains(t, s.SkipReason, "not run: the target stopped answering (connection refused) during "+res.Gone.During)
				}
			}
			assert.Equal(t, res.Failed, failed)
			// Told once, with the scenario running then; no not-run
			// scenario is listed as failed or skipped.
			line := fmt.Sprintf("because the target stopped answering (connection refused) during %s.", res.Gone.During)
			assert.Equal(t, 1, strings.Count(summary.String(), "stopped answering"), summary.String())
			assert.Contains(t, summary.String(), line)
			assert.Contains(t, summary.String(), fmt.Sprintf(", %d not run (", res.NotRun))
			assert.NotContains(t, summary.String(), "Skipped:")
		})
	}
}

// startDyingMock serves the mock until it answers a request diesOn
// selects: then it drops that request unanswered, resets every connection
// for a while (resets), and stops listening, as a server whose process
// died.
func startDyingMock(t *testing.T, diesOn func(r *http.Request, answer *httptest.ResponseRecorder, whole bool) bool, resets time.Duration) string {
	t.Helper()
	d := fake.Generate(smallData)
	h, err := mockserver.New(mockserver.Config{Dataset: func() model.Dataset { return d }})
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() })
	var srv *httptest.Server
	var dying atomic.Bool
	var dead sync.Once
	die := func() {
		_ = srv.Listener.Close()
		srv.CloseClientConnections()
	}
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if dying.Load() {
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				if tc, ok := conn.(*net.TCPConn); ok {
					_ = tc.SetLinger(0) // a reset, not a close
				}
				_ = conn.Close()
			}
			return
		}
		body := &countingReader{r: r.Body}
		r.Body = body
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if diesOn(r, rec, body.n == r.ContentLength) {
			dead.Do(func() {
				if resets == 0 {
					die()
					return
				}
				dying.Store(true)
				time.AfterFunc(resets, die)
			})
			panic(http.ErrAbortHandler)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/api"
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.ReadCloser
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingReader) Close() error { return c.r.Close() }
