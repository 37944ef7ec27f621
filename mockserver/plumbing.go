package mockserver

import (
	"context"
	"log/slog"
	"net"
	"net/http"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
)

// The mock's HTTP plumbing lives in internal/httpx. These are the parts of
// it that the mock's commands use, which cannot import an internal package.

// HTTPServer is the http.Server a mock runs in, with the timeouts and limits
// that keep slow or hostile clients from holding it: headers must arrive in
// 10 s, idle connections close after 2 minutes, and upload bodies are
// guarded by the handler (Config.BodyTimeout). See httpx.HTTPServer.
func HTTPServer(h http.Handler, logger *slog.Logger) *http.Server {
	return httpx.HTTPServer(h, logger)
}

// Listener wraps ln so that the few answers net/http writes on its own,
// before any handler runs (headers over its limit, a request it cannot
// read), are JSON errors too, like every answer of the mock; and so that
// at most maxConns connections are open at once (0: DefaultMaxConnections).
// A connection beyond that is answered 503 at once and closed. See
// httpx.Listener.
func Listener(ln net.Listener, maxConns int) net.Listener { return httpx.Listener(ln, maxConns) }

// DefaultMaxConnections is the connection limit when none is given: the
// process's file descriptors less a reserve for everything else it opens,
// at most 10,000 below it; 4,096 where the limit cannot be read. See
// httpx.DefaultMaxConnections.
func DefaultMaxConnections() int { return httpx.DefaultMaxConnections() }

// TrimMemory gives the heap memory the runtime holds idle back to the
// system, looking now and then until ctx ends. See httpx.TrimMemory.
func TrimMemory(ctx context.Context) { httpx.TrimMemory(ctx) }
