package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deadlineRecorder records the write deadlines an answer sets, and how
// much it wrote after each.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	deadlines []time.Duration // from now
	written   []int           // after each deadline
}

func (d *deadlineRecorder) SetWriteDeadline(t time.Time) error {
	d.deadlines = append(d.deadlines, time.Until(t))
	d.written = append(d.written, 0)
	return nil
}

func (d *deadlineRecorder) Write(p []byte) (int, error) {
	d.written[len(d.written)-1] += len(p)
	return d.ResponseRecorder.Write(p)
}

// TestAnswersHaveAWriteDeadline: every piece of an answer must be taken
// within a time that grows with the piece, so that a client that stops
// reading cannot hold an answer, whatever its size, for much longer than
// WriteBase.
func TestAnswersHaveAWriteDeadline(t *testing.T) {
	for _, n := range []int{0, 1 << 20, 24<<20 + 5} {
		w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
		WriteRawJSON(w, http.StatusOK, make([]byte, n))
		require.Equal(t, n, w.Body.Len())
		total := 0
		for i, d := range w.deadlines {
			assert.LessOrEqual(t, w.written[i], WriteChunk, "%d bytes: piece %d", n, i)
			assert.InDelta(t, WriteDeadline(w.written[i]).Seconds(), d.Seconds(), 1, "%d bytes: piece %d", n, i)
			total += w.written[i]
		}
		assert.Equal(t, n, total, "every byte is written under a deadline")
		assert.Len(t, w.deadlines, max(1, (n+WriteChunk-1)/WriteChunk), "%d bytes: one deadline a piece, the head with the first", n)
	}
	assert.Equal(t, 10*time.Second, WriteDeadline(0))
	assert.Equal(t, 11*time.Second, WriteDeadline(WriteChunk), "256 KiB at 256 KiB/s")
}
