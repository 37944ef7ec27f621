// Package dto reads request bodies as the reference server validates them:
// each operation's body is a class of properties with decorators, as the
// upstream declares its DTOs with class-validator and class-transformer,
// and this package applies them with those libraries' rules, so that a
// body gets every message the reference gives, in its order:
//
//   - properties are judged in the order they are declared;
//   - a property's decorators are registered bottom-up, as TypeScript
//     applies stacked decorators, a composite one (ValidateUUID) expanding
//     in its own order; its custom rules are judged in that order, then
//     its nested class;
//   - Optional skips a property that is absent, and judges null as a
//     value; OptionalNullable (IsOptional) skips null too;
//   - a rule with Each judges every element of an array, and its message
//     begins "each value in";
//   - a transform runs before validation; one that throws (a date that is
//     no date string) answers its one message and hides all others;
//   - messages of nested properties are prefixed with their path as
//     NestJS's ValidationPipe flattens them (albumUsers.1.userId ...);
//   - unknown properties are dropped (whitelist), never refused.
//
// Declare a class in the upstream's source order, decorator for
// decorator, and the rest follows.
package dto

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A Class is a request body's DTO: its properties, in declaration order.
type Class struct {
	name  string
	props []prop
	// maxBytes bounds a body of the class (0: the caller's default).
	maxBytes int
}

// prop is a property with its metadata in registration order.
type prop struct {
	name  string
	metas []meta
}

// metaKind is what a decorator registers.
type metaKind int

const (
	conditional metaKind = iota // ValidateIf: judge the property only when it holds
	custom                      // a rule
	nested                      // ValidateNested
	transform                   // class-transformer's Transform or Type
)

// meta is one registered decorator.
type meta struct {
	kind metaKind
	// when is a conditional's predicate, of the object and the property's
	// value.
	when func(obj Body, v any, present bool) bool
	rule Rule
	// class is a nested property's class, each whether it is an array of them.
	class *Class
	each  bool
	// apply is a transform: the value it makes, or the message it throws.
	apply func(name string, v any) (any, error)
}

// A Decorator is what one decorator of the upstream's DTO registers: one
// meta, or several for a composite (applyDecorators).
type Decorator []meta

// NewClass declares a class: its properties, in the upstream's order.
func NewClass(name string, props ...Property) *Class {
	c := &Class{name: name}
	for _, p := range props {
		c.props = append(c.props, p.prop())
	}
	return c
}

// Within bounds a body of c at n bytes: a rule of the mock's, which its
// reader applies before the body is read. It returns c.
func (c *Class) Within(n int) *Class {
	c.maxBytes = n
	return c
}

// MaxBytes is the bound Within set on a body of c; 0 where none is set.
func (c *Class) MaxBytes() int { return c.maxBytes }

// Property is a property as the upstream's source declares it: its
// decorators top to bottom.
type Property struct {
	Name       string
	Decorators []Decorator
	// limit bounds a text's characters, judged after every other rule.
	limit int
	// whole: a number must be a whole one, judged after every other rule.
	whole bool
	// boolean: a value given must be a boolean, judged after every other
	// rule.
	boolean bool
}

// Whole asks a number to be a whole one: a rule of the mock's, judged
// after the upstream's and only of a number, for a property the reference
// stores as an integer (and fails on with a 500 when it is not).
func (p Property) Whole() Property {
	p.whole = true
	return p
}

// Boolean asks a value given (not absent, not null) to be a boolean: a
// rule of the mock's, judged after the upstream's, for a property the
// reference stores as a boolean whatever it is sent.
func (p Property) Boolean() Property {
	p.boolean = true
	return p
}

// Limit bounds the property's text to n characters: a rule of the mock's,
// judged after the upstream's and only of a string, so that it adds no
// message where the reference gives none but for a text past the bound.
func (p Property) Limit(n int) Property {
	p.limit = n
	return p
}

