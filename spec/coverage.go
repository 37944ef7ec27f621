package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

// Coverage tallies what the answers of a run showed of the document: for
// each operation, the statuses received, the response fields present at
// least once and the enum values seen. A tester reads from it what a green
// run did not look at. A Coverage is safe for concurrent use.
type Coverage struct {
	v   *Validator
	ops []*opTally // in the order of the report

	mu       sync.Mutex
	byOp     map[*openapi3.Operation]*opTally
	unrouted int
}

// opTally is one operation: what the document says of its answers, fixed
// at NewCoverage, and what the answers showed, under Coverage.mu.
type opTally struct {
	id, method, path string
	documented       []string            // statuses, "default" last
	fields           []string            // of every documented JSON body
	enums            map[string][]string // field path → the values the document allows

	responses int
	statuses  map[int]int
	seen      map[string]bool
	values    map[string]map[string]bool
}

// Bounds that keep a hostile target from growing a Coverage without end.
const (
	maxCoverageBody   = 8 << 20 // bodies larger are counted, not read
	maxCoverageFields = 2000    // distinct field paths per operation
	maxCoverageDepth  = 32      // how deep a body or a schema is walked
)

// NewCoverage returns an empty tally of v's document.
func (v *Validator) NewCoverage() *Coverage {
	c := &Coverage{v: v, byOp: map[*openapi3.Operation]*opTally{}}
	methodOrder := []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}
	for _, path := range slices.Sorted(slices.Values(v.doc.Paths.Keys())) {
		ops := v.doc.Paths.Value(path).Operations()
		methods := slices.SortedFunc(maps.Keys(ops), func(a, b string) int {
			ia, ib := slices.Index(methodOrder, a), slices.Index(methodOrder, b)
			if ia < 0 || ib < 0 {
				return strings.Compare(a, b)
			}
			return ia - ib
		})
		for _, m := range methods {
			op := ops[m]
			t := &opTally{id: op.OperationID, method: m, path: path, enums: map[string][]string{},
				statuses: map[int]int{}, seen: map[string]bool{}, values: map[string]map[string]bool{}}
			fields := map[string]bool{}
			for _, status := range op.Responses.Keys() {
				if status != "default" {
					t.documented = append(t.documented, status)
				}
				r := op.Responses.Value(status)
				if r == nil || r.Value == nil {
					continue
				}
				for mediaType, content := range r.Value.Content {
					if isJSON(mediaType) && content != nil {
						walkSchema(content.Schema, "", 0, map[*openapi3.Schema]bool{}, fields, t.enums)
					}
				}
			}
			slices.Sort(t.documented)
			if op.Responses.Default() != nil {
				t.documented = append(t.documented, "default")
			}
			t.fields = slices.Sorted(maps.Keys(fields))
			c.ops = append(c.ops, t)
			c.byOp[op] = t
		}
	}
	return c
}

