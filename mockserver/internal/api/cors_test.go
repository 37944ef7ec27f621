package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// devOrigin is the origin of a frontend's dev server in these tests.
const devOrigin = "http://localhost:5173"

// preflight sends the OPTIONS request a browser sends before a call from
// origin that needs one, asking for the request headers in asked.
func preflight(t *testing.T, url, origin, method, asked string) reply {
	t.Helper()
	headers := []string{"Origin", origin, "Access-Control-Request-Method", method}
	if asked != "" {
		headers = append(headers, "Access-Control-Request-Headers", asked)
	}
	rep := do(t, newRequest(t, http.MethodOptions, url, nil, headers...))
	require.Equal(t, http.StatusNoContent, rep.status)
	return rep
}

// allowedHeaders is a preflight's Access-Control-Allow-Headers as a set of
// lower-case names.
func allowedHeaders(rep reply) map[string]bool {
	set := map[string]bool{}
	for _, v := range rep.header.Values("Access-Control-Allow-Headers") {
		for name := range strings.SplitSeq(v, ",") {
			if name = strings.ToLower(strings.TrimSpace(name)); name != "" {
				set[name] = true
			}
		}
	}
	return set
}

// varies is the set of request headers the answer says it varies on.
func varies(rep reply) map[string]bool {
	set := map[string]bool{}
	for _, v := range rep.header.Values("Vary") {
		for name := range strings.SplitSeq(v, ",") {
			set[http.CanonicalHeaderKey(strings.TrimSpace(name))] = true
		}
	}
	return set
}

// TestCORSEchoesTheOriginWithCredentials: a page's credentialed fetch
// (cookies, a session) needs its own origin back and Allow-Credentials;
// `*` is refused by browsers for those. Errors carry it too, or the page
// could not read why it failed.
func TestCORSEchoesTheOriginWithCredentials(t *testing.T) {
	srv := newTestServer(t)
	for name, r := range map[string]*http.Request{
		"an answer": newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "Origin", devOrigin, "x-api-key", keyAlice),
		"an error":  newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "Origin", devOrigin),
		"a 404":     newRequest(t, http.MethodGet, srv.URL+"/api/nowhere", nil, "Origin", devOrigin),
		"a forced status": newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "Origin", devOrigin,
			"x-mock-status", "503"),
	} {
		t.Run(name, func(t *testing.T) {
			rep := do(t, r)
			assert.Equal(t, devOrigin, rep.header.Get("Access-Control-Allow-Origin"))
			assert.Equal(t, "true", rep.header.Get("Access-Control-Allow-Credentials"))
		})
	}
	t.Run("a preflight", func(t *testing.T) {
		rep := preflight(t, srv.URL+"/api/asset/upload", devOrigin, http.MethodPost, "x-api-key")
		assert.Equal(t, devOrigin, rep.header.Get("Access-Control-Allow-Origin"))
		assert.Equal(t, "true", rep.header.Get("Access-Control-Allow-Credentials"))
		for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
			assert.Contains(t, rep.header.Get("Access-Control-Allow-Methods"), m)
		}
	})
	t.Run("a file page's null origin", func(t *testing.T) {
		rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/server-info/ping", nil, "Origin", "null"))
		assert.Equal(t, "null", rep.header.Get("Access-Control-Allow-Origin"))
		assert.Equal(t, "true", rep.header.Get("Access-Control-Allow-Credentials"))
	})
}

// TestCORSWithoutAnOrigin: a client that is no browser page (curl, a
// test) sends no Origin, or one that is no origin at all: it gets `*`,
// which grants no credentials, and nothing of the request is echoed.
func TestCORSWithoutAnOrigin(t *testing.T) {
	srv := newTestServer(t)
	for name, origin := range map[string]string{
		"none":          "",
		"a path":        "http://localhost:5173/app",
		"no scheme":     "localhost:5173",
		"a user":        "http://me@localhost:5173",
		"a space":       "http://local host",
		"a query":       "http://localhost:5173?x=1",
		"far too long":  "http://" + strings.Repeat("a", 600) + ".example",
		"a wildcard":    "*",
		"a second list": devOrigin + " https://evil.example",
	} {
		t.Run(name, func(t *testing.T) {
			r := newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-api-key", keyAlice)
			if origin != "" {
				r.Header.Set("Origin", origin)
			}
			rep := do(t, r)
			assert.Equal(t, http.StatusOK, rep.status)
			assert.Equal(t, "*", rep.header.Get("Access-Control-Allow-Origin"))
			assert.Empty(t, rep.header.Get("Access-Control-Allow-Credentials"))
		})
	}
}

