package spec

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
)

// This file validates JSON response bodies without kin-openapi's decoding
// into map[string]any and its schema walk, which together take most of the
// time of a large listing (see BenchmarkValidateListing). At Load, each JSON
// response schema is compiled into a tree of nodes; a body is then read once,
// byte by byte, checking the schema as it goes. The rules, their order and
// their wording are kin-openapi's (openapi3's schema_3point0_validator.go, as
// of v0.152.0), so that both paths give the same Violations. A schema that
// uses anything this file does not implement is not compiled, and a body
// that is not plain valid JSON, repeats a property or nests deeply is handed
// back: kin-openapi validates those, and says what it says.

// errUnsupported marks a schema the compiler leaves to kin-openapi.
var errUnsupported = errors.New("unsupported schema")

// maxDepth is the nesting beyond which a body is left to kin-openapi
// (encoding/json refuses more than 10000 levels).
const maxDepth = 1000

// Types a node permits, as bits.
const (
	permitsBoolean uint8 = 1 << iota
	permitsNumber
	permitsInteger
	permitsString
	permitsArray
	permitsObject
	permitsAll = permitsBoolean | permitsNumber | permitsInteger | permitsString | permitsArray | permitsObject
)

// Formats checked by hand, as kin-openapi's regular expressions would.
const (
	formatNone uint8 = iota
	formatDate
	formatDateTime
	formatUUID
	formatInt32
	formatInt64
)

// node is one compiled schema.
type node struct {
	nullable bool
	empty    bool // kin-openapi's IsEmpty: any value but null passes
	types    uint8
	typeRule string // "value must be an object"

	hasEnum  bool
	enumStr  []string
	enumNum  []float64
	enumBool []bool
	enumNull bool
	enumRule string

	oneOf, anyOf []*node

	// Strings.
	minLength   uint64
	maxLength   *uint64
	pattern     *regexp.Regexp
	patternRule string
	format      uint8
	formatRule  string

	// Numbers.
	requireInteger bool
	min, max       *float64

	// Arrays.
	items    *node
	minItems uint64
	maxItems *uint64

	// Objects. Properties holds the declared properties and the required
	// names; a nil entry of nodes is a required name with no schema, which is
	// validated as an additional property.
	properties map[string]int
	nodes      []*node
	required   []int
	names      []string
	closed     bool // additionalProperties: false
	// slots is an open-addressing table over names (index+1, 0 when empty),
	// faster than the map for the few keys of an object.
	slots []uint16
	// hintBase is where the key order hints of this object start in
	// walker.hints (len(names)+1 of them), or -1 when a name is not plain
	// enough to be matched on the body's raw bytes.
	hintBase int
	// hintSize is the number of hints of the tree, in its root.
	hintSize int
}

// slot hashes a key for node.slots.
func slot(key []byte, mask int) int {
	if len(key) == 0 {
		return 0
	}
	return (len(key)*131 + int(key[0])*31 + int(key[len(key)-1])*7 + int(key[len(key)/2])) & mask
}

// lookup returns the index in names of key.
func (n *node) lookup(key []byte) (int, bool) {
	if len(n.slots) == 0 {
		return 0, false
	}
	mask := len(n.slots) - 1
	for h := slot(key, mask); ; h = (h + 1) & mask {
		i := n.slots[h]
		if i == 0 {
			return 0, false
		}
		if n.names[i-1] == string(key) {
			return int(i - 1), true
		}
	}
}

// compiler turns one response schema into nodes.
type compiler struct {
	done    map[*openapi3.Schema]*node
	hints   int              // the hints given out to objects
	formats map[string]uint8 // the string formats of the validation options
}

func newCompiler() *compiler {
	return &compiler{
		done:    map[*openapi3.Schema]*node{},
		formats: map[string]uint8{"uuid": formatUUID, "date": formatDate, "date-time": formatDateTime},
	}
}

