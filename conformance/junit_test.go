package conformance_test

import (
	"bytes"
	"encoding/xml"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jacoelho/xsd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
)

// jenkinsSchema is Jenkins' JUnit report schema (testdata/junit-10.xsd, its
// source named there), which CI tools that read JUnit reports hold them to.
func jenkinsSchema(t *testing.T) *xsd.Schema {
	t.Helper()
	schema, err := xsd.LoadWithOptions(os.DirFS("testdata"), "junit-10.xsd", xsd.NewLoadOptions())
	require.NoError(t, err)
	return schema
}

// TestJUnitSchema validates the JUnit report of a run with a scenario of
// every outcome, and of results whose texts hold what XML must escape,
// against Jenkins' schema.
func TestJUnitSchema(t *testing.T) {
	t.Parallel()
	schema := jenkinsSchema(t)

	_, junitFile, _ := runReport(t)
	f, err := os.Open(junitFile)
	require.NoError(t, err)
	defer f.Close()
	assert.NoError(t, schema.Validate(f), "the report of a run")

	res := conformance.Result{Duration: 1234567 * time.Millisecond}
	res.Scenarios = append(res.Scenarios,
		conformance.ScenarioResult{Feature: `<F> & "G"`, FeatureFile: "f.feature", Name: "it fails ]]> here", Line: 3, Status: conformance.Failed,
			Failure: "want status 401, got 200\nPOST /api/x answered 200 <html>\x01\x7f",
			Steps:   []conformance.StepResult{{Keyword: "When ", Text: "I <do>", Status: conformance.Failed, Error: "want status 401, got 200\nmore"}}},
		conformance.ScenarioResult{Feature: `<F> & "G"`, FeatureFile: "f.feature", Name: "skipped", Status: conformance.Skipped, SkipReason: "needs a \"second\" user"},
		conformance.ScenarioResult{Feature: "H", FeatureFile: "h.feature", Name: "passes", Status: conformance.Passed, Duration: time.Millisecond},
	)
	var b bytes.Buffer
	require.NoError(t, conformance.WriteJUnit(&b, res))
	assert.NoError(t, schema.Validate(&b), "%s", b.String())
}

// TestJUnitSchemaCatches: the schema test can fail: Jenkins' schema refuses
// what a JUnit report must not hold.
func TestJUnitSchemaCatches(t *testing.T) {
	t.Parallel()
	schema := jenkinsSchema(t)
	for name, doc := range map[string]string{
		"testcase without a name":    `<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase/></testsuite></testsuites>`,
		"testsuite without tests":    `<testsuites><testsuite name="s" failures="0" errors="0"/></testsuites>`,
		"attribute it does not know": `<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase name="c" line="3"/></testsuite></testsuites>`,
		"time that is not a number":  `<testsuites time="1.5s"/>`,
	} {
		t.Run(name, func(t *testing.T) {
			assert.Error(t, schema.Validate(strings.NewReader(doc)))
		})
	}
}

// TestJUnitFailureMessage: the message, which CI shows as a failure's
// title, is the first line that says what is wrong; the element's text
// tells the whole story.
func TestJUnitFailureMessage(t *testing.T) {
	t.Parallel()
	violation := "POST /api/asset/upload answered 200, which breaks the OpenAPI document:\n  $: value must be an object, got array\n  $.id: missing"
	tests := []struct {
		failure, message string
	}{
		{"want status 401, got 200\nPOST /api/asset/upload answered 200 []\n" + violation, "want status 401, got 200"},
		{violation, "POST /api/asset/upload answered 200, which breaks the OpenAPI document: $: value must be an object, got array"},
		{"\n\n  it failed  \n", "it failed"},
		{strings.Repeat("x", 1000), strings.Repeat("x", 299) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.message, func(t *testing.T) {
			res := conformance.Result{Scenarios: []conformance.ScenarioResult{{
				Feature: "F", FeatureFile: "f.feature", Name: "S", Line: 7, Status: conformance.Failed, Failure: tt.failure,
				Steps: []conformance.StepResult{
					{Keyword: "Given ", Text: "I use no credentials", Status: conformance.Passed},
					{Keyword: "When ", Text: "I upload a new photo", Status: conformance.Failed, Error: tt.failure},
				},
			}}}
			var b bytes.Buffer
			require.NoError(t, conformance.WriteJUnit(&b, res))
			var doc struct {
				Suites []struct {
					File  string `xml:"file,attr"`
					Cases []struct {
						Failure struct {
							Message string `xml:"message,attr"`
							Text    string `xml:",chardata"`
						} `xml:"failure"`
					} `xml:"testcase"`
				} `xml:"testsuite"`
			}
			require.NoError(t, xml.Unmarshal(b.Bytes(), &doc), b.String())
			require.Len(t, doc.Suites, 1)
			assert.Equal(t, "f.feature", doc.Suites[0].File)
			failure := doc.Suites[0].Cases[0].Failure
			assert.Equal(t, tt.message, failure.Message)
			assert.True(t, strings.HasPrefix(failure.Text, "f.feature:7\n"), failure.Text)
			for _, line := range strings.Split(strings.TrimSpace(tt.failure), "\n") {
				assert.Contains(t, failure.Text, strings.TrimSpace(line), "the text holds the whole failure")
			}
			assert.Contains(t, failure.Text, "I use no credentials")
		})
	}
}
