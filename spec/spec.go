// Package spec validates responses against the project's OpenAPI document
// (package openapi), or against any other OpenAPI 3 document.
//
// A Validator routes a request to its operation and checks the response to
// it with kin-openapi; problems
// come back as *Violations, one short line each, naming the JSON path, the rule
// and the offending value, never whole schemas. JSON response bodies are
// checked by schemas compiled at Load (body.go), which apply kin-openapi's
// rules in one pass over the bytes (a 100-link listing: 17.5 ms against
// 273-448 ms for kin-openapi, measured side by side); what they do not cover
// goes to kin-openapi.
package spec

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/mediaspec/mediaspec/openapi"
)

// ErrNoOperation is returned (wrapped, as "no operation for GET /api/nope")
// when a request matches no operation of the document.
var ErrNoOperation = errors.New("no operation")

// Validator checks requests and responses against one OpenAPI document. The
// document is loaded, validated and routed once; a Validator is safe for
// concurrent use.
type Validator struct {
	doc    *openapi3.T // never modified after Load
	router routers.Router
	// requestOptions and responseOptions are never modified after Load.
	requestOptions  *openapi3filter.Options
	responseOptions *openapi3filter.Options
	// bodies holds the compiled schema of each JSON response body that
	// validateBody can check (see body.go); the others go to kin-openapi.
	bodies map[*openapi3.MediaType]*node
}

// Load returns the Validator of the project's embedded document. It is
// loaded once per process and shared, as a Validator is never modified
// after it is made: loading it costs more than a short run of the harness,
// and a process may start many (the tests start hundreds).
func Load(ctx context.Context) (*Validator, error) {
	embedded.mu.Lock()
	defer embedded.mu.Unlock()
	if embedded.v != nil {
		return embedded.v, nil
	}
	v, err := LoadDocument(ctx, openapi.YAML())
	if err != nil {
		return nil, fmt.Errorf("embedded openapi.yaml: %w", err)
	}
	embedded.v = v
	return v, nil
}

// embedded is the Validator of the embedded document, once it is loaded; a
// load that failed (its context ended) is tried again by the next.
var embedded struct {
	mu sync.Mutex
	v  *Validator
}

// LoadDocument returns a Validator for an OpenAPI 3 document, in JSON or
// YAML, that refers to nothing outside itself (the upstream server's
// documents, for one).
func LoadDocument(ctx context.Context, data []byte) (*Validator, error) {
	loader := openapi3.NewLoader()
	loader.Context = ctx
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	return newValidator(ctx, doc)
}

// uuidPattern is the layout of a UUID of any version. kin-openapi does not
// check format "uuid" by default; the format validator is passed per call, so
// no global of kin-openapi is touched.
const uuidPattern = `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`

func newValidator(ctx context.Context, doc *openapi3.T) (*Validator, error) {
	if err := doc.Validate(ctx); err != nil {
		return nil, fmt.Errorf("invalid document: %w", err)
	}
	// gorillamux matches a relative server URL such as /api on any host and
	// scheme: it only adds host and scheme matchers when the URL has them.
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route document: %w", err)
	}
	schemaOptions := []openapi3.SchemaValidationOption{
		openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(uuidPattern)),
	}
	return &Validator{
		doc:    doc,
		router: router,
		bodies: compileBodies(doc),
		requestOptions: &openapi3filter.Options{
			MultiError: true,
			// Authentication is the server's business and the harness sends
			// bad credentials on purpose: only the shape of a request counts.
			AuthenticationFunc:      openapi3filter.NoopAuthenticationFunc,
			SkipSettingDefaults:     true,
			SchemaValidationOptions: schemaOptions,
		},
		responseOptions: &openapi3filter.Options{
			MultiError:              true,
			IncludeResponseStatus:   true,
			SchemaValidationOptions: schemaOptions,
		},
	}, nil
}

// route finds the operation of r, by method and path only.
func (v *Validator) route(r *http.Request) (*routers.Route, map[string]string, error) {
	route, params, err := v.router.FindRoute(r)
	if err != nil {
		if errors.Is(err, routers.ErrPathNotFound) || errors.Is(err, routers.ErrMethodNotAllowed) {
			return nil, nil, fmt.Errorf("%w for %s %s", ErrNoOperation, r.Method, r.URL.Path)
		}
		return nil, nil, fmt.Errorf("route %s %s: %w", r.Method, r.URL.Path, err)
	}
	return route, params, nil
}

// Response is a response to validate: its status, headers and whole body.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// ValidateResponse checks resp, the answer to r, against r's operation: the
// status must be documented, the Content-Type must be one the status
// documents, and the body must match its schema. An operation's default
// response documents error statuses (4xx and 5xx) only: a success status must
// be listed. It returns *Violations when resp does not conform, and an error
// wrapping ErrNoOperation when no operation matches r.
func (v *Validator) ValidateResponse(ctx context.Context, r *http.Request, resp Response) error {
	return v.validateResponse(ctx, r, resp, true)
}