// Field declares a property with its decorators in source order (top to
// bottom); they register bottom-up, as TypeScript applies them.
func Field(name string, decorators ...Decorator) Property {
	return Property{Name: name, Decorators: decorators}
}

func (p Property) prop() prop {
	out := prop{name: p.Name}
	for i := len(p.Decorators) - 1; i >= 0; i-- {
		out.metas = append(out.metas, p.Decorators[i]...)
	}
	if p.whole {
		out.metas = append(out.metas, meta{kind: custom, rule: Rule{
			check:   func(v any) bool { f, ok := number(v); return !ok || f == math.Trunc(f) },
			message: "$property must be an integer number",
		}})
	}
	if p.boolean {
		out.metas = append(out.metas, meta{kind: custom, rule: Rule{
			check:   func(v any) bool { _, ok := v.(bool); return ok || v == nil },
			message: "$property must be a boolean value",
		}})
	}
	if p.limit > 0 {
		n := p.limit
		out.metas = append(out.metas, meta{kind: custom, rule: Rule{
			check:   func(v any) bool { s, ok := v.(string); return !ok || len([]rune(s)) <= n },
			message: fmt.Sprintf("$property must be shorter than or equal to %d characters", n),
		}})
	}
	return out
}

// Rule is a class-validator constraint: a check of one value and the
// message it gives, with $property for the property's name.
type Rule struct {
	check   func(v any) bool
	message string
	each    bool
}

// Each is r judged on every element of an array, as {each: true}.
func (r Rule) Each() Rule { r.each = true; return r }

// As decorates with r.
func As(r Rule) Decorator { return Decorator{{kind: custom, rule: r}} }

// Combine is applyDecorators: its decorators register in the order given.
func Combine(ds ...Decorator) Decorator {
	var out Decorator
	for _, d := range ds {
		out = append(out, d...)
	}
	return out
}

// Optional is the upstream's Optional(): the property is judged unless it
// is absent; null is judged as a value.
func Optional() Decorator {
	return Decorator{{kind: conditional, when: func(_ Body, v any, present bool) bool { return present }}}
}

// OptionalNullable is Optional({nullable: true}), class-validator's
// IsOptional: the property is judged unless it is absent or null.
func OptionalNullable() Decorator {
	return Decorator{{kind: conditional, when: func(_ Body, v any, present bool) bool { return present && v != nil }}}
}

// ValidateIf judges the property only where when holds of its object, as
// class-validator's ValidateIf.
func ValidateIf(when func(obj Body) bool) Decorator {
	return Decorator{{kind: conditional, when: func(obj Body, _ any, _ bool) bool { return when(obj) }}}
}

// ValidateNested judges the property as an object of class (each: an
// array of them); Type's transform is implied.
func ValidateNested(class *Class, each bool) Decorator {
	return Decorator{{kind: nested, class: class, each: each}}
}

// Transform changes the value before validation; an error it returns is
// the request's one message, as a transform that throws.
func Transform(apply func(name string, v any) (any, error)) Decorator {
	return Decorator{{kind: transform, apply: apply}}
}

// TypeNumber is class-transformer's @Type(() => Number), as a query's
// text meets it: a string becomes the number JavaScript's Number() reads in
// it ("" is 0; "1e3" is 1000; "abc" is NaN, which no numeric rule
// takes), each element of a list too; other values stay as they are.
func TypeNumber() Decorator {
	return Transform(func(_ string, v any) (any, error) { return jsNumber(v), nil })
}

// jsDecimal is a decimal literal as Number() reads one, after trimming.
var jsDecimal = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

