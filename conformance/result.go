package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v21"

	"github.com/mediaspec/mediaspec/spec"
	"github.com/mediaspec/mediaspec/steps"
)

// Status is the outcome of a scenario or a step.
type Status string

// The outcomes.
const (
	Passed  Status = "passed"
	Failed  Status = "failed"
	Skipped Status = "skipped"
)

// Result is what a run found.
type Result struct {
	// Scenarios are the scenarios that ran, in the order of the features.
	Scenarios []ScenarioResult
	// Passed, Failed and Skipped count the scenarios.
	Passed, Failed, Skipped int
	// Violations are the distinct ways responses broke the OpenAPI
	// document, one line each, array indexes written [*].
	Violations []string
	// Duration is how long the scenarios took.
	Duration time.Duration
	// Settled is how long the target took to derive what it derives from
	// a file after the upload (EXIF, pictures), as the scenarios that
	// waited for it saw.
	Settled SettleStats
	// Notes say what the run left out, and why.
	Notes []string
	// Coverage is what the answers showed of the OpenAPI document.
	Coverage spec.CoverageReport
}

// SettleStats sums up the scenarios' waits for what a target derives from
// a file after the upload.
type SettleStats struct {
	Waits           int
	Median, Longest time.Duration
}

// settleWaits collects the waits as scenarios end them, from any goroutine.
type settleWaits struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *settleWaits) add(took time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, took)
}

func (s *settleWaits) stats() SettleStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.waits) == 0 {
		return SettleStats{}
	}
	w := slices.Clone(s.waits)
	slices.Sort(w)
	return SettleStats{Waits: len(w), Median: w[len(w)/2], Longest: w[len(w)-1]}
}

// OK says whether no scenario failed.
func (r Result) OK() bool { return r.Failed == 0 }

// ScenarioResult is the outcome of one scenario.
type ScenarioResult struct {
	Feature     string // the feature's name
	FeatureFile string // the feature's file, e.g. upload_new.feature
	Name        string // the scenario's name, with its example values for an outline's row
	Line        int
	Tags        []string
	Status      Status
	// Failure is the error of the step that failed; SkipReason why the
	// scenario was skipped.
	Failure, SkipReason string
	Steps               []StepResult
	Duration            time.Duration

	info *scenarioInfo
}

// StepResult is the outcome of one step.
type StepResult struct {
	Keyword, Text string
	Line          int
	Status        Status // passed, failed, skipped, or undefined, pending, ambiguous
	Error         string
	Duration      time.Duration
	// Exchanges are the requests the step sent and their answers, at most
	// maxExchangesPerStep; MoreExchanges counts those left out.
	Exchanges     []Exchange
	MoreExchanges int
}

// recorder builds the results from godog's scenario and step hooks:
// godog's own reports do not tell skip reasons, and its JUnit report gives a
// scenario that failed in its second step the status "passed" and counts no
// failure, and a skipped scenario no <skipped> element
// (TestGodogJUnitPremise shows it).
type recorder struct {
	catalog  *catalog
	coverage *spec.Coverage
	consoles []console

	mu         sync.Mutex
	results    []*ScenarioResult
	violations map[string]bool
}

func newRecorder(c *catalog, coverage *spec.Coverage, consoles []console) *recorder {
	return &recorder{catalog: c, coverage: coverage, consoles: consoles, violations: map[string]bool{}}
}

// stepExchanges holds the requests of the step that runs until it ends;
// a step's requests may be sent at once.
type stepExchanges struct {
	mu    sync.Mutex
	list  []Exchange
	extra int
}

func (x *stepExchanges) add(e Exchange) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.list) >= maxExchangesPerStep {
		x.extra++
		return
	}
	x.list = append(x.list, e)
}

// take hands over what the step sent and starts afresh for the next.
func (x *stepExchanges) take() ([]Exchange, int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	list, extra := x.list, x.extra
	x.list, x.extra = nil, 0
	return list, extra
}