// compile compiles ref. sameValue holds the schemas that apply to the same
// value as ref (through oneOf and anyOf): kin-openapi stops a cycle among
// them silently, which this compiler does not mimic.
func (c *compiler) compile(ref *openapi3.SchemaRef, sameValue []*openapi3.Schema) (*node, error) {
	if ref == nil || ref.Value == nil {
		return nil, errUnsupported
	}
	s := ref.Value
	if slices.Contains(sameValue, s) {
		return nil, errUnsupported
	}
	if n, ok := c.done[s]; ok {
		return n, nil
	}
	if s.Not != nil || len(s.AllOf) > 0 || s.Discriminator != nil || s.Always != nil ||
		s.WriteOnly || s.UniqueItems || s.MultipleOf != nil || s.MinProps != 0 || s.MaxProps != nil ||
		s.ExclusiveMin.IsSet() || s.ExclusiveMax.IsSet() || s.Const != nil || len(s.PrefixItems) > 0 {
		return nil, errUnsupported
	}
	if ap := s.AdditionalProperties.Schema; ap != nil && (ap.Value == nil || !ap.Value.IsEmpty()) {
		return nil, errUnsupported
	}
	n := &node{nullable: s.Nullable, empty: s.IsEmpty(), types: permitsAll, hintBase: -1}
	c.done[s] = n
	if s.Type != nil {
		n.types = 0
		for _, t := range *s.Type {
			switch t {
			case openapi3.TypeBoolean:
				n.types |= permitsBoolean
			case openapi3.TypeNumber:
				n.types |= permitsNumber
			case openapi3.TypeInteger:
				n.types |= permitsInteger
			case openapi3.TypeString:
				n.types |= permitsString
			case openapi3.TypeArray:
				n.types |= permitsArray
			case openapi3.TypeObject:
				n.types |= permitsObject
			default:
				return nil, errUnsupported
			}
		}
		n.typeRule = typeRule(*s.Type)
	}
	n.requireInteger = n.types&permitsInteger != 0 && n.types&permitsNumber == 0

	if len(s.Enum) > 0 {
		n.hasEnum = true
		for _, e := range s.Enum {
			switch e := e.(type) {
			case string:
				n.enumStr = append(n.enumStr, e)
			case float64:
				n.enumNum = append(n.enumNum, e)
			case int:
				n.enumNum = append(n.enumNum, float64(e))
			case int64:
				n.enumNum = append(n.enumNum, float64(e))
			case bool:
				n.enumBool = append(n.enumBool, e)
			case nil:
				n.enumNull = true
			default:
				return nil, errUnsupported
			}
		}
		allowed, _ := json.Marshal(s.Enum)
		n.enumRule = "value is not one of the allowed values " + string(allowed)
	}

	for _, alt := range s.OneOf {
		a, err := c.compile(alt, append(sameValue, s))
		if err != nil {
			return nil, err
		}
		n.oneOf = append(n.oneOf, a)
	}
	for _, alt := range s.AnyOf {
		a, err := c.compile(alt, append(sameValue, s))
		if err != nil {
			return nil, err
		}
		n.anyOf = append(n.anyOf, a)
	}

	n.minLength, n.maxLength = s.MinLength, s.MaxLength
	if s.Pattern != "" {
		re, err := regexp.Compile(goPattern(s.Pattern))
		if err != nil {
			return nil, errUnsupported
		}
		n.pattern = re
		n.patternRule = fmt.Sprintf(`string doesn't match the regular expression "%s"`, s.Pattern)
	}
	if f := s.Format; f != "" {
		if err := c.compileFormat(n, f); err != nil {
			return nil, err
		}
	}
	n.min, n.max = s.Min, s.Max

	n.minItems, n.maxItems = s.MinItems, s.MaxItems
	if s.Items != nil {
		items, err := c.compile(s.Items, nil)
		if err != nil {
			return nil, err
		}
		n.items = items
	}

	n.closed = s.AdditionalProperties.Has != nil && !*s.AdditionalProperties.Has
	n.properties = map[string]int{}
	for _, name := range componentNames(s.Properties) {
		p, err := c.compile(s.Properties[name], nil)
		if err != nil {
			return nil, err
		}
		n.properties[name] = len(n.names)
		n.names = append(n.names, name)
		n.nodes = append(n.nodes, p)
	}
	for _, name := range s.Required {
		i, ok := n.properties[name]
		if !ok {
			i = len(n.names)
			n.properties[name] = i
			n.names = append(n.names, name)
			n.nodes = append(n.nodes, nil)
		}
		n.required = append(n.required, i)
	}
	if !slices.ContainsFunc(n.names, func(name string) bool {
		return name == "" || slices.ContainsFunc([]byte(name), func(c byte) bool { return stringStop[c] })
	}) {
		n.hintBase = c.hints
		c.hints += len(n.names) + 1
	}
	if len(n.names) > 0 {
		if len(n.names) > 1<<14 {
			return nil, errUnsupported
		}
		size := 4
		for size < 4*len(n.names) {
			size *= 2
		}
		n.slots = make([]uint16, size)
		for i, name := range n.names {
			h := slot([]byte(name), size-1)
			for n.slots[h] != 0 {
				h = (h + 1) & (size - 1)
			}
			n.slots[h] = uint16(i + 1)
		}
	}
	return n, nil
}

