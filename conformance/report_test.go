package conformance_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io/fs"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// reportFeatures has a scenario of each outcome. The failing one fails in
// its second step, so that a report judging a scenario by its first or
// last step would be caught.
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

  @new-user
  Scenario: It needs a user of its own
    Given a new user who has no shared links
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
	dir := t.TempDir()
	junit, cucumber := filepath.Join(dir, "out.xml"), filepath.Join(dir, "out.json")
	var console bytes.Buffer
	res, err := conformance.Run(t.Context(), conformance.Config{
		Target:   startReportTarget(t),
		APIKey:   apiKey,
		Features: reportFeatures,
		Formats:  []conformance.Format{{Name: "junit", File: junit}, {Name: "cucumber", File: cucumber}, {Name: "pretty"}},
		Output:   &console,
	})
	require.NoError(t, err)
	assert.Contains(t, console.String(), "It fails in its second step", "the pretty report went to Output")
	return res, junit, cucumber
}

// startReportTarget starts a mock without the control API for
// reportFeatures and returns the API's base URL.
func startReportTarget(t *testing.T) string {
	t.Helper()
	d := fake.Generate(smallData)
	// No admin: the runs have no admin's credentials, so the scenario that
	// needs a user of its own is skipped (an admin's API key would make it).
	for i := range d.Users {
		d.Users[i].IsAdmin = false
	}
	h, err := mockserver.New(mockserver.Config{Dataset: func() model.Dataset { return d }, NoControl: true, MediaDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() }) // before its media folder goes
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/api"
}

func TestResultsAndReports(t *testing.T) {
	t.Parallel()
	res, junitFile, cucumberFile := runReport(t)

	var got []outcome
	for _, s := range res.Scenarios {
		got = append(got, outcome{s.Name, string(s.Status)})
	}
	require.Equal(t, reportOutcomes, got)
	assert.Equal(t, 2, res.Passed)
	assert.Equal(t, 3, res.Failed)
	assert.Equal(t, 1, res.Skipped)
	assert.Contains(t, res.Scenarios[1].Failure, "no request was sent")
	assert.Contains(t, res.Scenarios[2].SkipReason, "needs to make a user")
	assert.Equal(t, []string{"passed", "failed", "skipped"},
		[]string{string(res.Scenarios[1].Steps[0].Status), string(res.Scenarios[1].Steps[1].Status), string(res.Scenarios[1].Steps[2].Status)})

	t.Run("junit", func(t *testing.T) { checkJUnitReport(t, junitFile) })
	t.Run("cucumber", func(t *testing.T) { checkCucumberReport(t, cucumberFile) })
}

// outcome is a scenario's name and status.
type outcome struct {
	name, status string
}

// reportOutcomes are the outcomes of reportFeatures' scenarios, in order.
var reportOutcomes = []outcome{
	{"It passes", "passed"},
	{"It fails in its second step", "failed"},
	{"It needs a user of its own", "skipped"},
	{"It has examples (credentials: no credentials, message: Authentication required)", "passed"},
	{`It has examples (credentials: the API key "not-a-real-key", message: Authentication required)`, "failed"},
	{"It has a step nobody wrote", "failed"},
}