// register adds the recorder's hooks to a scenario's context, around the
// steps' own (steps.Register within): its Before hooks come first, so a
// skip is recorded with its reason, and its step After hook last, so it
// sees the error the steps' After hooks add to a step (a violation no step
// judged).
// registerSteps is given the function the steps tell their requests to.
func (rec *recorder) register(sc *godog.ScenarioContext, registerSteps func(*godog.ScenarioContext, func(steps.Exchange))) {
	var res *ScenarioResult
	var stepStart time.Time
	var scenarioStart time.Time
	var exchanges stepExchanges
	sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
		res = rec.start(p)
		scenarioStart = time.Now()
		return ctx, nil
	})
	sc.StepContext().Before(func(ctx context.Context, st *godog.Step) (context.Context, error) {
		stepStart = time.Now()
		return ctx, nil
	})
	registerSteps(sc, func(e steps.Exchange) {
		if rec.coverage != nil && e.Status != 0 {
			rec.coverage.Add(e.Method, e.Path, e.Status, e.ResponseHeader, e.ResponseBody)
		}
		exchanges.add(newExchange(e))
	})
	sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
		if res == nil {
			return ctx, nil
		}
		list, extra := exchanges.take()
		sr := rec.step(res, st, status, err, time.Since(stepStart))
		sr.Exchanges, sr.MoreExchanges = list, extra
		res.Duration = time.Since(scenarioStart)
		for _, c := range rec.consoles {
			c.step(*sr)
		}
		if len(res.Steps) == len(res.info.steps) { // the scenario's last step
			for _, c := range rec.consoles {
				c.scenario(*res)
			}
		}
		return ctx, nil
	})
}

func (rec *recorder) start(p *messages.Pickle) *ScenarioResult {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	info := rec.catalog.claim(p)
	if info == nil { // a scenario the catalog does not know: report it as godog sees it
		info = &scenarioInfo{feature: &featureInfo{uri: cleanURI(p.Uri), name: cleanURI(p.Uri)}, name: p.Name}
		for _, st := range p.Steps {
			info.steps = append(info.steps, stepInfo{text: st.Text})
		}
	}
	res := &ScenarioResult{
		Feature:     info.feature.name,
		FeatureFile: info.feature.uri,
		Name:        info.displayName(),
		Line:        info.line,
		Status:      Passed,
		info:        info,
	}
	for _, t := range p.Tags {
		res.Tags = append(res.Tags, t.Name)
	}
	rec.results = append(rec.results, res)
	return res
}

// step records a step's outcome and returns it, as res holds it.
func (rec *recorder) step(res *ScenarioResult, st *godog.Step, status godog.StepResultStatus, err error, d time.Duration) *StepResult {
	sr := StepResult{Text: st.Text, Duration: d}
	if i := len(res.Steps); i < len(res.info.steps) {
		sr.Keyword, sr.Line = res.info.steps[i].keyword, res.info.steps[i].line
	}
	var skip *steps.SkipError
	if status == godog.StepPassed && err != nil {
		status = godog.StepFailed // an After hook failed the step
	}
	switch status {
	case godog.StepPassed:
		sr.Status = Passed
	case godog.StepSkipped:
		sr.Status = Skipped
		if errors.As(err, &skip) && res.SkipReason == "" {
			res.SkipReason = skip.Reason
		}
		if res.Status == Passed {
			res.Status = Skipped
		}
	default: // failed, undefined, pending, ambiguous: all fail a conformance run
		sr.Status = Status(strings.ToLower(status.String()))
		if status == godog.StepFailed {
			sr.Status = Failed
		}
		if err != nil {
			sr.Error = err.Error()
		} else {
			sr.Error = "step " + string(sr.Status)
		}
		if res.Status != Failed {
			res.Status, res.Failure = Failed, sr.Error
		}
		var v *steps.ViolationError
		if errors.As(err, &v) {
			rec.mu.Lock()
			for _, x := range v.Violations {
				rec.violations[x.Generalised().String()] = true
			}
			rec.mu.Unlock()
		}
	}
	if sr.Status == Skipped && res.SkipReason == "" && res.Status == Skipped {
		res.SkipReason = "skipped"
	}
	res.Steps = append(res.Steps, sr)
	return &res.Steps[len(res.Steps)-1]
}

