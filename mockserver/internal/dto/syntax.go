package dto

import (
	"fmt"
	"regexp"
	"unicode/utf16"
	"unicode/utf8"
)

// SyntaxMessage is what the reference answers for a JSON body it cannot
// parse, and whether the body is refused at all: its body parser's strict
// check (a body must begin with { or [), then JavaScript's JSON.parse, in
// the words of the V8 engine of its Node.js (20): "Unexpected end of JSON
// input", "Expected property name or '}' in JSON at position 1",
// "Unexpected token 'x', "x" is not valid JSON". Positions count UTF-16
// code units, as JavaScript's strings do. An empty body is no error (the
// parser takes it for {}).
func SyntaxMessage(data []byte) (string, bool) {
	if len(data) == 0 {
		return "", false
	}
	src := utf16.Encode(decodeUTF8(data))
	first := -1
	for i, c := range src {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			first = i
			break
		}
	}
	if first < 0 || (src[first] != '{' && src[first] != '[') {
		return strictMessage(src, first), true
	}
	msg, bad := jsonParse(src)
	return msg, bad
}

// strictMessage is body-parser's createStrictSyntaxError: JSON.parse's
// message for the body with everything from its first character on
// replaced by '#', each run of '#' in the message then replaced by as many
// characters of the body from that first character.
func strictMessage(src []uint16, first int) string {
	var partial []uint16
	if first >= 0 {
		partial = append(partial, src[:first]...)
		for range src[first:] {
			partial = append(partial, '#')
		}
	}
	msg, _ := jsonParse(partial)
	return hashes.ReplaceAllStringFunc(msg, func(run string) string {
		if first < 0 {
			return run
		}
		end := min(first+len(run), len(src))
		return string(utf16.Decode(src[first:end]))
	})
}

var hashes = regexp.MustCompile(`#+`)

// v8Parser is V8's JsonParser, as far as what it refuses and how it says so.
type v8Parser struct {
	src []uint16
	pos int
	err string
}

// The tokens V8 sees at the start of a value, by its first character.
const (
	tokString = iota
	tokNumber
	tokTrue
	tokFalse
	tokNull
	tokWhitespace
	tokColon
	tokComma
	tokLBrack
	tokRBrack
	tokLBrace
	tokRBrace
	tokIllegal
	tokEOS
)

func (p *v8Parser) token(at int) int {
	if at >= len(p.src) {
		return tokEOS
	}
	switch c := p.src[at]; {
	case c == '"':
		return tokString
	case c == '-' || (c >= '0' && c <= '9'):
		return tokNumber
	case c == 't':
		return tokTrue
	case c == 'f':
		return tokFalse
	case c == 'n':
		return tokNull
	case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		return tokWhitespace
	case c == ':':
		return tokColon
	case c == ',':
		return tokComma
	case c == '[':
		return tokLBrack
	case c == ']':
		return tokRBrack
	case c == '{':
		return tokLBrace
	case c == '}':
		return tokRBrace
	}
	return tokIllegal
}

func (p *v8Parser) peek() int { return p.token(p.pos) }

func (p *v8Parser) skipWhitespace() {
	for p.peek() == tokWhitespace {
		p.pos++
	}
}

// The contexts of V8's messages for an unexpected token.
const (
	maxContext       = 10
	minContextSource = 2*maxContext + 1
)

// fail reports the token at the cursor: with message, a template whose %d
// is the position, or without, as V8 words that token.
func (p *v8Parser) fail(message string) {
	if p.err != "" {
		return
	}
	if message != "" {
		p.err = fmt.Sprintf(message, p.pos)
		return
	}
	switch p.peek() {
	case tokEOS:
		p.err = "Unexpected end of JSON input"
	case tokNumber:
		p.err = fmt.Sprintf("Unexpected number in JSON at position %d", p.pos)
	case tokString:
		p.err = fmt.Sprintf("Unexpected string in JSON at position %d", p.pos)
	default:
		src := string(utf16.Decode(p.src))
		switch src {
		case "[object Object]", "undefined", "Infinity", "NaN":
			p.err = fmt.Sprintf("%q is not valid JSON", src)
			return
		}
		char := string(utf16.Decode(p.src[p.pos : p.pos+1]))
		n := len(p.src)
		switch {
		case n < minContextSource:
			p.err = fmt.Sprintf("Unexpected token '%s', \"%s\" is not valid JSON", char, src)
		case p.pos < maxContext:
			p.err = fmt.Sprintf("Unexpected token '%s', \"%s\"... is not valid JSON", char, decode(p.src[:p.pos+maxContext]))
		case p.pos < n-maxContext:
			p.err = fmt.Sprintf("Unexpected token '%s', ...\"%s\"... is not valid JSON", char, decode(p.src[p.pos-maxContext:p.pos+maxContext]))
		default:
			p.err = fmt.Sprintf("Unexpected token '%s', ...\"%s\" is not valid JSON", char, decode(p.src[p.pos-maxContext:]))
		}
	}
}

func decode(s []uint16) string { return string(utf16.Decode(s)) }

// jsonParse is JSON.parse of src: its error message, if it throws one.
func jsonParse(src []uint16) (string, bool) {
	p := &v8Parser{src: src}
	p.value(0)
	if p.err == "" {
		p.skipWhitespace()
		if p.peek() != tokEOS {
			p.fail("Unexpected non-whitespace character after JSON at position %d")
		}
	}
	return p.err, p.err != ""
}

// maxDepth bounds the nesting this parser follows; deeper is refused as
// V8 refuses it, with a stack overflow (rare: the body's size is bounded).
const maxDepth = 10000

