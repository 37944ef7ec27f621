package mockserver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/openapi"
)

// routePattern is one pattern the mock registers with s.route, as its
// source spells it: "GET /api/asset/{id}".
type routePattern struct {
	method, path string
	at           string // file:line, for messages
}

// registeredRoutes reads every s.route("...") of the package's source (not
// its tests): the route table as routes.go writes it, without running the
// server or exporting anything from it.
func registeredRoutes(t *testing.T) []routePattern {
	t.Helper()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	var out []routePattern
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "route" {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			require.True(t, ok && lit.Kind == token.STRING, "%s: a route's pattern is a string literal", fset.Position(call.Pos()))
			pattern, err := strconv.Unquote(lit.Value)
			require.NoError(t, err)
			method, path, ok := strings.Cut(pattern, " ")
			if !ok { // no method: every method, as the live socket's route
				method, path = "", pattern
			}
			out = append(out, routePattern{method: method, path: path, at: fset.Position(call.Pos()).String()})
			return true
		})
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

// TestRouteTableIsRead checks the reader on patterns it must tell apart.
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
