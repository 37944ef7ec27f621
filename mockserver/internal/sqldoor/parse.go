package sqldoor

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is what a statement does.
type Kind int

// The statements the door reads.
const (
	Delete Kind = iota + 1 // DELETE FROM table [WHERE ...]
	Update                 // UPDATE table SET column = value, ... [WHERE ...]
	Insert                 // INSERT INTO table (columns) VALUES (...), ...
)

// Statement is one SQL statement of the subset the door reads, with its
// parameters ($1, $2, ...) still to be bound (Bind).
type Statement struct {
	Kind  Kind
	Table string // without its schema (public)
	// Set is UPDATE's assignments, in their order.
	Set []Assignment
	// Where is the conditions, all of which a row meets (AND).
	Where []Condition
	// Columns and Rows are INSERT's.
	Columns []string
	Rows    [][]Value
	// Params is how many parameters the statement names: its highest $n.
	Params int
}

// Assignment is `column = value` of UPDATE's SET.
type Assignment struct {
	Column string
	Value  Value
}

// Condition is `column op value` of a WHERE, op one of "=", "<>" (!= is
// read as <>).
type Condition struct {
	Column string
	Op     string
	Value  Value
}

// Value is a literal or a parameter. After Bind, Param is 0.
type Value struct {
	Null  bool
	Text  string // a string's or a number's text; "true"/"false" for booleans
	Param int    // 1 for $1; 0 for a literal
}

// Error is an answer of the door in Postgres's terms: a SQLSTATE code and
// a message, as the protocol's ErrorResponse carries them.
type Error struct {
	Code    string // e.g. 42601 (syntax error)
	Message string
}

func (e *Error) Error() string { return e.Message }

// Errorf is an *Error of code with a message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// SQLSTATE codes the door answers.
const (
	CodeSyntax          = "42601" // syntax_error
	CodeNotSupported    = "0A000" // feature_not_supported
	CodeUndefinedTable  = "42P01" // undefined_table
	CodeUndefinedColumn = "42703" // undefined_column
	CodeBadText         = "22P02" // invalid_text_representation
	CodeDataException   = "22000" // data_exception
	CodeForeignKey      = "23503" // foreign_key_violation
	CodeNotNull         = "23502" // not_null_violation
	CodeProtocol        = "08P01" // protocol_violation
	CodeTooMany         = "53300" // too_many_connections
	CodeLimit           = "54000" // program_limit_exceeded
	CodePassword        = "28P01" // invalid_password
	CodeParams          = "08P01" // a Bind with the wrong count of parameters
	CodeInternal        = "XX000" // internal_error
)

// Bounds of what one query may hold.
const (
	// MaxStatements is how many statements one simple query may carry.
	MaxStatements = 64
	// MaxParams is the highest parameter a statement may name.
	MaxParams = 256
	// maxRows is how many rows one INSERT may carry.
	maxRows = 1000
	// maxTokens is how many words, values and signs one query may hold:
	// each takes 32 bytes once read, whatever few bytes it was written in.
	maxTokens = 8192
)

// Parse reads a query of one or more statements separated by semicolons.
// An empty query (only blanks, comments and semicolons) is no statement.
func Parse(query string) ([]Statement, error) {
	if !utf8.ValidString(query) || strings.IndexByte(query, 0) >= 0 {
		return nil, Errorf(CodeBadText, "invalid byte sequence for encoding \"UTF8\"")
	}
	toks, err := tokenize(query)
	if err != nil {
		return nil, err
	}
	p := parser{toks: toks}
	var out []Statement
	for {
		for p.punct(";") {
		}
		if p.done() {
			return out, nil
		}
		if len(out) == MaxStatements {
			return nil, Errorf(CodeLimit, "a query may carry at most %d statements", MaxStatements)
		}
		st, err := p.statement()
		if err != nil {
			return nil, err
		}
		out = append(out, st)
		if !p.done() && !p.punct(";") {
			return nil, p.syntaxError()
		}
	}
}

