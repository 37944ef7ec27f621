// Package httpxtest holds what the tests of the HTTP plumbing and of the
// server share.
package httpxtest

import (
	"net/http/httptest"
	"time"
)

// DeadlineRecorder records the write deadlines an answer sets, and how
// much it wrote after each.
type DeadlineRecorder struct {
	*httptest.ResponseRecorder
	Deadlines []time.Duration // from now
	Written   []int           // after each deadline
}

// NewDeadlineRecorder is a DeadlineRecorder of an empty answer.
func NewDeadlineRecorder() *DeadlineRecorder {
	return &DeadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
}

// SetWriteDeadline records the deadline, as http.ResponseController calls it.
func (d *DeadlineRecorder) SetWriteDeadline(t time.Time) error {
	d.Deadlines = append(d.Deadlines, time.Until(t))
	d.Written = append(d.Written, 0)
	return nil
}

// Write counts what is written after the last deadline.
func (d *DeadlineRecorder) Write(p []byte) (int, error) {
	d.Written[len(d.Written)-1] += len(p)
	return d.ResponseRecorder.Write(p)
}
