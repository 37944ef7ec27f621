package conformance

import (
	"encoding/json"
	"io"
	"regexp"
	"strings"
)

// The Cucumber JSON report, from the recorded results.
type cukeFeature struct {
	URI         string        `json:"uri"`
	ID          string        `json:"id"`
	Keyword     string        `json:"keyword"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Line        int           `json:"line"`
	Tags        []cukeTag     `json:"tags,omitempty"`
	Elements    []cukeElement `json:"elements"`
}

type cukeTag struct {
	Name string `json:"name"`
	Line int    `json:"line"`
}

type cukeElement struct {
	ID          string     `json:"id"`
	Keyword     string     `json:"keyword"`
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Line        int        `json:"line"`
	Type        string     `json:"type"`
	Tags        []cukeTag  `json:"tags,omitempty"`
	Steps       []cukeStep `json:"steps"`
}

type cukeStep struct {
	Keyword string     `json:"keyword"`
	Name    string     `json:"name"`
	Line    int        `json:"line"`
	Result  cukeResult `json:"result"`
}

type cukeResult struct {
	Status   string `json:"status"`
	Error    string `json:"error_message,omitempty"`
	Duration int64  `json:"duration,omitempty"` // nanoseconds
}

var nonID = regexp.MustCompile(`[^a-z0-9]+`)

func cukeID(s string) string {
	return strings.Trim(nonID.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

// WriteCucumber writes res as Cucumber JSON, one feature per feature file
// that ran. A skipped scenario's first step carries the reason.
func WriteCucumber(w io.Writer, res Result) error {
	features := []cukeFeature{}
	index := map[string]int{}
	for _, s := range res.Scenarios {
		i, ok := index[s.FeatureFile]
		if !ok {
			i = len(features)
			index[s.FeatureFile] = i
			f := cukeFeature{URI: s.FeatureFile, ID: cukeID(s.Feature), Keyword: "Feature", Name: s.Feature}
			if s.info != nil {
				f.Description, f.Line = s.info.feature.description, s.info.feature.line
				for _, t := range s.info.feature.tags {
					f.Tags = append(f.Tags, cukeTag{Name: t, Line: f.Line - 1})
				}
			}
			features = append(features, f)
		}
		f := &features[i]
		e := cukeElement{
			ID:      f.ID + ";" + cukeID(s.Name),
			Keyword: "Scenario",
			Name:    s.Name,
			Line:    s.Line,
			Type:    "scenario",
			Steps:   []cukeStep{},
		}
		if s.info != nil && s.info.keyword != "" {
			e.Keyword = s.info.keyword
		}
		for _, t := range s.Tags {
			e.Tags = append(e.Tags, cukeTag{Name: t})
		}
		for j, st := range s.Steps {
			r := cukeResult{Status: string(st.Status), Error: st.Error, Duration: st.Duration.Nanoseconds()}
			if j == 0 && (s.Status == Skipped || s.Status == NotRun) && r.Error == "" {
				r.Error = s.SkipReason
			}
			e.Steps = append(e.Steps, cukeStep{Keyword: st.Keyword, Name: st.Text, Line: st.Line, Result: r})
		}
		f.Elements = append(f.Elements, e)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(features)
}
