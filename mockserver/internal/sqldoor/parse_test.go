package sqldoor

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseReadsTheHarnessSQL: the statements the upstream's e2e harness
// writes (its full reset, its faces, its people's thumbnails) read as
// what they do.
func TestParseReadsTheHarnessSQL(t *testing.T) {
	reset := `UPDATE "assets" SET "stackId" = NULL;
DELETE FROM asset_stack CASCADE;
DELETE FROM activity CASCADE;
DELETE FROM "system_metadata" where "key" != 'reverse-geocoding-state';`
	got, err := Parse(reset)
	require.NoError(t, err)
	assert.Equal(t, []Statement{
		{Kind: Update, Table: "assets", Set: []Assignment{{"stackId", Value{Null: true}}}},
		{Kind: Delete, Table: "asset_stack"},
		{Kind: Delete, Table: "activity"},
		{Kind: Delete, Table: "system_metadata", Where: []Condition{{"key", "<>", Value{Text: "reverse-geocoding-state"}}}},
	}, got)

	got, err = Parse(`INSERT INTO asset_faces ("assetId", "personId", "embedding") VALUES ($1, $2, $3)`)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, Statement{Kind: Insert, Table: "asset_faces", Columns: []string{"assetId", "personId", "embedding"},
		Rows: [][]Value{{{Param: 1}, {Param: 2}, {Param: 3}}}, Params: 3}, got[0])
	a, b := "a", "b"
	bound, err := got[0].Bind([]*string{&a, nil, &b})
	require.NoError(t, err)
	assert.Equal(t, [][]Value{{{Text: "a"}, {Null: true}, {Text: "b"}}}, bound.Rows)
	assert.Zero(t, bound.Params)
	_, err = got[0].Bind([]*string{&a})
	assertCode(t, CodeParams, err)

	got, err = Parse(`UPDATE "person" set "thumbnailPath" = '/my/awesome/thumbnail.jpg' where "id" = $1`)
	require.NoError(t, err)
	assert.Equal(t, []Statement{{Kind: Update, Table: "person",
		Set:    []Assignment{{"thumbnailPath", Value{Text: "/my/awesome/thumbnail.jpg"}}},
		Where:  []Condition{{"id", "=", Value{Param: 1}}},
		Params: 1}}, got)
}

// TestParseReadsSQLAsPostgres: names, strings, comments and aliases read
// as Postgres reads them.
func TestParseReadsSQLAsPostgres(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  []Statement
	}{
		{"", nil},
		{" ;; -- nothing\n /* at all */ ", nil},
		{`delete from PUBLIC.Users`, []Statement{{Kind: Delete, Table: "users"}}},
		{`DELETE FROM "Odd""Name" AS o`, []Statement{{Kind: Delete, Table: `Odd"Name`}}},
		{`DELETE FROM t WHERE k = 'it''s' AND n <> -1.5`, []Statement{{Kind: Delete, Table: "t",
			Where: []Condition{{"k", "=", Value{Text: "it's"}}, {"n", "<>", Value{Text: "-1.5"}}}}}},
		{`UPDATE t SET a = 1, "B" = true, c = 'x'`, []Statement{{Kind: Update, Table: "t",
			Set: []Assignment{{"a", Value{Text: "1"}}, {"B", Value{Text: "true"}}, {"c", Value{Text: "x"}}}}}},
		{`INSERT INTO t (a) VALUES ('1'), (NULL)`, []Statement{{Kind: Insert, Table: "t", Columns: []string{"a"},
			Rows: [][]Value{{{Text: "1"}}, {{Null: true}}}}}},
		{"DELETE FROM a; DELETE FROM b", []Statement{{Kind: Delete, Table: "a"}, {Kind: Delete, Table: "b"}}},
	} {
		got, err := Parse(tc.query)
		require.NoError(t, err, tc.query)
		assert.Equal(t, tc.want, got, tc.query)
	}
}

