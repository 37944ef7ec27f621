package conformance

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A tag expression selects scenarios by their tags, as Cucumber writes it:
// `not @control and (@upload or @shared-links)`, with `not` binding
// tighter than `and`, and `and` tighter than `or`. godog's older syntax is
// read too: `~@tag` is `not @tag`, `&&` is `and`, and `,` is an `or` that
// binds tighter than `and` (`@a,@b && ~@c` is `(@a or @b) and not @c`), so
// every expression godog took means what it meant.

// TagExpr is a parsed tag expression.
type TagExpr struct{ root tagNode }

// TagError is a tag expression that cannot be read: what was expected, and
// where (Column counts characters from 1).
type TagError struct {
	Column int
	Reason string
}

func (e *TagError) Error() string { return fmt.Sprintf("%s at column %d", e.Reason, e.Column) }

// maxTagNesting bounds how deeply parentheses and negations nest, and
// maxTagLength how long an expression is, so that none exhausts the stack.
const (
	maxTagNesting = 100
	maxTagLength  = 4096
)

// ParseTags reads a tag expression. An empty (or blank) one selects every
// scenario.
func ParseTags(expr string) (*TagExpr, error) {
	toks, err := lexTags(expr)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return &TagExpr{}, nil
	}
	p := &tagParser{toks: toks}
	root, err := p.or(0)
	if err != nil {
		return nil, err
	}
	if t, ok := p.peek(); ok {
		if t.kind == tokClose {
			return nil, &TagError{t.col, `unexpected ")"`}
		}
		return nil, &TagError{t.col, fmt.Sprintf("expected \"and\" or \"or\" before %q", t.text)}
	}
	return &TagExpr{root: root}, nil
}

// Match says whether a scenario with these tags is selected.
func (e *TagExpr) Match(tags []string) bool {
	return e == nil || e.root == nil || e.root.match(tags)
}

// String writes the expression in Cucumber's syntax, every operation in
// parentheses; "" for the expression that selects everything.
func (e *TagExpr) String() string {
	if e == nil || e.root == nil {
		return ""
	}
	var b strings.Builder
	e.root.write(&b)
	return b.String()
}

// and is the expression that selects what both e and other select.
func (e *TagExpr) and(other *TagExpr) *TagExpr {
	switch {
	case e == nil || e.root == nil:
		return other
	case other == nil || other.root == nil:
		return e
	}
	return &TagExpr{root: &tagBinary{op: "and", left: e.root, right: other.root}}
}

type tagNode interface {
	match(tags []string) bool
	// write writes the node in Cucumber's syntax: one builder for the
	// whole expression, so a long one is written in linear time.
	write(b *strings.Builder)
}

type tagLiteral string

func (t tagLiteral) match(tags []string) bool { return slices.Contains(tags, string(t)) }