// result collects the scenarios in the order of the catalog.
func (rec *recorder) result(d time.Duration) Result {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	list := slices.Clone(rec.results)
	order := map[*featureInfo]int{}
	for i, f := range rec.catalog.features {
		order[f] = i
	}
	slices.SortStableFunc(list, func(a, b *ScenarioResult) int {
		fa, oka := order[a.info.feature]
		fb, okb := order[b.info.feature]
		switch {
		case !oka || !okb:
			return strings.Compare(a.FeatureFile, b.FeatureFile)
		case fa != fb:
			return fa - fb
		}
		return a.info.index - b.info.index
	})
	r := Result{Duration: d}
	for _, res := range list {
		r.Scenarios = append(r.Scenarios, *res)
		switch res.Status {
		case Passed:
			r.Passed++
		case Failed:
			r.Failed++
		case Skipped:
			r.Skipped++
		}
	}
	for v := range rec.violations {
		r.Violations = append(r.Violations, v)
	}
	slices.Sort(r.Violations)
	if rec.coverage != nil {
		r.Coverage = rec.coverage.Report()
	}
	return r
}

// WriteSummary writes the closing summary: the counts, the failed and
// skipped scenarios, and the distinct spec violations.
func (r Result) WriteSummary(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\nmediaspec check: %d scenarios: %d passed, %d failed, %d skipped (%s)\n",
		len(r.Scenarios), r.Passed, r.Failed, r.Skipped, r.Duration.Round(time.Millisecond))
	if r.Failed > 0 {
		b.WriteString("\nFailed:\n")
		for _, s := range r.Scenarios {
			if s.Status == Failed {
				fmt.Fprintf(&b, "  %s:%d %s: %s\n", s.FeatureFile, s.Line, s.Name, indent(s.Failure, "      "))
			}
		}
	}
	if r.Skipped > 0 {
		b.WriteString("\nSkipped:\n")
		for _, s := range r.Scenarios {
			if s.Status == Skipped {
				fmt.Fprintf(&b, "  %s:%d %s: %s\n", s.FeatureFile, s.Line, s.Name, s.SkipReason)
			}
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintln(&b, n)
	}
	if st := r.Settled; st.Waits > 0 {
		fmt.Fprintf(&b, "The target derived what it derives from files (EXIF, pictures) within %s at the median, %s at the longest (%d waits).\n",
			st.Median.Round(time.Millisecond), st.Longest.Round(time.Millisecond), st.Waits)
	}
	if len(r.Violations) > 0 {
		fmt.Fprintf(&b, "\nSpec violations (%d distinct):\n", len(r.Violations))
		for _, v := range r.Violations {
			fmt.Fprintf(&b, "  %s\n", v)
		}
	} else {
		b.WriteString("No spec violations.\n")
	}
	writeCoverageTable(&b, r.Coverage)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCoverageTable sums up the spec coverage: per operation exercised,
// the statuses received and the documented ones never received; then the
// operations never exercised.
func writeCoverageTable(b *strings.Builder, c spec.CoverageReport) {
	if len(c.Operations) == 0 {
		return
	}
	exercised := len(c.Operations) - len(c.NotExercised)
	fmt.Fprintf(b, "\nSpec coverage: %d of %d operations exercised (the coverage report lists the fields and enum values seen):\n", exercised, len(c.Operations))
	idWidth, routeWidth, gotWidth := 0, 0, 0
	rows := [][4]string{}
	for _, o := range c.Operations {
		if !o.Exercised() {
			continue
		}
		got := strings.Join(slices.Sorted(maps.Keys(o.Received)), " ")
		never := ""
		if len(o.NotReceived) > 0 {
			never = "never " + strings.Join(o.NotReceived, " ")
		}
		row := [4]string{o.OperationID, o.Method + " " + o.Path, got, never}
		idWidth, routeWidth, gotWidth = max(idWidth, len(row[0])), max(routeWidth, len(row[1])), max(gotWidth, len(row[2]))
		rows = append(rows, row)
	}
	for _, r := range rows {
		line := fmt.Sprintf("  %-*s  %-*s  %-*s  %s", idWidth, r[0], routeWidth, r[1], gotWidth, r[2], r[3])
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	if len(c.NotExercised) > 0 {
		fmt.Fprintf(b, "  Never exercised: %s\n", strings.Join(c.NotExercised, ", "))
	}
}

func indent(s, prefix string) string { return strings.ReplaceAll(s, "\n", "\n"+prefix) }