// Bind is st with its parameters given their values: args[i] is $i+1, nil
// a NULL.
func (st Statement) Bind(args []*string) (Statement, error) {
	if len(args) != st.Params {
		return st, Errorf(CodeParams, "bind message supplies %d parameters, but prepared statement requires %d", len(args), st.Params)
	}
	bind := func(v Value) Value {
		if v.Param == 0 {
			return v
		}
		if a := args[v.Param-1]; a != nil {
			return Value{Text: *a}
		}
		return Value{Null: true}
	}
	out := st
	out.Params = 0
	out.Set = make([]Assignment, len(st.Set))
	for i, a := range st.Set {
		out.Set[i] = Assignment{a.Column, bind(a.Value)}
	}
	out.Where = make([]Condition, len(st.Where))
	for i, c := range st.Where {
		out.Where[i] = Condition{c.Column, c.Op, bind(c.Value)}
	}
	out.Rows = make([][]Value, len(st.Rows))
	for i, row := range st.Rows {
		out.Rows[i] = make([]Value, len(row))
		for j, v := range row {
			out.Rows[i][j] = bind(v)
		}
	}
	return out, nil
}

// tokenKind is what a token is.
type tokenKind int

const (
	tWord   tokenKind = iota + 1 // a keyword or an unquoted name, lowercased
	tName                        // a "quoted name", as written
	tString                      // a 'string'
	tNumber
	tParam // $n
	tPunct // ( ) , ; = <> . *
)

type token struct {
	kind tokenKind
	text string
	pos  int // where it starts in the query, for messages
}

// tokenize splits a query into tokens, skipping blanks and comments (--
// to the end of the line, /* */).
func tokenize(q string) ([]token, error) {
	var toks []token
	for i := 0; i < len(q); {
		if len(toks) == maxTokens {
			return nil, Errorf(CodeLimit, "a query may hold at most %d words, values and signs", maxTokens)
		}
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case strings.HasPrefix(q[i:], "--"):
			end := strings.IndexByte(q[i:], '\n')
			if end < 0 {
				return toks, nil
			}
			i += end + 1
		case strings.HasPrefix(q[i:], "/*"):
			end := strings.Index(q[i+2:], "*/")
			if end < 0 {
				return nil, Errorf(CodeSyntax, "unterminated /* comment at or near \"/*\"")
			}
			i += 2 + end + 2
		case c == '\'' || c == '"':
			text, n, ok := quoted(q[i:], c)
			if !ok {
				what := "quoted string"
				if c == '"' {
					what = "quoted identifier"
				}
				return nil, Errorf(CodeSyntax, "unterminated %s at or near %q", what, clip(q[i:]))
			}
			kind := tString
			if c == '"' {
				kind = tName
			}
			toks = append(toks, token{kind, text, i})
			i += n
		case c == '$':
			j := i + 1
			for j < len(q) && isDigit(q[j]) {
				j++
			}
			n, err := strconv.Atoi(q[i+1 : j])
			if err != nil || n < 1 || n > MaxParams {
				return nil, Errorf(CodeSyntax, "syntax error at or near %q", clip(q[i:]))
			}
			toks = append(toks, token{tParam, q[i+1 : j], i})
			i = j
		case isDigit(c) || (c == '-' && i+1 < len(q) && isDigit(q[i+1])):
			j := i + 1
			for j < len(q) && (isDigit(q[j]) || q[j] == '.') {
				j++
			}
			toks = append(toks, token{tNumber, q[i:j], i})
			i = j
		case isWordStart(c):
			j := i
			for j < len(q) && (isWordStart(q[j]) || isDigit(q[j]) || q[j] == '$') {
				j++
			}
			toks = append(toks, token{tWord, strings.ToLower(q[i:j]), i})
			i = j
		case strings.HasPrefix(q[i:], "<>") || strings.HasPrefix(q[i:], "!="):
			toks = append(toks, token{tPunct, "<>", i})
			i += 2
		case strings.IndexByte("(),;=.*<>", c) >= 0:
			toks = append(toks, token{tPunct, string(c), i})
			i++
		default:
			return nil, Errorf(CodeSyntax, "syntax error at or near %q", clip(q[i:]))
		}
	}
	return toks, nil
}

