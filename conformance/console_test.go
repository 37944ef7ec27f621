package conformance_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
)

// consoleFeatures are reportFeatures and a second feature with a
// Background, so that a report that interleaves features shows it.
var consoleFeatures = fstest.MapFS{
	"report.feature": reportFeatures["report.feature"],
	"second.feature": {Data: []byte(`Feature: Second

  Background:
    Given I use my API key

  Scenario: Lists first
    When I list my shared links
    Then the request succeeds

  Scenario: Lists again
    When I list my shared links
    Then the request succeeds

  Scenario: Is refused
    Given I use no credentials
    When I list my shared links
    Then the request is refused with status 401 and the message "Authentication required"
`)},
}

// TestConsoleReports: the console reports are the harness's own. No
// godog totals or "Failed steps" block, no Go source locations; pretty,
// with scenarios running at once, writes each scenario whole, in the order
// of the features, its steps with their file and line; a skipped scenario
// says why in pretty and in progress.
func TestConsoleReports(t *testing.T) {
	t.Parallel()
	target := startReportTarget(t)
	for _, format := range []string{"pretty", "progress"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			file := filepath.Join(t.TempDir(), format+".txt")
			var out bytes.Buffer
			res, err := conformance.Run(t.Context(), conformance.Config{
				Target:      target,
				APIKey:      apiKey,
				Features:    consoleFeatures,
				Concurrency: 4,
				Formats:     []conformance.Format{{Name: format}, {Name: format, File: file}},
				Output:      &out,
			})
			require.NoError(t, err)
			require.Len(t, res.Scenarios, 9)
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			inFile := string(b)

			for _, text := range []string{out.String(), inFile} {
				assert.NotRegexp(t, `\d+ scenarios \(`, text, "godog's totals")
				assert.NotRegexp(t, `\d+ steps \(`, text, "godog's totals")
				assert.NotContains(t, text, "Failed steps")
				assert.NotRegexp(t, `\.go:\d+`, text, "a Go source location")
			}
			assert.Contains(t, inFile, "mediaspec check: 9 scenarios: 5 passed, 3 failed, 1 skipped", "a report in a file of its own ends with the summary")
			assert.NotContains(t, out.String(), "mediaspec check:", "on the console, the caller writes the summary once")

			if format == "progress" {
				assert.Regexp(t, `^[.F\-U]+ +\d+\n`, out.String())
				assert.Contains(t, inFile, "needs to make a user")
				return
			}
			text := out.String()
			assert.Equal(t, text, inFile[:len(text)], "the same report, in the file and on the console")
			assert.Equal(t, 1, strings.Count(text, "Feature: Outcomes"))
			assert.Equal(t, 1, strings.Count(text, "Feature: Second"))
			// In the order of the features, each scenario whole.
			var names []string
			for _, m := range regexp.MustCompile(`(?m)^(?:Feature|  Scenario(?: Outline)?): (.+?) +# `).FindAllStringSubmatch(text, -1) {
				names = append(names, m[1])
			}
			assert.Equal(t, []string{
				"Outcomes", "It passes", "It fails in its second step", "It needs a user of its own",
				`It has examples (credentials: no credentials, message: Authentication required)`,
				`It has examples (credentials: the API key "not-a-real-key", message: Authentication required)`,
				"It has a step nobody wrote",
				"Second", "Lists first", "Lists again", "Is refused",
			}, names)
			assert.Regexp(t, `(?m)^  Scenario: It fails in its second step +# report\.feature:8\n`+
				`    Given I use my API key +# report\.feature:9\n`+
				`    Then the request is refused with status 401 and the message "Authentication required" +# report\.feature:10 \(failed\)\n`+
				`      no request was sent\n`+
				`    When I list my shared links +# report\.feature:11 \(skipped\)\n`, text)
			assert.Regexp(t, `(?m)^  Scenario: It needs a user of its own +# report\.feature:14\n    Skipped: needs to make a user`, text)
			assert.Regexp(t, `(?m)^  Scenario: Lists again +# second\.feature:10\n    Given I use my API key +# second\.feature:4\n    When I list my shared links +# second\.feature:11\n`, text,
				"the Background's steps, with their own lines, in each scenario")
		})
	}
}
