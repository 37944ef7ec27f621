package httpx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Limits of the HTTP layer. Headers up to maxServerHeaderBytes reach the
// mock, which answers any over maxHeaderBytes with its JSON 431; only beyond
// that does net/http answer on its own.
const (
	maxHeaderBytes       = 64 << 10
	maxServerHeaderBytes = 1<<20 + 64<<10
)

// HTTPServer is the http.Server a mock runs in, with the timeouts and limits
// that keep slow or hostile clients from holding it: headers must arrive in
// 10 s, idle connections close after 2 minutes, and upload bodies are
// guarded by the handler (the mock's Config.BodyTimeout, NewGuardedBody).
func HTTPServer(h http.Handler, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    maxServerHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		ConnContext:       withConn,
	}
}

// LimitHeaders answers 431 with the JSON error body to a request whose
// headers (and URL) are larger than maxHeaderBytes.
func LimitHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		size := len(r.URL.RawQuery) + len(r.URL.Path)
		for k, vs := range r.Header {
			for _, v := range vs {
				size += len(k) + len(v) + 4
			}
		}
		if size > maxHeaderBytes {
			WriteError(w, Errorf(http.StatusRequestHeaderFieldsTooLarge, "Request headers are larger than %d bytes", maxHeaderBytes))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Listener wraps ln so that the few answers net/http writes on its own,
// before any handler runs (headers over its limit, a request it cannot
// read), are JSON errors too, like every answer of the mock; and so that
// at most maxConns connections are open at once (0: DefaultMaxConnections).
// A connection beyond that is answered 503 at once and closed: refused
// fast, rather than left waiting, or taking the last file descriptor.
func Listener(ln net.Listener, maxConns int) net.Listener {
	if maxConns <= 0 {
		maxConns = DefaultMaxConnections()
	}
	return &jsonErrorListener{Listener: ln, max: int64(maxConns)}
}

// DefaultMaxConnections is the connection limit when none is given: the
// process's file descriptors less a reserve for everything else it opens,
// at most 10,000 below it; 4,096 where the limit cannot be read.
func DefaultMaxConnections() int {
	n, ok := FileLimit()
	if !ok {
		return 4096
	}
	return int(max(64, n-min(n/10, 10_000)))
}

type jsonErrorListener struct {
	net.Listener
	max      int64
	open     atomic.Int64
	refusing atomic.Int64 // connections being answered 503
}

// maxRefusing bounds the connections being answered 503 at once; in a flood
// beyond it, they are closed without an answer.
const maxRefusing = 256

// refuseDeadline bounds the write of the 503 to a connection over the
// limit, and then the wait for its client to close.
const refuseDeadline = time.Second

func (l *jsonErrorListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.open.Add(1) > l.max {
			l.open.Add(-1)
			if l.refusing.Add(1) > maxRefusing {
				l.refusing.Add(-1)
				c.Close()
				continue
			}
			go func() {
				defer l.refusing.Add(-1)
				refuse(c, l.max)
			}()
			continue
		}
		return &jsonErrorConn{Conn: c, closed: func() { l.open.Add(-1) }}, nil
	}
}

// refuse answers a connection over the limit with a JSON 503, without
// reading its request, and closes it.
func refuse(c net.Conn, limit int64) {
	defer c.Close()
	_ = c.SetWriteDeadline(time.Now().Add(refuseDeadline))
	body := mustErrorBody(Errorf(http.StatusServiceUnavailable, "Too many connections: the mock serves at most %d at once", limit))
	_, _ = fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: %d\r\nRetry-After: 1\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n%s", len(body), body)
	// Closing with the request unread would reset the connection, and the
	// client could lose the answer: stop sending, read what the client
	// still sends until it closes, or for refuseDeadline at most.
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		_ = tc.CloseWrite()
	}
	_ = c.SetReadDeadline(time.Now().Add(refuseDeadline))
	_, _ = io.Copy(io.Discard, io.LimitReader(c, 1<<20))
}

// jsonErrorConn rewrites net/http's own plain-text error answers as the
// mock's JSON error body, keeping their status.
type jsonErrorConn struct {
	net.Conn
	closed func() // called once, at the first Close
	once   sync.Once
}

func (c *jsonErrorConn) Close() error {
	c.once.Do(c.closed)
	return c.Conn.Close()
}

// plainErrorHeaders are the headers of net/http's own error answers, and of
// no answer of the mock's.
const plainErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

func (c *jsonErrorConn) Write(p []byte) (int, error) {
	// net/http writes its own answer in one piece, from its status line
	// on: every other write (the mock's answers, a large body's bytes)
	// goes through as it is, without a search through it.
	if !mayBePlainError(p) {
		return c.Conn.Write(p)
	}
	head, text, ok := bytes.Cut(p, []byte(plainErrorHeaders))
	status := 0
	if ok && len(head) >= 12 {
		status, _ = strconv.Atoi(string(head[9:12]))
	}
	if status < 400 || status > 599 {
		return c.Conn.Write(p)
	}
	// "400 Bad Request: malformed Host header" → "malformed Host header".
	msg := http.StatusText(status)
	if _, detail, found := strings.Cut(string(text), ": "); found && detail != "" {
		msg = detail
	}
	body := mustErrorBody(&Error{Status: status, Message: msg})
	answer := fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n%s",
		status, http.StatusText(status), len(body), body)
	if _, err := c.Conn.Write(answer); err != nil {
		return 0, err
	}
	return len(p), nil
}

// mayBePlainError says whether p begins as an error answer's status line
// (HTTP/1.1 4xx or 5xx), which net/http's own answers are.
func mayBePlainError(p []byte) bool {
	return len(p) >= 12 && bytes.HasPrefix(p, []byte("HTTP/1.1 ")) && (p[9] == '4' || p[9] == '5')
}

// SyscallConn lets the mock look at the connection's TCP state (peer.go).
func (c *jsonErrorConn) SyscallConn() (syscall.RawConn, error) {
	sc, ok := c.Conn.(syscall.Conn)
	if !ok {
		return nil, errors.New("not a system connection")
	}
	return sc.SyscallConn()
}
