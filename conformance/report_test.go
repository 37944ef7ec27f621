package conformance_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// reportFeatures has a scenario of each outcome. The failing one fails in
// its second step, which godog's own JUnit report would call a pass.
var reportFeatures = fstest.MapFS{
	"report.feature": {Data: []byte(`Feature: Outcomes

  Scenario: It passes
    Given I use my API key
    When I list my shared links
    Then the request succeeds

  Scenario: It fails in its second step
    Given I use my API key
    Then the request is refused with status 401 and the message "Authentication required"
    When I list my shared links

  @control
  Scenario: It needs the control API
    Given I have shared an album
    When I list my shared links
    Then the list holds that link

  Scenario Outline: It has examples
    Given I use <credentials>
    When I list my shared links
    Then the request is refused with status 401 and the message "<message>"

    Examples:
      | credentials                  | message                 |
      | no credentials               | Authentication required |
      | the API key "not-a-real-key" | Authentication required |

  Scenario: It has a step nobody wrote
    Given a step that no one has defined
`)},
}

// runReport runs reportFeatures against a mock without the control API and
// writes both file reports.
func runReport(t *testing.T) (conformance.Result, string, string) {
	t.Helper()
	d := fake.Generate(smallData)
	h, err := mockserver.New(mockserver.Config{Dataset: func() model.Dataset { return d }, NoControl: true})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	junit, cucumber := filepath.Join(dir, "out.xml"), filepath.Join(dir, "out.json")
	var console bytes.Buffer
	res, err := conformance.Run(t.Context(), conformance.Config{
		Target:   srv.URL + "/api",
		APIKey:   apiKey,
		Features: reportFeatures,
		Formats:  []conformance.Format{{Name: "junit", File: junit}, {Name: "cucumber", File: cucumber}, {Name: "pretty"}},
		Output:   &console,
	})
	require.NoError(t, err)
	assert.Contains(t, console.String(), "It fails in its second step", "the pretty report went to Output")
	return res, junit, cucumber
}

func TestResultsAndReports(t *testing.T) {
	t.Parallel()
	res, junitFile, cucumberFile := runReport(t)

	type outcome struct {
		name, status string
	}
	want := []outcome{
		{"It passes", "passed"},
		{"It fails in its second step", "failed"},
		{"It needs the control API", "skipped"},
		{"It has examples (credentials: no credentials, message: Authentication required)", "passed"},
		{`It has examples (credentials: the API key "not-a-real-key", message: Authentication required)`, "failed"},
		{"It has a step nobody wrote", "failed"},
	}
	var got []outcome
	for _, s := range res.Scenarios {
		got = append(got, outcome{s.Name, string(s.Status)})
	}
	require.Equal(t, want, got)
	assert.Equal(t, 2, res.Passed)
	assert.Equal(t, 3, res.Failed)
	assert.Equal(t, 1, res.Skipped)
	assert.Contains(t, res.Scenarios[1].Failure, "no request was sent")
	assert.Contains(t, res.Scenarios[2].SkipReason, "control API")
	assert.Equal(t, []string{"passed", "failed", "skipped"},
		[]string{string(res.Scenarios[1].Steps[0].Status), string(res.Scenarios[1].Steps[1].Status), string(res.Scenarios[1].Steps[2].Status)})

	t.Run("junit", func(t *testing.T) {
		b, err := os.ReadFile(junitFile)
		require.NoError(t, err)
		var doc struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Skipped  int `xml:"skipped,attr"`
			Suites   []struct {
				Name  string `xml:"name,attr"`
				Cases []struct {
					Name    string `xml:"name,attr"`
					Failure *struct {
						Message string `xml:"message,attr"`
					} `xml:"failure"`
					Skipped *struct {
						Message string `xml:"message,attr"`
					} `xml:"skipped"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		require.NoError(t, xml.Unmarshal(b, &doc), "%s", b)
		assert.Equal(t, 6, doc.Tests)
		assert.Equal(t, 3, doc.Failures)
		assert.Equal(t, 1, doc.Skipped)
		require.Len(t, doc.Suites, 1)
		assert.Equal(t, "Outcomes", doc.Suites[0].Name)
		cases := doc.Suites[0].Cases
		require.Len(t, cases, len(want), "one testcase per scenario")
		for i, c := range cases {
			assert.Equal(t, want[i].name, c.Name)
			switch want[i].status {
			case "passed":
				assert.Nil(t, c.Failure, c.Name)
				assert.Nil(t, c.Skipped, c.Name)
			case "failed":
				require.NotNil(t, c.Failure, c.Name)
				assert.NotEmpty(t, c.Failure.Message, c.Name)
				assert.Nil(t, c.Skipped, c.Name)
			case "skipped":
				assert.Nil(t, c.Failure, c.Name)
				require.NotNil(t, c.Skipped, c.Name)
				assert.Contains(t, c.Skipped.Message, "control API")
			}
		}
	})

	t.Run("cucumber", func(t *testing.T) {
		b, err := os.ReadFile(cucumberFile)
		require.NoError(t, err)
		var doc []struct {
			Name     string `json:"name"`
			Elements []struct {
				Name  string `json:"name"`
				Steps []struct {
					Keyword string `json:"keyword"`
					Result  struct {
						Status string `json:"status"`
					} `json:"result"`
				} `json:"steps"`
			} `json:"elements"`
		}
		require.NoError(t, json.Unmarshal(b, &doc), "%s", b)
		require.Len(t, doc, 1)
		require.Len(t, doc[0].Elements, len(want))
		second := doc[0].Elements[1]
		require.Len(t, second.Steps, 3)
		assert.Equal(t, "Given ", second.Steps[0].Keyword)
		for i, status := range []string{"passed", "failed", "skipped"} {
			assert.Equal(t, status, second.Steps[i].Result.Status)
		}
	})
}

func TestParseFormat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want conformance.Format
		ok   bool
	}{
		{"pretty", conformance.Format{Name: "pretty"}, true},
		{"progress:run.txt", conformance.Format{Name: "progress", File: "run.txt"}, true},
		{"junit:out.xml", conformance.Format{Name: "junit", File: "out.xml"}, true},
		{"cucumber:out.json", conformance.Format{Name: "cucumber", File: "out.json"}, true},
		{"junit", conformance.Format{}, false},
		{"html:out.html", conformance.Format{}, false},
	} {
		got, err := conformance.ParseFormat(tc.in)
		if !tc.ok {
			assert.Error(t, err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got)
	}
}
