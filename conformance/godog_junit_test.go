package conformance_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/cucumber/godog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// godogReport runs a feature with one of godog's own formatters.
func godogReport(t *testing.T, format, feature string) []byte {
	t.Helper()
	var out bytes.Buffer
	suite := godog.TestSuite{
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			sc.Step(`^a step that passes$`, func() error { return nil })
			sc.Step(`^a step that fails$`, func() error { return errors.New("it failed") })
			sc.Step(`^a step that skips$`, func() error { return fmt.Errorf("%w: needs a second user", godog.ErrSkip) })
			sc.Before(func(ctx context.Context, s *godog.Scenario) (context.Context, error) {
				for _, tag := range s.Tags {
					if tag.Name == "@skip-before" {
						return ctx, godog.ErrSkip
					}
				}
				return ctx, nil
			})
		},
		Options: &godog.Options{
			Format:   format,
			Output:   &out,
			FS:       fstest.MapFS{"f.feature": {Data: []byte(feature)}},
			Paths:    []string{"f.feature"},
			NoColors: true,
		},
	}
	suite.Run()
	return out.Bytes()
}

// godogJUnit runs features with godog's own junit formatter and returns, per
// scenario name, whether its testcase carries a failure element and its
// status attribute, and the failures the report counts.
func godogJUnit(t *testing.T, feature string) (failed map[string]bool, cases map[string]string, failures int) {
	t.Helper()
	out := godogReport(t, "junit", feature)
	var doc struct {
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Status  string `xml:"status,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
				Skipped *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(out, &doc), string(out))
	failed, cases = map[string]bool{}, map[string]string{}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			failed[c.Name] = c.Failure != nil
			cases[c.Name] = c.Status
			if c.Skipped != nil {
				cases[c.Name] += "+skipped-element"
			}
		}
	}
	return failed, cases, doc.Failures
}

// TestGodogJUnitPremise measures godog v0.15.1's own junit formatter on
// what mediaspec's runs have. A scenario failing in its second step gets a
// <failure> element, but here its status attribute says "passed" and the
// report counts no failure, so a CI tool that reads the counts shows the run
// green: godog sets the status from each step result in turn, in the order
// its storage returns them rather than the scenario's, so the result read
// last wins. (With other features the failing step comes last and the
// status is right; which one wins depends on the steps' ids.)
// A scenario skipped in a step after a passing one is "passed" too, with no
// <skipped> element; one skipped by a Before hook (how the harness skips a
// scenario whose target lacks a second user, or an admin to make one) has no
// status and no <skipped> element, so it reads as passed; neither carries
// the reason. That is why the harness writes its JUnit report from its own
// results (junit.go). The day godog reports these rightly, this test fails:
// then see whether its formatter can replace ours.
func TestGodogJUnitPremise(t *testing.T) {
	const feature = `Feature: Outcomes

  Scenario: fails second
    Given a step that passes
    Then a step that fails

  Scenario: skips second
    Given a step that passes
    Then a step that skips

  @skip-before
  Scenario: skipped before
    Given a step that passes
`
	failed, cases, failures := godogJUnit(t, feature)
	assert.True(t, failed["fails second"], "the failing scenario has its <failure> element")
	const fixed = "godog's junit report is right here now: can its formatter replace junit.go?"
	assert.Equal(t, "passed", cases["fails second"], fixed)
	assert.Zero(t, failures, fixed)
	assert.Equal(t, "passed", cases["skips second"], fixed)
	assert.Equal(t, "", cases["skipped before"], fixed)
}

// TestGodogCucumberLosesSkipReasons: godog's cucumber formatter does not
// carry why a scenario was skipped, which the harness's report does.
func TestGodogCucumberLosesSkipReasons(t *testing.T) {
	out := godogReport(t, "cucumber", "Feature: F\n\n  Scenario: skips\n    Given a step that skips\n")
	require.Contains(t, string(out), `"skipped"`)
	assert.NotContains(t, string(out), "needs a second user", "godog's cucumber report now tells skip reasons: can it replace cucumber.go?")
}

// TestGodogPrettyPremise: godog's pretty formatter names Go source files,
// prints godog's own totals and a "Failed steps" block, and does not say
// why a scenario was skipped: the harness writes its console reports
// itself (console.go).
func TestGodogPrettyPremise(t *testing.T) {
	out := string(godogReport(t, "pretty", "Feature: F\n\n  Scenario: fails\n    Given a step that fails\n\n  Scenario: skips\n    Given a step that skips\n"))
	const fixed = "godog's pretty report changed: can it replace console.go?"
	assert.Regexp(t, `# godog_junit_test\.go:\d+`, out, fixed)
	assert.Contains(t, out, "2 scenarios (", fixed)
	assert.Contains(t, out, "--- Failed steps:", fixed)
	assert.NotContains(t, out, "needs a second user", fixed)
}
