package conformance

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"slices"
	"strings"
	"sync"
	"syscall"
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
	// NotRun is a scenario that did not run, or could not end, because the
	// target had stopped answering (Result.Gone).
	NotRun Status = "not run"
)

// Result is what a run found.
type Result struct {
	// Scenarios are the scenarios that ran, in the order of the features.
	Scenarios []ScenarioResult
	// Passed, Failed, Skipped and NotRun count the scenarios.
	Passed, Failed, Skipped, NotRun int
	// Gone, when set, says the target stopped answering in the middle of
	// the run: the scenarios after were not run.
	Gone *Gone
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
	// Traces are what the run made on the target and could not take away
	// again, one line each: the run fails with any.
	Traces []string
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

// Gone is how the target stopped answering in the middle of a run.
type Gone struct {
	// During is the scenario that was running when it did, as
	// "file:line name": the one whose request first went unanswered.
	During string
	// Reason is how it stopped answering, e.g. "connection refused".
	Reason string
}

// OK says whether no scenario failed and the target answered to the end.
func (r Result) OK() bool { return r.Failed == 0 && r.Gone == nil && len(r.Traces) == 0 }

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
	// noAnswer says the scenario failed for want of an answer (a refused,
	// reset or closed connection): if the target went away, it did not so
	// much fail as go without a server.
	noAnswer bool
}

// StepResult is the outcome of one step.
type StepResult struct {
	Keyword, Text string
	Line          int
	Status        Status // passed, failed, skipped, or undefined, pending, ambiguous
	Error         string
	Duration      time.Duration
	// Exchanges are the requests the step sent and their answers, at most
	// maxExchangesPerStep, kept when the run writes an html report, which
	// shows them; MoreExchanges counts those left out.
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
	// exchanges says whether steps keep their requests (for the html
	// report): showing a body costs more than judging it.
	exchanges bool

	mu         sync.Mutex
	results    []*ScenarioResult
	violations map[string]bool

	// gone is set once a connection to the target is refused, with the
	// scenario running then (goneDuring). unanswered is the first scenario
	// whose request went unanswered since the target last answered a
	// request sent after it: the one running when the target went away.
	gone         *Gone
	goneDuring   *ScenarioResult
	unanswered   *ScenarioResult
	unansweredAt time.Time
	// refuses, if set, asks the target whether it refuses connections now
	// (it went away), after a request that went unanswered.
	refuses func(context.Context) bool
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

// add keeps what the reports show of e, made only while the step has
// room for it: a step that reads every album of a listing sends dozens, and
// showing a body (pretty-printed, its secrets masked) costs more than
// judging it.
func (x *stepExchanges) add(e steps.Exchange) {
	x.mu.Lock()
	full := len(x.list) >= maxExchangesPerStep
	if full {
		x.extra++
	}
	x.mu.Unlock()
	if full {
		return
	}
	shown := newExchange(e)
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.list) >= maxExchangesPerStep {
		x.extra++
		return
	}
	x.list = append(x.list, shown)
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
		if rec.isGone() {
			res.Status = NotRun
			return ctx, &steps.SkipError{Reason: "not run: the target had stopped answering"}
		}
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
		if rec.exchanges {
			exchanges.add(e)
		}
		rec.answered(res, e)
	})
	sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
		if res == nil {
			return ctx, nil
		}
		// A refused connection says the target went away; a reset or a
		// closed one may be how it went, which the target then tells.
		if refused(err) || (unanswered(err) && !rec.isGone() && rec.refuses != nil && rec.refuses(ctx)) {
			rec.goneWith(res)
		}
		list, extra := exchanges.take()
		sr := rec.step(res, st, status, err, time.Since(stepStart))
		sr.Exchanges, sr.MoreExchanges = list, extra
		res.Duration = time.Since(scenarioStart)
		last := len(res.Steps) == len(res.info.steps)
		if res.Status == NotRun || (last && rec.wentWithoutServer(res)) {
			return ctx, nil // told once, in the summary
		}
		for _, c := range rec.consoles {
			c.step(*sr)
		}
		if last {
			for _, c := range rec.consoles {
				c.scenario(*res)
			}
		}
		return ctx, nil
	})
}

// wentWithoutServer says res failed for want of an answer after the target
// went away, and was not the scenario running when it did: it did not so
// much fail as go without a server, as the scenarios after it.
func (rec *recorder) wentWithoutServer(res *ScenarioResult) bool {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.gone != nil && res != rec.goneDuring && res.Status == Failed && res.noAnswer
}

