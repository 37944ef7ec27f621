package api

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/openapi"
)

// shape is what a JSON body's field holds, as far as its type goes: the
// test sends each field a value of every other type.
type shape struct {
	kind   string // boolean, string, date, integer, number, array, object
	items  *shape
	fields map[string]*shape
}

// shapeOf reads an OpenAPI schema as a shape.
func shapeOf(s *openapi3.Schema) *shape {
	switch {
	case s.Type.Is("boolean"):
		return &shape{kind: "boolean"}
	case s.Type.Is("string") && s.Format == "date-time":
		return &shape{kind: "date"}
	case s.Type.Is("string"):
		return &shape{kind: "string"}
	case s.Type.Is("integer"):
		return &shape{kind: "integer"}
	case s.Type.Is("number"):
		return &shape{kind: "number"}
	case s.Type.Is("array"):
		return &shape{kind: "array", items: shapeOf(s.Items.Value)}
	}
	sh := &shape{kind: "object", fields: map[string]*shape{}}
	for name, p := range s.Properties {
		sh.fields[name] = shapeOf(p.Value)
	}
	return sh
}

// wrongValues are values of another type than sh's, each with what it is.
func wrongValues(sh *shape) map[string]string {
	all := map[string]string{
		"a string": `"yes"`, "a number": `12345`, "a fraction": `1.5`, "a boolean": `true`,
		"an array": `[]`, "an object": `{}`, "a word for a date": `"tomorrow"`,
	}
	keep := map[string][]string{
		"boolean": {"a string", "a number", "an array", "an object"},
		"string":  {"a number", "a boolean", "an array", "an object"},
		"date":    {"a word for a date", "a number", "a boolean", "an array", "an object"},
		"integer": {"a string", "a fraction", "a boolean", "an array", "an object"},
		"number":  {"a string", "a boolean", "an array", "an object"},
		"array":   {"a string", "a number", "a boolean", "an object"},
		"object":  {"a string", "a number", "a boolean", "an array"},
	}[sh.kind]
	out := map[string]string{}
	for _, k := range keep {
		out[k] = all[k]
	}
	return out
}

