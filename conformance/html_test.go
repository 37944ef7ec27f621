package conformance_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/mediaspec/mediaspec/conformance"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/steps"
)

// hasClass says whether n is an element of that class.
func hasClass(n *html.Node, class string) bool {
	for _, a := range n.Attr {
		if a.Key == "class" && slices.Contains(strings.Fields(a.Val), class) {
			return true
		}
	}
	return false
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// findAll lists the elements under n that match.
func findAll(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && match(d) {
			out = append(out, d)
		}
	}
	return out
}

func byClass(tag, class string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == tag && hasClass(n, class) }
}

func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

// TestHTMLReport renders the HTML report of reportFeatures and reads it
// back with an HTML parser: the summary first, a section per feature, an
// article per scenario with its steps, each step's requests and answers,
// secrets masked, skip reasons and failures told, filters, and nothing
// loaded from anywhere.
func TestHTMLReport(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "report.html")
	res, err := conformance.Run(t.Context(), conformance.Config{
		Target:   startReportTarget(t),
		APIKey:   apiKey,
		Features: reportFeatures,
		Formats:  []conformance.Format{{Name: "html", File: file}},
	})
	require.NoError(t, err)
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	doc, err := html.Parse(bytes.NewReader(b))
	require.NoError(t, err)

	assertSummaryFirst(t, doc)
	for _, filter := range []string{"show-all", "show-failed", "show-skipped"} {
		assert.Len(t, findAll(doc, func(n *html.Node) bool { v, _ := attr(n, "id"); return n.Data == "input" && v == filter }), 1, filter)
	}
	assert.Len(t, findAll(doc, byClass("section", "feature")), 1)
	articles := assertScenarioArticles(t, doc, res)
	assertStepUses(t, doc, res)

	// A listing: the request, its answer and the links in it.
	listing := findAll(articles[0], byClass("details", "exchange"))
	require.NotEmpty(t, listing)
	ex := text(listing[0])
	assert.Contains(t, ex, "GET http://")
	assert.Contains(t, ex, "/api/shared-links → 200 OK")
	assert.Contains(t, ex, "Content-Type")
	assert.Contains(t, ex, "\n    \"description\": ", "the body, pretty-printed")
	assert.Regexp(t, `… \(\d+ more bytes not shown\)`, ex, "and cut")
	assert.Less(t, len(ex), 12<<10)

	// Secrets: the API key and the links' keys are masked.
	page := string(b)
	assert.NotContains(t, page, apiKey)
	assert.Contains(t, page, "medi•••")
	d := fake.Generate(smallData)
	require.NotEmpty(t, d.SharedLinks)
	for _, l := range d.SharedLinks {
		assert.NotContains(t, page, l.Key)
	}

	assertSelfContained(t, doc)
}

// assertSummaryFirst: the page's first element is the run's summary.
func assertSummaryFirst(t *testing.T, doc *html.Node) {
	t.Helper()
	body := findAll(doc, func(n *html.Node) bool { return n.Data == "body" })
	require.Len(t, body, 1)
	var first *html.Node
	for c := body[0].FirstChild; c != nil && first == nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			first = c
		}
	}
	require.NotNil(t, first)
	id, _ := attr(first, "id")
	assert.Equal(t, "summary", id, "the summary comes first")
	assert.Contains(t, text(first), "6 scenarios: 2 passed 3 failed 1 skipped")
	assert.Contains(t, text(first), "Spec coverage")
}

// assertScenarioArticles: each scenario of res is an article, with its
// status, its steps and their exchanges, and why it failed or was
// skipped. It returns the articles.
func assertScenarioArticles(t *testing.T, doc *html.Node, res conformance.Result) []*html.Node {
	t.Helper()
	articles := findAll(doc, byClass("article", "scenario"))
	require.Len(t, articles, len(res.Scenarios), "one article per scenario")
	exchanges := 0
	for i, a := range articles {
		s := res.Scenarios[i]
		assert.True(t, hasClass(a, string(s.Status)), "%s is %s", s.Name, s.Status)
		assert.Contains(t, text(a), s.Name)
		steps := findAll(a, byClass("li", "step"))
		require.Len(t, steps, len(s.Steps), s.Name)
		for j, st := range steps {
			assert.Contains(t, text(st), s.Steps[j].Text)
			assert.True(t, hasClass(st, string(s.Steps[j].Status)))
			exchanges += len(findAll(st, byClass("details", "exchange")))
		}
		switch s.Status {
		case conformance.Failed:
			require.NotEmpty(t, findAll(a, byClass("pre", "error")), s.Name)
		case conformance.Skipped:
			assert.Contains(t, text(a), "Skipped: needs to make a user")
		}
	}
	assert.Positive(t, exchanges)
	return articles
}

