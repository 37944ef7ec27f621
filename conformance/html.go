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
	Features []htmlFeature
	Steps    []htmlStepArea
	// StepCount and UnusedSteps count the step definitions, and those no
	// scenario of the run uses.
	StepCount, UnusedSteps int
	Generated              string
}

// htmlStepArea is an area of step definitions, each with the scenarios of
// the run that use it.
type htmlStepArea struct {
	Name  string
	Steps []htmlStepUse
}

type htmlStepUse struct {
	Pattern   string
	Scenarios []htmlScenarioRef
}

// htmlScenarioRef links to a scenario of the page.
type htmlScenarioRef struct {
	ID, Name, Location string
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
// top (with every step definition and the scenarios that use it), then
// every scenario with its steps, and each step's requests and answers
// (secrets masked, bodies cut) with the ways they break the OpenAPI
// document; filters show only the failed or the skipped scenarios.
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
	if page.Steps, err = htmlSteps(res); err != nil {
		return err
	}
	for _, a := range page.Steps {
		for _, u := range a.Steps {
			page.StepCount++
			if len(u.Scenarios) == 0 {
				page.UnusedSteps++
			}
		}
	}
	return t.Execute(w, page)
}

// htmlSteps are the step definitions, area by area, each with the
// scenarios of res whose steps it matches.
func htmlSteps(res Result) ([]htmlStepArea, error) {
	m, err := newStepMatcher()
	if err != nil {
		return nil, err
	}
	uses := make([]htmlStepUse, len(m.defs))
	for i, d := range m.defs {
		uses[i].Pattern = d.Pattern
	}
	for i, s := range res.Scenarios {
		ref := htmlScenarioRef{ID: fmt.Sprintf("scenario-%d", i+1), Name: s.Name, Location: location(s.FeatureFile, s.Line)}
		for _, st := range s.Steps {
			for _, j := range m.matching(st.Text) {
				if n := len(uses[j].Scenarios); n == 0 || uses[j].Scenarios[n-1] != ref {
					uses[j].Scenarios = append(uses[j].Scenarios, ref)
				}
			}
		}
	}
	var areas []htmlStepArea
	for i, d := range m.defs {
		if len(areas) == 0 || areas[len(areas)-1].Name != d.Area {
			areas = append(areas, htmlStepArea{Name: d.Area})
		}
		a := &areas[len(areas)-1]
		a.Steps = append(a.Steps, uses[i])
	}
	return areas, nil
}
