package httpx

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// maxTypeProblems bounds the problems one answer lists: a body of a
// hundred thousand wrong elements gets the first of them.
const maxTypeProblems = 20

// TypeProblems checks a JSON document against the Go type it is to be
// decoded into (a struct, through its json tags), and says what is wrong in
// the API's words, never Go's: "empty must be a boolean", "expiresAt must
// be an ISO 8601 date", "assetIds.1 must be a string", "property nickname
// should not exist". A nested field is named by its path, as the reference
// names it (albumUsers.0.userId). null is taken for the whole body, as for
// a field: it leaves the value as it was. data must be valid JSON.
func TypeProblems(data []byte, t reflect.Type) []string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return []string{"the body must be a JSON object"}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if _, ok := v.(map[string]any); !ok && v != nil && t.Kind() == reflect.Struct {
		return []string{"the body must be a JSON object"}
	}
	c := typeChecker{}
	c.check(v, t, "")
	return c.problems
}

// typeChecker collects the problems of one document.
type typeChecker struct {
	problems []string
}

func (c *typeChecker) add(path, rule string) {
	if len(c.problems) < maxTypeProblems {
		c.problems = append(c.problems, path+" "+rule)
	}
}

// isTimeType says whether t is a Go type a JSON date-time string decodes
// into.
func isTimeType(t reflect.Type) bool {
	return t == reflect.TypeFor[model.Time]() || t == reflect.TypeFor[time.Time]()
}

// check checks v, decoded with UseNumber, against t, at path. null is
// taken for every type: the decoder leaves the field as it was.
func (c *typeChecker) check(v any, t reflect.Type, path string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v == nil || len(c.problems) >= maxTypeProblems {
		return
	}
	if isTimeType(t) {
		s, ok := v.(string)
		if !ok || new(model.Time).UnmarshalJSON([]byte(strconv.Quote(s))) != nil {
			c.add(path, "must be an ISO 8601 date")
		}
		return
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		c.checkArray(v, t, path)
	case reflect.Map:
		c.checkMap(v, t, path)
	case reflect.Struct:
		c.checkObject(v, t, path)
	default:
		if want := scalarProblem(v, t); want != "" {
			c.add(path, want)
		}
	}
}

// scalarProblem says what v, decoded with UseNumber, must be to fit the
// scalar type t, or "" when it fits.
func scalarProblem(v any, t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return "must be a boolean"
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return "must be a string"
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n, ok := v.(json.Number); !ok || !fitsInt(n, t) {
			return "must be an integer"
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n, ok := v.(json.Number); !ok || !fitsUint(n, t) {
			return "must be a whole number, 0 or more"
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			return "must be a number"
		}
	}
	return ""
}

func fitsInt(n json.Number, t reflect.Type) bool {
	_, err := strconv.ParseInt(n.String(), 10, t.Bits())
	return err == nil
}

func fitsUint(n json.Number, t reflect.Type) bool {
	_, err := strconv.ParseUint(n.String(), 10, t.Bits())
	return err == nil
}

// checkArray checks a JSON array against the slice or array type t.
func (c *typeChecker) checkArray(v any, t reflect.Type, path string) {
	elems, ok := v.([]any)
	if !ok {
		c.add(path, "must be an array")
		return
	}
	for i, e := range elems {
		c.check(e, t.Elem(), join(path, strconv.Itoa(i)))
	}
}

// checkMap checks a JSON object against the map type t, member by member.
func (c *typeChecker) checkMap(v any, t reflect.Type, path string) {
	members, ok := v.(map[string]any)
	if !ok {
		c.add(path, "must be an object")
		return
	}
	for _, k := range slices.Sorted(maps.Keys(members)) {
		c.check(members[k], t.Elem(), join(path, k))
	}
}

// checkObject checks a JSON object against the struct type t: each known
// member against its field, and no member the struct does not have.
func (c *typeChecker) checkObject(v any, t reflect.Type, path string) {
	members, ok := v.(map[string]any)
	if !ok {
		c.add(path, "must be an object")
		return
	}
	known := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, ok := jsonName(f)
		if !ok {
			continue
		}
		known[name] = true
		if m, present := members[name]; present {
			c.check(m, f.Type, join(path, name))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(members)) {
		if !known[k] {
			c.add("property", join(path, k)+" should not exist")
		}
	}
}

// jsonName is the member name of a struct field, and whether JSON has it.
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	if name, _, _ := strings.Cut(tag, ","); name != "" {
		return name, true
	}
	return f.Name, true
}

func join(path, member string) string {
	if path == "" {
		return member
	}
	return path + "." + member
}
