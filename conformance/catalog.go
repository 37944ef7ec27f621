package conformance

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	gherkin "github.com/cucumber/gherkin/go/v26"
	messages "github.com/cucumber/messages/go/v21"
)

// catalog is every scenario of the features, in the order of the files and
// of the scenarios in them, with what the reports need that godog's pickles
// lack: the feature's name, lines, keywords and example values.
type catalog struct {
	features []*featureInfo
	// byKey holds the scenarios not yet matched to a run, by pickleKey.
	byKey map[string][]*scenarioInfo
}

type featureInfo struct {
	uri, name, description string
	line                   int
	tags                   []string
	scenarios              []*scenarioInfo
}

type scenarioInfo struct {
	feature        *featureInfo
	index          int // in the feature
	keyword, name  string
	line           int
	tags           []string
	steps          []stepInfo
	exampleSummary string // "file name: IMG_4021.JPG, kind: a JPEG photo" for an outline's row
}

type stepInfo struct {
	keyword, text string
	line          int
}

// displayName is the scenario's name, with its example values for an outline's row.
func (s *scenarioInfo) displayName() string {
	if s.exampleSummary == "" {
		return s.name
	}
	return s.name + " (" + s.exampleSummary + ")"
}

// pickleKey identifies a scenario by what godog's pickles and ours share:
// its file, its name and its steps' texts. Scenarios with equal keys are
// the same scenario for every purpose of a report.
func pickleKey(p *messages.Pickle) string {
	var b strings.Builder
	b.WriteString(cleanURI(p.Uri))
	b.WriteByte(0)
	b.WriteString(p.Name)
	for _, st := range p.Steps {
		b.WriteByte(0)
		b.WriteString(st.Text)
	}
	return b.String()
}

func cleanURI(uri string) string { return strings.TrimPrefix(path.Clean(uri), "./") }

// loadCatalog parses every .feature file of fsys.
func loadCatalog(fsys fs.FS) (*catalog, error) {
	var names []string
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(name, ".feature") {
			names = append(names, name)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	c := &catalog{byKey: map[string][]*scenarioInfo{}}
	newID := (&messages.Incrementing{}).NewId
	for _, name := range names {
		f, err := fsys.Open(name)
		if err != nil {
			return nil, err
		}
		doc, err := gherkin.ParseGherkinDocument(f, newID)
		f.Close()
		if err != nil {
			// As godog refuses a run of a feature it cannot read.
			return nil, &ConfigError{fmt.Sprintf("feature %s: %v", name, err)}
		}
		if doc.Feature == nil {
			continue
		}
		c.add(doc, name, gherkin.Pickles(*doc, name, newID))
	}
	return c, nil
}

func (c *catalog) add(doc *messages.GherkinDocument, uri string, pickles []*messages.Pickle) {
	feat := &featureInfo{
		uri:         cleanURI(uri),
		name:        doc.Feature.Name,
		description: strings.TrimSpace(doc.Feature.Description),
		line:        int(doc.Feature.Location.Line),
		tags:        tagNames(doc.Feature.Tags),
	}
	c.features = append(c.features, feat)
	idx := indexFeature(doc.Feature)
	for i, p := range pickles {
		info := idx.scenarioInfo(p, feat, i)
		feat.scenarios = append(feat.scenarios, info)
		key := pickleKey(p)
		c.byKey[key] = append(c.byKey[key], info)
	}
}

// featureIndex holds a feature's scenarios, steps and example rows by id,
// for its pickles to find what they were made of.
type featureIndex struct {
	scenarios map[string]*messages.Scenario
	steps     map[string]*messages.Step
	rows      map[string]*messages.TableRow
	headers   map[string]*messages.TableRow // the header of each row's examples
}

// indexFeature indexes the scenarios and steps of f, its rules' and its
// backgrounds' included.
func indexFeature(f *messages.Feature) *featureIndex {
	x := &featureIndex{
		scenarios: map[string]*messages.Scenario{},
		steps:     map[string]*messages.Step{},
		rows:      map[string]*messages.TableRow{},
		headers:   map[string]*messages.TableRow{},
	}
	for _, child := range f.Children {
		switch {
		case child.Background != nil:
			x.addSteps(child.Background.Steps)
		case child.Scenario != nil:
			x.addScenario(child.Scenario)
		case child.Rule != nil:
			for _, rc := range child.Rule.Children {
				if rc.Background != nil {
					x.addSteps(rc.Background.Steps)
				}
				if rc.Scenario != nil {
					x.addScenario(rc.Scenario)
				}
			}
		}
	}
	return x
}

func (x *featureIndex) addSteps(list []*messages.Step) {
	for _, st := range list {
		x.steps[st.Id] = st
	}
}

func (x *featureIndex) addScenario(sc *messages.Scenario) {
	x.scenarios[sc.Id] = sc
	x.addSteps(sc.Steps)
	for _, ex := range sc.Examples {
		for _, row := range ex.TableBody {
			x.rows[row.Id] = row
			x.headers[row.Id] = ex.TableHeader
		}
	}
}

// scenarioInfo is what the reports need of the pickle p, the i-th of
// feat: its keyword and line (an outline's row's, with its example
// values), and its steps' keywords and lines.
func (x *featureIndex) scenarioInfo(p *messages.Pickle, feat *featureInfo, i int) *scenarioInfo {
	info := &scenarioInfo{feature: feat, index: i, name: p.Name}
	for _, t := range p.Tags {
		info.tags = append(info.tags, t.Name)
	}
	if len(p.AstNodeIds) > 0 {
		if sc := x.scenarios[p.AstNodeIds[0]]; sc != nil {
			info.keyword, info.line = sc.Keyword, int(sc.Location.Line)
		}
	}
	if len(p.AstNodeIds) > 1 {
		if row := x.rows[p.AstNodeIds[1]]; row != nil {
			info.keyword = "Scenario Outline"
			info.line = int(row.Location.Line)
			var parts []string
			for j, cell := range row.Cells {
				if h := x.headers[row.Id]; h != nil && j < len(h.Cells) {
					parts = append(parts, h.Cells[j].Value+": "+cell.Value)
				}
			}
			info.exampleSummary = strings.Join(parts, ", ")
		}
	}
	for _, ps := range p.Steps {
		si := stepInfo{text: ps.Text}
		if len(ps.AstNodeIds) > 0 {
			if st := x.steps[ps.AstNodeIds[0]]; st != nil {
				si.keyword, si.line = st.Keyword, int(st.Location.Line)
			}
		}
		info.steps = append(info.steps, si)
	}
	return info
}

func tagNames(tags []*messages.Tag) []string {
	var out []string
	for _, t := range tags {
		out = append(out, t.Name)
	}
	return out
}

// claim finds the catalog's scenario for a pickle godog runs and takes it
// off the list, so that equal pickles get one scenario each. The caller
// holds the recorder's lock.
func (c *catalog) claim(p *messages.Pickle) *scenarioInfo {
	key := pickleKey(p)
	list := c.byKey[key]
	if len(list) == 0 {
		return nil
	}
	c.byKey[key] = list[1:]
	return list[0]
}
