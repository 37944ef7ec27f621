package dto

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// A body is read into its class's own members: a member the class does not
// declare is stepped over where it lies in the body, never decoded (the
// reference's whitelist drops it, so nothing of it can matter), and only
// the values of declared members become Go values. What a body may cost
// is known before any of them is made: Count walks it as Decode will and
// says how many values that makes, so that a caller can refuse a body, or
// set memory aside for it, first. A body of eight megabytes of empty
// objects under a name no class declares costs nothing beyond its bytes.

// MaxValues bounds the values one body may make: above the 100,000 ids of
// the largest list the API takes, far below what would hurt the mock.
const MaxValues = 250_000

// ValueCost is about what one decoded value costs in memory, in bytes, at
// most (an empty object, as a map in an interface in its parent); a
// caller sets Count × ValueCost aside before it decodes.
const ValueCost = 128

// TooManyValues is the refusal of a body that would make more than
// MaxValues values.
type TooManyValues int

func (n TooManyValues) Error() string {
	return fmt.Sprintf("The request body holds more than %d values", int(n))
}

// Count checks data as Decode does (the body parser's strict check, then
// JSON's syntax) and says how many values decoding it as c declares would
// make: its declared members' values and everything within them. The error
// is a SyntaxError, as Decode's, or TooManyValues.
func (c *Class) Count(data []byte) (int, error) {
	if err := checkSyntax(data); err != nil {
		return 0, err
	}
	d := decoder{data: data, count: true, limit: MaxValues}
	if err := d.body(c); err != nil {
		return 0, err
	}
	return d.values, nil
}

// CountValues checks data's JSON syntax and says how many values it holds
// in all (an object and each of its members' values, an array and each of
// its elements...), for a body read whole into Go's types.
func CountValues(data []byte) (int, error) {
	if !json.Valid(data) {
		return 0, syntaxError(data)
	}
	d := decoder{data: data, count: true, limit: MaxValues}
	d.skipSpace()
	if _, err := d.value(nil); err != nil {
		return 0, err
	}
	return d.values, nil
}

// Decode reads a JSON body (data; empty: no member) as c declares it: an
// object's members; an array has none. The error is Problems, every failed
// rule; a Thrown, the one message of a transform; a SyntaxError, as the
// reference's body parser refuses data; or TooManyValues.
func (c *Class) Decode(data []byte) (Body, error) {
	if err := checkSyntax(data); err != nil {
		return nil, err
	}
	d := decoder{data: data, limit: MaxValues}
	if err := d.body(c); err != nil {
		return nil, err
	}
	return c.Validate(d.top)
}

// checkSyntax refuses what the reference's body parser refuses: a body
// that does not begin with { or [ (its strict check), and one that is no
// JSON. An empty body is none.
func checkSyntax(data []byte) error {
	if len(data) == 0 {
		return nil
	}
	first := bytes.TrimLeft(data, " \t\r\n")
	if len(first) == 0 || (first[0] != '{' && first[0] != '[') || !json.Valid(data) {
		return syntaxError(data)
	}
	return nil
}

// decoder walks a body that is valid JSON, nested at most as deep as
// json.Valid lets through: it makes the values of the members a class
// declares (or, counting, only counts them) and steps over the rest.
type decoder struct {
	data   []byte
	pos    int
	count  bool // count the values, make none
	values int
	limit  int
	top    map[string]any
}

// body reads the whole body as c declares it: the members of an object,
// none of anything else.
func (d *decoder) body(c *Class) error {
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '{' {
		top, err := d.object(c)
		d.top = top
		return err
	}
	d.top = map[string]any{}
	return nil
}

// object reads an object as c declares it: a declared member's value is
// made (judged by its nested class, if it has one), any other member's is
// stepped over. The last of a member given twice counts, as in JSON.parse.
func (d *decoder) object(c *Class) (map[string]any, error) {
	if err := d.add(); err != nil {
		return nil, err
	}
	var out map[string]any
	if !d.count {
		out = map[string]any{}
	}
	d.pos++ // {
	for {
		d.skipSpace()
		if d.data[d.pos] == '}' {
			d.pos++
			return out, nil
		}
		if d.data[d.pos] == ',' {
			d.pos++
			d.skipSpace()
		}
		key := d.key()
		d.skipSpace()
		d.pos++ // :
		d.skipSpace()
		p, declared := c.find(key)
		if !declared {
			d.skip()
			continue
		}
		v, err := d.value(p.nestedClass())
		if err != nil {
			return nil, err
		}
		if out != nil {
			out[key] = v
		}
	}
}

// value reads any value; an object, or the objects of an array, of class
// (when there is one) are read as it declares them.
func (d *decoder) value(class *Class) (any, error) {
	switch d.data[d.pos] {
	case '{':
		if class != nil {
			return d.object(class)
		}
		return d.anyObject()
	case '[':
		return d.array(class)
	}
	if err := d.add(); err != nil {
		return nil, err
	}
	return d.scalar(), nil
}

