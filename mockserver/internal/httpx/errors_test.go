package httpx

import (
	"net/http"
	"testing"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx/httpxtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnswersHaveAWriteDeadline: every piece of an answer must be taken
// within a time that grows with the piece, so that a client that stops
// reading cannot hold an answer, whatever its size, for much longer than
// WriteBase.
func TestAnswersHaveAWriteDeadline(t *testing.T) {
	for _, n := range []int{0, 1 << 20, 24<<20 + 5} {
		w := httpxtest.NewDeadlineRecorder()
		WriteRawJSON(w, http.StatusOK, make([]byte, n))
		require.Equal(t, n, w.Body.Len())
		total := 0
		for i, d := range w.Deadlines {
			assert.LessOrEqual(t, w.Written[i], WriteChunk, "%d bytes: piece %d", n, i)
			assert.InDelta(t, WriteDeadline(w.Written[i]).Seconds(), d.Seconds(), 1, "%d bytes: piece %d", n, i)
			total += w.Written[i]
		}
		assert.Equal(t, n, total, "every byte is written under a deadline")
		assert.Len(t, w.Deadlines, max(1, (n+WriteChunk-1)/WriteChunk), "%d bytes: one deadline a piece, the head with the first", n)
	}
	assert.Equal(t, 10*time.Second, WriteDeadline(0))
	assert.Equal(t, 11*time.Second, WriteDeadline(WriteChunk), "256 KiB at 256 KiB/s")
}
