package mockserver

import (
	"context"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
)

// The mock's HTTP plumbing lives in internal/httpx; these are the parts of
// it that the mock's commands use, which cannot import an internal package.

// TrimMemory gives the heap memory the runtime holds idle back to the
// system, looking now and then until ctx ends: httpx.TrimMemory.
func TrimMemory(ctx context.Context) { httpx.TrimMemory(ctx) }

// fileLimit is the process's limit of open files, when it can be read
// (httpx.FileLimit), as the media's bound on the files being written
// reads it.
func fileLimit() (int64, bool) { return httpx.FileLimit() }