func jsNumber(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = jsNumber(e)
		}
		return out
	case bool:
		if v {
			return json.Number("1")
		}
		return json.Number("0")
	case string:
		t := strings.TrimSpace(v)
		switch {
		case t == "":
			return json.Number("0")
		case t == "Infinity" || t == "+Infinity":
			return json.Number("+Inf")
		case t == "-Infinity":
			return json.Number("-Inf")
		case jsDecimal.MatchString(t):
			f, err := strconv.ParseFloat(t, 64)
			if err != nil { // out of range: Number() gives ±Infinity
				return json.Number("NaN")
			}
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		case len(t) > 2 && t[0] == '0' && strings.ContainsRune("xXoObB", rune(t[1])):
			base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[t[1]|0x20]
			if n, err := strconv.ParseUint(t[2:], base, 64); err == nil && !strings.Contains(t, "_") {
				return json.Number(strconv.FormatUint(n, 10))
			}
		}
		return json.Number("NaN")
	}
	return v
}

// The class-validator rules the upstream's DTOs use, with its messages.

func IsString() Rule {
	return Rule{check: func(v any) bool { _, ok := v.(string); return ok }, message: "$property must be a string"}
}

func IsNotEmpty() Rule {
	return Rule{check: func(v any) bool { return v != nil && v != "" }, message: "$property should not be empty"}
}

func IsArray() Rule {
	return Rule{check: func(v any) bool { _, ok := v.([]any); return ok }, message: "$property must be an array"}
}

// ArrayNotEmpty holds for an array with an element.
func ArrayNotEmpty() Rule {
	return Rule{check: func(v any) bool { a, ok := v.([]any); return ok && len(a) > 0 }, message: "$property should not be empty"}
}

func IsBoolean() Rule {
	return Rule{check: func(v any) bool { _, ok := v.(bool); return ok }, message: "$property must be a boolean value"}
}

func IsEnum(values ...string) Rule {
	return Rule{
		check:   func(v any) bool { s, ok := v.(string); return ok && slices.Contains(values, s) },
		message: "$property must be one of the following values: " + strings.Join(values, ", "),
	}
}

