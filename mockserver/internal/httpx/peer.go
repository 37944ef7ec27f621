package httpx

import (
	"context"
	"net"
	"net/http"
	"syscall"
	"time"
)

// connKey is the context key under which HTTPServer keeps each request's
// connection, so that a handler waiting on purpose can watch it.
type connKey struct{}

// withConn is HTTPServer's ConnContext.
func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// peerPoll is how often a waiting request looks at its connection.
const peerPoll = 100 * time.Millisecond

// Wait waits for d, or until the request's client is gone, whichever comes
// first; it reports whether the client is still there. net/http notices a
// client leaving only once the request's body has been read to its end, so
// a request that waits with its body unread (x-mock-delay on an upload, say)
// also watches the connection's state: a peer that closed or reset it is gone.
func Wait(r *http.Request, d time.Duration) bool {
	ctx := r.Context()
	t := time.NewTimer(d)
	defer t.Stop()
	var poll <-chan time.Time
	conn, _ := ctx.Value(connKey{}).(syscall.Conn)
	if conn != nil && r.Body != nil && r.Body != http.NoBody {
		tick := time.NewTicker(peerPoll)
		defer tick.Stop()
		poll = tick.C
	}
	for {
		select {
		case <-t.C:
			return true
		case <-ctx.Done():
			return false
		case <-poll:
			if peerClosed(conn) {
				return false
			}
		}
	}
}