// TestCORSPreflightAllowsTheAskedHeaders: an app sends headers of its own
// (Sentry's sentry-trace and baggage, by default): the preflight allows
// what it asks for, besides the mock's own list. A header name that is no
// HTTP token, or a list beyond the bound, is not echoed.
func TestCORSPreflightAllowsTheAskedHeaders(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.ChecksumHeader = "x-immich-checksum" })
	own := []string{"x-api-key", "authorization", "content-type", "x-immich-checksum", "x-immich-share-key",
		"x-immich-user-token", "x-mock-status", "x-mock-delay"}
	tests := []struct {
		name     string
		asked    string
		allowed  []string
		refused  []string
		ownAlone bool
	}{
		{name: "tracing headers", asked: "sentry-trace, baggage, x-api-key", allowed: []string{"sentry-trace", "baggage", "x-api-key"}},
		{name: "any case, any spacing", asked: "X-Request-ID,Traceparent ,  x-custom", allowed: []string{"x-request-id", "traceparent", "x-custom"}},
		{name: "none asked", asked: "", ownAlone: true},
		{name: "names that are no tokens", asked: "sentry-trace, bad header, x\"y, baggage", allowed: []string{"sentry-trace", "baggage"}, refused: []string{"bad header", `x"y`}},
		{name: "a name too long", asked: "x-" + strings.Repeat("a", 300), refused: []string{"x-" + strings.Repeat("a", 300)}, ownAlone: true},
		{name: "a list too long", asked: strings.Repeat("x-header-of-an-app, ", 200), ownAlone: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := preflight(t, srv.URL+"/api/asset/upload", devOrigin, http.MethodPost, tt.asked)
			got := allowedHeaders(rep)
			for _, h := range own {
				assert.True(t, got[h], "the mock's own %s is always allowed: %v", h, got)
			}
			for _, h := range tt.allowed {
				assert.True(t, got[h], "%s asked for and allowed: %v", h, got)
			}
			for _, h := range tt.refused {
				assert.False(t, got[h], "%s is not echoed", h)
			}
			if tt.ownAlone {
				assert.Len(t, got, len(own), "only the mock's own: %v", got)
			}
			assert.LessOrEqual(t, len(rep.header.Get("Access-Control-Allow-Headers")), 2048, "a bounded answer")
		})
	}
}

// TestCORSExposesWhatClientsRead: a page reads a download's file name
// (Content-Disposition), a range's extent (Content-Range), the size and
// the type; without Expose-Headers a browser hides the first two.
func TestCORSExposesWhatClientsRead(t *testing.T) {
	srv := newTestServer(t)
	for name, origin := range map[string]string{"an origin": devOrigin, "none": ""} {
		t.Run(name, func(t *testing.T) {
			r := newRequest(t, http.MethodGet, srv.URL+"/api/server-info/ping", nil)
			if origin != "" {
				r.Header.Set("Origin", origin)
			}
			exposed := strings.ToLower(do(t, r).header.Get("Access-Control-Expose-Headers"))
			for _, h := range []string{"content-disposition", "content-range", "content-length", "content-type"} {
				assert.Contains(t, exposed, h)
			}
		})
	}
}

// TestCORSVaries: an answer that depends on the Origin says so, so that a
// cache never hands one origin's answer to another; a preflight's also
// depends on the headers it was asked for.
func TestCORSVaries(t *testing.T) {
	srv := newTestServer(t)
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "Origin", devOrigin, "x-api-key", keyAlice))
	assert.True(t, varies(rep)["Origin"], "Vary: %v", rep.header.Values("Vary"))
	rep = do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-api-key", keyAlice))
	assert.True(t, varies(rep)["Origin"], "without an Origin too: Vary: %v", rep.header.Values("Vary"))

	rep = preflight(t, srv.URL+"/api/shared-links", devOrigin, http.MethodGet, "sentry-trace")
	v := varies(rep)
	assert.True(t, v["Origin"], "Vary: %v", rep.header.Values("Vary"))
	assert.True(t, v["Access-Control-Request-Headers"], "Vary: %v", rep.header.Values("Vary"))
	assert.Len(t, rep.header.Values("Vary"), len(v), "each once: %v", rep.header.Values("Vary"))
}