// assertStepUses: the summary lists every step definition, each with a
// link to every scenario of the run that uses it (once), or "unused".
func assertStepUses(t *testing.T, doc *html.Node, res conformance.Result) {
	t.Helper()
	uses := findAll(doc, byClass("li", "step-use"))
	require.Len(t, uses, len(steps.Definitions()), "every definition")
	byPattern := map[string]*html.Node{}
	for _, u := range uses {
		code := findAll(u, func(n *html.Node) bool { return n.Data == "code" })
		require.NotEmpty(t, code)
		byPattern[text(code[0])] = u
	}
	var want []string // the scenarios that list links, by their articles' ids
	for i, s := range res.Scenarios {
		if slices.ContainsFunc(s.Steps, func(st conformance.StepResult) bool { return st.Text == "I list my shared links" }) {
			want = append(want, fmt.Sprintf("#scenario-%d", i+1))
		}
	}
	require.Len(t, want, 5)
	var got []string
	for _, a := range findAll(byPattern[`^I list my shared links$`], func(n *html.Node) bool { return n.Data == "a" }) {
		href, _ := attr(a, "href")
		got = append(got, href)
	}
	assert.Equal(t, want, got)
	assert.Contains(t, text(byPattern[`^the list is empty$`]), "unused")
	assert.NotContains(t, text(byPattern[`^I list my shared links$`]), "unused")
	summary := findAll(doc, func(n *html.Node) bool { v, _ := attr(n, "id"); return v == "steps" })
	require.Len(t, summary, 1)
	assert.Regexp(t, fmt.Sprintf(`^Steps: %d definitions in \d+ areas, \d+ used by no scenario of the run`, len(uses)), text(summary[0]))
}

// assertSelfContained: the page takes no script, stylesheet, font or
// picture from elsewhere, and links only within itself.
func assertSelfContained(t *testing.T, doc *html.Node) {
	t.Helper()
	assert.Empty(t, findAll(doc, func(n *html.Node) bool {
		return n.Data == "script" || n.Data == "link" || n.Data == "img" || n.Data == "iframe"
	}))
	assert.Empty(t, findAll(doc, func(n *html.Node) bool { _, src := attr(n, "src"); return src }))
	for _, a := range findAll(doc, func(n *html.Node) bool { return n.Data == "a" }) {
		href, _ := attr(a, "href")
		assert.True(t, strings.HasPrefix(href, "#"), "a link within the page: %s", href)
	}
	for _, style := range findAll(doc, func(n *html.Node) bool { return n.Data == "style" }) {
		assert.NotContains(t, text(style), "url(")
		assert.NotContains(t, text(style), "@import")
	}
}

// TestHTMLEscapes: what a target sends cannot become markup in the report.
func TestHTMLEscapes(t *testing.T) {
	hostile := `<img src=x onerror=alert(1)><script>alert(2)</script>`
	res := conformance.Result{Failed: 1, Scenarios: []conformance.ScenarioResult{{
		Feature: "F " + hostile, FeatureFile: "f.feature", Name: "S " + hostile, Status: conformance.Failed, Failure: hostile,
		Steps: []conformance.StepResult{{
			Keyword: "When ", Text: "I list", Status: conformance.Failed, Error: hostile,
			Exchanges: []conformance.Exchange{{
				Method: "GET", URL: "http://h/api/x?q=" + hostile, Status: 200,
				ResponseHeader: []conformance.Header{{Name: "Content-Type", Value: hostile}},
				ResponseBody:   "</pre>" + hostile, Violations: []string{hostile},
			}},
		}},
	}}}
	var b bytes.Buffer
	require.NoError(t, conformance.WriteHTML(&b, res))
	doc, err := html.Parse(&b)
	require.NoError(t, err)
	assert.Empty(t, findAll(doc, func(n *html.Node) bool { return n.Data == "script" || n.Data == "img" }))
	assert.Contains(t, text(doc), hostile)
}

// TestExchangesAreKeptForTheHTMLReportAlone: a run that writes no html
// report keeps no step's requests (showing a body costs more than judging
// it); TestHTMLReport shows them kept for one.
func TestExchangesAreKeptForTheHTMLReportAlone(t *testing.T) {
	t.Parallel()
	res, err := conformance.Run(t.Context(), conformance.Config{
		Target: startReportTarget(t), APIKey: apiKey, Features: reportFeatures,
	})
	require.NoError(t, err)
	require.NotEmpty(t, res.Scenarios)
	for _, s := range res.Scenarios {
		for _, st := range s.Steps {
			assert.Empty(t, st.Exchanges, "%s: %s", s.Name, st.Text)
			assert.Zero(t, st.MoreExchanges, "%s: %s", s.Name, st.Text)
		}
	}
}