func isJSON(mediaType string) bool {
	mt, _, err := mime.ParseMediaType(mediaType)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// joinField writes the path of a field: "assets[*].type", "[*].id" in a
// body that is a list.
func joinField(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// walkSchema lists the fields a schema documents and the values its enums
// allow, through allOf, oneOf, anyOf and items; a schema that holds itself
// is walked once on each path.
func walkSchema(ref *openapi3.SchemaRef, path string, depth int, onPath map[*openapi3.Schema]bool, fields map[string]bool, enums map[string][]string) {
	if ref == nil || ref.Value == nil || depth > maxCoverageDepth || onPath[ref.Value] {
		return
	}
	s := ref.Value
	onPath[s] = true
	defer delete(onPath, s)
	if len(s.Enum) > 0 && path != "" {
		for _, e := range s.Enum {
			if v := valueString(e); !slices.Contains(enums[path], v) {
				enums[path] = append(enums[path], v)
			}
		}
	}
	for _, list := range [][]*openapi3.SchemaRef{s.AllOf, s.OneOf, s.AnyOf} {
		for _, sub := range list {
			walkSchema(sub, path, depth+1, onPath, fields, enums)
		}
	}
	for name, p := range s.Properties {
		f := joinField(path, name)
		fields[f] = true
		walkSchema(p, f, depth+1, onPath, fields, enums)
	}
	if s.Items != nil {
		walkSchema(s.Items, path+"[*]", depth+1, onPath, fields, enums)
	}
}

// valueString writes a JSON value as a report shows it: a string as it is,
// anything else as JSON.
func valueString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Add tallies an answer: its status, and the fields and enum values of a
// JSON body. method and target are the request's, target as the document
// routes it (with its server's base path, e.g. "/api/shared-links?key=...").
// An answer to a request that matches no operation is only counted.
func (c *Coverage) Add(method, target string, status int, header http.Header, body []byte) {
	r, err := http.NewRequest(method, "http://target"+target, nil)
	if err != nil {
		c.unroutedAnswer()
		return
	}
	route, _, err := c.v.route(r)
	if err != nil {
		c.unroutedAnswer()
		return
	}
	t := c.byOp[route.Operation] // fixed since NewCoverage: read without the lock
	if t == nil {
		c.unroutedAnswer()
		return
	}
	var doc any
	decoded := false
	if len(body) > 0 && len(body) <= maxCoverageBody && isJSON(header.Get("Content-Type")) {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		decoded = dec.Decode(&doc) == nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t.responses++
	t.statuses[status]++
	if decoded {
		t.walkBody(doc, "", 0)
	}
}

func (c *Coverage) unroutedAnswer() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.unrouted++
}

// walkBody marks the fields of a body as seen, and the values of its enum
// fields. The caller holds the lock.
func (t *opTally) walkBody(v any, path string, depth int) {
	if depth > maxCoverageDepth {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for name, val := range x {
			f := joinField(path, name)
			if !t.seen[f] && len(t.seen) >= maxCoverageFields {
				continue
			}
			t.seen[f] = true
			t.walkBody(val, f, depth+1)
		}
	case []any:
		for _, e := range x {
			t.walkBody(e, path+"[*]", depth+1)
		}
	default:
		if _, ok := t.enums[path]; ok {
			if t.values[path] == nil {
				t.values[path] = map[string]bool{}
			}
			t.values[path][valueString(x)] = true
		}
	}
}

// CoverageReport is what a Coverage found, as `--format coverage:FILE`
// writes it.
type CoverageReport struct {
	// Operations are every operation of the document, exercised or not.
	Operations []OperationCoverage `json:"operations"`
	// NotExercised names the operations no answer came for, as
	// "GET /users/{id}/profile-image (getProfileImage)".
	NotExercised []string `json:"notExercised"`
	// Unrouted counts the answers to requests that match no operation.
	Unrouted int `json:"unrouted"`
}

// OperationCoverage is what the answers of one operation showed.
type OperationCoverage struct {
	OperationID string `json:"operationId"`
	Method      string `json:"method"`
	// Path is the document's, under its server's base path.
	Path string `json:"path"`
	// Responses counts the answers.
	Responses int `json:"responses"`
	// Received counts the answers by status.
	Received map[string]int `json:"received"`
	// Documented are the statuses the document lists, "default" (every
	// error status it does not list) last.
	Documented []string `json:"documented"`
	// NotReceived are the documented statuses no answer had; "default"
	// when no answer had an error status the document does not list.
	NotReceived []string `json:"notReceived"`
	// FieldsSeen are the body fields present at least once, as JSON paths
	// with [*] for a list's elements ("assets[*].type").
	FieldsSeen []string `json:"fieldsSeen"`
	// FieldsNotSeen are the fields the document describes that no answer
	// had.
	FieldsNotSeen []string `json:"fieldsNotSeen"`
	// Enums are the fields whose values the document lists.
	Enums []EnumCoverage `json:"enums,omitempty"`
}

// EnumCoverage is the values of one enum field: those the document allows,
// those seen and those never seen.
type EnumCoverage struct {
	Field   string   `json:"field"`
	Values  []string `json:"values"`
	Seen    []string `json:"seen"`
	NotSeen []string `json:"notSeen"`
}

// Exercised says whether any answer came for the operation.
func (o OperationCoverage) Exercised() bool { return o.Responses > 0 }

// Report returns what the Coverage holds.
func (c *Coverage) Report() CoverageReport {
	c.mu.Lock()
	defer c.mu.Unlock()
	rep := CoverageReport{Operations: []OperationCoverage{}, NotExercised: []string{}, Unrouted: c.unrouted}
	for _, t := range c.ops {
		o := OperationCoverage{
			OperationID: t.id, Method: t.method, Path: t.path, Responses: t.responses,
			Received: map[string]int{}, Documented: slices.Clone(t.documented),
			NotReceived: []string{}, FieldsSeen: []string{}, FieldsNotSeen: []string{},
		}
		if o.Documented == nil {
			o.Documented = []string{}
		}
		defaultSeen := false
		for status, n := range t.statuses {
			code := strconv.Itoa(status)
			o.Received[code] = n
			if status >= 400 && !slices.Contains(t.documented, code) {
				defaultSeen = true
			}
		}
		for _, d := range t.documented {
			_, got := o.Received[d]
			if (d == "default" && !defaultSeen) || (d != "default" && !got) {
				o.NotReceived = append(o.NotReceived, d)
			}
		}
		o.FieldsSeen = append(o.FieldsSeen, slices.Sorted(maps.Keys(t.seen))...)
		for _, f := range t.fields {
			if !t.seen[f] {
				o.FieldsNotSeen = append(o.FieldsNotSeen, f)
			}
		}
		for _, field := range slices.Sorted(maps.Keys(t.enums)) {
			e := EnumCoverage{Field: field, Values: t.enums[field], Seen: []string{}, NotSeen: []string{}}
			e.Seen = append(e.Seen, slices.Sorted(maps.Keys(t.values[field]))...)
			for _, v := range e.Values {
				if !t.values[field][v] {
					e.NotSeen = append(e.NotSeen, v)
				}
			}
			o.Enums = append(o.Enums, e)
		}
		if !o.Exercised() {
			rep.NotExercised = append(rep.NotExercised, fmt.Sprintf("%s %s (%s)", t.method, t.path, t.id))
		}
		rep.Operations = append(rep.Operations, o)
	}
	return rep
}
