package api

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/openapi"
)

// routePattern is one route of the table, its pattern split: "GET
// /api/asset/{id}" is method GET, path /api/asset/{id}.
type routePattern struct {
	method, path string
	policy       policy
	at           string // the pattern, for messages
}

// registeredRoutes are the routes of the mock's table, as a server with
// the control API registers them.
func registeredRoutes(t *testing.T) []routePattern {
	t.Helper()
	m, err := New(Config{Dataset: testDataset, Now: testNow})
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.Close() })
	var out []routePattern
	for _, r := range m.s.routeTable() {
		method, path, ok := strings.Cut(r.pattern, " ")
		if !ok { // no method: every method, as the live socket's route
			method, path = "", r.pattern
		}
		out = append(out, routePattern{method: method, path: path, policy: r.policy, at: r.pattern})
	}
	return out
}

// pathParam is a path parameter of a template, whatever its name.
var pathParam = regexp.MustCompile(`\{[^}]*\}`)

// operationKey names an operation by method and path template, its
// parameters unnamed: the mux's {id} is the document's {id}, and
// {userId} matches whatever the document calls it.
func operationKey(method, path string) string {
	return strings.ToUpper(method) + " " + pathParam.ReplaceAllString(path, "{}")
}

// documentedOperations are the operations of our document, by
// operationKey with the server's base path (/api) in front.
func documentedOperations(t *testing.T) map[string]string {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(openapi.YAML())
	require.NoError(t, err)
	require.Len(t, doc.Servers, 1)
	base := doc.Servers[0].URL
	out := map[string]string{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			out[operationKey(method, base+path)] = op.OperationID
		}
	}
	return out
}

// isAPIRoute says whether a pattern is an operation of the API, which the
// document must describe: under /api/, but the live socket (socket.io, no
// REST operation), the control API, and the routes that serve the document
// itself (the mock's own: a conforming server need not answer them, and
// the reference does not, so the document leaves them out).
func isAPIRoute(r routePattern) bool {
	return strings.HasPrefix(r.path, "/api/") && !strings.HasPrefix(r.path, "/api/socket.io") && !slices.Contains(documentRoutes, r.path)
}

// documentRoutes are the routes of the document itself.
var documentRoutes = []string{"/api/openapi.json", "/api/openapi.yaml"}

// TestEveryAPIRouteIsDocumented: every /api operation routes.go serves is
// in openapi/openapi.yaml (the harness fails on an operation the document
// lacks, and clients generate their code from it), and the document
// describes no operation the mock does not serve.
func TestEveryAPIRouteIsDocumented(t *testing.T) {
	routes := registeredRoutes(t)
	require.Greater(t, len(routes), 70, "the route table is read: %v", routes)
	documented := documentedOperations(t)
	require.NotEmpty(t, documented)

	served := map[string]bool{}
	var missing []string
	for _, r := range routes {
		if !isAPIRoute(r) {
			continue
		}
		require.NotEmpty(t, r.method, "%s: an API route names its method", r.at)
		key := operationKey(r.method, r.path)
		served[key] = true
		if _, ok := documented[key]; !ok {
			missing = append(missing, r.method+" "+r.path+" ("+r.at+")")
		}
	}
	if len(missing) > 0 {
		t.Errorf("routes.go serves %d /api operations that openapi/openapi.yaml does not describe:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}

	var unserved []string
	for key, id := range documented {
		if !served[key] {
			unserved = append(unserved, id+": "+key)
		}
	}
	slices.Sort(unserved)
	if len(unserved) > 0 {
		t.Errorf("openapi/openapi.yaml describes %d operations that routes.go does not serve:\n  %s", len(unserved), strings.Join(unserved, "\n  "))
	}
}

// TestRouteTableIsRead checks the table's patterns are told apart.
func TestRouteTableIsRead(t *testing.T) {
	routes := registeredRoutes(t)
	find := func(method, path string) bool {
		return slices.ContainsFunc(routes, func(r routePattern) bool { return r.method == method && r.path == path })
	}
	assert.True(t, find("POST", "/api/asset/upload"))
	assert.True(t, find("PUT", "/api/albums/{id}/user/{userId}"))
	assert.True(t, find("", "/api/socket.io/"), "a pattern without a method")
	assert.True(t, find("GET", "/__mock/users"))
	assert.False(t, isAPIRoute(routePattern{method: "GET", path: "/__mock/users"}))
	assert.False(t, isAPIRoute(routePattern{method: "GET", path: "/custom.css"}))
	assert.False(t, isAPIRoute(routePattern{path: "/api/socket.io/"}))
	assert.True(t, isAPIRoute(routePattern{method: "GET", path: "/api/users/{id}"}))
	assert.True(t, find("GET", "/api/openapi.json"), "the mock serves the document")
	assert.False(t, isAPIRoute(routePattern{method: "GET", path: "/api/openapi.json"}), "and the document leaves its own routes out")
	assert.Equal(t, "PUT /api/albums/{}/user/{}", operationKey("put", "/api/albums/{id}/user/{userId}"))
}

// TestEveryRouteRefusesWhomItsPolicyRefuses calls every route of the table
// as each caller its policy refuses, and is told so before anything is
// read or done: no credentials get 401 from every route that needs them,
// a user who is no admin 403 from every admin route, and a link's key 403
// from every route for users alone. The table, not a list, says which.
func TestEveryRouteRefusesWhomItsPolicyRefuses(t *testing.T) {
	srv := newTestServer(t)
	const anyID = "7d0c5f8e-2b4a-4c1e-9f3a-6b8d2e1c0a95"
	type caller struct {
		name   string
		header [2]string
		status int
		refuse func(policy) bool
	}
	callers := []caller{
		{"no credentials", [2]string{}, http.StatusUnauthorized, func(p policy) bool { return p != anyone }},
		{"a user who is no admin", [2]string{"x-api-key", keyBob}, http.StatusForbidden, func(p policy) bool { return p == admin }},
		{"a link's key", [2]string{"x-immich-share-key", linkUpload}, http.StatusForbidden, func(p policy) bool { return p == user || p == admin }},
	}
	checked := map[string]int{}
	for _, r := range registeredRoutes(t) {
		if r.method == "" {
			continue // the live socket: it judges the credentials itself
		}
		url := srv.URL + pathParam.ReplaceAllString(r.path, anyID)
		for _, c := range callers {
			if !c.refuse(r.policy) {
				continue
			}
			req, err := http.NewRequest(r.method, url, strings.NewReader("{}"))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			if c.header[0] != "" {
				req.Header.Set(c.header[0], c.header[1])
			}
			rep := do(t, req)
			if assert.Equal(t, c.status, rep.status, "%s as %s: %s", r.at, c.name, rep.body) {
				assert.Equal(t, "application/json", rep.header.Get("Content-Type"), "%s as %s", r.at, c.name)
			}
			checked[c.name]++
		}
	}
	// The table holds routes of every policy the callers are refused by.
	assert.Greater(t, checked["no credentials"], 80)
	assert.Greater(t, checked["a user who is no admin"], 10)
	assert.Greater(t, checked["a link's key"], 50)
}