// wrongBodies are bodies that each give one field, at any depth, a value
// of a wrong type, named by the field's path and the value's kind.
func wrongBodies(sh *shape) map[string]string {
	out := map[string]string{}
	for _, name := range sortedKeys(sh.fields) {
		field := sh.fields[name]
		wrap := func(v string) string { return fmt.Sprintf(`{%q: %s}`, name, v) }
		for what, v := range wrongValues(field) {
			out[name+" as "+what] = wrap(v)
		}
		if field.kind == "array" && field.items != nil {
			if field.items.kind == "object" {
				for path, body := range wrongBodies(field.items) {
					out[name+"[0]."+path] = wrap("[" + body + "]")
				}
			}
			for what, v := range wrongValues(field.items) {
				out[name+"[0] as "+what] = wrap("[" + v + "]")
			}
		}
		if field.kind == "object" {
			for path, body := range wrongBodies(field) {
				out[name+"."+path] = wrap(body)
			}
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// jsonOperation is an operation that takes a JSON body.
type jsonOperation struct {
	method, path string
	body         *shape
}

// controlBodies are the JSON bodies of the control API, which the OpenAPI
// document leaves out, as BEHAVIOUR.md and docs/ give them.
func controlBodies() map[string]*shape {
	return map[string]*shape{
		"POST /__mock/users": {kind: "object", fields: map[string]*shape{
			"name": {kind: "string"}, "email": {kind: "string"}, "quotaSizeInBytes": {kind: "integer"},
		}},
		"POST /__mock/shared-links": {kind: "object", fields: map[string]*shape{
			"type": {kind: "string"}, "assetIds": {kind: "array", items: &shape{kind: "string"}},
			"albumName": {kind: "string"}, "allowUpload": {kind: "boolean"}, "allowDownload": {kind: "boolean"},
			"showMetadata": {kind: "boolean"}, "password": {kind: "string"}, "description": {kind: "string"},
			"expiresAt": {kind: "date"},
		}},
		"POST /__mock/reset":                {kind: "object", fields: map[string]*shape{"empty": {kind: "boolean"}}},
		"PUT /__mock/people/{id}/thumbnail": {kind: "object", fields: map[string]*shape{"thumbnailPath": {kind: "string"}}},
		"POST /__mock/faces": {kind: "object", fields: map[string]*shape{
			"assetId": {kind: "string"}, "personId": {kind: "string"},
			"boundingBoxX1": {kind: "integer"}, "boundingBoxY1": {kind: "integer"}, "boundingBoxX2": {kind: "integer"},
			"boundingBoxY2": {kind: "integer"}, "imageWidth": {kind: "integer"}, "imageHeight": {kind: "integer"},
		}},
	}
}

// jsonOperations are every operation of the mock that takes a JSON body:
// those of the OpenAPI document, and the control API's, each of which
// routes.go registers (a new one there fails this until it is described).
func jsonOperations(t *testing.T) []jsonOperation {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(openapi.YAML())
	require.NoError(t, err)
	var ops []jsonOperation
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody == nil || op.RequestBody.Value.Content.Get("application/json") == nil {
				continue
			}
			ops = append(ops, jsonOperation{method: method, path: "/api" + path, body: shapeOf(op.RequestBody.Value.Content.Get("application/json").Schema.Value)})
		}
	}
	routes, err := os.ReadFile("routes.go")
	require.NoError(t, err)
	for _, m := range regexp.MustCompile(`"((?:POST|PUT|PATCH) /__mock/[^"]*)"`).FindAllStringSubmatch(string(routes), -1) {
		body, ok := controlBodies()[m[1]]
		require.True(t, ok, "%s takes a body: describe it in controlBodies", m[1])
		method, path, _ := strings.Cut(m[1], " ")
		ops = append(ops, jsonOperation{method: method, path: path, body: body})
	}
	slices.SortFunc(ops, func(a, b jsonOperation) int { return strings.Compare(a.method+a.path, b.method+b.path) })
	return ops
}

// goWords are what a message must never hold: Go's type names, its
// decoder's words, its time layout.
func goWords() []string {
	return []string{"struct", "int64", "float64", "Go ", "unmarshal", "2006-01-02", "time.Time", "json:",
		"reflect", "[]string", "*model", "model.", "parsing time", "map[", "interface {"}
}

// TestErrorMessagesSpeakTheAPI sends every field of every JSON body the
// mock takes (the OpenAPI document's operations and the control API's) a
// value of each wrong type, at any depth, and checks that the answer is a
// 4xx whose message speaks the API: no Go type, decoder word or layout,
// and, where it refuses the value, the field's name.
func TestErrorMessagesSpeakTheAPI(t *testing.T) {
	srv := newTestServer(t)
	ids := strings.NewReplacer("/api/shared-links/{id}", "/api/shared-links/"+viewLinkID, "/api/albums/{id}", "/api/albums/"+testAlbumID,
		"/api/asset/{id}", "/api/asset/"+aliceAssetID, "/api/admin/users/{id}", "/api/admin/users/"+carolID,
		"/api/partners/{id}", "/api/partners/"+bobID, "/api/api-keys/{id}", "/api/api-keys/"+carolID, "{userId}", bobID,
		"/api/people/{id}", "/api/people/"+carolID, "/api/faces/{id}", "/api/faces/"+carolID, "/__mock/people/{id}", "/__mock/people/"+carolID,
		"/api/jobs/{id}", "/api/jobs/thumbnailGeneration", "/api/libraries/{id}", "/api/libraries/"+makeLibrary(t, srv, "").ID,
		"/api/memories/{id}", "/api/memories/"+createMemory(t, srv, keyAlice, "2021-01-01").ID, "/api/tags/{id}", "/api/tags/"+createTag(t, srv, keyAlice, "messages").ID)
	// Declared without a rule, by the reference too: any value is taken,
	// and the message names the body's other problems.
	untyped := map[string]bool{"PUT /api/asset duplicateId": true,
		// Type(() => Number) reads true as 1, as the reference does: what is
		// wrong is the rest of the body, which the message names.
		"POST /api/search/smart page": true, "POST /api/search/smart size": true, "PUT /api/system-config user": true,
		// A date that is none throws its own message, without the path of
		// the list it is in, as the reference's does.
		"PUT /api/people people": true,
		// A memory's data is judged only for the type on_this_day, which
		// these bodies leave out, as the reference's Type picks its class.
		"POST /api/memories data": true,
		// IsNotEmpty alone, as the reference declares it.
		"POST /api/asset/exist deviceId": true,
		// A string is read as its characters, each a file name, as the
		// reference reads it: the message names the first.
		"POST /api/reports/checksum filenames": true}
	ops := jsonOperations(t)
	require.GreaterOrEqual(t, len(ops), 12, "every JSON body: %v", ops)
	for _, op := range ops {
		path := ids.Replace(op.path)
		require.NotContains(t, path, "{", "give %s an id", op.path)
		bodies := wrongBodies(op.body)
		require.NotEmpty(t, bodies, op.method+" "+op.path)
		for _, name := range sortedKeys(bodies) {
			t.Run(op.method+" "+op.path+" "+name, func(t *testing.T) {
				r := newRequest(t, op.method, srv.URL+path, bytes.NewReader([]byte(bodies[name])),
					"Content-Type", "application/json", "x-api-key", keyAlice)
				rep := do(t, r)
				require.Less(t, rep.status, 500, "body %s: %s", bodies[name], rep.body)
				if rep.status < 400 {
					return // taken, as the reference takes "true" for true
				}
				var e errorReply
				rep.json(t, &e)
				var messages []string
				switch m := e.Message.(type) {
				case string:
					messages = []string{m}
				case []any:
					for _, v := range m {
						messages = append(messages, fmt.Sprint(v))
					}
				}
				require.NotEmpty(t, messages, "%s", rep.body)
				all := strings.Join(messages, "\n")
				for _, w := range goWords() {
					assert.NotContains(t, strings.ToLower(all), strings.ToLower(w), "body %s", bodies[name])
				}
				field := strings.FieldsFunc(name, func(r rune) bool { return r == '[' || r == '.' || r == ' ' })[0]
				if untyped[op.method+" "+op.path+" "+field] {
					return
				}
				assert.Contains(t, all, field, "the message names the field; body %s", bodies[name])
			})
		}
	}
}

// TestControlMessagesNameTheFieldAndType: the control API refuses a value
// of the wrong type with the field's name, its path for a nested one, and
// the type it takes, in the API's words.
func TestControlMessagesNameTheFieldAndType(t *testing.T) {
	srv := newTestServer(t)
	tests := []struct {
		path, body string
		message    string
	}{
		{"/__mock/reset", `{"empty":"yes"}`, "empty must be a boolean"},
		{"/__mock/shared-links", `{"type":"INDIVIDUAL","expiresAt":"tomorrow"}`, "expiresAt must be an ISO 8601 date"},
		{"/__mock/shared-links", `{"type":"ALBUM","albumName":7}`, "albumName must be a string"},
		{"/__mock/shared-links", `{"type":"INDIVIDUAL","assetIds":"x"}`, "assetIds must be an array"},
		{"/__mock/shared-links", `{"type":"INDIVIDUAL","assetIds":["` + aliceAssetID + `",7]}`, "assetIds.1 must be a string"},
		{"/__mock/shared-links", `{"type":"INDIVIDUAL","allowUpload":{}}`, "allowUpload must be a boolean"},
		{"/__mock/users", `{"name":"n","email":"e@example.com","quotaSizeInBytes":"lots"}`, "quotaSizeInBytes must be an integer"},
		{"/__mock/users", `{"name":"n","email":"e@example.com","quotaSizeInBytes":1.5}`, "quotaSizeInBytes must be an integer"},
		{"/__mock/users", `{"name":["n"],"email":"e@example.com"}`, "name must be a string"},
		{"/__mock/users", `{"name":"n","email":"e@example.com","nickname":"x"}`, "property nickname should not exist"},
		{"/__mock/users", `["n"]`, "the body must be a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			r := newRequest(t, http.MethodPost, srv.URL+tt.path, strings.NewReader(tt.body), "Content-Type", "application/json", "x-api-key", keyAlice)
			requireError(t, do(t, r), http.StatusBadRequest, []string{tt.message})
		})
	}
	t.Run("every problem at once", func(t *testing.T) {
		r := newRequest(t, http.MethodPost, srv.URL+"/__mock/shared-links",
			strings.NewReader(`{"type":"INDIVIDUAL","allowUpload":"maybe","expiresAt":5,"description":false}`),
			"Content-Type", "application/json", "x-api-key", keyAlice)
		requireError(t, do(t, r), http.StatusBadRequest, []string{"allowUpload must be a boolean", "description must be a string", "expiresAt must be an ISO 8601 date"})
	})
}
