package steps

import (
	"regexp"
	"sync"

	"github.com/cucumber/godog"
)

// step is one step definition: the pattern of its words, and the named
// method of *scenario that does it, with one of godog's step signatures.
type step struct {
	pattern string
	do      any
}

// area is the steps of one area of the API, as a reader of the features
// meets it: one table an area, each step a named method.
type area struct {
	name  string
	steps []step
}

// areas are the step tables of a scenario, in the order they are
// registered.
func (s *scenario) areas() []area {
	return []area{
		{"credentials", s.credentialsSteps()},
		{"uploads", s.uploadSteps()},
		{"pictures", s.pictureSteps()},
		{"the upload limit", s.uploadLimitSteps()},
		{"robustness", s.robustnessSteps()},
		{"shared links", s.linkSteps()},
		{"the links' rules", s.invariantSteps()},
		{"uploads in links", s.uploadedInLinksSteps()},
		{"workflows", s.workflowSteps()},
		{"files", s.fileSteps()},
		{"the server", s.serverSteps()},
		{"downloads", s.downloadSteps()},
		{"the library", s.librarySteps()},
		{"accounts", s.accountSteps()},
		{"live events", s.liveSteps()},
		{"accounts and sessions", s.accountSessionSteps()},
		{"users", s.userProfileSteps()},
		{"people", s.peopleSteps()},
		{"the server's settings", s.settingsSteps()},
		{"search and the map", s.searchSteps()},
		{"activities", s.activitiesSteps()},
		{"albums and their users", s.albumUserSteps()},
		{"assets and stacks", s.assetSteps()},
		{"the trash", s.trashSteps()},
		{"partners", s.partnerSteps()},
		{"faces, duplicates, places and devices", s.facesSteps()},
		{"memories", s.memorySteps()},
		{"tags", s.tagSteps()},
		{"the server's work", s.jobSteps()},
		{"the mobile app's sync", s.syncSteps()},
		{"OAuth", s.oauthSteps()},
		{"external libraries", s.externalLibrarySteps()},
	}
}

// registerAreas adds every step of every area's table to sc.
func (s *scenario) registerAreas(sc *godog.ScenarioContext) {
	for _, a := range s.areas() {
		for _, st := range a.steps {
			sc.Step(compiled(st.pattern), st.do)
		}
	}
}

// patterns are the steps' patterns, compiled once for the process: every
// scenario registers every step, and compiling some 450 expressions for
// each of them took 6 of the 88 s of CPU a full run against the mock
// spent under the race detector.
var patterns sync.Map // pattern → *regexp.Regexp

func compiled(pattern string) *regexp.Regexp {
	if re, ok := patterns.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	re, _ := patterns.LoadOrStore(pattern, regexp.MustCompile(pattern))
	return re.(*regexp.Regexp)
}

// Definition is a step the harness knows: its area and its pattern.
type Definition struct {
	Area, Pattern string
}

// Definitions are every step of the areas' tables, in their order: what
// `mediaspec check --list-steps` lists, beside the scenarios that use each.
func Definitions() []Definition {
	var out []Definition
	for _, a := range new(scenario).areas() {
		for _, st := range a.steps {
			out = append(out, Definition{Area: a.name, Pattern: st.pattern})
		}
	}
	return out
}