// compileFormat sets the format check of n. kin-openapi checks a format only
// when a validator is defined for it (in the options, then in its globals).
func (c *compiler) compileFormat(n *node, f string) error {
	formatRule := fmt.Sprintf("string doesn't match the format %q", f)
	switch {
	case n.types&permitsString != 0 && c.formats[f] != formatNone:
		n.format, n.formatRule = c.formats[f], formatRule
	case n.types&permitsString != 0 && openapi3.SchemaStringFormats[f] != nil:
		return errUnsupported
	}
	switch {
	case n.requireInteger && (f == "int32" || f == "int64"):
		n.format, n.formatRule = formatInt64, formatRule
		if f == "int32" {
			n.format = formatInt32
		}
	case n.requireInteger && openapi3.SchemaIntegerFormats[f] != nil:
		return errUnsupported
	case !n.requireInteger && n.types&(permitsNumber|permitsInteger) != 0 && openapi3.SchemaNumberFormats[f] != nil:
		return errUnsupported
	}
	return nil
}

// typeRule is kin-openapi's message for a value of a type the schema does not
// permit.
func typeRule(types openapi3.Types) string {
	if len(types) == 1 {
		a := "a"
		switch types[0] {
		case openapi3.TypeArray, openapi3.TypeObject, openapi3.TypeInteger:
			a = "an"
		}
		return "value must be " + a + " " + types[0]
	}
	return "value must be one of " + strings.Join(types, ", ")
}

var codepoint = regexp.MustCompile(`(?P<replaced_with_slash_x>\\u)(?P<code>[0-9A-F]{4})`)

// goPattern rewrites a pattern as kin-openapi does before compiling it.
func goPattern(re string) string { return codepoint.ReplaceAllString(re, `\x{${code}}`) }

