package live

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// maxInspected is what is read of a client's message: more than any
// packet a client sends (40, 3, 41); the rest of a longer one is read
// past, so that a connection never holds more of what it is sent.
const maxInspected = 512

// Serve answers a handshake at the endpoint, for userID: the user its
// credentials name, or "" where they name none (the client is then told
// it is unauthorized once it connects, as the reference tells it). A
// handshake the endpoint cannot take, or one over a limit, is refused
// with the *Refusal returned, before the websocket opens (with
// Retry-After set on w where the client may retry). Otherwise Serve
// returns nil once the connection has ended, its goroutines gone.
func (h *Hub) Serve(w http.ResponseWriter, r *http.Request, userID string) error {
	if refusal := handshakeProblem(r); refusal != nil {
		return refusal
	}
	if refusal := h.reserve(userID); refusal != nil {
		if refusal.retry {
			w.Header().Set("Retry-After", "1")
		}
		if refusal.close {
			w.Header().Set("Connection", "close")
		}
		return refusal
	}
	hj := &hijackRecorder{ResponseWriter: w}
	ws, err := websocket.Accept(hj, r, &websocket.AcceptOptions{
		// Any origin, as the reference's gateway (cors: true): a page of
		// another origin gets no cookie of the mock's (SameSite=Lax), and
		// must present a token it was given.
		InsecureSkipVerify: true,
	})
	if err != nil {
		// Accept has answered; handshakeProblem leaves little to fail.
		h.release(userID, nil)
		h.cfg.Logger.Warn("live connection", "error", err)
		return nil
	}
	ws.SetReadLimit(maxPayload)
	ctx, cancel := context.WithCancel(context.Background())
	c := &conn{
		hub: h, ws: ws, tcp: hj.conn, user: userID, socketID: newID(),
		ctx: ctx, cancel: cancel,
		wake: make(chan struct{}, 1), pong: make(chan struct{}, 1),
	}
	if h.add(c) {
		c.run()
	}
	cancel()
	_ = ws.CloseNow()
	h.release(userID, c)
	return nil
}

// handshakeProblem is why a handshake cannot be taken, in engine.io's
// words, checked in its order; nil if it can.
func handshakeProblem(r *http.Request) *Refusal {
	q := r.URL.Query()
	bad := func(msg string) *Refusal { return &Refusal{Status: http.StatusBadRequest, Message: msg} }
	switch {
	case q.Get("transport") != "websocket":
		// The reference serves the websocket transport only.
		return bad("Transport unknown")
	case q.Has("sid"):
		// A session is never resumed: there is no polling to upgrade from.
		return bad("Session ID unknown")
	case r.Method != http.MethodGet:
		return bad("Bad handshake method")
	case !isUpgrade(r):
		return bad("Bad request")
	case q.Get("EIO") != "4":
		return bad("Unsupported protocol version")
	}
	return nil
}

// isUpgrade says whether r asks for a websocket, as RFC 6455 says it must.
func isUpgrade(r *http.Request) bool {
	return r.ProtoAtLeast(1, 1) &&
		hasToken(r.Header, "Connection", "upgrade") &&
		hasToken(r.Header, "Upgrade", "websocket") &&
		r.Header.Get("Sec-WebSocket-Version") == "13" &&
		r.Header.Get("Sec-WebSocket-Key") != ""
}

// hasToken says whether one of the comma-separated values of the header
// is token, in any case.
func hasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for t := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// hijackRecorder keeps the connection websocket.Accept takes over, so
// that a connection can be cut at once whatever the websocket is doing:
// its Close waits seconds for a client's answer, and CloseNow does
// nothing while a Close is under way.
type hijackRecorder struct {
	http.ResponseWriter
	conn net.Conn
}

func (h *hijackRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	h.conn = conn
	return conn, brw, err
}

