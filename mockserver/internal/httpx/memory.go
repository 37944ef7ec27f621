package httpx

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The Go runtime gives memory back to the system slowly, and not at all
// while a quiet server allocates nothing: after ten thousand stalled
// uploads or a crowd of slow readers are gone, the mock would keep their
// hundreds of MiB. TrimMemory gives it back once such memory is idle.
const (
	trimEvery   = 30 * time.Second
	trimMinFree = 64 << 20 // bytes of idle heap worth a collection
)

// TrimMemory checks every trimEvery until ctx ends whether the heap holds
// trimMinFree more than after the last trim, and if so collects and returns
// what is idle to the system. Without allocation no collection runs, so
// memory the runtime holds for objects may be garbage: only a collection
// tells, and after one the level is the new baseline, so a server whose
// data grew collects once, not every round.
func TrimMemory(ctx context.Context) {
	t := time.NewTicker(trimEvery)
	defer t.Stop()
	var level uint64
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if held := heapHeld(); worthTrimming(held, level) {
			debug.FreeOSMemory()
			level = heapHeld()
		}
	}
}

// heapHeld is the heap memory the runtime holds from the system: its
// objects, live or not yet collected, and its free spans not returned.
func heapHeld() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() + s[1].Value.Uint64() + s[2].Value.Uint64()
}

// worthTrimming: the heap holds at least trimMinFree more than after the
// last trim.
func worthTrimming(held, level uint64) bool {
	return held >= level+trimMinFree
}