func componentNames[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// errFallback stops the walk of a body that kin-openapi must validate.
var errFallback = errors.New("left to kin-openapi")

// segment is one step of the path to the value being walked: an index, or
// (when end > 0) a key as it is quoted in the body, between start and end, to
// be decoded when escaped is set. It holds no pointer, for speed.
type segment struct {
	start, end int
	index      int
	escaped    bool
}

// group is the violations found under one key of an object, which
// kin-openapi reports in the order of the keys.
type group struct {
	key        string
	start, end int
}

// walker reads one JSON body and checks it against a node.
type walker struct {
	data  []byte
	pos   int
	depth int
	err   error // errFallback once the body must go to kin-openapi

	quiet  bool // count failures, build no violations (oneOf, anyOf)
	failed bool

	list   []Violation
	path   []segment
	groups []group
	words  []uint64 // bitsets of the keys seen, one per open object
	// hints[n.hintBase+i] is 1 + the index of the key that followed key i
	// (or the first key, for i = len(n.names)) in the last object of node n:
	// the objects of a body mostly list their keys in the same order, and a
	// key guessed right is checked by one comparison.
	hints []uint16
}

// validateBody validates body against n. It returns errFallback when
// kin-openapi must do it.
func validateBody(n *node, body []byte) ([]Violation, error) {
	w := &walker{data: body, hints: make([]uint16, n.hintSize)}
	w.space()
	if w.pos == len(w.data) {
		return nil, errFallback
	}
	// encoding/json's Decoder, which kin-openapi uses, reads the first value
	// and ignores what follows it.
	w.value(n)
	if w.err != nil {
		return nil, w.err
	}
	return dedupe(w.list), nil
}

func (w *walker) fail() {
	if w.err == nil {
		w.err = errFallback
	}
	w.pos = len(w.data)
}

func (w *walker) space() {
	if w.pos < len(w.data) && w.data[w.pos] > ' ' {
		return
	}
	for w.pos < len(w.data) {
		switch w.data[w.pos] {
		case ' ', '\t', '\n', '\r':
			w.pos++
		default:
			return
		}
	}
}

// report records a violation at the current path. value is the offending
// value: raw JSON bytes, a float64, nil for null, or noValue.
func (w *walker) report(rule string, value any) {
	if w.quiet {
		w.failed = true
		return
	}
	path := "$"
	for _, s := range w.path {
		if s.end == 0 {
			path = joinPath(path, strconv.Itoa(s.index))
		} else {
			path = joinPath(path, keyString(w.data[s.start:s.end], s.escaped))
		}
	}
	v := Violation{Path: path, Rule: shortRule(rule)}
	switch value := value.(type) {
	case noValueType:
	case []byte:
		var decoded any
		dec := json.NewDecoder(bytes.NewReader(value))
		dec.UseNumber()
		if err := dec.Decode(&decoded); err != nil {
			w.fail()
			return
		}
		v.Value = shortJSON(decoded)
	default:
		v.Value = shortJSON(value)
	}
	w.list = append(w.list, v)
}

type noValueType struct{}

// noValue is the value of rules that say it all.
var noValue = noValueType{}

// keyString returns a key of the body, quoted, as encoding/json decodes it.
func keyString(quoted []byte, escaped bool) string {
	if !escaped {
		return string(quoted[1 : len(quoted)-1])
	}
	var s string
	if err := json.Unmarshal(quoted, &s); err != nil {
		return string(quoted[1 : len(quoted)-1])
	}
	return s
}

// value walks the value at w.pos against n; a nil n accepts any value.
func (w *walker) value(n *node) {
	w.space()
	if w.pos >= len(w.data) {
		w.fail()
		return
	}
	start := w.pos
	c := w.data[start]
	if n == nil || (n.empty && c != 'n') {
		w.skip()
		return
	}
	if c == 'n' && n.nullable {
		w.literal("null")
		return
	}
	if n.empty { // and null
		w.literal("null")
		w.report("Value is not nullable", nil)
		return
	}
	if len(n.oneOf) > 0 || len(n.anyOf) > 0 {
		w.skip()
		if w.err != nil {
			return
		}
		raw := w.data[start:w.pos]
		if !w.alternatives(n, raw) || c == 'n' {
			return
		}
		w.pos = start
	}
	switch {
	case c == 'n':
		w.literal("null")
		if n.hasEnum && !n.enumNull {
			w.report(n.enumRule, nil)
			return
		}
		w.report("Value is not nullable", nil)
	case c == 't' || c == 'f':
		b := c == 't'
		if b {
			w.literal("true")
		} else {
			w.literal("false")
		}
		if n.hasEnum && !slices.Contains(n.enumBool, b) {
			w.report(n.enumRule, w.data[start:w.pos])
			return
		}
		if n.types&permitsBoolean == 0 {
			w.report(n.typeRule, w.data[start:w.pos])
		}
	case c == '"':
		w.stringValue(n, start)
	case c == '-' || (c >= '0' && c <= '9'):
		w.number(n, start)
	case c == '[':
		w.array(n, start)
	case c == '{':
		w.object(n, start)
	default:
		w.fail()
	}
}

// alternatives checks oneOf and anyOf, and reports when they fail.
func (w *walker) alternatives(n *node, raw []byte) bool {
	matches := func(alt *node) bool {
		sub := walker{data: raw, quiet: true, depth: w.depth, hints: w.hints}
		sub.value(alt)
		if sub.err != nil {
			w.fail()
		}
		return !sub.failed
	}
	if len(n.oneOf) > 0 {
		var matched []int
		for i, alt := range n.oneOf {
			if matches(alt) {
				matched = append(matched, i)
			}
		}
		if w.err != nil {
			return false
		}
		switch {
		case len(matched) == 0:
			w.report(`value doesn't match any schema from "oneOf"`, raw)
			return false
		case len(matched) > 1:
			w.report(fmt.Sprintf(`value matches more than one schema from "oneOf" (matches schemas at indices %v)`, matched), raw)
			return false
		}
	}
	if len(n.anyOf) > 0 {
		if !slices.ContainsFunc(n.anyOf, matches) {
			if w.err == nil {
				w.report(`doesn't match any schema from "anyOf"`, raw)
			}
			return false
		}
	}
	return w.err == nil
}

func (w *walker) literal(word string) {
	if !bytes.HasPrefix(w.data[w.pos:], []byte(word)) {
		w.fail()
		return
	}
	w.pos += len(word)
}

// scanString reads a string at w.pos and returns its contents, raw, and
// whether they need decoding (escapes, or bytes that are not ASCII).
func (w *walker) scanString() (raw []byte, decode bool) {
	start := w.pos + 1
	i := start
	for i < len(w.data) {
		for i+8 <= len(w.data) && plain8(binary.LittleEndian.Uint64(w.data[i:])) {
			i += 8
		}
		for i < len(w.data) && !stringStop[w.data[i]] {
			i++
		}
		if i >= len(w.data) {
			break
		}
		c := w.data[i]
		switch {
		case c == '"':
			w.pos = i + 1
			return w.data[start:i], decode
		case c == '\\':
			decode = true
			if i+1 >= len(w.data) {
				w.fail()
				return nil, false
			}
			switch w.data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(w.data) {
					w.fail()
					return nil, false
				}
				for _, h := range w.data[i+2 : i+6] {
					if !isHex(h) {
						w.fail()
						return nil, false
					}
				}
				i += 6
			default:
				w.fail()
				return nil, false
			}
		case c < 0x20:
			w.fail()
			return nil, false
		default:
			if c >= utf8.RuneSelf {
				decode = true
			}
			i++
		}
	}
	w.fail()
	return nil, false
}

