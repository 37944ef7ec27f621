package conformance

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"regexp"

	"github.com/mediaspec/mediaspec/features"
	"github.com/mediaspec/mediaspec/steps"
)

// StepList is every step definition of the harness with the scenarios of
// the features that use it, and the scenarios' steps no definition
// matches: what `mediaspec check --list-steps` prints, for a reviewer who
// reads a step and looks for where it is used, or for the steps no
// scenario uses any more.
type StepList struct {
	Definitions []StepUse
	Undefined   []UndefinedStep
	// Scenarios is how many scenarios were read.
	Scenarios int
}

// StepUse is a step definition, its area and pattern, and the scenarios
// whose steps it matches, in the order of the features; none when no
// scenario uses it.
type StepUse struct {
	Area, Pattern string
	Scenarios     []ScenarioRef
}

// ScenarioRef names a scenario: its feature file, its line and its name
// (an outline's row: the row's line, and the name with its values).
type ScenarioRef struct {
	File string
	Line int
	Name string
}

// UndefinedStep is a scenario's step that no definition matches.
type UndefinedStep struct {
	Scenario ScenarioRef
	Line     int // of the step
	Text     string
}

// ListSteps matches the steps of the scenarios of fsys (the embedded
// features when nil) that tags select (every one for "") against the step
// definitions (steps.Definitions), as godog matches them: a definition's
// pattern, a regular expression, matches the step's text, an outline's
// with its row's values in place.
func ListSteps(fsys fs.FS, tags string) (StepList, error) {
	if fsys == nil {
		fsys = features.FS()
	}
	selection, err := ParseTags(tags)
	if err != nil {
		return StepList{}, &ConfigError{"tags: " + err.Error()}
	}
	cat, err := loadCatalog(fsys)
	if err != nil {
		return StepList{}, err
	}
	m, err := newStepMatcher()
	if err != nil {
		return StepList{}, err
	}
	list := StepList{Definitions: make([]StepUse, len(m.defs))}
	for i, d := range m.defs {
		list.Definitions[i] = StepUse{Area: d.Area, Pattern: d.Pattern}
	}
	for _, s := range selectedScenarios(cat, selection) {
		list.Scenarios++
		list.add(s, m)
	}
	if list.Scenarios == 0 {
		return StepList{}, &ConfigError{fmt.Sprintf("the tags %q select no scenario", tags)}
	}
	return list, nil
}

// add notes the definitions the steps of s use, s once under each.
func (l *StepList) add(s *scenarioInfo, m *stepMatcher) {
	ref := ScenarioRef{File: s.feature.uri, Line: s.line, Name: s.displayName()}
	for _, st := range s.steps {
		matching := m.matching(st.text)
		for _, i := range matching {
			use := &l.Definitions[i]
			if n := len(use.Scenarios); n == 0 || use.Scenarios[n-1] != ref {
				use.Scenarios = append(use.Scenarios, ref)
			}
		}
		if len(matching) == 0 {
			l.Undefined = append(l.Undefined, UndefinedStep{Scenario: ref, Line: st.line, Text: st.text})
		}
	}
}

// stepMatcher matches a step's text against the step definitions, as
// godog does: a definition's pattern, a regular expression, matches the
// text.
type stepMatcher struct {
	defs     []steps.Definition
	patterns []*regexp.Regexp
}

func newStepMatcher() (*stepMatcher, error) {
	m := &stepMatcher{defs: steps.Definitions()}
	for _, d := range m.defs {
		p, err := regexp.Compile(d.Pattern)
		if err != nil {
			return nil, fmt.Errorf("the step pattern %q of %s: %w", d.Pattern, d.Area, err)
		}
		m.patterns = append(m.patterns, p)
	}
	return m, nil
}

// matching are the indexes of the definitions whose patterns match text.
func (m *stepMatcher) matching(text string) []int {
	var out []int
	for i, p := range m.patterns {
		if p.MatchString(text) {
			out = append(out, i)
		}
	}
	return out
}

// Unused are the definitions no scenario uses.
func (l StepList) Unused() []StepUse {
	var out []StepUse
	for _, d := range l.Definitions {
		if len(d.Scenarios) == 0 {
			out = append(out, d)
		}
	}
	return out
}

// Write writes the list as text: each area, each of its definitions'
// patterns, and under it the scenarios that use it ("file:line name") or
// "unused"; then the steps no definition matches, and a summary.
func (l StepList) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	area := ""
	for i, d := range l.Definitions {
		if i == 0 || d.Area != area {
			if i > 0 {
				fmt.Fprintln(bw)
			}
			area = d.Area
			fmt.Fprintln(bw, area)
		}
		fmt.Fprintf(bw, "  %s\n", d.Pattern)
		if len(d.Scenarios) == 0 {
			fmt.Fprintln(bw, "    unused")
		}
		for _, s := range d.Scenarios {
			fmt.Fprintf(bw, "    %s %s\n", location(s.File, s.Line), s.Name)
		}
	}
	if len(l.Undefined) > 0 {
		fmt.Fprintln(bw, "\nSteps no definition matches:")
		for _, u := range l.Undefined {
			fmt.Fprintf(bw, "  %s %s (%s %s)\n", location(u.Scenario.File, u.Line), u.Text, location(u.Scenario.File, u.Scenario.Line), u.Scenario.Name)
		}
	}
	fmt.Fprintf(bw, "\n%d step definitions in %d areas, used by %d scenarios: %d unused, %d steps that no definition matches.\n",
		len(l.Definitions), l.areas(), l.Scenarios, len(l.Unused()), len(l.Undefined))
	return bw.Flush()
}

// areas counts the areas of the definitions.
func (l StepList) areas() int {
	seen := map[string]bool{}
	for _, d := range l.Definitions {
		seen[d.Area] = true
	}
	return len(seen)
}
