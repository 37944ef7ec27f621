package mockserver

import (
	"net/http"
	"strconv"
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
		w.Header().Set("Retry-After", strconv.Itoa(1))
		writeError(w, errorf(http.StatusServiceUnavailable, "Busy: %d large answers are being sent; try again in a moment", cap(l)))
		return false
	}
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