// validateResponse is ValidateResponse; with fast unset, kin-openapi checks
// every body.
func (v *Validator) validateResponse(ctx context.Context, r *http.Request, resp Response, fast bool) error {
	route, params, err := v.route(r)
	if err != nil {
		return err
	}
	responses := route.Operation.Responses
	documented := responses.Status(resp.Status)
	if documented == nil && resp.Status >= 400 {
		documented = responses.Default()
	}
	if documented == nil || documented.Value == nil {
		return &Violations{List: []Violation{{
			Path: "status",
			Rule: fmt.Sprintf("%d is not documented for %s %s", resp.Status, r.Method, r.URL.Path),
		}}}
	}
	if content := documented.Value.Content; len(content) > 0 {
		mediaType := resp.Header.Get("Content-Type")
		if content.Get(mediaType) == nil {
			return &Violations{List: []Violation{{
				Path:  "header Content-Type",
				Rule:  fmt.Sprintf("value is not one of the documented media types %s for status %d", shortJSON(slices.Sorted(maps.Keys(content))), resp.Status),
				Value: strconv.Quote(mediaType),
			}}}
		}
	}
	if n := v.fastBody(r, resp, documented.Value); fast && n != nil {
		list, err := validateBody(n, resp.Body)
		if err == nil {
			if len(list) == 0 {
				return nil
			}
			return &Violations{List: list}
		}
		// Not plain valid JSON, a repeated key or deep nesting: kin-openapi says.
	}
	return v.validateResponseBody(ctx, r, route, params, resp)
}

// validateResponseBody checks resp's headers and body with kin-openapi, once
// ValidateResponse has checked its status and Content-Type.
func (v *Validator) validateResponseBody(ctx context.Context, r *http.Request, route *routers.Route, params map[string]string, resp Response) error {
	header := resp.Header
	if header == nil {
		header = http.Header{}
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request:    r,
			PathParams: params,
			Route:      route,
			Options:    v.responseOptions,
		},
		Status:  resp.Status,
		Header:  header,
		Body:    io.NopCloser(bytes.NewReader(resp.Body)),
		Options: v.responseOptions,
	}
	if err := openapi3filter.ValidateResponse(ctx, input); err != nil {
		list := dedupe(collect(nil, "", err))
		for i := range list {
			if list[i].Path == "$" && list[i].Value == "" && strings.HasPrefix(list[i].Rule, "cannot be decoded") {
				list[i].Value = shortJSON(string(resp.Body))
			}
		}
		return &Violations{List: list}
	}
	return nil
}

// Violation is one way a request or response breaks the document.
type Violation struct {
	// Path locates the problem: a JSON path into the body ("$[3].assets[0].type"),
	// "status", "header Content-Type", or a parameter ("query key").
	Path string
	// Rule is the rule broken, e.g. `property "ownerId" is missing`.
	Rule string
	// Value is the offending value as short JSON (at most about 80 bytes), or
	// empty when the rule says it all.
	Value string
}

// String returns the violation as one line: "<path>: <rule> (value: <value>)".
func (v Violation) String() string {
	if v.Value == "" {
		return v.Path + ": " + v.Rule
	}
	return v.Path + ": " + v.Rule + " (value: " + v.Value + ")"
}

// arrayIndex matches the array indexes of a Violation's Path.
var arrayIndex = regexp.MustCompile(`\[\d+\]`)

// Generalised returns v with the array indexes of its path written [*], so
// that one broken field of every element of a list reads as one problem.
func (v Violation) Generalised() Violation {
	v.Path = arrayIndex.ReplaceAllString(v.Path, "[*]")
	return v
}

// Violations is the error of a request or response that breaks the document.
// Get it with errors.As and range over its List.
type Violations struct {
	List []Violation
}

// maxLines bounds the message of a Violations: a listing broken the same way
// in each of its thousand assets is better told in a screenful.
const maxLines = 50