// plain8 reports whether none of the eight bytes of x stops a run of plain
// bytes in a string (see stringStop). It may say false of plain bytes, never
// true of others.
func plain8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := x^(ones*'"'), x^(ones*'\\')
	return ((x-ones*0x20)|(quote-ones)|(backslash-ones)|x)&highs == 0
}

// stringStop marks the bytes that end a run of plain bytes in a string: a
// quote, a backslash, a control character, or a byte that is not ASCII. It
// is never written after its initialization.
var stringStop = func() (stop [256]bool) {
	for c := range 256 {
		stop[c] = c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf
	}
	return stop
}()

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// decodeString returns the Go string encoding/json makes of the JSON string
// raw (between start and w.pos).
func (w *walker) decodeString(start int) string {
	var s string
	if err := json.Unmarshal(w.data[start:w.pos], &s); err != nil {
		w.fail()
	}
	return s
}

func (w *walker) stringValue(n *node, start int) {
	raw, decode := w.scanString()
	if w.err != nil {
		return
	}
	if decode && (!utf8.Valid(raw) || bytes.IndexByte(raw, '\\') >= 0) {
		raw = []byte(w.decodeString(start))
	}
	value := w.data[start:w.pos]
	if n.hasEnum && !slices.Contains(n.enumStr, string(raw)) {
		w.report(n.enumRule, value)
		return
	}
	if n.types&permitsString == 0 {
		w.report(n.typeRule, value)
		return
	}
	if n.minLength != 0 || n.maxLength != nil {
		length := uint64(0)
		for _, r := range string(raw) {
			if utf16.IsSurrogate(r) { // as kin-openapi counts
				length += 2
			} else {
				length++
			}
		}
		if n.minLength != 0 && length < n.minLength {
			w.report(fmt.Sprintf("minimum string length is %d", n.minLength), value)
		}
		if n.maxLength != nil && length > *n.maxLength {
			w.report(fmt.Sprintf("maximum string length is %d", *n.maxLength), value)
		}
	}
	if n.pattern != nil && !n.pattern.Match(raw) {
		w.report(n.patternRule, value)
	}
	var ok bool
	switch n.format {
	case formatDate:
		ok = isDate(raw)
	case formatDateTime:
		ok = isDateTime(raw)
	case formatUUID:
		ok = isUUID(raw)
	default:
		ok = true // none, or a format of integers
	}
	if !ok {
		w.report(n.formatRule, value)
	}
}

func (w *walker) number(n *node, start int) {
	w.scanNumber()
	if w.err != nil {
		return
	}
	raw := w.data[start:w.pos]
	f, err := parseFloat(raw)
	if n.hasEnum && (err != nil || !slices.Contains(n.enumNum, f)) {
		w.report(n.enumRule, raw)
		return
	}
	if err != nil {
		w.report("cannot convert json.Number to float64", raw)
		return
	}
	if n.requireInteger {
		if f != math.Trunc(f) {
			w.report("value must be an integer", f)
		}
	} else if n.types&(permitsInteger|permitsNumber) == 0 {
		w.report(n.typeRule, f)
		return
	}
	switch n.format {
	case formatInt32:
		if !inIntRange(f, math.MinInt32, math.MaxInt32) {
			w.report(n.formatRule, f)
		}
	case formatInt64:
		if !inIntRange(f, math.MinInt64, math.MaxInt64) {
			w.report(n.formatRule, f)
		}
	}
	if n.min != nil && !(*n.min <= f) {
		w.report(fmt.Sprintf("number must be at least %g", *n.min), f)
	}
	if n.max != nil && !(*n.max >= f) {
		w.report(fmt.Sprintf("number must be at most %g", *n.max), f)
	}
}

