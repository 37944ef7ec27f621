package conformance_test

import (
	"bytes"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
	"github.com/mediaspec/mediaspec/steps"
)

// stepListFeatures use a few steps: one in a background (so in every
// scenario of its feature), one in an outline whose rows match two
// definitions, and one no definition matches.
var stepListFeatures = fstest.MapFS{
	"a.feature": {Data: []byte(`Feature: A

  Background:
    Given I use my API key

  @listing
  Scenario: It lists
    When I list my shared links
    Then the request succeeds

  Scenario: It has a step nobody wrote
    Given a step that no one has defined
`)},
	"b.feature": {Data: []byte(`Feature: B

  Scenario Outline: It has examples
    Given I use <credentials>
    When I list my shared links

    Examples:
      | credentials                  |
      | no credentials               |
      | the API key "not-a-real-key" |
`)},
}

// uses are the scenarios ("file:line name") a definition's pattern is
// used by in list.
func uses(t *testing.T, list conformance.StepList, pattern string) []string {
	t.Helper()
	for _, d := range list.Definitions {
		if d.Pattern == pattern {
			var out []string
			for _, s := range d.Scenarios {
				out = append(out, fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Name))
			}
			return out
		}
	}
	t.Fatalf("no definition %s", pattern)
	return nil
}

// TestListSteps: every step definition is listed, in the areas' order,
// with each scenario that uses it once (a background's step with every
// scenario of its feature, an outline's row by its line and values); a
// step no scenario uses has none, and a scenario's step that no
// definition matches is named.
func TestListSteps(t *testing.T) {
	t.Parallel()
	list, err := conformance.ListSteps(stepListFeatures, "")
	require.NoError(t, err)

	defs := steps.Definitions()
	require.Len(t, list.Definitions, len(defs), "every definition is listed")
	for i, d := range defs {
		assert.Equal(t, d.Area, list.Definitions[i].Area)
		assert.Equal(t, d.Pattern, list.Definitions[i].Pattern)
	}
	assert.Equal(t, 4, list.Scenarios)

	assert.Equal(t, []string{"a.feature:7 It lists", "a.feature:11 It has a step nobody wrote"}, uses(t, list, `^I use my API key$`))
	assert.Equal(t, []string{"a.feature:7 It lists", "b.feature:9 It has examples (credentials: no credentials)", `b.feature:10 It has examples (credentials: the API key "not-a-real-key")`},
		uses(t, list, `^I list my shared links$`))
	assert.Equal(t, []string{"b.feature:9 It has examples (credentials: no credentials)"}, uses(t, list, `^I use no credentials$`))
	assert.Equal(t, []string{`b.feature:10 It has examples (credentials: the API key "not-a-real-key")`}, uses(t, list, `^I use the API key "([^"]*)"$`))
	assert.Empty(t, uses(t, list, `^the list is empty$`), "a step no scenario uses")
	assert.Contains(t, list.Unused(), conformance.StepUse{Area: "shared links", Pattern: `^the list is empty$`})
	assert.Len(t, list.Unused(), len(defs)-5)

	require.Len(t, list.Undefined, 1)
	assert.Equal(t, conformance.UndefinedStep{
		Scenario: conformance.ScenarioRef{File: "a.feature", Line: 11, Name: "It has a step nobody wrote"},
		Line:     12, Text: "a step that no one has defined",
	}, list.Undefined[0])

	var out bytes.Buffer
	require.NoError(t, list.Write(&out))
	assert.Contains(t, out.String(), "credentials\n  ^I use my API key$\n    a.feature:7 It lists\n    a.feature:11 It has a step nobody wrote\n")
	assert.Contains(t, out.String(), "\n  ^the list is empty$\n    unused\n")
	assert.Contains(t, out.String(), "\nSteps no definition matches:\n  a.feature:12 a step that no one has defined (a.feature:11 It has a step nobody wrote)\n")
	assert.Contains(t, out.String(), "used by 4 scenarios: ")
}

// TestListStepsOfTags: with tags, only the scenarios they select count;
// tags that select none are a configuration error.
func TestListStepsOfTags(t *testing.T) {
	t.Parallel()
	list, err := conformance.ListSteps(stepListFeatures, "@listing")
	require.NoError(t, err)
	assert.Equal(t, 1, list.Scenarios)
	assert.Equal(t, []string{"a.feature:7 It lists"}, uses(t, list, `^I list my shared links$`))
	assert.Empty(t, list.Undefined)

	_, err = conformance.ListSteps(stepListFeatures, "@nothing")
	var cerr *conformance.ConfigError
	assert.ErrorAs(t, err, &cerr)
}

// TestEveryFeatureStepIsDefined: each step of the embedded features is
// matched by a step definition.
func TestEveryFeatureStepIsDefined(t *testing.T) {
	t.Parallel()
	list, err := conformance.ListSteps(nil, "")
	require.NoError(t, err)
	assert.Positive(t, list.Scenarios)
	assert.Empty(t, list.Undefined)
}
