package api

import (
	"bufio"
	"bytes"
	"encoding/json"
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
			d := testDataset()
			d.Assets[0].OwnerID = "00000000-0000-4000-8000-00000000dead" // no user's
			return d
		}
		return testDataset()
	}
	log := &logBuffer{}
	srv := newHardenedServer(t, Config{Dataset: dataset, Now: testNow, Logger: slog.New(slog.NewTextHandler(log, nil))})

	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-api-key", "wrong"))
	require.Equal(t, http.StatusUnauthorized, rep.status)
	line := log.line("status=401")
	assert.Contains(t, line, `message="Invalid API key"`, log.String())
	assert.NotContains(t, line, "error=", "what the client was told is not logged twice")

	rep = do(t, newRequest(t, http.MethodPost, srv.URL+"/__mock/reset", nil, "Content-Type", "application/json"))
	requireError(t, rep, http.StatusInternalServerError, "Internal server error")
	assert.NotContains(t, string(rep.body), "owner", "the client is not told the detail")
	assert.NotEmpty(t, log.line("level=ERROR", "status=500", `message="Internal server error"`, "is not a user"), log.String())

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

// logLine sends r to a mock that logs in text and returns the line it
// logged for r.
func logLine(t *testing.T, r func(base string) *http.Request) string {
	t.Helper()
	log := &logBuffer{}
	srv := newHardenedServer(t, Config{Dataset: testDataset, Now: testNow, Logger: slog.New(slog.NewTextHandler(log, nil))})
	do(t, r(srv.URL))
	line := log.line("msg=request")
	require.NotEmpty(t, line, "no request line: %s", log)
	return line
}

// TestLogLevelByStatus: a 5xx is logged at ERROR, a 4xx at WARN, the rest
// at INFO, so that a filter on the level finds what went wrong.
func TestLogLevelByStatus(t *testing.T) {
	tests := []struct {
		name    string
		headers []string
		level   string
	}{
		{"a 200", []string{"x-api-key", keyAlice}, "level=INFO"},
		{"a 401", nil, "level=WARN"},
		{"a forced 404", []string{"x-mock-status", "404"}, "level=WARN"},
		{"a forced 503", []string{"x-mock-status", "503"}, "level=ERROR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line := logLine(t, func(base string) *http.Request {
				return newRequest(t, http.MethodGet, base+"/api/shared-links", nil, tt.headers...)
			})
			assert.True(t, strings.HasPrefix(line, "time="), line)
			assert.Contains(t, line, " "+tt.level+" ")
		})
	}
}