// quoted reads a quoted string or name at the start of s, quote doubled
// inside: its text, and the bytes it takes.
func quoted(s string, quote byte) (string, int, bool) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != quote {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == quote {
			b.WriteByte(quote)
			i++
			continue
		}
		return b.String(), i + 1, true
	}
	return "", 0, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

// clip is the start of s, for a message.
func clip(s string) string {
	if len(s) > 20 {
		s = s[:20]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

// parser reads statements from tokens.
type parser struct {
	toks   []token
	i      int
	params int
}

func (p *parser) done() bool { return p.i >= len(p.toks) }

func (p *parser) peek() token {
	if p.done() {
		return token{}
	}
	return p.toks[p.i]
}

// syntaxError is Postgres's message at the token where reading stopped.
func (p *parser) syntaxError() error {
	if p.done() {
		return Errorf(CodeSyntax, "syntax error at end of input")
	}
	return Errorf(CodeSyntax, "syntax error at or near %q", clip(p.toks[p.i].text))
}

// keyword takes the keyword w if it comes next.
func (p *parser) keyword(w string) bool {
	if t := p.peek(); t.kind == tWord && t.text == w {
		p.i++
		return true
	}
	return false
}

// punct takes the punctuation s if it comes next.
func (p *parser) punct(s string) bool {
	if t := p.peek(); t.kind == tPunct && t.text == s {
		p.i++
		return true
	}
	return false
}

func (p *parser) expectKeyword(w string) error {
	if !p.keyword(w) {
		return p.syntaxError()
	}
	return nil
}

func (p *parser) expectPunct(s string) error {
	if !p.punct(s) {
		return p.syntaxError()
	}
	return nil
}

// reserved are the keywords that cannot be a bare name here.
var reserved = map[string]bool{
	"delete": true, "update": true, "insert": true, "from": true, "into": true, "where": true,
	"set": true, "values": true, "and": true, "or": true, "null": true, "true": true, "false": true,
	"select": true, "returning": true, "as": true, "not": true,
}

// name takes a name: a quoted one, or a word that is no reserved keyword.
func (p *parser) name() (string, error) {
	t := p.peek()
	switch {
	case t.kind == tName:
		p.i++
		return t.text, nil
	case t.kind == tWord && !reserved[t.text]:
		p.i++
		return t.text, nil
	}
	return "", p.syntaxError()
}

// table takes a table's name, [schema.]name; only the public schema holds
// the tables.
func (p *parser) table() (string, error) {
	n, err := p.name()
	if err != nil {
		return "", err
	}
	if !p.punct(".") {
		return n, nil
	}
	t, err := p.name()
	if err != nil {
		return "", err
	}
	if n != "public" {
		return "", Errorf(CodeUndefinedTable, "relation \"%s.%s\" does not exist", n, t)
	}
	return t, nil
}

// alias skips a table's alias, [AS] name, where one follows (`DELETE FROM
// t CASCADE` names the table CASCADE, as Postgres reads it).
func (p *parser) alias() error {
	if p.keyword("as") {
		_, err := p.name()
		return err
	}
	if t := p.peek(); t.kind == tName || (t.kind == tWord && !reserved[t.text]) {
		p.i++
	}
	return nil
}

func (p *parser) statement() (Statement, error) {
	p.params = 0
	var st Statement
	var err error
	switch t := p.peek(); {
	case t.kind == tWord && t.text == "delete":
		st, err = p.delete()
	case t.kind == tWord && t.text == "update":
		st, err = p.update()
	case t.kind == tWord && t.text == "insert":
		st, err = p.insert()
	case t.kind == tWord:
		return st, Errorf(CodeNotSupported, "%s is not among the statements this server takes (DELETE, UPDATE, INSERT)", strings.ToUpper(t.text))
	default:
		return st, p.syntaxError()
	}
	st.Params = p.params
	return st, err
}

func (p *parser) delete() (Statement, error) {
	st := Statement{Kind: Delete}
	p.i++
	if err := p.expectKeyword("from"); err != nil {
		return st, err
	}
	var err error
	if st.Table, err = p.table(); err != nil {
		return st, err
	}
	if err := p.alias(); err != nil {
		return st, err
	}
	st.Where, err = p.where()
	return st, err
}

func (p *parser) update() (Statement, error) {
	st := Statement{Kind: Update}
	p.i++
	var err error
	if st.Table, err = p.table(); err != nil {
		return st, err
	}
	if err := p.alias(); err != nil {
		return st, err
	}
	if err := p.expectKeyword("set"); err != nil {
		return st, err
	}
	for {
		col, err := p.name()
		if err != nil {
			return st, err
		}
		if err := p.expectPunct("="); err != nil {
			return st, err
		}
		v, err := p.value()
		if err != nil {
			return st, err
		}
		st.Set = append(st.Set, Assignment{col, v})
		if !p.punct(",") {
			break
		}
	}
	st.Where, err = p.where()
	return st, err
}

func (p *parser) insert() (Statement, error) {
	st := Statement{Kind: Insert}
	p.i++
	if err := p.expectKeyword("into"); err != nil {
		return st, err
	}
	var err error
	if st.Table, err = p.table(); err != nil {
		return st, err
	}
	if !p.punct("(") {
		return st, Errorf(CodeNotSupported, "INSERT names its columns here: INSERT INTO %s (column, ...) VALUES (...)", st.Table)
	}
	for {
		col, err := p.name()
		if err != nil {
			return st, err
		}
		st.Columns = append(st.Columns, col)
		if !p.punct(",") {
			break
		}
	}
	if err := p.expectPunct(")"); err != nil {
		return st, err
	}
	if err := p.expectKeyword("values"); err != nil {
		return st, err
	}
	for {
		row, err := p.row()
		if err != nil {
			return st, err
		}
		if len(row) != len(st.Columns) {
			return st, Errorf(CodeSyntax, "INSERT has %d target columns but %d expressions", len(st.Columns), len(row))
		}
		if len(st.Rows) == maxRows {
			return st, Errorf(CodeLimit, "an INSERT may carry at most %d rows", maxRows)
		}
		st.Rows = append(st.Rows, row)
		if !p.punct(",") {
			return st, nil
		}
	}
}

// row takes ( value, ... ).
func (p *parser) row() ([]Value, error) {
	if err := p.expectPunct("("); err != nil {
		return nil, err
	}
	var row []Value
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		row = append(row, v)
		if !p.punct(",") {
			break
		}
	}
	return row, p.expectPunct(")")
}

// where takes WHERE column op value [AND ...], where one follows.
func (p *parser) where() ([]Condition, error) {
	if !p.keyword("where") {
		return nil, nil
	}
	var out []Condition
	for {
		col, err := p.name()
		if err != nil {
			return nil, err
		}
		var op string
		switch {
		case p.punct("="):
			op = "="
		case p.punct("<>"):
			op = "<>"
		default:
			return nil, Errorf(CodeNotSupported, "a condition here is column = value or column <> value")
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		if v.Null {
			return nil, Errorf(CodeNotSupported, "a comparison with NULL matches no row; this server takes none")
		}
		out = append(out, Condition{col, op, v})
		if p.keyword("or") {
			return nil, Errorf(CodeNotSupported, "conditions are joined by AND here, not OR")
		}
		if !p.keyword("and") {
			return out, nil
		}
	}
}

// value takes a literal or a parameter.
func (p *parser) value() (Value, error) {
	t := p.peek()
	switch {
	case t.kind == tString || t.kind == tNumber:
		p.i++
		return Value{Text: t.text}, nil
	case t.kind == tParam:
		p.i++
		n, _ := strconv.Atoi(t.text) // tokenize checked it
		p.params = max(p.params, n)
		return Value{Param: n}, nil
	case t.kind == tWord && t.text == "null":
		p.i++
		return Value{Null: true}, nil
	case t.kind == tWord && (t.text == "true" || t.text == "false"):
		p.i++
		return Value{Text: t.text}, nil
	}
	return Value{}, p.syntaxError()
}