// answered notes what the answer to a request of res says of the target:
// a request unanswered for want of a connection (not a timeout) may be the
// first sign it went away, a refused connection says it did, and an answer
// to a request sent after an unanswered one says that one was not.
func (rec *recorder) answered(res *ScenarioResult, e steps.Exchange) {
	rec.mu.Lock()
	switch {
	case e.Status != 0:
		if rec.unanswered != nil && e.Started.After(rec.unansweredAt) {
			rec.unanswered = nil
		}
	case unanswered(e.Err) && rec.unanswered == nil:
		rec.unanswered, rec.unansweredAt = res, e.Started.Add(e.Duration)
	}
	rec.mu.Unlock()
	if refused(e.Err) {
		rec.goneWith(res)
	}
}

// goneWith records that the target went away, as res found: the scenario
// whose request first went unanswered was running then.
func (rec *recorder) goneWith(res *ScenarioResult) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.gone != nil {
		return
	}
	during := cmp.Or(rec.unanswered, res)
	rec.goneDuring = during
	rec.gone = &Gone{During: fmt.Sprintf("%s %s", location(during.FeatureFile, during.Line), during.Name), Reason: "connection refused"}
}

func (rec *recorder) isGone() bool {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.gone != nil
}

// refused says err is a connection the target refused: nothing listens
// where it was.
func refused(err error) bool { return err != nil && errors.Is(err, syscall.ECONNREFUSED) }

// unanswered says err is a request that got no answer for want of a
// connection (refused, reset, closed), not for want of time.
func unanswered(err error) bool {
	var ne net.Error
	return err != nil && (errors.Is(err, steps.ErrNoAnswer) || errors.Is(err, syscall.ECONNREFUSED)) &&
		!(errors.As(err, &ne) && ne.Timeout())
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
	if res.Status == NotRun {
		sr.Status = Skipped
		res.Steps = append(res.Steps, sr)
		return &res.Steps[len(res.Steps)-1]
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
			res.noAnswer = unanswered(err)
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
	r := Result{Duration: d, Gone: rec.gone}
	for _, res := range list {
		sr := *res
		if rec.gone != nil && res != rec.goneDuring && res.Status == Failed && res.noAnswer {
			sr = notRun(sr) // wentWithoutServer, which needs the lock this holds
		}
		if sr.Status == NotRun {
			sr.SkipReason = fmt.Sprintf("not run: the target stopped answering (%s) during %s", rec.gone.Reason, rec.gone.During)
		}
		r.Scenarios = append(r.Scenarios, sr)
		switch sr.Status {
		case Passed:
			r.Passed++
		case Failed:
			r.Failed++
		case Skipped:
			r.Skipped++
		case NotRun:
			r.NotRun++
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

// notRun is s, which failed for want of a server after the target went
// away, as a scenario not run: its steps that did not pass are skipped.
func notRun(s ScenarioResult) ScenarioResult {
	s.Status, s.Failure = NotRun, ""
	s.Steps = slices.Clone(s.Steps)
	for i := range s.Steps {
		if s.Steps[i].Status != Passed {
			s.Steps[i].Status, s.Steps[i].Error = Skipped, ""
		}
	}
	return s
}

// WriteSummary writes the closing summary: the counts, the failed and
// skipped scenarios, and the distinct spec violations.
func (r Result) WriteSummary(w io.Writer) error {
	var b strings.Builder
	notRun := ""
	if r.NotRun > 0 {
		notRun = fmt.Sprintf(", %d not run", r.NotRun)
	}
	fmt.Fprintf(&b, "\nmediaspec check: %d scenarios: %d passed, %d failed, %d skipped%s (%s)\n",
		len(r.Scenarios), r.Passed, r.Failed, r.Skipped, notRun, r.Duration.Round(time.Millisecond))
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
	if g := r.Gone; g != nil {
		b.WriteByte('\n')
		switch r.NotRun {
		case 0:
			fmt.Fprintf(&b, "The target stopped answering (%s) during %s; no scenario was left to run.\n", g.Reason, g.During)
		default:
			fmt.Fprintf(&b, "Not run: %s, because the target stopped answering (%s) during %s.\n", scenarios(r.NotRun), g.Reason, g.During)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintln(&b, n)
	}
	if len(r.Traces) > 0 {
		fmt.Fprintf(&b, "\nLeft on the target (%d), which the run could not take away:\n", len(r.Traces))
		for _, t := range r.Traces {
			fmt.Fprintf(&b, "  %s\n", t)
		}
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

// scenarios is "1 scenario" or "n scenarios".
func scenarios(n int) string {
	if n == 1 {
		return "1 scenario"
	}
	return fmt.Sprintf("%d scenarios", n)
}

func indent(s, prefix string) string { return strings.ReplaceAll(s, "\n", "\n"+prefix) }
