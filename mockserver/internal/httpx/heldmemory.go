package httpx

import (
	"net/http"
	"sync"
)

// MemoryBudget is the memory the requests being served may hold at once of
// what their callers sent: JSON bodies and the values they decode to, and
// what an upload keeps of its parts (its text fields, the head of its file
// for EXIF, its sidecar). A request sets memory aside before it holds it;
// one that finds no room is answered 503 with Retry-After, never made to
// wait, so that neither a large body nor a crowd of small ones holds more,
// whoever sends them.
type MemoryBudget struct {
	mu   sync.Mutex
	free int64
	size int64
}

// NewMemoryBudget is a budget of size bytes, all free.
func NewMemoryBudget(size int64) *MemoryBudget {
	return &MemoryBudget{free: size, size: size}
}

// Reservation is the memory one request has set aside; it gives it back
// with Release, once it is done with what it held.
type Reservation struct {
	m     *MemoryBudget
	taken int64
}

// Reserve starts a request's reservation, holding nothing yet.
func (m *MemoryBudget) Reserve() *Reservation { return &Reservation{m: m} }

// Take sets n bytes more aside, if there is room for them.
func (r *Reservation) Take(n int64) bool {
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

// Give gives back n bytes taken, once what they held is let go.
func (r *Reservation) Give(n int64) {
	m := r.m
	m.mu.Lock()
	defer m.mu.Unlock()
	m.free += n
	r.taken -= n
}

// Release gives back everything taken; twice is once.
func (r *Reservation) Release() {
	m := r.m
	m.mu.Lock()
	defer m.mu.Unlock()
	m.free += r.taken
	r.taken = 0
}

// Free is the memory not set aside now.
func (m *MemoryBudget) Free() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.free
}

// NoRoom is the answer to a request that found no room in r's budget for
// what it sent.
func (r *Reservation) NoRoom(w http.ResponseWriter) error {
	return Busy(w, "Busy: the requests being served hold the %d MiB set aside for what their callers send; try again in a moment", r.m.size>>20)
}