// uuid4 is what the upstream takes for a UUID: IsUUID('4').
var uuid4 = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$`)

// IsUUIDString says whether s is a UUID as the upstream takes one.
func IsUUIDString(s string) bool { return uuid4.MatchString(s) }

func IsUUID() Rule {
	return Rule{check: func(v any) bool { s, ok := v.(string); return ok && IsUUIDString(s) }, message: "$property must be a UUID"}
}

// emailPattern is an email address as IsEmail({require_tld: false}) takes
// it, near enough: a local part, @, a domain.
var emailPattern = regexp.MustCompile(`^[^\s@]+@[^\s@.][^\s@]*$`)

// IsEmailString says whether s is an email address.
func IsEmailString(s string) bool {
	return len(s) <= 254 && emailPattern.MatchString(s) && !strings.HasSuffix(s, ".")
}

func IsEmail() Rule {
	return Rule{check: func(v any) bool { s, ok := v.(string); return ok && IsEmailString(s) }, message: "$property must be an email"}
}

func IsInt() Rule {
	return Rule{check: func(v any) bool { f, ok := number(v); return ok && f == math.Trunc(f) }, message: "$property must be an integer number"}
}

// IsNumber holds for a number, not NaN nor infinite, as class-validator's
// IsNumber() with its default options.
func IsNumber() Rule {
	return Rule{check: func(v any) bool { f, ok := number(v); return ok && !math.IsNaN(f) && !math.IsInf(f, 0) }, message: "$property must be a number conforming to the specified constraints"}
}

func IsPositive() Rule {
	return Rule{check: func(v any) bool { f, ok := number(v); return ok && f > 0 }, message: "$property must be a positive number"}
}

func Min(n float64) Rule {
	return Rule{check: func(v any) bool { f, ok := number(v); return ok && f >= n }, message: fmt.Sprintf("$property must not be less than %v", n)}
}

func Max(n float64) Rule {
	return Rule{check: func(v any) bool { f, ok := number(v); return ok && f <= n }, message: fmt.Sprintf("$property must not be greater than %v", n)}
}

// MinLength holds for a string of n characters or more.
func MinLength(n int) Rule {
	return Rule{check: func(v any) bool { s, ok := v.(string); return ok && len([]rune(s)) >= n }, message: fmt.Sprintf("$property must be longer than or equal to %d characters", n)}
}

// IsDate holds for a value a date transform made.
func IsDate() Rule {
	return Rule{check: func(v any) bool { _, ok := v.(time.Time); return ok }, message: "$property must be a Date instance"}
}

// IsLatitude holds for a number, or a string of one, from -90 to 90.
func IsLatitude() Rule {
	return Rule{check: func(v any) bool { f, ok := numeric(v); return ok && f >= -90 && f <= 90 }, message: "$property must be a latitude string or number"}
}

// IsLongitude holds for a number, or a string of one, from -180 to 180.
func IsLongitude() Rule {
	return Rule{check: func(v any) bool { f, ok := numeric(v); return ok && f >= -180 && f <= 180 }, message: "$property must be a longitude string or number"}
}

// numeric is a number, or a string that is one.
func numeric(v any) (float64, bool) {
	if s, ok := v.(string); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return f, err == nil && s != ""
	}
	return number(v)
}

// IsDateString holds for an ISO 8601 date string.
func IsDateString() Rule {
	return Rule{check: func(v any) bool { s, ok := v.(string); return ok && isISO8601(s) }, message: "$property must be a valid ISO 8601 date string"}
}

// isISO8601 is a date or date-time as ISO 8601 writes it.
func isISO8601(s string) bool {
	_, ok := ParseDate(s)
	return ok
}

func IsObject() Rule {
	return Rule{check: func(v any) bool {
		switch v.(type) {
		case map[string]any, Body: // a nested object is a Body once transformed
			return true
		}
		return false
	}, message: "$property must be an object"}
}

// number is v as a JavaScript number, if it is one.
func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// The upstream's composite decorators (src/validation.ts).

// ValidateUUIDOptions are ValidateUUID's options.
type ValidateUUIDOptions struct{ Optional, Each bool }

// ValidateUUID is the upstream's ValidateUUID.
func ValidateUUID(o ValidateUUIDOptions) Decorator {
	uuid := IsUUID()
	if o.Each {
		uuid = uuid.Each()
	}
	presence := As(IsNotEmpty())
	if o.Optional {
		presence = Optional()
	}
	shape := As(IsString())
	if o.Each {
		shape = As(IsArray())
	}
	return Combine(As(uuid), presence, shape)
}

// ValidateBoolean is the upstream's ValidateBoolean: "true" and "false"
// are taken for true and false.
func ValidateBoolean(optional bool) Decorator {
	d := Combine(As(IsBoolean()), Transform(func(_ string, v any) (any, error) {
		switch v {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return v, nil
	}))
	if optional {
		d = Combine(d, Optional())
	}
	return d
}

// ValidateDateOptions are ValidateDate's options.
type ValidateDateOptions struct{ Optional, Nullable bool }

// ValidateDate is the upstream's ValidateDate: a value that is not a date
// string throws "<name> must be a date string", which hides every other
// message.
func ValidateDate(o ValidateDateOptions) Decorator {
	presence := As(IsNotEmpty())
	if o.Optional {
		presence = OptionalNullable()
	}
	d := Combine(As(IsDate()), presence, Transform(func(name string, v any) (any, error) {
		if v == nil {
			return v, nil
		}
		s, ok := v.(string)
		if !ok {
			return nil, Thrown(name + " must be a date string")
		}
		t, ok := ParseDate(s)
		if !ok {
			return nil, Thrown(name + " must be a date string")
		}
		return t, nil
	}))
	if o.Optional {
		if o.Nullable {
			d = Combine(d, OptionalNullable())
		} else {
			d = Combine(d, Optional())
		}
	}
	return d
}

// Thrown is the message of a transform that throws: the request's only one.
type Thrown string

func (t Thrown) Error() string { return string(t) }

// ParseDate reads an ISO 8601 date or date-time, as the upstream's
// isDateString takes it, within the years 0001 to 9999.
func ParseDate(v string) (time.Time, bool) {
	for _, layout := range []string{
		time.RFC3339Nano,
		"2006-01-02T15:04:05.999999999",
		"2006-01-02T15:04:05.999999999Z0700",
		"2006-01-02T15:04Z07:00",
		"2006-01-02T15:04",
		time.DateOnly,
	} {
		if t, err := time.Parse(layout, v); err == nil {
			y := t.UTC().Year()
			return t, y >= 1 && y <= 9999
		}
	}
	return time.Time{}, false
}

// Body is a validated request body: its members as the transforms left
// them (booleans from "true", dates as time.Time), unknown ones dropped.
type Body map[string]any

// Has says whether the member is there, null or not.
func (b Body) Has(name string) bool { _, ok := b[name]; return ok }

// IsNull says whether the member is there as null.
func (b Body) IsNull(name string) bool { v, ok := b[name]; return ok && v == nil }

// String is the member as a string, and whether it is one.
func (b Body) String(name string) (string, bool) { s, ok := b[name].(string); return s, ok }

// Bool is the member as a boolean, and whether it is one.
func (b Body) Bool(name string) (bool, bool) { v, ok := b[name].(bool); return v, ok }

// Time is the member as a date, and whether it is one.
func (b Body) Time(name string) (time.Time, bool) { t, ok := b[name].(time.Time); return t, ok }

// Int64 is the member as a whole number, and whether it is one.
func (b Body) Int64(name string) (int64, bool) {
	n, ok := b[name].(json.Number)
	if !ok {
		return 0, false
	}
	v, err := n.Int64()
	return v, err == nil
}

// Strings is the member as a list of strings (the elements that are).
func (b Body) Strings(name string) []string {
	a, _ := b[name].([]any)
	out := make([]string, 0, len(a))
	for _, e := range a {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Objects is the member as a list of objects.
func (b Body) Objects(name string) []Body {
	a, _ := b[name].([]any)
	out := make([]Body, 0, len(a))
	for _, e := range a {
		switch m := e.(type) {
		case Body:
			out = append(out, m)
		case map[string]any:
			out = append(out, Body(m))
		}
	}
	return out
}

// Problems is a body's failed rules, in the reference's order.
type Problems []string

func (p Problems) Error() string { return strings.Join(p, "; ") }

// SyntaxError is the reference's message for a body it cannot parse
// (SyntaxMessage).
type SyntaxError string

func (e SyntaxError) Error() string { return string(e) }

// syntaxError is the reference's refusal of data, which Go's decoder
// refused too.
func syntaxError(data []byte) error {
	if msg, bad := SyntaxMessage(data); bad {
		return SyntaxError(msg)
	}
	return SyntaxError("Unexpected end of JSON input")
}

// Validate judges obj, a JSON object decoded with UseNumber, as c declares it.
func (c *Class) Validate(obj map[string]any) (Body, error) {
	out, err := c.transform(obj)
	if err != nil {
		return nil, err
	}
	errs := c.validate(out)
	if p := flatten(errs, ""); len(p) > 0 {
		return nil, p
	}
	return out, nil
}

// transform makes the class's instance of obj: its known members only,
// each through its transforms, nested objects too.
func (c *Class) transform(obj map[string]any) (Body, error) {
	out := Body{}
	for _, p := range c.props {
		v, present := obj[p.name]
		if !present {
			continue
		}
		for _, m := range p.metas {
			switch {
			case m.kind == transform:
				var err error
				if v, err = m.apply(p.name, v); err != nil {
					return nil, err
				}
			case m.kind == nested:
				var err error
				if v, err = m.class.transformValue(v); err != nil {
					return nil, err
				}
			}
		}
		out[p.name] = v
	}
	return out, nil
}

// transformValue is class-transformer's Type: objects, and the objects of
// an array, become instances of c; anything else stays as it is.
func (c *Class) transformValue(v any) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		return c.transform(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			var err error
			if out[i], err = c.transformValue(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return v, nil
}

// verror is class-validator's ValidationError: a property's failed
// constraints, and its children's.
type verror struct {
	property    string
	constraints []string
	children    []*verror
}

// validate is class-validator's execute on an instance of c.
func (c *Class) validate(obj Body) []*verror {
	var errs []*verror
	for _, p := range c.props {
		v, present := obj[p.name]
		if e := p.validate(obj, v, present); e != nil {
			errs = append(errs, e)
		}
	}
	return errs
}

// validate is performValidations of one property of obj.
func (p prop) validate(obj Body, v any, present bool) *verror {
	e := &verror{property: p.name}
	for _, m := range p.metas {
		if m.kind == conditional && !m.when(obj, v, present) {
			return nil
		}
	}
	for _, m := range p.metas {
		if m.kind != custom {
			continue
		}
		if msg, ok := m.rule.judge(p.name, v); !ok {
			e.constraints = appendUnique(e.constraints, msg)
		}
	}
	for _, m := range p.metas {
		if m.kind == nested && present {
			nestedValidation(p.name, m, v, e)
		}
	}
	if len(e.constraints) == 0 && len(e.children) == 0 {
		return nil
	}
	return e
}

// appendUnique adds msg once: class-validator keeps one message a kind of
// constraint.
func appendUnique(list []string, msg string) []string {
	if slices.Contains(list, msg) {
		return list
	}
	return append(list, msg)
}

// judge checks v against r, and says r's message for name where it fails.
func (r Rule) judge(name string, v any) (string, bool) {
	msg := strings.ReplaceAll(r.message, "$property", name)
	if r.each {
		msg = "each value in " + msg
		if a, ok := v.([]any); ok {
			for _, e := range a {
				if !r.check(e) {
					return msg, false
				}
			}
			return "", true
		}
	}
	return msg, r.check(v)
}

// nestedValidation is class-validator's nestedValidations of v, a value of
// the property named name, into e.
func nestedValidation(name string, m meta, v any, e *verror) {
	msg := "nested property " + name + " must be either object or array"
	if m.each {
		msg = "each value in " + msg
	}
	switch t := v.(type) {
	case []any:
		for i, sub := range t {
			child := &verror{property: fmt.Sprint(i)}
			switch s := sub.(type) {
			case Body:
				child.children = m.class.validate(s)
			case map[string]any:
				child.children = m.class.validate(Body(s))
			default:
				// Anything but an object, an array in the array too (which
				// class-validator lets through, and the reference then fails
				// on with a 500).
				child.constraints = append(child.constraints, msg)
			}
			if len(child.constraints) > 0 || len(child.children) > 0 {
				e.children = append(e.children, child)
			}
		}
	case Body:
		e.children = append(e.children, m.class.validate(t)...)
	case map[string]any:
		e.children = append(e.children, m.class.validate(Body(t))...)
	default:
		e.constraints = appendUnique(e.constraints, msg)
	}
}

// flatten is NestJS's ValidationPipe's flattening of errors into messages:
// a property with children gives its children's messages, prefixed with
// its path, and not its own.
func flatten(errs []*verror, parent string) Problems {
	var out Problems
	for _, e := range errs {
		if len(e.children) == 0 {
			out = append(out, prefixed(parent, e.constraints)...)
			continue
		}
		out = append(out, mapChildren(e, parent)...)
	}
	return out
}

// mapChildren is ValidationPipe's mapChildrenToValidationErrors.
func mapChildren(e *verror, parent string) Problems {
	path := e.property
	if parent != "" {
		path = parent + "." + e.property
	}
	var out Problems
	for _, c := range e.children {
		if len(c.children) > 0 {
			out = append(out, mapChildren(c, path)...)
		}
		out = append(out, prefixed(path, c.constraints)...)
	}
	return out
}

func prefixed(path string, msgs []string) []string {
	if path == "" {
		return msgs
	}
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = path + "." + m
	}
	return out
}