func (p *v8Parser) value(depth int) {
	if p.err != "" {
		return
	}
	if depth > maxDepth {
		p.err = "Maximum call stack size exceeded"
		return
	}
	p.skipWhitespace()
	switch p.peek() {
	case tokString:
		p.pos++
		p.string()
	case tokNumber:
		p.number()
	case tokLBrace:
		p.pos++
		p.object(depth)
	case tokLBrack:
		p.pos++
		p.array(depth)
	case tokTrue:
		p.literal("true")
	case tokFalse:
		p.literal("false")
	case tokNull:
		p.literal("null")
	default:
		p.fail("")
	}
}

func (p *v8Parser) object(depth int) {
	p.skipWhitespace()
	if p.peek() == tokRBrace {
		p.pos++
		return
	}
	message := "Expected property name or '}' in JSON at position %d"
	// V8 words a missing colon after the first property's name, and only
	// that one; after the others, it names the token found.
	colon := "Expected ':' after property name in JSON at position %d"
	for {
		p.skipWhitespace()
		if p.peek() != tokString {
			p.fail(message)
			return
		}
		p.pos++
		p.string()
		if p.err != "" {
			return
		}
		p.skipWhitespace()
		if p.peek() != tokColon {
			p.fail(colon)
			return
		}
		colon = ""
		p.pos++
		p.value(depth + 1)
		if p.err != "" {
			return
		}
		p.skipWhitespace()
		if p.peek() == tokComma {
			p.pos++
			message = "Expected double-quoted property name in JSON at position %d"
			continue
		}
		if p.peek() != tokRBrace {
			p.fail("Expected ',' or '}' after property value in JSON at position %d")
			return
		}
		p.pos++
		return
	}
}

func (p *v8Parser) array(depth int) {
	p.skipWhitespace()
	if p.peek() == tokRBrack {
		p.pos++
		return
	}
	for {
		p.value(depth + 1)
		if p.err != "" {
			return
		}
		p.skipWhitespace()
		if p.peek() == tokComma {
			p.pos++
			continue
		}
		if p.peek() != tokRBrack {
			p.fail("Expected ',' or ']' after array element in JSON at position %d")
			return
		}
		p.pos++
		return
	}
}

// string scans a string whose opening quote is behind the cursor.
func (p *v8Parser) string() {
	for {
		if p.pos >= len(p.src) {
			p.fail("Unterminated string in JSON at position %d")
			return
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			return
		case c == '\\':
			p.pos++
			if p.pos >= len(p.src) {
				p.fail("")
				return
			}
			switch p.src[p.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos++
			case 'u':
				for range 4 {
					p.pos++
					if p.pos >= len(p.src) || !isHex(p.src[p.pos]) {
						p.fail("Bad Unicode escape in JSON at position %d")
						return
					}
				}
				p.pos++
			default:
				if p.src[p.pos] > 0xFF {
					p.fail("") // beyond Latin-1, V8 names the character
				} else {
					p.fail("Bad escaped character in JSON at position %d")
				}
				return
			}
		case c < 0x20:
			p.fail("Bad control character in string literal in JSON at position %d")
			return
		default:
			p.pos++
		}
	}
}

func isHex(c uint16) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func (p *v8Parser) digit() bool {
	return p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9'
}

func (p *v8Parser) digits() {
	for p.digit() {
		p.pos++
	}
}

func (p *v8Parser) number() {
	if p.src[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.src) && p.src[p.pos] == '0':
		p.pos++
		if p.digit() {
			p.fail("Unexpected number in JSON at position %d")
			return
		}
	case !p.digit():
		p.fail("No number after minus sign in JSON at position %d")
		return
	default:
		p.digits()
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if !p.digit() {
			p.fail("Unterminated fractional number in JSON at position %d")
			return
		}
		p.digits()
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if !p.digit() {
			p.fail("Exponent part is missing a number in JSON at position %d")
			return
		}
		p.digits()
	}
}

// literal scans true, false or null; the first character that differs is
// the unexpected one.
func (p *v8Parser) literal(word string) {
	for i := range len(word) {
		if p.pos >= len(p.src) || p.src[p.pos] != uint16(word[i]) {
			p.fail("")
			return
		}
		p.pos++
	}
}

// decodeUTF8 is data as JavaScript decodes UTF-8 (the WHATWG decoder): a
// U+FFFD for each maximal subpart of an ill-formed sequence, where Go's
// conversion gives one for each byte.
func decodeUTF8(data []byte) []rune {
	out := make([]rune, 0, len(data))
	for i := 0; i < len(data); {
		b := data[i]
		if b < 0x80 {
			out = append(out, rune(b))
			i++
			continue
		}
		var need int
		var cp rune
		lower, upper := byte(0x80), byte(0xBF)
		switch {
		case b >= 0xC2 && b <= 0xDF:
			need, cp = 1, rune(b&0x1F)
		case b >= 0xE0 && b <= 0xEF:
			need, cp = 2, rune(b&0x0F)
			if b == 0xE0 {
				lower = 0xA0
			} else if b == 0xED {
				upper = 0x9F
			}
		case b >= 0xF0 && b <= 0xF4:
			need, cp = 3, rune(b&0x07)
			if b == 0xF0 {
				lower = 0x90
			} else if b == 0xF4 {
				upper = 0x8F
			}
		default:
			out = append(out, utf8.RuneError)
			i++
			continue
		}
		j := i + 1
		for ; j <= i+need; j++ {
			if j >= len(data) || data[j] < lower || data[j] > upper {
				break
			}
			cp = cp<<6 | rune(data[j]&0x3F)
			lower, upper = 0x80, 0xBF
		}
		if j == i+need+1 {
			out = append(out, cp)
		} else {
			out = append(out, utf8.RuneError)
		}
		i = j
	}
	return out
}