// Error returns one line per violation (at most 50, then a count of the rest).
func (vs *Violations) Error() string {
	var b strings.Builder
	for i, v := range vs.List {
		if i == maxLines {
			fmt.Fprintf(&b, "\n... and %d more violations", len(vs.List)-maxLines)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(v.String())
	}
	return b.String()
}

// collect appends to list the violations that kin-openapi's err holds. base is
// the path of what err is about ("" for the body: the paths of schema errors
// start with "$"). It walks the error tree itself rather than with errors.As,
// so that each error adds its part of the path.
func collect(list []Violation, base string, err error) []Violation {
	switch e := err.(type) {
	case openapi3.MultiError:
		for _, e := range e {
			list = collect(list, base, e)
		}
		return list
	case *openapi3filter.RequestError:
		switch {
		case e.Parameter != nil:
			base = e.Parameter.In + " " + e.Parameter.Name
		case e.RequestBody != nil:
			base = ""
		}
		switch {
		case e.Err == nil:
			return append(list, Violation{Path: orRoot(base), Rule: e.Reason})
		case errors.Is(e.Err, openapi3filter.ErrInvalidRequired) && e.Parameter != nil:
			return append(list, Violation{Path: orRoot(base), Rule: "the parameter is required but missing"})
		case errors.Is(e.Err, openapi3filter.ErrInvalidRequired):
			return append(list, Violation{Path: orRoot(base), Rule: "the request body is required but missing"})
		case !isSchemaError(e.Err) && !isParseError(e.Err):
			return append(list, Violation{Path: orRoot(base), Rule: shortRule(joinReason(e.Reason, e.Err))})
		}
		return collect(list, base, e.Err)
	case *openapi3filter.ResponseError:
		switch {
		case e.Err == nil:
			return append(list, Violation{Path: "response", Rule: e.Reason})
		case !isSchemaError(e.Err) && !isParseError(e.Err):
			return append(list, Violation{Path: "$", Rule: shortRule(joinReason(e.Reason, e.Err))})
		}
		return collect(list, base, e.Err)
	case *openapi3.SchemaError:
		return append(list, schemaViolation(base, e))
	case *openapi3filter.ParseError:
		return append(list, parseViolation(base, e))
	case interface{ Unwrap() []error }:
		for _, e := range e.Unwrap() {
			list = collect(list, base, e)
		}
		return list
	}
	if e := errors.Unwrap(err); e != nil {
		return collect(list, base, e)
	}
	return append(list, Violation{Path: orRoot(base), Rule: shortRule(err.Error())})
}

func joinReason(reason string, err error) string {
	if reason == "" {
		return err.Error()
	}
	return reason + ": " + err.Error()
}

func isParseError(err error) bool {
	_, ok := err.(*openapi3filter.ParseError)
	return ok
}

// parseViolation tells what could not be decoded (a body that is not JSON, a
// form field that is not a boolean) and where.
func parseViolation(base string, e *openapi3filter.ParseError) Violation {
	path := orRoot(base)
	for _, p := range e.Path() {
		path = joinPath(path, fmt.Sprint(p))
	}
	inner := e
	for {
		next, ok := inner.Cause.(*openapi3filter.ParseError)
		if !ok {
			break
		}
		inner = next
	}
	rule := "cannot be decoded"
	if inner.Reason != "" {
		rule += ": " + inner.Reason
	}
	if inner.Cause != nil {
		rule += ": " + inner.Cause.Error()
	}
	v := Violation{Path: path, Rule: shortRule(rule)}
	if inner.Value != nil {
		v.Value = shortJSON(inner.Value)
	}
	return v
}

// isSchemaError reports whether err is a schema violation, or several.
func isSchemaError(err error) bool {
	switch err.(type) {
	case *openapi3.SchemaError, openapi3.MultiError:
		return true
	}
	return false
}

func orRoot(base string) string {
	if base == "" {
		return "$"
	}
	return base
}

func schemaViolation(base string, e *openapi3.SchemaError) Violation {
	pointer := e.JSONPointer()
	rule := e.Reason
	value := shortJSON(e.Value)
	switch e.SchemaField {
	case "required":
		// kin-openapi points at the missing property; name the object instead.
		if len(pointer) > 0 {
			pointer = pointer[:len(pointer)-1]
		}
		value = ""
	case "properties", "additionalProperties":
		value = "" // the whole object: the rule names the property
	case "format":
		if e.Schema != nil {
			rule = fmt.Sprintf("string doesn't match the format %q", e.Schema.Format)
		}
	}
	if rule == "" {
		rule = fmt.Sprintf("doesn't match the schema's %q", e.SchemaField)
	}
	path := orRoot(base)
	for _, p := range pointer {
		path = joinPath(path, p)
	}
	return Violation{Path: path, Rule: shortRule(rule), Value: value}
}

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`)

// joinPath appends one JSON pointer segment to a JSON path: array indexes in
// brackets, names after a dot (or quoted in brackets when they need it).
func joinPath(path, segment string) string {
	if _, err := strconv.Atoi(segment); err == nil {
		return path + "[" + segment + "]"
	}
	if identifier.MatchString(segment) {
		return path + "." + segment
	}
	return path + "[" + strconv.Quote(segment) + "]"
}

// maxValue and maxRule are the lengths beyond which values and rules are cut.
const (
	maxValue = 80
	maxRule  = 300
)

func shortJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return shorten(fmt.Sprint(v))
	}
	return shorten(strings.TrimSuffix(buf.String(), "\n"))
}

// shorten cuts s to its first line and at most maxValue bytes.
func shorten(s string) string { return cut(s, maxValue) }

// shortRule cuts a rule, which may quote a pattern, less tightly.
func shortRule(s string) string { return cut(s, maxRule) }

func cut(s string, max int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func dedupe(list []Violation) []Violation {
	seen := make(map[Violation]bool, len(list))
	out := list[:0]
	for _, v := range list {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
