package mockserver

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// A large answer of the API (a listing, an album, of largeAnswer bytes or
// more) is held in memory while its client takes it. At most
// maxLargeAnswers are written at once; one more is answered 503 at once, and
// its memory is let go. With the write deadlines (writeRawJSON), a crowd of
// clients that ask for large answers and never read them holds at most
// maxLargeAnswers of them, each for about writeBase. /__mock/dataset has
// places of its own (maxDatasetAnswers), so that its readers never keep
// the API's answers waiting.
const (
	largeAnswer       = 1 << 20
	maxLargeAnswers   = 16
	maxDatasetAnswers = 4
)

// largeAnswers are the places of the large answers being written.
type largeAnswers chan struct{}

// take takes a place, or answers 503 and reports false.
func (l largeAnswers) take(w http.ResponseWriter) bool {
	select {
	case l <- struct{}{}:
		return true
	default:
		writeError(w, busy(w, "Busy: %d large answers are being sent; try again in a moment", cap(l)))
		return false
	}
}

// busy is the 503 of a bound reached, with Retry-After: 1 set on w.
func busy(w http.ResponseWriter, format string, args ...any) error {
	w.Header().Set("Retry-After", strconv.Itoa(1))
	return errorf(http.StatusServiceUnavailable, format, args...)
}

// wait takes a place, waiting for one up to d or until ctx is done, and
// says whether it did.
func (l largeAnswers) wait(ctx context.Context, d time.Duration) bool {
	select {
	case l <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case l <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

func (l largeAnswers) release() { <-l }

// write writes an encoded answer with its ETag, in one of the places if it
// is large.
func (l largeAnswers) write(w http.ResponseWriter, status int, a encodedAnswer) {
	if a.size >= largeAnswer {
		if !l.take(w) {
			return
		}
		defer l.release()
	}
	writeTaggedParts(w, status, a.parts, a.size, a.etag)
}
