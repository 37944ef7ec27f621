package mockserver

import (
	"context"
	"errors"
	"net/http"
	"runtime"
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

// A picture the mock paints (a seeded asset's, from its ThumbHash:
// pictures.Paint) takes a core and a few MiB while it is painted (a 24 MP
// original: 0.7 s, 8 MiB), so pictures are painted in slots, paintSlots
// of originals and as many of thumbnails and previews: a crowd that asks
// for distinct large originals waits its turn instead of holding memory,
// and never keeps a page's thumbnails waiting behind it. A request that
// finds no slot waits for one while its client is there, then is
// answered 503 with Retry-After: an original up to paintWait; a thumbnail
// or a preview, which a page shows broken rather than asks again for, up
// to patientPaintWait, as an archive's later files do (an archive can no
// longer answer 503 then, and is cut short). A picture the cache holds
// needs no slot. A slot's holder waits for nothing else, so every wait
// ends.
const (
	paintWait        = 5 * time.Second
	patientPaintWait = 30 * time.Second
)

// paintSlots is how many pictures of a kind are painted at once: as many
// as Go has cores, from 2 to 8, so that their memory (8 MiB each for the
// largest seeded originals) does not grow with the machine.
func paintSlots() int { return min(max(runtime.GOMAXPROCS(0), 2), 8) }

// painters are the slots of the pictures being painted, and how long a
// request waits for one.
type painters struct {
	originals   largeAnswers
	small       largeAnswers // thumbnails and previews
	wait        time.Duration
	patientWait time.Duration
}

func newPainters(n int) painters {
	return painters{originals: make(largeAnswers, n), small: make(largeAnswers, n), wait: paintWait, patientWait: patientPaintWait}
}

// errPaintersBusy is a picture not painted because every slot of its kind
// stayed taken past the wait.
var errPaintersBusy = errors.New("every painter stayed busy")

// slots are the slots of pictures of kind.
func (p painters) slots(kind pictureKind) largeAnswers {
	if kind == kindOriginal {
		return p.originals
	}
	return p.small
}

// waitFor is how long a request for a picture of kind waits for a slot.
func (p painters) waitFor(kind pictureKind) time.Duration {
	if kind == kindOriginal {
		return p.wait
	}
	return p.patientWait
}

// busy is the answer to errPaintersBusy for a picture of kind.
func (p painters) busy(w http.ResponseWriter, kind pictureKind) error {
	return busy(w, "Busy: %d pictures are being painted; try again in a moment", cap(p.slots(kind)))
}
