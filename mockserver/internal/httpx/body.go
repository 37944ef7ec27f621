package httpx

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// minBodyRate is the slowest average rate, in bytes per second, at which an
// upload body may arrive once it has taken longer than the body timeout.
const minBodyRate = 1 << 10

// DefaultBodyTimeout is how long an upload body may stall.
const DefaultBodyTimeout = 30 * time.Second

// GuardedBody reads an upload body, cutting off a client that stalls for
// longer than timeout or that drips bytes too slowly to ever finish: without
// it, one slow client could hold a connection forever.
type GuardedBody struct {
	r       io.Reader
	rc      *http.ResponseController
	timeout time.Duration
	start   time.Time
	n       int64
	armed   time.Time // when the read deadline was last set; zero before
}

// The read deadline is set timeout plus a slack ahead and pushed on by a
// read at most every slack: setting it on every read of a fast body cost
// more than the read's own work (a runtime timer changed each time). A
// body that stalls is cut off after between timeout and timeout plus the
// slack, never sooner.
const deadlineSlackDivisor = 8

// ErrBodyTooSlow is the answer to a body cut off by GuardedBody.
var ErrBodyTooSlow = errors.New("upload body too slow")

// NewGuardedBody guards r, the body of the request w answers, with timeout;
// the read deadlines are set through w.
func NewGuardedBody(w http.ResponseWriter, r io.Reader, timeout time.Duration) *GuardedBody {
	return &GuardedBody{r: r, rc: http.NewResponseController(w), timeout: timeout, start: time.Now()}
}

func (g *GuardedBody) Read(p []byte) (int, error) {
	// Not every ResponseWriter can set deadlines (a recorder in a test); the
	// rate check below still holds there.
	slack := g.timeout / deadlineSlackDivisor
	if now := time.Now(); g.armed.IsZero() || now.Sub(g.armed) >= slack {
		_ = g.rc.SetReadDeadline(now.Add(g.timeout + slack))
		g.armed = now
	}
	n, err := g.r.Read(p)
	g.n += int64(n)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return n, fmt.Errorf("%w: nothing arrived for %s", ErrBodyTooSlow, g.timeout)
	}
	if elapsed := time.Since(g.start); elapsed > g.timeout && float64(g.n) < minBodyRate*elapsed.Seconds() {
		return n, fmt.Errorf("%w: %d bytes in %s, slower than %d bytes/s", ErrBodyTooSlow, g.n, elapsed.Round(time.Millisecond), minBodyRate)
	}
	return n, err
}
