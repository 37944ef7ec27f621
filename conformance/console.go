package conformance

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// The console reports, pretty and progress, are written from the recorded
// results as the run goes, not by godog's formatters: those end with
// godog's own totals and a "Failed steps" block that repeat (and contradict)
// the summary, name Go source files (`# steps.go:126 -> *scenario`) that
// mean nothing to whoever installed the binary, interleave features when
// scenarios run at once, and never say why a scenario was skipped
// (TestGodogPrettyPremise shows it).

// console is a report written as the run goes. Scenarios run at once: its
// methods are safe for concurrent use.
type console interface {
	// step is told of each step as it ends.
	step(st StepResult)
	// scenario is told of each scenario as its last step ends.
	scenario(s ScenarioResult)
	// close ends the report once the run is over; res has every scenario,
	// those never told to scenario too.
	close(res Result) error
}

// ANSI colours of the console reports.
const (
	colorReset  = "\x1b[0m"
	colorGreen  = "\x1b[32m"
	colorRed    = "\x1b[31m"
	colorYellow = "\x1b[33m"
	colorCyan   = "\x1b[36m"
	colorGrey   = "\x1b[90m"
)

func statusColor(s Status) string {
	switch s {
	case Passed:
		return colorGreen
	case Failed:
		return colorRed
	case Skipped:
		return colorCyan
	}
	return colorYellow // undefined, pending, ambiguous
}

// pretty writes every scenario whole, with its steps, where they are in the
// feature files, and why it failed or was skipped, in the order of the
// features whatever order the scenarios end in: a scenario is held until
// those before it are written.
type pretty struct {
	w       io.Writer
	colors  bool
	summary bool // end with the summary (a report in a file of its own)

	mu      sync.Mutex
	order   []*scenarioInfo // the selected scenarios, in the order of the features
	next    int             // the first of order not yet written
	held    map[*scenarioInfo]ScenarioResult
	written map[*scenarioInfo]bool
	feature *featureInfo // of the last scenario written
	err     error
}

func newPretty(w io.Writer, colors, summary bool, order []*scenarioInfo) *pretty {
	return &pretty{w: w, colors: colors, summary: summary, order: order,
		held: map[*scenarioInfo]ScenarioResult{}, written: map[*scenarioInfo]bool{}}
}

func (p *pretty) step(StepResult) {}

func (p *pretty) scenario(s ScenarioResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.held[s.info] = s
	p.flush(false)
}

// flush writes the held scenarios whose turn it is; with all, every held
// one. The caller holds the lock.
func (p *pretty) flush(all bool) {
	for p.next < len(p.order) {
		s, ok := p.held[p.order[p.next]]
		if !ok && !all {
			break
		}
		if ok {
			p.write(s)
		}
		p.next++
	}
	for info, s := range p.held { // scenarios the order does not know
		if all || !p.inOrder(info) {
			p.write(s)
		}
	}
}

func (p *pretty) inOrder(info *scenarioInfo) bool {
	for _, o := range p.order[p.next:] {
		if o == info {
			return true
		}
	}
	return false
}

func (p *pretty) write(s ScenarioResult) {
	delete(p.held, s.info)
	if p.written[s.info] || p.err != nil || s.Status == NotRun { // the summary tells those once
		return
	}
	p.written[s.info] = true
	var b strings.Builder
	if f := s.info.feature; f != p.feature {
		if p.feature != nil {
			b.WriteByte('\n')
		}
		p.feature = f
		fmt.Fprintf(&b, "Feature: %s %s\n", f.name, p.paint(colorGrey, "# "+f.uri))
	}
	keyword := s.info.keyword
	if keyword == "" {
		keyword = "Scenario"
	}
	lines := [][2]string{{"  " + keyword + ": " + s.Name, location(s.FeatureFile, s.Line)}}
	for _, st := range s.Steps {
		lines = append(lines, [2]string{"    " + st.Keyword + st.Text, location(s.FeatureFile, st.Line)})
	}
	width := 0
	for _, l := range lines {
		width = max(width, utf8.RuneCountInString(l[0]))
	}
	pad := func(l [2]string) string {
		return l[0] + strings.Repeat(" ", width-utf8.RuneCountInString(l[0])) + " "
	}
	b.WriteByte('\n')
	fmt.Fprintf(&b, "%s%s\n", pad(lines[0]), p.paint(colorGrey, "# "+lines[0][1]))
	if s.Status == Skipped {
		fmt.Fprintf(&b, "    %s\n", p.paint(colorCyan, "Skipped: "+s.SkipReason))
	}
	for i, st := range s.Steps {
		l := lines[i+1]
		comment := "# " + l[1]
		if st.Status != Passed {
			comment += " (" + string(st.Status) + ")"
		}
		fmt.Fprintf(&b, "%s%s\n", p.paint(statusColor(st.Status), pad(l)), p.paint(colorGrey, comment))
		if st.Error != "" {
			fmt.Fprintf(&b, "      %s\n", p.paint(colorRed, indent(st.Error, "      ")))
		}
	}
	_, p.err = io.WriteString(p.w, b.String())
}

func (p *pretty) paint(color, s string) string {
	if !p.colors {
		return s
	}
	return color + s + colorReset
}

func location(file string, line int) string {
	if line == 0 {
		return file
	}
	return fmt.Sprintf("%s:%d", file, line)
}

func (p *pretty) close(res Result) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range res.Scenarios {
		if !p.written[s.info] {
			p.held[s.info] = s
		}
	}
	p.flush(true)
	if p.err == nil && p.summary {
		p.err = res.WriteSummary(p.w)
	}
	return p.err
}

// progress writes a character for each step as it ends, as godog's
// progress does: . passed, F failed, - skipped, U undefined, P pending,
// A ambiguous; 70 to a line, with the count of steps so far.
type progress struct {
	w       io.Writer
	colors  bool
	summary bool

	mu    sync.Mutex
	steps int
	err   error
}

const progressWidth = 70

func (p *progress) step(st StepResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return
	}
	c := "U"
	switch st.Status {
	case Passed:
		c = "."
	case Failed:
		c = "F"
	case Skipped:
		c = "-"
	case "pending":
		c = "P"
	case "ambiguous":
		c = "A"
	}
	if p.colors {
		c = statusColor(st.Status) + c + colorReset
	}
	p.steps++
	if p.steps%progressWidth == 0 {
		c += fmt.Sprintf(" %d\n", p.steps)
	}
	_, p.err = io.WriteString(p.w, c)
}

func (p *progress) scenario(ScenarioResult) {}

func (p *progress) close(res Result) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return p.err
	}
	if p.steps%progressWidth != 0 {
		pad := strings.Repeat(" ", progressWidth-p.steps%progressWidth)
		if _, err := fmt.Fprintf(p.w, "%s %d\n", pad, p.steps); err != nil {
			return err
		}
	}
	if p.summary {
		return res.WriteSummary(p.w)
	}
	return nil
}