// write escapes what would otherwise end the tag or start an operator.
func (t tagLiteral) write(b *strings.Builder) {
	for i, r := range string(t) {
		if isTagDelimiter(r) || r == '\\' || (r == '~' && i == 0) || (r == '&' && strings.HasPrefix(string(t)[i:], "&&")) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
}

type tagNot struct{ operand tagNode }

func (n *tagNot) match(tags []string) bool { return !n.operand.match(tags) }
func (n *tagNot) write(b *strings.Builder) {
	b.WriteString("not ")
	n.operand.write(b)
}

type tagBinary struct {
	op          string // "and", "or"
	left, right tagNode
}

func (b *tagBinary) match(tags []string) bool {
	if b.op == "and" {
		return b.left.match(tags) && b.right.match(tags)
	}
	return b.left.match(tags) || b.right.match(tags)
}

func (b *tagBinary) write(w *strings.Builder) {
	w.WriteByte('(')
	b.left.write(w)
	w.WriteString(" " + b.op + " ")
	b.right.write(w)
	w.WriteByte(')')
}

type tokKind int

const (
	tokTag   tokKind = iota
	tokOpen          // (
	tokClose         // )
	tokNot           // not, ~
	tokAnd           // and, &&
	tokOr            // or
	tokComma         // , (godog's or)
)

type tagToken struct {
	kind tokKind
	text string // as written, for messages; the tag's name for a tag
	col  int
}

func isTagDelimiter(r rune) bool { return unicode.IsSpace(r) || r == '(' || r == ')' || r == ',' }

// lexTags splits an expression into tokens. A word is a run of characters
// up to a space, a parenthesis, a comma or "&&"; a backslash escapes the
// character after it.
func lexTags(expr string) ([]tagToken, error) {
	if !utf8.ValidString(expr) {
		return nil, &TagError{1, "the expression is not valid UTF-8"}
	}
	runes := []rune(expr)
	if len(runes) > maxTagLength {
		return nil, &TagError{maxTagLength + 1, fmt.Sprintf("the expression is longer than %d characters", maxTagLength)}
	}
	var toks []tagToken
	for i := 0; i < len(runes); {
		r, col := runes[i], i+1
		switch {
		case unicode.IsSpace(r):
			i++
			continue
		case r == '(':
			toks = append(toks, tagToken{tokOpen, "(", col})
			i++
			continue
		case r == ')':
			toks = append(toks, tagToken{tokClose, ")", col})
			i++
			continue
		case r == ',':
			toks = append(toks, tagToken{tokComma, ",", col})
			i++
			continue
		case r == '&' && i+1 < len(runes) && runes[i+1] == '&':
			toks = append(toks, tagToken{tokAnd, "&&", col})
			i += 2
			continue
		case r == '~':
			toks = append(toks, tagToken{tokNot, "~", col})
			i++
			continue
		}
		var word strings.Builder
		escaped := false
		for ; i < len(runes); i++ {
			r := runes[i]
			if r == '\\' {
				if i+1 == len(runes) {
					return nil, &TagError{i + 1, `nothing to escape after "\"`}
				}
				i++
				word.WriteRune(runes[i])
				escaped = true
				continue
			}
			if isTagDelimiter(r) || (r == '&' && i+1 < len(runes) && runes[i+1] == '&') {
				break
			}
			word.WriteRune(r)
		}
		w := word.String()
		switch {
		case !escaped && w == "and":
			toks = append(toks, tagToken{tokAnd, w, col})
		case !escaped && w == "or":
			toks = append(toks, tagToken{tokOr, w, col})
		case !escaped && w == "not":
			toks = append(toks, tagToken{tokNot, w, col})
		case strings.HasPrefix(w, "@") && len(w) > 1:
			toks = append(toks, tagToken{tokTag, w, col})
		default:
			return nil, &TagError{col, fmt.Sprintf("%q is not a tag: a tag starts with @, like @upload", w)}
		}
	}
	return toks, nil
}

type tagParser struct {
	toks []tagToken
	pos  int
}

func (p *tagParser) peek() (tagToken, bool) {
	if p.pos < len(p.toks) {
		return p.toks[p.pos], true
	}
	return tagToken{}, false
}

// or := and ("or" and)*
func (p *tagParser) or(depth int) (tagNode, error) {
	return p.binary(depth, tokOr, "or", p.and)
}

// and := comma (("and" | "&&") comma)*
func (p *tagParser) and(depth int) (tagNode, error) {
	return p.binary(depth, tokAnd, "and", p.comma)
}

// comma := unary ("," unary)*: godog's or, which binds tighter than and.
func (p *tagParser) comma(depth int) (tagNode, error) {
	return p.binary(depth, tokComma, "or", p.unary)
}

// binary parses operands joined, left to right, by tokens of kind, each
// read by operand, into nodes of op.
func (p *tagParser) binary(depth int, kind tokKind, op string, operand func(int) (tagNode, error)) (tagNode, error) {
	left, err := operand(depth)
	if err != nil {
		return nil, err
	}
	for {
		t, ok := p.peek()
		if !ok || t.kind != kind {
			return left, nil
		}
		p.pos++
		right, err := operand(depth)
		if err != nil {
			return nil, err
		}
		left = &tagBinary{op: op, left: left, right: right}
	}
}

// unary := ("not" | "~") unary | "(" or ")" | TAG
func (p *tagParser) unary(depth int) (tagNode, error) {
	t, ok := p.peek()
	if !ok || (t.kind != tokTag && t.kind != tokNot && t.kind != tokOpen) {
		return nil, p.expectedTag()
	}
	if depth >= maxTagNesting {
		return nil, &TagError{t.col, fmt.Sprintf("the expression nests deeper than %d levels", maxTagNesting)}
	}
	p.pos++
	switch t.kind {
	case tokNot:
		operand, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return &tagNot{operand: operand}, nil
	case tokOpen:
		inner, err := p.or(depth + 1)
		if err != nil {
			return nil, err
		}
		if c, ok := p.peek(); !ok || c.kind != tokClose {
			if ok {
				return nil, &TagError{c.col, fmt.Sprintf("expected \"and\", \"or\" or \")\" before %q", c.text)}
			}
			return nil, &TagError{t.col, `the "(" is never closed`}
		}
		p.pos++
		return inner, nil
	}
	return tagLiteral(t.text), nil
}

// expectedTag says that a tag was wanted where the parser stands.
func (p *tagParser) expectedTag() error {
	t, ok := p.peek()
	switch {
	case ok && p.pos == 0:
		return &TagError{t.col, fmt.Sprintf("expected a tag, found %q", t.text)}
	case ok:
		prev := p.toks[p.pos-1]
		return &TagError{t.col, fmt.Sprintf("expected a tag after %q, found %q", prev.text, t.text)}
	}
	prev := p.toks[p.pos-1]
	return &TagError{prev.col, fmt.Sprintf("expected a tag after %q", prev.text)}
}

// godogFilter is the filter in godog's own syntax that selects, among the
// catalog's scenarios, exactly those e selects, the feature files that
// hold them, and how many that is. godog reads only those files, and
// matches each of their scenarios against the filter: a run of a few
// scenarios costs what they do, not what the whole spec does.
// godog reads only an AND of ORs of tags and negated tags, into which not
// every expression goes without growing exponentially; but the files'
// scenarios carry finitely many sets of tags, so one clause per set that e
// leaves out ("has a tag this set lacks, or lacks one it has") selects
// exactly the others. "" selects every scenario of the files.
func godogFilter(e *TagExpr, c *catalog) (filter string, files []string, selected int) {
	var read []*featureInfo
	for _, f := range c.features {
		if slices.ContainsFunc(f.scenarios, func(s *scenarioInfo) bool { return e.Match(s.tags) }) {
			read = append(read, f)
			files = append(files, f.uri)
		}
	}
	var universe []string
	for _, f := range read {
		for _, s := range f.scenarios {
			for _, t := range s.tags {
				if !slices.Contains(universe, t) {
					universe = append(universe, t)
				}
			}
		}
	}
	var clauses []string
	seen := map[string]bool{}
	for _, f := range read {
		for _, s := range f.scenarios {
			if e.Match(s.tags) {
				selected++
				continue
			}
			set := slices.Clone(s.tags)
			slices.Sort(set)
			set = slices.Compact(set)
			key := strings.Join(set, "\x00")
			if seen[key] {
				continue
			}
			seen[key] = true
			clauses = append(clauses, excluding(set, universe))
		}
	}
	return strings.Join(clauses, " && "), files, selected
}

// excluding is the clause that leaves out the scenarios whose tags are
// set, among those whose tags are drawn from universe.
func excluding(set, universe []string) string {
	var lits []string
	for _, t := range universe {
		if slices.Contains(set, t) {
			lits = append(lits, "~"+t)
		} else {
			lits = append(lits, t)
		}
	}
	return strings.Join(lits, ",")
}