// TestParseRefusesWithPostgresCodes: what the door does not read is
// answered with the SQLSTATE a client can act on, never a panic.
func TestParseRefusesWithPostgresCodes(t *testing.T) {
	for _, tc := range []struct{ query, code, message string }{
		{"SELECT 1", CodeNotSupported, "SELECT is not among the statements this server takes (DELETE, UPDATE, INSERT)"},
		{"DELETE users", CodeSyntax, `syntax error at or near "users"`},
		{"DELETE FROM", CodeSyntax, "syntax error at end of input"},
		{"DELETE FROM t WHERE", CodeSyntax, "syntax error at end of input"},
		{"DELETE FROM t WHERE a > 1", CodeNotSupported, "a condition here is column = value or column <> value"},
		{"DELETE FROM t WHERE a = 1 OR b = 2", CodeNotSupported, "conditions are joined by AND here, not OR"},
		{"DELETE FROM t WHERE a = NULL", CodeNotSupported, "a comparison with NULL matches no row; this server takes none"},
		{"DELETE FROM other.t", CodeUndefinedTable, `relation "other.t" does not exist`},
		{"DELETE FROM 't'", CodeSyntax, `syntax error at or near "t"`},
		{"DELETE FROM t x y", CodeSyntax, `syntax error at or near "y"`},
		{"DELETE FROM t WHERE a = 'open", CodeSyntax, `unterminated quoted string at or near "'open"`},
		{`DELETE FROM "t`, CodeSyntax, `unterminated quoted identifier at or near "\"t"`},
		{"DELETE FROM t /* open", CodeSyntax, `unterminated /* comment at or near "/*"`},
		{"DELETE FROM t WHERE a = $0", CodeSyntax, `syntax error at or near "$0"`},
		{"DELETE FROM t WHERE a = $999", CodeSyntax, `syntax error at or near "$999"`},
		{"DELETE FROM t WHERE a = ?", CodeSyntax, `syntax error at or near "?"`},
		{"INSERT INTO t VALUES (1)", CodeNotSupported, "INSERT names its columns here: INSERT INTO t (column, ...) VALUES (...)"},
		{"INSERT INTO t (a, b) VALUES (1)", CodeSyntax, "INSERT has 2 target columns but 1 expressions"},
		{"UPDATE t SET a", CodeSyntax, "syntax error at end of input"},
		{"DELETE FROM t\x00", CodeBadText, `invalid byte sequence for encoding "UTF8"`},
		{"DELETE FROM \xff", CodeBadText, `invalid byte sequence for encoding "UTF8"`},
		{strings.Repeat("DELETE FROM t;", MaxStatements+1), CodeLimit, "a query may carry at most 64 statements"},
		{"INSERT INTO t (a) VALUES " + strings.Repeat("(1),", maxRows) + "(1)", CodeLimit, "an INSERT may carry at most 1000 rows"},
		{"DELETE FROM t WHERE a = 1" + strings.Repeat(" AND a = 1", maxTokens/4), CodeLimit, "a query may hold at most 8192 words, values and signs"},
	} {
		_, err := Parse(tc.query)
		var pe *Error
		if assert.True(t, errors.As(err, &pe), "%.60q: %v", tc.query, err) {
			assert.Equal(t, tc.code, pe.Code, "%.60q", tc.query)
			assert.Equal(t, tc.message, pe.Message, "%.60q", tc.query)
		}
	}
}

func assertCode(t *testing.T, code string, err error) {
	t.Helper()
	var pe *Error
	if assert.True(t, errors.As(err, &pe), "%v", err) {
		assert.Equal(t, code, pe.Code, pe.Message)
	}
}

// FuzzParse: no query makes Parse panic, and every refusal is an *Error.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`UPDATE "assets" SET "stackId" = NULL; DELETE FROM users CASCADE;`,
		`INSERT INTO asset_faces ("assetId", "personId", "embedding") VALUES ($1, $2, $3)`,
		`DELETE FROM "system_metadata" where "key" != 'reverse-geocoding-state';`,
		"-- x\n/* y */ delete from t where a = 'b''c' and d <> $2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		stmts, err := Parse(q)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("%q: %T %v", q, err, err)
			}
			return
		}
		for _, st := range stmts {
			args := make([]*string, st.Params)
			if _, err := st.Bind(args); err != nil {
				t.Fatalf("%q: binding %d NULLs: %v", q, st.Params, err)
			}
		}
	})
}