// conn is one live connection: its reader runs in the handler's goroutine,
// its writer in one of its own, which sends the frames queued for it, in
// order, and the engine's pings.
type conn struct {
	hub      *Hub
	ws       *websocket.Conn
	tcp      net.Conn // under ws
	user     string   // "" for a client that will be told it is unauthorized
	socketID string
	ctx      context.Context
	cancel   context.CancelFunc

	wake      chan struct{} // frames wait
	pong      chan struct{} // a pong came
	connected atomic.Bool   // to the namespace

	mu      sync.Mutex
	pending [][]byte // frames to write, shared with other connections
	queued  int      // bytes of pending and of the frames being written
	closing bool     // close once pending is written
	dropped bool
}

// run serves the connection until it ends: the engine's open packet, the
// writer, and the reader. A connection without credentials ends within
// AnonymousTimeout, whatever its client does.
func (c *conn) run() {
	if c.user == "" {
		life := c.hub.cfg.AnonymousTimeout
		cut := time.AfterFunc(life, func() { c.drop("no credentials, and its " + life.String() + " are up") })
		defer cut.Stop()
	}
	interval, timeout := c.hub.cfg.PingInterval, c.hub.cfg.PingTimeout
	if !c.writeFrame(openFrame(newID(), interval.Milliseconds(), timeout.Milliseconds())) {
		return
	}
	var wg sync.WaitGroup
	wg.Go(c.write)
	connectBy := time.AfterFunc(c.hub.cfg.ConnectTimeout, func() {
		if !c.connected.Load() {
			c.drop("no socket.io connect within " + c.hub.cfg.ConnectTimeout.String())
		}
	})
	c.read()
	connectBy.Stop()
	c.cancel()
	wg.Wait()
}

// read reads the client's packets until the connection ends.
func (c *conn) read() {
	buf := make([]byte, maxInspected)
	for {
		typ, r, err := c.ws.Reader(c.ctx)
		if err != nil {
			return
		}
		n, err := io.ReadFull(r, buf)
		switch {
		case err == nil:
			_, err = io.Copy(io.Discard, r) // too long for any packet a client sends
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			err = nil
		}
		if err != nil {
			return // over maxPayload: the websocket is closed with 1009
		}
		if typ != websocket.MessageText {
			continue // no packet of the reference's clients is binary
		}
		if !c.handle(buf[:n]) {
			return
		}
	}
}

// handle acts on one engine.io packet; false ends the connection.
func (c *conn) handle(p []byte) bool {
	if len(p) == 0 {
		c.drop("an empty packet")
		return false
	}
	switch p[0] {
	case enginePong:
		select {
		case c.pong <- struct{}{}:
		default:
		}
	case engineMessage:
		return c.message(p[1:])
	case engineClose:
		c.closeNormally()
		return false
	case enginePing, engineUpgrade, engineNoop:
		// An engine.io 4 client does not ping; there is nothing to upgrade to.
	default:
		c.drop("not an engine.io packet")
		return false
	}
	return true
}

// message acts on one socket.io packet; false ends the connection.
func (c *conn) message(p []byte) bool {
	if len(p) == 0 || p[0] < '0' || p[0] > '6' {
		c.drop("not a socket.io packet")
		return false
	}
	switch p[0] {
	case socketConnect:
		c.connect(namespace(p[1:]))
	case socketDisconnect:
		if namespace(p[1:]) == "/" {
			c.closeNormally()
			return false
		}
	default:
		// Events and acknowledgements: the reference listens to none.
	}
	return true
}

// connect answers a connect to a namespace. Only "/" is served. A client
// with credentials joins its user's room; one without is told it is
// unauthorized, then disconnected, as the reference tells it: its connect
// succeeds first (the reference checks the credentials after it).
func (c *conn) connect(nsp string) {
	if nsp != "/" {
		c.send(invalidNamespaceFrame(nsp))
		return
	}
	if c.connected.Swap(true) {
		return
	}
	if c.user == "" {
		c.send(connectFrame(c.socketID))
		c.send([]byte(unauthorizedFrame))
		c.send([]byte(disconnectFrame))
		c.closeAfterPending()
		return
	}
	// In the room before the client reads its connect answer: an event
	// published once the client has it reaches it.
	c.hub.join(c, connectFrame(c.socketID))
	c.hub.cfg.OnConnect(c.user)
}

