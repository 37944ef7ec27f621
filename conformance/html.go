package conformance

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"time"
)

// The HTML report is one file that needs nothing else: its CSS is inline,
// the failed/skipped filters are radio buttons and CSS, and it loads no
// script, font or picture. html/template escapes everything the target
// sent.

//go:embed html.tmpl
var htmlTemplate string

// htmlPage is what the template is given.
type htmlPage struct {
	Result
	Features  []htmlFeature
	Generated string
}

type htmlFeature struct {
	Name, File string
	Scenarios  []htmlScenario
	Failed     bool
	Skipped    bool
}

type htmlScenario struct {
	ScenarioResult
	ID      string
	Keyword string
}

// WriteHTML writes res as one self-contained HTML page: the summary at the
// top, then every scenario with its steps, and each step's requests and
// answers (secrets masked, bodies cut) with the ways they break the
// OpenAPI document; filters show only the failed or the skipped scenarios.
func WriteHTML(w io.Writer, res Result) error {
	t, err := template.New("report").Funcs(template.FuncMap{
		"duration": func(d time.Duration) string {
			if d < time.Second {
				return d.Round(time.Millisecond).String()
			}
			return d.Round(10 * time.Millisecond).String()
		},
		"statusText": http.StatusText,
		"location":   location,
		"headline":   headline,
	}).Parse(htmlTemplate)
	if err != nil {
		return err
	}
	page := htmlPage{Result: res, Generated: time.Now().UTC().Format(time.RFC3339)}
	index := map[string]int{}
	for i, s := range res.Scenarios {
		j, ok := index[s.FeatureFile]
		if !ok {
			j = len(page.Features)
			index[s.FeatureFile] = j
			page.Features = append(page.Features, htmlFeature{Name: s.Feature, File: s.FeatureFile})
		}
		f := &page.Features[j]
		keyword := "Scenario"
		if s.info != nil && s.info.keyword != "" {
			keyword = s.info.keyword
		}
		f.Scenarios = append(f.Scenarios, htmlScenario{ScenarioResult: s, ID: fmt.Sprintf("scenario-%d", i+1), Keyword: keyword})
		f.Failed = f.Failed || s.Status == Failed
		f.Skipped = f.Skipped || s.Status == Skipped || s.Status == NotRun
	}
	return t.Execute(w, page)
}