// TestLogMessageOfAnError: the line of a 4xx or 5xx carries the message
// its client got, a list of field problems too, so that a 400 explains
// itself in the log.
func TestLogMessageOfAnError(t *testing.T) {
	tests := []struct {
		name    string
		request func(t *testing.T, base string) *http.Request
		want    string
	}{
		{"one message", func(t *testing.T, base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/shared-links", nil)
		}, `message="Authentication required"`},
		{"a list of problems", func(t *testing.T, base string) *http.Request {
			body, ct := validForm("x").without("deviceId").encode(t)
			return newRequest(t, http.MethodPost, base+"/api/asset/upload", bytes.NewReader(body), "x-api-key", keyAlice, "Content-Type", ct)
		}, `message="deviceId must be a string; deviceId should not be empty"`},
		{"an unknown route", func(t *testing.T, base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/nowhere", nil)
		}, `message="Cannot GET /api/nowhere"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line := logLine(t, func(base string) *http.Request { return tt.request(t, base) })
			assert.Contains(t, line, tt.want)
		})
	}
	t.Run("none on a success", func(t *testing.T) {
		line := logLine(t, func(base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/shared-links", nil, "x-api-key", keyAlice)
		})
		assert.NotContains(t, line, "message=")
	})
}

// TestLogQueryMasksSecrets: the query is logged, for it often explains an
// answer, but the value of every parameter that carries a credential is
// masked.
func TestLogQueryMasksSecrets(t *testing.T) {
	tests := []struct {
		query  string
		logged string
	}{
		{"size=preview", `query="size=preview"`},
		{"key=" + linkUpload + "&size=thumbnail", `query="key=****&size=thumbnail"`},
		{"apiKey=" + keyAlice, `query="apiKey=****"`},
		{"token=t0ken-of-a-link&password=hunter22", `query="token=****&password=****"`},
		{"x-api-key=a1b2c3d4&access_token=a1b2c3d4&sessionId=a1b2c3d4&client_secret=a1b2c3d4&Authorization=a1b2c3d4",
			`query="x-api-key=****&access_token=****&sessionId=****&client_secret=****&Authorization=****"`},
		{"key&withoutValue=1", `query="key&withoutValue=1"`},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			line := logLine(t, func(base string) *http.Request {
				return newRequest(t, http.MethodGet, base+"/api/server-info/ping?"+tt.query, nil)
			})
			assert.Contains(t, line, tt.logged)
			for _, secret := range []string{linkUpload, keyAlice, "t0ken", "hunter22", "a1b2c3d4"} {
				assert.NotContains(t, line, secret)
			}
		})
	}
	t.Run("none", func(t *testing.T) {
		line := logLine(t, func(base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/server-info/ping", nil)
		})
		assert.NotContains(t, line, "query=")
	})
	t.Run("a long one is cut", func(t *testing.T) {
		line := logLine(t, func(base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/server-info/ping?q="+strings.Repeat("a", 5000), nil)
		})
		assert.Less(t, len(line), 1500, line)
	})
}

// TestLogCredential: the line names the credential that decided who the
// request acts for, by its kind and its last four characters, never more
// of it; a secret too short to show four of is shown by its kind alone.
func TestLogCredential(t *testing.T) {
	tests := []struct {
		name    string
		request func(t *testing.T, srv string) *http.Request
		want    string
		secrets []string
	}{
		{"an API key", func(t *testing.T, base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/shared-links", nil, "x-api-key", "a-long-api-key-9f3e")
		}, "credential.kind=api-key credential.last4=9f3e", []string{"a-long-api-key"}},
		{"an API key in the query", func(t *testing.T, base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/shared-links?apiKey="+keyAlice, nil)
		}, "credential.kind=api-key credential.last4=-key", []string{keyAlice}},
		{"a share key, before an API key", func(t *testing.T, base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/shared-links?key="+linkUpload, nil, "x-api-key", keyAlice)
		}, "credential.kind=share-key credential.last4=load", []string{linkUpload, keyAlice}},
		{"a share key header", func(t *testing.T, base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/shared-links/me", nil, "x-immich-share-key", linkUpload)
		}, "credential.kind=share-key credential.last4=load", []string{linkUpload}},
		{"a bearer session", func(t *testing.T, base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/users/me", nil, "Authorization", "Bearer s3ss10n-t0ken-abcd")
		}, "credential.kind=bearer credential.last4=abcd", []string{"s3ss10n"}},
		{"a session cookie", func(t *testing.T, base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/users/me", nil, "Cookie", "immich_access_token=c00kie-t0ken-wxyz")
		}, "credential.kind=cookie credential.last4=wxyz", []string{"c00kie"}},
		{"a user token header", func(t *testing.T, base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/users/me", nil, "x-immich-user-token", "us3r-t0ken-efgh")
		}, "credential.kind=user-token credential.last4=efgh", []string{"us3r"}},
		{"a short secret", func(t *testing.T, base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/shared-links", nil, "x-api-key", "abc123")
		}, "credential.kind=api-key", []string{"abc123", "c123", "last4"}},
		{"a key of other letters, ending in ASCII", func(t *testing.T, base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/shared-links", nil, "x-api-key", "ключ-ключ-abcd")
		}, "credential.kind=api-key credential.last4=abcd", []string{"ключ"}},
		{"a key ending in other letters", func(t *testing.T, base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/shared-links", nil, "x-api-key", "a-long-key-é123")
		}, "credential.kind=api-key", []string{"a-long", "é123", "last4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line := logLine(t, func(base string) *http.Request { return tt.request(t, base) })
			assert.Contains(t, line, tt.want)
			for _, s := range tt.secrets {
				assert.NotContains(t, line, s)
			}
		})
	}
	t.Run("none", func(t *testing.T) {
		line := logLine(t, func(base string) *http.Request {
			return newRequest(t, http.MethodGet, base+"/api/server-info/ping", nil)
		})
		assert.NotContains(t, line, "credential")
	})
}

// TestLogForcedStatus: a status the client forced with x-mock-status is
// marked as such, so that nobody hunts for a bug behind it.
func TestLogForcedStatus(t *testing.T) {
	line := logLine(t, func(base string) *http.Request {
		return newRequest(t, http.MethodGet, base+"/api/shared-links", nil, "x-mock-status", "503")
	})
	assert.Contains(t, line, "status=503")
	assert.Contains(t, line, "forced=x-mock-status")
	line = logLine(t, func(base string) *http.Request { return newRequest(t, http.MethodGet, base+"/api/shared-links", nil) })
	assert.Contains(t, line, "status=401")
	assert.NotContains(t, line, "forced")
}

// TestLogAsJSON: the JSON log (serve --log-format json) carries the same
// fields, one object per request.
func TestLogAsJSON(t *testing.T) {
	log := &logBuffer{}
	srv := newHardenedServer(t, Config{Dataset: testDataset, Now: testNow, Logger: slog.New(slog.NewJSONHandler(log, nil))})
	do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links?key="+linkUpload+"&size=preview", nil, "x-mock-status", "503"))
	line := log.line(`"msg":"request"`)
	require.NotEmpty(t, line, log.String())
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(line), &got), line)
	assert.Equal(t, "ERROR", got["level"])
	assert.EqualValues(t, 503, got["status"])
	assert.Equal(t, "Service Unavailable (asked for by x-mock-status)", got["message"])
	assert.Equal(t, "key=****&size=preview", got["query"])
	assert.Equal(t, map[string]any{"kind": "share-key", "last4": "load"}, got["credential"])
	assert.Equal(t, "x-mock-status", got["forced"])
	assert.NotContains(t, line, linkUpload)

	do(t, newRequest(t, http.MethodPost, srv.URL+"/api/asset/upload", nil, "x-api-key", keyAlice))
	line = log.line(`"status":400`)
	require.NoError(t, json.Unmarshal([]byte(line), &got), line)
	assert.Equal(t, "WARN", got["level"])
	assert.Equal(t, "File is required", got["message"])
}
