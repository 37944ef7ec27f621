package mockserver

import (
	"bufio"
	"bytes"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// logBuffer collects the request log of a mock for a test to read.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// line waits, up to a bound, for a log line holding every one of parts,
// and returns it ("" if none came).
func (b *logBuffer) line(parts ...string) string {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for l := range strings.Lines(b.String()) {
			if containsAll(l, parts) {
				return l
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return ""
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func loggedServer(t *testing.T) (addr string, log *logBuffer) {
	t.Helper()
	log = &logBuffer{}
	srv := newHardenedServer(t, Config{Dataset: testDataset, Now: testNow, Logger: slog.New(slog.NewTextHandler(log, nil))})
	return srv.Listener.Addr().String(), log
}

// TestRequestsTheClientLeft checks that a request whose client went away
// while x-mock-delay held it ends then, well before the minute it asked
// for, and is logged as such. Without a body, net/http notices the client
// closing its side; with a body left unread, the mock watches the
// connection itself.
func TestRequestsTheClientLeft(t *testing.T) {
	for name, raw := range map[string][]byte{
		"no body":          rawRequest("GET", "/api/shared-links", []string{"x-api-key", keyAlice, "x-mock-delay", "1m"}, nil),
		"an unread body":   rawRequest("POST", "/api/asset/upload", []string{"x-api-key", keyAlice, "x-mock-delay", "1m", "Content-Type", "multipart/form-data; boundary=XyZ"}, bytes.Repeat([]byte("x"), 1000)),
		"half of its body": rawRequest("POST", "/api/asset/upload", []string{"x-api-key", keyAlice, "x-mock-delay", "1m", "Content-Type", "multipart/form-data; boundary=XyZ"}, bytes.Repeat([]byte("x"), 1000))[:200],
	} {
		t.Run(name, func(t *testing.T) {
			addr, log := loggedServer(t)
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			_, err = conn.Write(raw)
			require.NoError(t, err)
			require.NoError(t, conn.Close())
			line := log.line("outcome=")
			require.NotEmpty(t, line, "the request was not ended and logged within 10 s; the log:\n%s", log)
			assert.Regexp(t, `outcome="client (gone|closed its side)`, line)
			assert.Contains(t, line, "duration=")
		})
	}
}

// TestLogNamesTheError checks that an error answer is logged with its
// message, and that a 500 (here a reset to a start-up dataset that no
// longer holds together) is logged at ERROR with the detail its client is
// not told.
func TestLogNamesTheError(t *testing.T) {
	calls := 0
	dataset := func() model.Dataset {
		if calls++; calls > 1 {
			return model.Dataset{}
		}
		return testDataset()
	}
	log := &logBuffer{}
	srv := newHardenedServer(t, Config{Dataset: dataset, Now: testNow, Logger: slog.New(slog.NewTextHandler(log, nil))})

	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-api-key", "wrong"))
	require.Equal(t, http.StatusUnauthorized, rep.status)
	assert.NotEmpty(t, log.line("level=INFO", "status=401", `error="Invalid API key"`), log.String())

	rep = do(t, newRequest(t, http.MethodPost, srv.URL+"/__mock/reset", nil, "Content-Type", "application/json"))
	requireError(t, rep, http.StatusInternalServerError, "Internal server error")
	assert.NotContains(t, string(rep.body), "users", "the client is not told the detail")
	assert.NotEmpty(t, log.line("level=ERROR", "status=500", "the dataset: users: none"), log.String())

	rep = do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-api-key", keyAlice))
	assert.Equal(t, http.StatusOK, rep.status, "the failed reset kept the state")
}

// TestHalfClosedClientsGetTheirAnswer: a client that closes its sending
// side after its request (TCP's half-close, which looks like leaving until
// the server writes) gets the answer it asked for, never an empty 200: a
// forced status, or the API's own answer after --latency.
func TestHalfClosedClientsGetTheirAnswer(t *testing.T) {
	for name, tt := range map[string]struct {
		cfg     Config
		headers []string
		status  int
	}{
		"a forced status after a delay": {Config{}, []string{"x-mock-delay", "2s", "x-mock-status", "503"}, 503},
		"no key after --latency":        {Config{Latency: time.Second}, nil, 401},
	} {
		t.Run(name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.Dataset, cfg.Now = testDataset, testNow
			srv := newHardenedServer(t, cfg)
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			require.NoError(t, err)
			defer conn.Close()
			require.NoError(t, conn.SetDeadline(time.Now().Add(10*time.Second)))
			_, err = conn.Write(rawRequest("GET", "/api/shared-links", tt.headers, nil))
			require.NoError(t, err)
			require.NoError(t, conn.(*net.TCPConn).CloseWrite())
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, tt.status, resp.StatusCode)
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		})
	}
}
