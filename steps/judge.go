package steps

import (
	"context"
	"errors"
	"fmt"

	"github.com/cucumber/godog"
)

// A scenario judges an answer's status before its body's shape: an upload
// that should have been refused and was accepted fails with "want status
// 401, got 200", and the ways its body breaks the OpenAPI document follow
// as detail. So a step that sends a request and keeps the answer for the
// next steps to judge does not fail on the answer's shape; it keeps the
// violation, unjudged, and the step that judges the status reports it (as
// the detail of a wrong status, or as the failure of a right one). A step
// that does not judge it reports it all the same when it ends, and so does
// the last step of the scenario: no violation goes unreported.

// keep keeps resp as the last answer, from who, and holds back err when it
// is only a violation of the document: the status is judged first.
func (s *scenario) keep(resp *response, who *user, err error) error {
	if resp != nil {
		s.last, s.lastBy = resp, who
	}
	var v *ViolationError
	if errors.As(err, &v) && resp != nil {
		s.unjudged, s.unjudgedAt = v, s.step
		return nil
	}
	return err
}

// judged hands over the violation of the last answer, if it has one, and
// forgets it: it is reported once.
func (s *scenario) judged() error {
	v := s.unjudged
	s.unjudged = nil
	if v == nil {
		return nil
	}
	return v
}

// wantStatus judges the last answer's status, then its shape: a wrong
// status fails first, with the answer and its violations as detail.
func (s *scenario) wantStatus(want ...int) error {
	if s.last == nil {
		return fmt.Errorf("no request was sent")
	}
	for _, w := range want {
		if s.last.status == w {
			return s.judged()
		}
	}
	return s.wrongStatus(fmt.Sprint(want[0]))
}

// wrongStatus is the failure of an answer whose status is not the one
// wanted (described by want, e.g. "401" or "a 2xx status").
func (s *scenario) wrongStatus(want string) error {
	if len(want) > 0 && want[0] >= '0' && want[0] <= '9' {
		want = "status " + want
	}
	msg := fmt.Sprintf("want %s, got %d\n%s", want, s.last.status, s.last)
	if v := s.judged(); v != nil {
		msg += "\nand the answer " + v.Error()
	}
	return errors.New(msg)
}

// judgeNow judges an answer a step needs at once: a wrong status first,
// with its violations as detail, then its shape.
func judgeNow(resp *response, err error, want int) error {
	var v *ViolationError
	if resp == nil || (err != nil && !errors.As(err, &v)) {
		return err
	}
	if resp.status != want {
		msg := fmt.Sprintf("want status %d, got %d\n%s", want, resp.status, resp)
		if v != nil {
			msg += "\nand the answer " + v.Error()
		}
		return errors.New(msg)
	}
	return err
}

// registerJudging reports, when a step ends, a violation no step judged:
// the step after the one that sent the request, or that step itself when it
// is the scenario's last.
func (s *scenario) registerJudging(sc *godog.ScenarioContext) {
	var lastStep string
	sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
		if n := len(p.Steps); n > 0 {
			lastStep = p.Steps[n-1].Id
		}
		return ctx, nil
	})
	sc.StepContext().Before(func(ctx context.Context, st *godog.Step) (context.Context, error) {
		s.step = st.Id
		return ctx, nil
	})
	sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
		if s.unjudged == nil || (s.unjudgedAt == st.Id && st.Id != lastStep) {
			return ctx, nil
		}
		v := s.judged()
		if err != nil || status != godog.StepPassed {
			return ctx, nil // the step failed already, or was skipped
		}
		return ctx, v
	})
}