// parseFloat is strconv.ParseFloat, quicker for small integers.
func parseFloat(raw []byte) (float64, error) {
	if len(raw) > 0 && len(raw) <= 15 {
		x := int64(0)
		for _, c := range raw {
			if c < '0' || c > '9' {
				return strconv.ParseFloat(string(raw), 64)
			}
			x = x*10 + int64(c-'0')
		}
		return float64(x), nil
	}
	return strconv.ParseFloat(string(raw), 64)
}

// inIntRange converts f to an int64 as kin-openapi's integer formats do.
func inIntRange(f float64, lo, hi int64) bool {
	var x int64
	switch {
	case f == float64(math.MaxInt64):
		x = math.MaxInt64
	case f >= float64(math.MinInt64) && f < float64(math.MaxInt64):
		x = int64(f)
	default:
		return false
	}
	return x >= lo && x <= hi
}

// scanNumber reads the longest JSON number at w.pos.
func (w *walker) scanNumber() {
	d, i := w.data, w.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		w.fail()
		return
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			w.fail()
			return
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			w.fail()
			return
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	w.pos = i
}

// skip reads one value at w.pos without checking it against anything.
func (w *walker) skip() {
	w.space()
	if w.pos >= len(w.data) {
		w.fail()
		return
	}
	switch c := w.data[w.pos]; {
	case c == '"':
		w.scanString()
	case c == '-' || (c >= '0' && c <= '9'):
		w.scanNumber()
	case c == 't':
		w.literal("true")
	case c == 'f':
		w.literal("false")
	case c == 'n':
		w.literal("null")
	case c == '[':
		for more := w.open(']'); more; more = w.next(']') {
			w.skip()
		}
	case c == '{':
		for more := w.open('}'); more; more = w.next('}') {
			w.key()
			w.skip()
		}
	default:
		w.fail()
	}
}

// open reads the bracket or brace at w.pos that opens a container, and
// reports whether it holds anything (false once its closing byte is read).
func (w *walker) open(closing byte) bool {
	if w.depth++; w.depth > maxDepth {
		w.fail()
		return false
	}
	w.pos++
	w.space()
	if w.pos < len(w.data) && w.data[w.pos] == closing {
		w.pos++
		w.depth--
		return false
	}
	return w.err == nil
}

// next reads what follows an element or a member: a comma (true) or the
// closing byte of the container (false).
func (w *walker) next(closing byte) bool {
	w.space()
	if w.err != nil || w.pos >= len(w.data) {
		w.fail()
		return false
	}
	switch w.data[w.pos] {
	case ',':
		w.pos++
		return true
	case closing:
		w.pos++
		w.depth--
		return false
	}
	w.fail()
	return false
}

// guessKey reads the key of a member and its colon if the key is the one
// that followed the key at index last in the previous object of n, and
// returns where it sits and its index.
func (w *walker) guessKey(n *node, last int) (start, end, i int, ok bool) {
	w.space()
	guess := int(w.hints[n.hintBase+last]) - 1
	if guess < 0 {
		return 0, 0, 0, false
	}
	name := n.names[guess]
	start = w.pos
	end = start + len(name) + 2
	if end >= len(w.data) || w.data[start] != '"' || w.data[end-1] != '"' || string(w.data[start+1:end-1]) != name {
		return 0, 0, 0, false
	}
	w.pos = end
	if w.data[w.pos] != ':' {
		w.space()
		if w.pos >= len(w.data) || w.data[w.pos] != ':' {
			w.fail()
			return 0, 0, 0, false
		}
	}
	w.pos++
	return start, end, guess, true
}

// key reads the key of a member and its colon, and returns where the key
// sits in the body, quotes included, and whether it needs decoding.
func (w *walker) key() (start, end int, decode bool) {
	w.space()
	if w.pos >= len(w.data) || w.data[w.pos] != '"' {
		w.fail()
		return 0, 0, false
	}
	start = w.pos
	_, decode = w.scanString()
	if w.err != nil {
		return 0, 0, false
	}
	end = w.pos
	if w.pos < len(w.data) && w.data[w.pos] == ':' {
		w.pos++
		return start, end, decode
	}
	w.space()
	if w.pos >= len(w.data) || w.data[w.pos] != ':' {
		w.fail()
		return 0, 0, false
	}
	w.pos++
	return start, end, decode
}