// checkJUnitReport: the JUnit report of reportFeatures' run has a
// testcase of each scenario, failed or skipped as it was, saying why.
func checkJUnitReport(t *testing.T, file string) {
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name    string `xml:"name,attr"`
			Skipped int    `xml:"skipped,attr"`
			Cases   []struct {
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
	require.Len(t, doc.Suites, 1)
	assert.Equal(t, 1, doc.Suites[0].Skipped)
	assert.Equal(t, "Outcomes", doc.Suites[0].Name)
	cases := doc.Suites[0].Cases
	require.Len(t, cases, len(reportOutcomes), "one testcase per scenario")
	for i, c := range cases {
		assert.Equal(t, reportOutcomes[i].name, c.Name)
		switch reportOutcomes[i].status {
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
			assert.Contains(t, c.Skipped.Message, "needs to make a user")
		}
	}
}

// checkCucumberReport: the Cucumber JSON report of reportFeatures' run
// has an element of each scenario, with its steps' statuses, and a
// skipped scenario says why.
func checkCucumberReport(t *testing.T, file string) {
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	var doc []struct {
		Name     string `json:"name"`
		Elements []struct {
			Name  string `json:"name"`
			Steps []struct {
				Keyword string `json:"keyword"`
				Result  struct {
					Status string `json:"status"`
					Error  string `json:"error_message"`
				} `json:"result"`
			} `json:"steps"`
		} `json:"elements"`
	}
	require.NoError(t, json.Unmarshal(b, &doc), "%s", b)
	require.Len(t, doc, 1)
	require.Len(t, doc[0].Elements, len(reportOutcomes))
	second := doc[0].Elements[1]
	require.Len(t, second.Steps, 3)
	assert.Equal(t, "Given ", second.Steps[0].Keyword)
	for i, status := range []string{"passed", "failed", "skipped"} {
		assert.Equal(t, status, second.Steps[i].Result.Status)
	}
	skipped := doc[0].Elements[2]
	require.NotEmpty(t, skipped.Steps)
	assert.Contains(t, skipped.Steps[0].Result.Error, "needs to make a user", "a skipped scenario says why")
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
		{"html:out.html", conformance.Format{Name: "html", File: "out.html"}, true},
		{"coverage:coverage.json", conformance.Format{Name: "coverage", File: "coverage.json"}, true},
		{"junit", conformance.Format{}, false},
		{"html", conformance.Format{}, false},
		{"coverage", conformance.Format{}, false},
		{"svg:out.svg", conformance.Format{}, false},
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

// TestUnwritableReport: a report file that cannot be made fails the run
// before any scenario runs, as a plain error (not bad usage), and no other
// report is written.
func TestUnwritableReport(t *testing.T) {
	t.Parallel()
	target := startReportTarget(t)
	for _, name := range []string{"progress", "pretty", "junit", "cucumber"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			junit, cucumber := filepath.Join(dir, "out.xml"), filepath.Join(dir, "out.json")
			formats := []conformance.Format{{Name: "junit", File: junit}, {Name: "cucumber", File: cucumber}}
			unwritable := filepath.Join(dir, "no-such-dir", "report")
			switch name {
			case "junit":
				formats[0].File = unwritable
			case "cucumber":
				formats[1].File = unwritable
			default:
				formats = append(formats, conformance.Format{Name: name, File: unwritable})
			}
			// A report of a former run, in the file of the last format.
			former := []byte("a former run's report\n")
			last := formats[len(formats)-1].File
			if last != unwritable {
				require.NoError(t, os.WriteFile(last, former, 0o666))
			}

			res, err := conformance.Run(t.Context(), conformance.Config{Target: target, APIKey: apiKey, Features: reportFeatures, Formats: formats})
			require.Error(t, err)
			assert.ErrorIs(t, err, fs.ErrNotExist)
			assert.ErrorContains(t, err, "no-such-dir")
			var cfgErr *conformance.ConfigError
			assert.NotErrorAs(t, err, &cfgErr, "a path that cannot be written is not bad usage")
			assert.Empty(t, res.Scenarios, "no scenario ran")

			for _, f := range formats {
				if f.File == unwritable {
					continue
				}
				if f.File == last {
					b, err := os.ReadFile(f.File)
					require.NoError(t, err)
					assert.Equal(t, former, b, "a file that was there is left as it was")
					continue
				}
				assert.NoFileExists(t, f.File, "%s: no report is written", f.Name)
			}
		})
	}
}

// TestNoScenarioRanWritesNoReport: when no scenario runs, because godog
// refuses the run (here, a feature file it cannot parse, in a folder) or
// the tags select none, no report says anything: the files the run made are
// removed, and a file that was there is left as it was.
func TestNoScenarioRanWritesNoReport(t *testing.T) {
	t.Parallel()
	target := startReportTarget(t)
	unparsable := fstest.MapFS{
		"report.feature":      reportFeatures["report.feature"],
		"more/broken.feature": {Data: []byte("this is not gherkin\n")},
	}
	for _, tc := range []struct {
		name     string
		features fstest.MapFS
		tags     string
	}{
		{"godog refuses the run", unparsable, ""},
		{"the tags select no scenario", reportFeatures, "@no-such-tag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			junit, cucumber, progress := filepath.Join(dir, "out.xml"), filepath.Join(dir, "out.json"), filepath.Join(dir, "progress.txt")
			former := []byte("a former run's report\n")
			require.NoError(t, os.WriteFile(cucumber, former, 0o666))

			res, err := conformance.Run(t.Context(), conformance.Config{
				Target:   target,
				APIKey:   apiKey,
				Features: tc.features,
				Tags:     tc.tags,
				Formats:  []conformance.Format{{Name: "junit", File: junit}, {Name: "cucumber", File: cucumber}, {Name: "progress", File: progress}},
			})
			var cfgErr *conformance.ConfigError
			require.ErrorAs(t, err, &cfgErr)
			assert.Empty(t, res.Scenarios)
			assert.NoFileExists(t, junit, "no empty suite, which CI would show as green")
			assert.NoFileExists(t, progress)
			b, err := os.ReadFile(cucumber)
			require.NoError(t, err)
			assert.Equal(t, former, b)
		})
	}
}

func TestReportsInOneFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	_, err := conformance.Run(t.Context(), conformance.Config{
		Target:   startReportTarget(t),
		APIKey:   apiKey,
		Features: reportFeatures,
		Formats:  []conformance.Format{{Name: "junit", File: out}, {Name: "progress", File: filepath.Join(dir, ".", "out")}},
	})
	var cfgErr *conformance.ConfigError
	require.ErrorAs(t, err, &cfgErr)
	assert.ErrorContains(t, err, "both")
	assert.NoFileExists(t, out)
}

// TestEverythingSkipped: a run whose every scenario was skipped checked
// nothing, and must not pass; it says why they were skipped, and its
// reports are written.
func TestEverythingSkipped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	junit, progress := filepath.Join(dir, "out.xml"), filepath.Join(dir, "progress.txt")
	res, err := conformance.Run(t.Context(), conformance.Config{
		Target:   startReportTarget(t),
		APIKey:   apiKey,
		Features: reportFeatures,
		Tags:     "@new-user",
		Formats:  []conformance.Format{{Name: "junit", File: junit}, {Name: "progress", File: progress}},
	})
	var cfgErr *conformance.ConfigError
	require.ErrorAs(t, err, &cfgErr)
	assert.ErrorContains(t, err, "every selected scenario was skipped")
	assert.ErrorContains(t, err, "needs to make a user")
	assert.Equal(t, 1, res.Skipped)

	b, err := os.ReadFile(junit)
	require.NoError(t, err)
	var doc struct {
		Tests  int `xml:"tests,attr"`
		Suites []struct {
			Skipped int `xml:"skipped,attr"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(b, &doc), "%s", b)
	assert.Equal(t, 1, doc.Tests)
	require.Len(t, doc.Suites, 1)
	assert.Equal(t, 1, doc.Suites[0].Skipped)
	p, err := os.ReadFile(progress)
	require.NoError(t, err)
	assert.Contains(t, string(p), "needs to make a user", "the progress report says why")
}

// TestJUnitSuiteTime: a suite's time is the sum of its scenarios' times,
// rounded once.
func TestJUnitSuiteTime(t *testing.T) {
	t.Parallel()
	var res conformance.Result
	for range 10 {
		res.Scenarios = append(res.Scenarios, conformance.ScenarioResult{
			Feature: "F", FeatureFile: "f.feature", Name: "S", Status: conformance.Passed, Duration: 1400 * time.Microsecond,
		})
	}
	res.Scenarios = append(res.Scenarios, conformance.ScenarioResult{
		Feature: "G", FeatureFile: "g.feature", Name: "T", Status: conformance.Passed, Duration: 2500 * time.Millisecond,
	})
	var b bytes.Buffer
	require.NoError(t, conformance.WriteJUnit(&b, res))
	var doc struct {
		Suites []struct {
			Time  string `xml:"time,attr"`
			Cases []struct {
				Time string `xml:"time,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(b.Bytes(), &doc), "%s", b.String())
	require.Len(t, doc.Suites, 2)
	assert.Equal(t, "0.014", doc.Suites[0].Time, "ten scenarios of 1.4 ms")
	assert.Equal(t, "0.001", doc.Suites[0].Cases[0].Time)
	assert.Equal(t, "2.500", doc.Suites[1].Time)
}

// TestUnreachableKeepsTheCause: the error of a target that does not answer
// is ErrUnreachable and still holds the transport's error.
func TestUnreachableKeepsTheCause(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	_, err = conformance.Run(t.Context(), conformance.Config{Target: "http://" + addr + "/api", Features: reportFeatures})
	require.ErrorIs(t, err, conformance.ErrUnreachable)
	var opErr *net.OpError
	assert.ErrorAs(t, err, &opErr, "the transport's error is kept in the chain")
	assert.ErrorIs(t, err, syscall.ECONNREFUSED)
}
