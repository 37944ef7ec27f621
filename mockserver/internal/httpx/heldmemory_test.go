package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMemoryBudget: a reservation takes what there is room for and no
// more, gives back what it lets go, and releases the rest at once (twice
// is once); a request that finds no room is told so with a 503 and
// Retry-After. The server's tests (heldmemory_test.go in mockserver) hold
// the budget through real uploads and bodies.
func TestMemoryBudget(t *testing.T) {
	m := NewMemoryBudget(4 << 20)
	a, b := m.Reserve(), m.Reserve()
	require.True(t, a.Take(3<<20))
	assert.False(t, b.Take(2<<20), "more than is left")
	require.True(t, b.Take(1<<20))
	assert.Zero(t, m.Free())
	a.Give(1 << 20)
	assert.EqualValues(t, 1<<20, m.Free())
	a.Release()
	a.Release()
	assert.EqualValues(t, 3<<20, m.Free())
	b.Release()
	assert.EqualValues(t, 4<<20, m.Free())

	w := httptest.NewRecorder()
	WriteError(w, b.NoRoom(w))
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)
	assert.Equal(t, "1", w.Header().Get("Retry-After"))
	assert.JSONEq(t, `{"message":"Busy: the requests being served hold the 4 MiB set aside for what their callers send; try again in a moment","error":"Service Unavailable","statusCode":503}`, w.Body.String())
}
