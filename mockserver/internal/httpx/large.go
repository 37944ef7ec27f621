package httpx

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// A large answer of the API (a listing, an album, of LargeAnswer bytes or
// more) is held in memory while its client takes it. At most
// MaxLargeAnswers are written at once; one more is answered 503 at once, and
// its memory is let go. With the write deadlines (WriteRawJSON), a crowd of
// clients that ask for large answers and never read them holds at most
// MaxLargeAnswers of them, each for about WriteBase. /__mock/dataset has
// places of its own (MaxDatasetAnswers), so that its readers never keep
// the API's answers waiting.
const (
	LargeAnswer       = 1 << 20
	MaxLargeAnswers   = 16
	MaxDatasetAnswers = 4
)

// LargeAnswers are the places of the large answers being written.
type LargeAnswers chan struct{}

// Take takes a place, or answers 503 and reports false.
func (l LargeAnswers) Take(w http.ResponseWriter) bool {
	select {
	case l <- struct{}{}:
		return true
	default:
		WriteError(w, Busy(w, "Busy: %d large answers are being sent; try again in a moment", cap(l)))
		return false
	}
}

// Busy is the 503 of a bound reached, with Retry-After: 1 set on w.
func Busy(w http.ResponseWriter, format string, args ...any) error {
	w.Header().Set("Retry-After", strconv.Itoa(1))
	return Errorf(http.StatusServiceUnavailable, format, args...)
}

// Wait takes a place, waiting for one up to d or until ctx is done, and
// says whether it did.
func (l LargeAnswers) Wait(ctx context.Context, d time.Duration) bool {
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

// Release gives back a place taken.
func (l LargeAnswers) Release() { <-l }

// Write writes an encoded answer of size bytes, in parts, with its ETag,
// in one of the places if it is large.
func (l LargeAnswers) Write(w http.ResponseWriter, status int, parts [][]byte, size int, etag string) {
	if size >= LargeAnswer {
		if !l.Take(w) {
			return
		}
		defer l.Release()
	}
	writeTaggedParts(w, status, parts, size, etag)
}