// refuse skips an array or object that n does not permit and reports the
// rule it breaks: its enum (no object or array is in one) or its type.
func (w *walker) refuse(n *node, start int) {
	w.skip()
	if w.err != nil {
		return
	}
	rule := n.enumRule
	if !n.hasEnum {
		rule = n.typeRule
	}
	w.report(rule, w.data[start:w.pos])
}

func (w *walker) array(n *node, start int) {
	if n.hasEnum || n.types&permitsArray == 0 {
		w.refuse(n, start)
		return
	}
	first := len(w.list)
	count := uint64(0)
	for more := w.open(']'); more; more = w.next(']') {
		if n.items == nil {
			w.skip()
		} else {
			w.path = append(w.path, segment{index: int(count)})
			w.value(n.items)
			w.path = w.path[:len(w.path)-1]
		}
		count++
	}
	if w.err != nil {
		return
	}
	// kin-openapi reports the array's own rules before those of its items.
	var own []Violation
	if n.minItems != 0 && count < n.minItems {
		own = w.own(own, fmt.Sprintf("minimum number of items is %d", n.minItems), start)
	}
	if n.maxItems != nil && count > *n.maxItems {
		own = w.own(own, fmt.Sprintf("maximum number of items is %d", *n.maxItems), start)
	}
	if len(own) > 0 && !w.quiet {
		w.list = slices.Insert(w.list, first, own...)
	}
}

// own builds a violation of the array between start and w.pos.
func (w *walker) own(own []Violation, rule string, start int) []Violation {
	n := len(w.list)
	w.report(rule, w.data[start:w.pos])
	if len(w.list) > n {
		own = append(own, w.list[n])
		w.list = w.list[:n]
	}
	return own
}

func (w *walker) object(n *node, start int) {
	if n.hasEnum || n.types&permitsObject == 0 {
		w.refuse(n, start)
		return
	}
	first, firstGroup := len(w.list), len(w.groups)
	wordsAt := len(w.words)
	for range (len(n.names) + 63) / 64 {
		w.words = append(w.words, 0)
	}
	seen := func(i int) bool { return w.words[wordsAt+i/64]&(1<<(i%64)) != 0 }
	last := len(n.names) // the key before, for the hints
	for more := w.open('}'); more; more = w.next('}') {
		var keyStart, keyEnd int
		var decode, known bool
		var i int
		var key string
		if n.hintBase >= 0 {
			keyStart, keyEnd, i, known = w.guessKey(n, last)
		}
		if !known {
			keyStart, keyEnd, decode = w.key()
			if w.err != nil {
				return
			}
			raw := w.data[keyStart+1 : keyEnd-1]
			if decode && utf8.Valid(raw) && bytes.IndexByte(raw, '\\') < 0 {
				decode = false
			}
			if decode {
				key = keyString(w.data[keyStart:keyEnd], true)
				i, known = n.properties[key]
			} else {
				i, known = n.lookup(raw)
			}
		}
		quoted := w.data[keyStart:keyEnd]
		if known && n.hintBase >= 0 {
			w.hints[n.hintBase+last] = uint16(i + 1)
			last = i
		}
		before := len(w.list)
		switch {
		case known && seen(i):
			// encoding/json keeps the last value of a repeated key.
			w.fail()
			return
		case known:
			w.words[wordsAt+i/64] |= 1 << (i % 64)
		}
		var child *node
		if known {
			child = n.nodes[i]
		}
		if child == nil && n.closed {
			key = keyString(quoted, decode)
			w.report(fmt.Sprintf("property %q is unsupported", key), noValue)
			w.skip()
		} else {
			w.path = append(w.path, segment{start: keyStart, end: keyEnd, escaped: decode})
			w.value(child)
			w.path = w.path[:len(w.path)-1]
		}
		if len(w.list) > before {
			key = keyString(quoted, decode)
			w.groups = append(w.groups, group{key: key, start: before, end: len(w.list)})
		}
	}
	if w.err != nil {
		return
	}
	if groups := w.groups[firstGroup:]; len(groups) > 1 {
		// kin-openapi visits the keys sorted.
		slices.SortStableFunc(groups, func(a, b group) int { return strings.Compare(a.key, b.key) })
		ordered := make([]Violation, 0, len(w.list)-first)
		for _, g := range groups {
			ordered = append(ordered, w.list[g.start:g.end]...)
		}
		copy(w.list[first:], ordered)
	}
	w.groups = w.groups[:firstGroup]
	for _, i := range n.required {
		if !seen(i) {
			w.report(fmt.Sprintf("property %q is missing", n.names[i]), noValue)
		}
	}
	w.words = w.words[:wordsAt]
}

