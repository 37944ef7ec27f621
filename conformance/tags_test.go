package conformance_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
)

func TestParseTags(t *testing.T) {
	type tags = []string
	tests := []struct {
		expr      string
		match     []tags
		dontMatch []tags
	}{
		{"", []tags{nil, {"@a"}}, nil},
		{"@a", []tags{{"@a"}, {"@b", "@a"}}, []tags{nil, {"@b"}, {"@ab"}}},
		{"not @a", []tags{nil, {"@b"}}, []tags{{"@a"}}},
		{"@a and @b", []tags{{"@a", "@b"}}, []tags{{"@a"}, {"@b"}}},
		{"@a or @b", []tags{{"@a"}, {"@b"}}, []tags{nil, {"@c"}}},
		// not > and > or, as Cucumber reads them.
		{"@a or @b and @c", []tags{{"@a"}, {"@b", "@c"}}, []tags{{"@b"}, {"@c"}}},
		{"(@a or @b) and @c", []tags{{"@a", "@c"}, {"@b", "@c"}}, []tags{{"@a"}, {"@b"}}},
		{"not @a and @b", []tags{{"@b"}}, []tags{{"@a", "@b"}, nil}},
		{"not (@a and @b)", []tags{{"@a"}, {"@b"}, nil}, []tags{{"@a", "@b"}}},
		{"not not @a", []tags{{"@a"}}, []tags{nil}},
		{"not @control and (@upload or @shared-links)", []tags{{"@upload"}, {"@shared-links", "@x"}}, []tags{{"@upload", "@control"}, {"@x"}}},
		// godog's older syntax: ~ is not, && is and, and a comma is an or
		// that binds tighter than &&.
		{"~@a", []tags{nil, {"@b"}}, []tags{{"@a"}}},
		{"@a,@b && ~@c", []tags{{"@a"}, {"@b"}}, []tags{{"@a", "@c"}, {"@c"}, nil}},
		{"@a&&@b", []tags{{"@a", "@b"}}, []tags{{"@a"}}},
		{"@upload && ~@robustness", []tags{{"@upload"}}, []tags{{"@upload", "@robustness"}}},
		// Cucumber's escapes, for tags holding what would end them.
		{`@a\(b\)`, []tags{{"@a(b)"}}, []tags{{"@a"}}},
		{`@a\ b or @c`, []tags{{"@a b"}, {"@c"}}, []tags{{"@a"}}},
		{"  @a\tand\n@b  ", []tags{{"@a", "@b"}}, []tags{{"@a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			e, err := conformance.ParseTags(tt.expr)
			require.NoError(t, err)
			for _, tags := range tt.match {
				assert.True(t, e.Match(tags), "%q selects %q", tt.expr, tags)
			}
			for _, tags := range tt.dontMatch {
				assert.False(t, e.Match(tags), "%q leaves out %q", tt.expr, tags)
			}
			again, err := conformance.ParseTags(e.String())
			require.NoError(t, err, "its String %q reads back", e.String())
			assert.Equal(t, e.String(), again.String())
		})
	}
}

// TestParseTagsErrors: an expression that cannot be read says what was
// wanted and where, in one line.
func TestParseTagsErrors(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"@upload &&", `expected a tag after "&&" at column 9`},
		{"@upload and", `expected a tag after "and" at column 9`},
		{"not @control and (", `expected a tag after "(" at column 18`},
		{"(((", `expected a tag after "(" at column 3`},
		{"(@a", `the "(" is never closed at column 1`},
		{"(@a @b)", `expected "and", "or" or ")" before "@b" at column 5`},
		{"@a)", `unexpected ")" at column 3`},
		{"@a @b", `expected "and" or "or" before "@b" at column 4`},
		{"and @a", `expected a tag, found "and" at column 1`},
		{"@a or or @b", `expected a tag after "or", found "or" at column 7`},
		{"@a,", `expected a tag after "," at column 3`},
		{"~", `expected a tag after "~" at column 1`},
		{"not", `expected a tag after "not" at column 1`},
		{"upload", `"upload" is not a tag: a tag starts with @, like @upload at column 1`},
		{"@a & @b", `"&" is not a tag: a tag starts with @, like @upload at column 4`},
		{"@", `"@" is not a tag: a tag starts with @, like @upload at column 1`},
		{`@a\`, `nothing to escape after "\" at column 3`},
		{"é @a", `"é" is not a tag: a tag starts with @, like @upload at column 1`},
		{strings.Repeat("(", 200) + "@a" + strings.Repeat(")", 200), `the expression nests deeper than 100 levels at column 101`},
		{strings.Repeat("@a and ", 1000), `the expression is longer than 4096 characters at column 4097`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			_, err := conformance.ParseTags(tt.expr)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			var te *conformance.TagError
			assert.True(t, errors.As(err, &te))
		})
	}
}

