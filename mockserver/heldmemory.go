package mockserver

import (
	"net/http"
	"sync"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
)

// DefaultRequestMemory is the default of Config.RequestMemory.
const DefaultRequestMemory = 64 << 20

// memoryBudget is the memory the requests being served may hold at once of
// what their callers sent: JSON bodies and the values they decode to, and
// what an upload keeps of its parts (its text fields, the head of its file
// for EXIF, its sidecar). A request sets memory aside before it holds it;
// one that finds no room is answered 503 with Retry-After, never made to
// wait, so that neither a large body nor a crowd of small ones holds more,
// whoever sends them.
type memoryBudget struct {
	mu   sync.Mutex
	free int64
	size int64
}

func newMemoryBudget(size int64) *memoryBudget {
	return &memoryBudget{free: size, size: size}
}

// reservation is the memory one request has set aside; it gives it back
// with release, once it is done with what it held.
type reservation struct {
	m     *memoryBudget
	taken int64
}

// reserve starts a request's reservation, holding nothing yet.
func (m *memoryBudget) reserve() *reservation { return &reservation{m: m} }

// take sets n bytes more aside, if there is room for them.
func (r *reservation) take(n int64) bool {
	m := r.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if n > m.free {
		return false
	}
	m.free -= n
	r.taken += n
	return true
}

// give gives back n bytes taken, once what they held is let go.
func (r *reservation) give(n int64) {
	m := r.m
	m.mu.Lock()
	defer m.mu.Unlock()
	m.free += n
	r.taken -= n
}

// release gives back everything taken; twice is once.
func (r *reservation) release() {
	m := r.m
	m.mu.Lock()
	defer m.mu.Unlock()
	m.free += r.taken
	r.taken = 0
}

// noRoom is the answer to a request that found no room for what it sent.
func noRoom(w http.ResponseWriter, m *memoryBudget) error {
	return httpx.Busy(w, "Busy: the requests being served hold the %d MiB set aside for what their callers send; try again in a moment", m.size>>20)
}
