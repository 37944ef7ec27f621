package api

import (
	"errors"
	"net/http"
	"runtime"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
)

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
	originals   httpx.LargeAnswers // slots kept as the places of large answers are
	small       httpx.LargeAnswers // thumbnails and previews
	wait        time.Duration
	patientWait time.Duration
}

func newPainters(n int) painters {
	return painters{originals: make(httpx.LargeAnswers, n), small: make(httpx.LargeAnswers, n), wait: paintWait, patientWait: patientPaintWait}
}

// errPaintersBusy is a picture not painted because every slot of its kind
// stayed taken past the wait.
var errPaintersBusy = errors.New("every painter stayed busy")

// slots are the slots of pictures of kind.
func (p painters) slots(kind pictureKind) httpx.LargeAnswers {
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
	return httpx.Busy(w, "Busy: %d pictures are being painted; try again in a moment", cap(p.slots(kind)))
}
