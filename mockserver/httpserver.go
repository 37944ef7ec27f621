package mockserver

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
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
// guarded by the handler (Config.BodyTimeout).
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

// limitHeaders answers 431 with the JSON error body to a request whose
// headers (and URL) are larger than maxHeaderBytes.
func limitHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		size := len(r.URL.RawQuery) + len(r.URL.Path)
		for k, vs := range r.Header {
			for _, v := range vs {
				size += len(k) + len(v) + 4
			}
		}
		if size > maxHeaderBytes {
			writeError(w, errorf(http.StatusRequestHeaderFieldsTooLarge, "Request headers are larger than %d bytes", maxHeaderBytes))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Listener wraps ln so that the few answers net/http writes on its own,
// before any handler runs (headers over its limit, a request it cannot
// read), are JSON errors too, like every answer of the mock.
func Listener(ln net.Listener) net.Listener { return jsonErrorListener{ln} }

type jsonErrorListener struct{ net.Listener }

func (l jsonErrorListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &jsonErrorConn{Conn: c}, nil
}

// jsonErrorConn rewrites net/http's own plain-text error answers as the
// mock's JSON error body, keeping their status.
type jsonErrorConn struct{ net.Conn }

// plainErrorHeaders are the headers of net/http's own error answers, and of
// no answer of the mock's.
const plainErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

func (c *jsonErrorConn) Write(p []byte) (int, error) {
	head, text, ok := bytes.Cut(p, []byte(plainErrorHeaders))
	status := 0
	if ok && bytes.HasPrefix(head, []byte("HTTP/1.1 ")) && len(head) >= 12 {
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
	body := mustErrorBody(status, msg)
	answer := fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n%s",
		status, http.StatusText(status), len(body), body)
	if _, err := c.Conn.Write(answer); err != nil {
		return 0, err
	}
	return len(p), nil
}

// SyscallConn lets the mock look at the connection's TCP state (peer.go).
func (c *jsonErrorConn) SyscallConn() (syscall.RawConn, error) {
	sc, ok := c.Conn.(syscall.Conn)
	if !ok {
		return nil, errors.New("not a system connection")
	}
	return sc.SyscallConn()
}