// anyObject reads an object whole, every member of it.
func (d *decoder) anyObject() (any, error) {
	if err := d.add(); err != nil {
		return nil, err
	}
	var out map[string]any
	if !d.count {
		out = map[string]any{}
	}
	d.pos++ // {
	for {
		d.skipSpace()
		if d.data[d.pos] == '}' {
			d.pos++
			if out == nil {
				return nil, nil
			}
			return out, nil
		}
		if d.data[d.pos] == ',' {
			d.pos++
			d.skipSpace()
		}
		key := d.key()
		d.skipSpace()
		d.pos++ // :
		d.skipSpace()
		v, err := d.value(nil)
		if err != nil {
			return nil, err
		}
		if out != nil {
			out[key] = v
		}
	}
}

// array reads an array; its objects are read as class declares them, when
// there is one.
func (d *decoder) array(class *Class) (any, error) {
	if err := d.add(); err != nil {
		return nil, err
	}
	var out []any
	if !d.count {
		out = []any{}
	}
	d.pos++ // [
	for {
		d.skipSpace()
		switch d.data[d.pos] {
		case ']':
			d.pos++
			if out == nil {
				return nil, nil
			}
			return out, nil
		case ',':
			d.pos++
			d.skipSpace()
		}
		v, err := d.value(class)
		if err != nil {
			return nil, err
		}
		if !d.count {
			out = append(out, v)
		}
	}
}

// add counts one value more, or refuses the body past the limit.
func (d *decoder) add() error {
	d.values++
	if d.values > d.limit {
		return TooManyValues(d.limit)
	}
	return nil
}

// key reads a member's name.
func (d *decoder) key() string {
	start := d.pos
	d.skipString()
	return d.text(d.data[start:d.pos])
}

// scalar reads a string, number, true, false or null, as encoding/json
// with UseNumber reads it.
func (d *decoder) scalar() any {
	start := d.pos
	switch d.data[d.pos] {
	case '"':
		d.skipString()
		if d.count {
			return nil
		}
		return d.text(d.data[start:d.pos])
	case 't':
		d.pos += len("true")
		return true
	case 'f':
		d.pos += len("false")
		return false
	case 'n':
		d.pos += len("null")
		return nil
	}
	for d.pos < len(d.data) && isNumberByte(d.data[d.pos]) {
		d.pos++
	}
	if d.count {
		return nil
	}
	return json.Number(d.data[start:d.pos])
}

// text is a JSON string literal's text: the literal itself where it holds
// no escape and is valid UTF-8, else as encoding/json reads it (escapes
// resolved, invalid UTF-8 as U+FFFD).
func (d *decoder) text(lit []byte) string {
	inner := lit[1 : len(lit)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner)
	}
	var s string
	_ = json.Unmarshal(lit, &s) // lit is a valid literal: json.Valid said so
	return s
}

// skip steps over a value, whatever it holds, making nothing: the
// nesting needs no memory, as the body is known to be valid.
func (d *decoder) skip() {
	depth := 0
	for {
		switch d.data[d.pos] {
		case '"':
			d.skipString()
		case '{', '[':
			depth++
			d.pos++
		case '}', ']':
			depth--
			d.pos++
		case ',', ':', ' ', '\t', '\r', '\n':
			d.pos++
		default:
			for d.pos < len(d.data) && isLiteralByte(d.data[d.pos]) {
				d.pos++
			}
		}
		if depth == 0 {
			// A value ends with its last closing bracket, or is a scalar.
			d.skipSpace()
			if d.pos >= len(d.data) || d.data[d.pos] == ',' || d.data[d.pos] == '}' || d.data[d.pos] == ']' {
				return
			}
		}
	}
}

// skipString steps over a string literal, its quotes included.
func (d *decoder) skipString() {
	d.pos++ // "
	for {
		i := bytes.IndexAny(d.data[d.pos:], `"\`)
		d.pos += i
		if d.data[d.pos] == '"' {
			d.pos++
			return
		}
		d.pos += 2 // a backslash and the character it escapes
	}
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\r', '\n':
			d.pos++
		default:
			return
		}
	}
}

func isNumberByte(b byte) bool {
	return b >= '0' && b <= '9' || b == '-' || b == '+' || b == '.' || b == 'e' || b == 'E'
}

// isLiteralByte is a byte of a number, true, false or null.
func isLiteralByte(b byte) bool { return isNumberByte(b) || b >= 'a' && b <= 'z' }

// find is the property c declares under name.
func (c *Class) find(name string) (prop, bool) {
	for _, p := range c.props {
		if p.name == name {
			return p, true
		}
	}
	return prop{}, false
}

// nestedClass is the class a property's objects are judged as, if any.
func (p prop) nestedClass() *Class {
	for _, m := range p.metas {
		if m.kind == nested {
			return m.class
		}
	}
	return nil
}