// send queues a frame, unless the connection is ending; a client whose
// queue is over its bound is too slow, and dropped.
func (c *conn) send(frame []byte) {
	if frame == nil {
		return
	}
	c.mu.Lock()
	if c.dropped || c.closing {
		c.mu.Unlock()
		return
	}
	if c.queued+len(frame) > c.hub.cfg.MaxQueuedBytes {
		c.mu.Unlock()
		c.drop("too slow: its events waiting passed " + itoaBytes(c.hub.cfg.MaxQueuedBytes))
		return
	}
	c.pending = append(c.pending, frame)
	c.queued += len(frame)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// closeAfterPending closes the connection once the frames queued are written.
func (c *conn) closeAfterPending() {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// take hands the writer the frames waiting, and whether to close after.
func (c *conn) take() (frames [][]byte, closing bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	frames, c.pending = c.pending, nil
	return frames, c.closing
}

// written releases the bytes of frames written.
func (c *conn) written(n int) {
	c.mu.Lock()
	c.queued -= n
	c.mu.Unlock()
}

// write sends the frames queued and the pings, until the connection ends:
// a ping every PingInterval after the last pong, and a client whose pong
// is not in within PingTimeout is dropped, as engine.io drops it.
func (c *conn) write() {
	interval, timeout := c.hub.cfg.PingInterval, c.hub.cfg.PingTimeout
	ping := time.NewTimer(interval)
	defer ping.Stop()
	pongDue := time.NewTimer(timeout)
	pongDue.Stop()
	defer pongDue.Stop()
	var due <-chan time.Time // nil: no ping unanswered
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-c.wake:
			frames, closing := c.take()
			for _, f := range frames {
				if !c.writeFrame(f) {
					return
				}
				c.written(len(f))
			}
			if closing {
				c.closeNormally()
				return
			}
		case <-ping.C:
			if !c.writeFrame([]byte(pingFrame)) {
				return
			}
			pongDue.Reset(timeout)
			due = pongDue.C
		case <-c.pong:
			if due != nil {
				pongDue.Stop()
				due = nil
				ping.Reset(interval)
			}
		case <-due:
			c.drop("no pong within " + timeout.String())
			return
		}
	}
}

// writeFrame writes one frame within WriteTimeout; a client that does not
// take it is dropped.
func (c *conn) writeFrame(f []byte) bool {
	ctx, cancel := context.WithTimeout(c.ctx, c.hub.cfg.WriteTimeout)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, f); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			c.drop("too slow: a frame not taken within " + c.hub.cfg.WriteTimeout.String())
		} else {
			c.drop("gone")
		}
		return false
	}
	return true
}

// closeNormally ends the connection with the close handshake (status 1000),
// which takes the client's answer, or a few seconds at most.
func (c *conn) closeNormally() {
	_ = c.ws.Close(websocket.StatusNormalClosure, "")
}

// goingAway ends the connection as the server closes (status 1001).
func (c *conn) goingAway() {
	_ = c.ws.Close(websocket.StatusGoingAway, "the server is closing")
}

// drop ends the connection at once, closing the TCP connection under the
// websocket, and says why in the log (a client that simply went away is
// not worth a line, nor is one without credentials: a script opening them
// by the thousand would fill the log).
func (c *conn) drop(reason string) {
	c.mu.Lock()
	already := c.dropped
	c.dropped = true
	c.mu.Unlock()
	if already {
		return
	}
	if reason != "gone" && c.user != "" {
		c.hub.cfg.Logger.Info("live connection dropped", "user", c.user, "reason", reason)
	}
	c.cancel()
	_ = c.tcp.Close()
}

// itoaBytes is n bytes as the log says it.
func itoaBytes(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " bytes"
}