// FuzzTagExpression: no expression makes the parser panic; one it reads
// reads back the same from its String; one it refuses is told in one line,
// at a column inside the expression.
func FuzzTagExpression(f *testing.F) {
	for _, seed := range []string{
		"", "@a", "not @control and (@upload or @shared-links)", "@a or @b", "~@new-user",
		"@a,@b && ~@c", "@upload &&", "(((", "((@a)", "@a)", `@a\ b`, `\`, "not not ~@x",
		"@a&&&@b", "@a,,@b", "( )", "@é and @ü", "\x00", "@a\\", "or", "&&&&",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		e, err := conformance.ParseTags(expr)
		if err != nil {
			var te *conformance.TagError
			require.True(t, errors.As(err, &te), "%q: %v", expr, err)
			assert.NotContains(t, err.Error(), "\n")
			assert.GreaterOrEqual(t, te.Column, 1)
			assert.LessOrEqual(t, te.Column, max(utf8.RuneCountInString(expr), 1))
			return
		}
		s := e.String()
		again, err := conformance.ParseTags(s)
		require.NoError(t, err, "%q reads as %q, which does not read back", expr, s)
		require.Equal(t, s, again.String())
		for _, tags := range [][]string{nil, {"@a"}, {"@a", "@b"}, {"@control", "@upload"}} {
			require.Equal(t, e.Match(tags), again.Match(tags))
		}
	})
}

// tagFeatures has scenarios of several tags, an outline whose Examples
// carry tags of their own, and a feature tag every scenario inherits.
var tagFeatures = fstest.MapFS{
	"a.feature": {Data: []byte(`@feature-a
Feature: A

  @upload
  Scenario: Upload only
    Given I use my API key
    When I list my shared links
    Then the request succeeds

  @upload @control
  Scenario: Upload with control
    Given I use my API key
    When I list my shared links
    Then the request succeeds

  @shared-links
  Scenario: Links only
    Given I use my API key
    When I list my shared links
    Then the request succeeds

  Scenario Outline: Outline <n>
    Given I use my API key
    When I list my shared links
    Then the request succeeds

    @upload
    Examples:
      | n |
      | 1 |

    @control
    Examples:
      | n |
      | 2 |
`)},
	"b.feature": {Data: []byte(`Feature: B

  Scenario: Untagged
    Given I use my API key
    When I list my shared links
    Then the request succeeds
`)},
}

// TestRunSelectsByTagExpression runs exactly the scenarios, and the rows of
// an outline, that a Cucumber tag expression selects.
func TestRunSelectsByTagExpression(t *testing.T) {
	t.Parallel()
	target := startReportTarget(t)
	tests := []struct {
		tags string
		want []string
	}{
		{"not @control and (@upload or @shared-links)", []string{"Upload only", "Links only", "Outline 1 (n: 1)"}},
		{"@control", []string{"Upload with control", "Outline 2 (n: 2)"}},
		{"not @feature-a", []string{"Untagged"}},
		{"~@feature-a,@shared-links", []string{"Links only", "Untagged"}},
		{"@upload && ~@control", []string{"Upload only", "Outline 1 (n: 1)"}},
		{"", []string{"Upload only", "Upload with control", "Links only", "Outline 1 (n: 1)", "Outline 2 (n: 2)", "Untagged"}},
	}
	for _, tt := range tests {
		t.Run(tt.tags, func(t *testing.T) {
			res, err := conformance.Run(t.Context(), conformance.Config{
				Target: target, APIKey: apiKey, Features: tagFeatures, Tags: tt.tags, Concurrency: 2,
			})
			require.NoError(t, err)
			var got []string
			for _, s := range res.Scenarios {
				got = append(got, s.Name)
			}
			slices.Sort(got)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			assert.Equal(t, want, got)
			assert.Equal(t, len(want), res.Passed)
		})
	}
}

// TestRunRefusesBadTags: an expression that cannot be read, or that selects
// nothing, fails the run before any request, as a configuration error.
func TestRunRefusesBadTags(t *testing.T) {
	t.Parallel()
	for _, tags := range []string{"@upload &&", "@no-such-tag", "not @feature-a and @upload"} {
		t.Run(tags, func(t *testing.T) {
			// Nothing listens there: the run must not get as far as asking.
			_, err := conformance.Run(t.Context(), conformance.Config{
				Target: "http://127.0.0.1:1/api", APIKey: apiKey, Features: tagFeatures, Tags: tags,
			})
			var ce *conformance.ConfigError
			require.ErrorAs(t, err, &ce)
			assert.NotErrorIs(t, err, conformance.ErrUnreachable)
		})
	}
}