// isDate matches kin-openapi's FormatOfStringDate,
// ^[0-9]{4}-(0[1-9]|10|11|12)-(0[1-9]|[12][0-9]|3[01])$.
func isDate(b []byte) bool {
	return len(b) == 10 && datePart(b)
}

func datePart(b []byte) bool {
	return digit(b[0]) && digit(b[1]) && digit(b[2]) && digit(b[3]) && b[4] == '-' &&
		((b[5] == '0' && b[6] >= '1' && b[6] <= '9') || (b[5] == '1' && b[6] >= '0' && b[6] <= '2')) &&
		b[7] == '-' &&
		((b[8] == '0' && b[9] >= '1' && b[9] <= '9') || ((b[8] == '1' || b[8] == '2') && digit(b[9])) || (b[8] == '3' && (b[9] == '0' || b[9] == '1')))
}

// isDateTime matches kin-openapi's FormatOfStringDateTime:
// ^<date>T([0-1][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?(Z|(\+|-)[0-9]{2}:[0-9]{2})$.
func isDateTime(b []byte) bool {
	if len(b) < 20 || !datePart(b) || b[10] != 'T' {
		return false
	}
	t := b[11:]
	if !(((t[0] == '0' || t[0] == '1') && digit(t[1])) || (t[0] == '2' && t[1] >= '0' && t[1] <= '3')) ||
		t[2] != ':' || !(t[3] >= '0' && t[3] <= '5' && digit(t[4])) || t[5] != ':' ||
		!((t[6] >= '0' && t[6] <= '5' && digit(t[7])) || (t[6] == '6' && t[7] == '0')) {
		return false
	}
	rest := t[8:]
	if len(rest) > 0 && rest[0] == '.' {
		i := 1
		for i < len(rest) && digit(rest[i]) {
			i++
		}
		if i == 1 {
			return false
		}
		rest = rest[i:]
	}
	switch {
	case len(rest) == 1:
		return rest[0] == 'Z'
	case len(rest) == 6:
		return (rest[0] == '+' || rest[0] == '-') && digit(rest[1]) && digit(rest[2]) && rest[3] == ':' && digit(rest[4]) && digit(rest[5])
	}
	return false
}

// isUUID matches uuidPattern.
func isUUID(b []byte) bool {
	if len(b) != 36 {
		return false
	}
	for i, c := range b {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isHex(c) {
				return false
			}
		}
	}
	return true
}

func digit(c byte) bool { return c >= '0' && c <= '9' }

// compileBodies compiles the schema of every response body of doc that
// validateBody can check.
func compileBodies(doc *openapi3.T) map[*openapi3.MediaType]*node {
	bodies := map[*openapi3.MediaType]*node{}
	if doc.IsOpenAPI31OrLater() || doc.Paths == nil {
		return bodies
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.Responses == nil {
				continue
			}
			for _, ref := range op.Responses.Map() {
				resp := ref.Value
				// kin-openapi checks documented headers before the body.
				if resp == nil || len(resp.Headers) > 0 {
					continue
				}
				for _, mt := range resp.Content {
					if mt == nil || mt.Schema == nil || len(mt.Encoding) > 0 || bodies[mt] != nil {
						continue
					}
					if s := mt.Schema.Value; s != nil && s.Type.Is(openapi3.TypeString) && s.Format == "binary" {
						continue
					}
					c := newCompiler()
					if n, err := c.compile(mt.Schema, nil); err == nil {
						n.hintSize = c.hints
						bodies[mt] = n
					}
				}
			}
		}
	}
	return bodies
}

// fastBody returns the compiled schema of resp's body, or nil when
// kin-openapi must validate it: a body that is not application/json, a HEAD
// request or a status kin-openapi never validates, or a schema not compiled.
func (v *Validator) fastBody(r *http.Request, resp Response, documented *openapi3.Response) *node {
	if r.Method == http.MethodHead {
		return nil
	}
	switch resp.Status {
	case http.StatusNotModified, http.StatusPermanentRedirect, http.StatusTemporaryRedirect, http.StatusMovedPermanently:
		return nil
	}
	contentType := resp.Header.Get("Content-Type")
	mediaType, _, _ := strings.Cut(contentType, ";")
	if !strings.EqualFold(strings.TrimSpace(mediaType), "application/json") {
		return nil
	}
	mt := documented.Content.Get(contentType)
	if mt == nil {
		return nil
	}
	return v.bodies[mt]
}
