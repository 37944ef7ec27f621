package live

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// userHeader names the user a test's handshake is for; none: a client
// without credentials.
const userHeader = "x-test-user"

// newTestHub serves a hub made of cfg at /api/socket.io/, answering its
// refusals with their status and message.
func newTestHub(t *testing.T, cfg Config) (*Hub, *httptest.Server) {
	t.Helper()
	h := New(cfg)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h.Serve(w, r, r.Header.Get(userHeader)); err != nil {
			var refusal *Refusal
			require.ErrorAs(t, err, &refusal)
			http.Error(w, refusal.Message, refusal.Status)
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(h.Close) // first: the server does not track hijacked connections
	return h, srv
}

// client is a test's websocket client, reading frames as text.
type client struct {
	t  *testing.T
	ws *websocket.Conn
}

func socketURL(srv *httptest.Server) string {
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/socket.io/?EIO=4&transport=websocket"
}

// dial opens a websocket as user ("" for none), or fails the test.
func dial(t *testing.T, srv *httptest.Server, user string) *client {
	t.Helper()
	ws, resp, err := tryDial(t, srv, user)
	require.NoError(t, err, "status %v", resp)
	ws.SetReadLimit(2 << 20)
	t.Cleanup(func() { _ = ws.CloseNow() })
	return &client{t: t, ws: ws}
}

func tryDial(t *testing.T, srv *httptest.Server, user string) (*websocket.Conn, *http.Response, error) {
	h := http.Header{}
	if user != "" {
		h.Set(userHeader, user)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, socketURL(srv), &websocket.DialOptions{HTTPHeader: h})
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	return ws, resp, err
}

// next is the next frame, within 5 s.
func (c *client) next() string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), 5*time.Second)
	defer cancel()
	typ, b, err := c.ws.Read(ctx)
	require.NoError(c.t, err)
	require.Equal(c.t, websocket.MessageText, typ)
	return string(b)
}

// closed waits for the server to end the connection, and is its close
// status (-1 for none).
func (c *client) closed() websocket.StatusCode {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), 5*time.Second)
	defer cancel()
	for {
		_, b, err := c.ws.Read(ctx)
		if err != nil {
			require.NoError(c.t, ctx.Err(), "the server kept the connection open")
			return websocket.CloseStatus(err)
		}
		c.t.Logf("before the close: %s", b)
	}
}

func (c *client) send(frame string) {
	c.t.Helper()
	require.NoError(c.t, c.ws.Write(c.t.Context(), websocket.MessageText, []byte(frame)))
}

// open reads the engine's open packet.
func (c *client) open() (sid string, pingInterval, pingTimeout int) {
	c.t.Helper()
	f := c.next()
	require.True(c.t, strings.HasPrefix(f, "0"), "open packet: %s", f)
	var p struct {
		SID          string   `json:"sid"`
		Upgrades     []string `json:"upgrades"`
		PingInterval int      `json:"pingInterval"`
		PingTimeout  int      `json:"pingTimeout"`
		MaxPayload   int      `json:"maxPayload"`
	}
	require.NoError(c.t, json.Unmarshal([]byte(f[1:]), &p))
	assert.Len(c.t, p.SID, 20)
	assert.NotNil(c.t, p.Upgrades)
	assert.Empty(c.t, p.Upgrades)
	assert.Equal(c.t, 1_000_000, p.MaxPayload)
	return p.SID, p.PingInterval, p.PingTimeout
}

// connect opens the websocket and connects to the namespace; the socket's id.
func (c *client) connect() string {
	c.t.Helper()
	c.open()
	c.send("40")
	f := c.next()
	require.True(c.t, strings.HasPrefix(f, "40{"), "connect answer: %s", f)
	var p struct {
		SID string `json:"sid"`
	}
	require.NoError(c.t, json.Unmarshal([]byte(f[2:]), &p))
	assert.Len(c.t, p.SID, 20)
	return p.SID
}

// eventually waits up to 5 s for cond.
func eventually(t *testing.T, cond func() bool, msg string) {
	t.Helper()
	assert.Eventually(t, cond, 5*time.Second, 5*time.Millisecond, msg)
}

func TestHandshakeAndEvents(t *testing.T) {
	connected := make(chan string, 4)
	h, srv := newTestHub(t, Config{OnConnect: func(user string) { connected <- user }})
	alice := dial(t, srv, "alice")
	sid, interval, timeout := alice.open()
	assert.Equal(t, 25_000, interval, "the reference's ping interval")
	assert.Equal(t, 20_000, timeout, "the reference's ping timeout")
	alice.send("40")
	f := alice.next()
	assert.Regexp(t, `^40\{"sid":"[A-Za-z0-9_-]{20}"\}$`, f)
	assert.NotContains(t, f, sid, "the socket's id is not the engine's")
	assert.Equal(t, "alice", <-connected)

	bob := dial(t, srv, "bob")
	bob.connect()
	assert.Equal(t, "bob", <-connected)

	h.Publish("bob", "on_asset_delete", "b-1")
	h.Publish("alice", "on_asset_trash", []string{"a-1", "a-2"})
	h.Publish("nobody", "on_asset_delete", "n-1")
	assert.Equal(t, `42["on_asset_trash",["a-1","a-2"]]`, alice.next(), "bob's event is not alice's")
	assert.Equal(t, `42["on_asset_delete","b-1"]`, bob.next())

	h.Broadcast("on_user_delete", "carol")
	assert.Equal(t, `42["on_user_delete","carol"]`, alice.next())
	assert.Equal(t, `42["on_user_delete","carol"]`, bob.next())
	assert.True(t, h.Listening("alice"))
	assert.False(t, h.Listening("nobody"))

	// A client that disconnects leaves its room, and its slot.
	alice.send("41")
	assert.Equal(t, websocket.StatusNormalClosure, alice.closed())
	eventually(t, func() bool { all, mine := h.Open("alice"); return all == 1 && mine == 0 && !h.Listening("alice") },
		"alice's connection is gone")
}

func TestUnauthorizedClientIsToldAndDisconnected(t *testing.T) {
	// The reference's frames to a client without valid credentials: its
	// connect succeeds, then it is told, then disconnected.
	connected := false
	h, srv := newTestHub(t, Config{OnConnect: func(string) { connected = true }})
	c := dial(t, srv, "")
	c.open()
	c.send("40")
	assert.Regexp(t, `^40\{"sid":"[A-Za-z0-9_-]{20}"\}$`, c.next())
	assert.Equal(t, `42["error","unauthorized"]`, c.next())
	assert.Equal(t, `41`, c.next())
	assert.Equal(t, websocket.StatusNormalClosure, c.closed())
	eventually(t, func() bool { all, _ := h.Open(""); return all == 0 }, "its slot is released")
	assert.False(t, connected, "it joined no room")
}

func TestOtherNamespacesAreRefused(t *testing.T) {
	_, srv := newTestHub(t, Config{})
	c := dial(t, srv, "alice")
	c.open()
	c.send(`40/admin,{"token":"x"}`)
	assert.Equal(t, `44/admin,{"message":"Invalid namespace"}`, c.next(), "the reference's words")
	c.send(`40{"token":"ignored"}`)
	assert.True(t, strings.HasPrefix(c.next(), `40{"sid":`), "the main namespace still connects")
}

func TestHandshakesRefused(t *testing.T) {
	_, srv := newTestHub(t, Config{})
	upgrade := []string{"Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}
	tests := []struct {
		name, method, query string
		headers             []string
		message             string
	}{
		{"no query", "GET", "", upgrade, "Transport unknown"},
		{"polling", "GET", "EIO=4&transport=polling", upgrade, "Transport unknown"},
		{"a session to resume", "GET", "EIO=4&transport=websocket&sid=abc", upgrade, "Session ID unknown"},
		{"a POST", "POST", "EIO=4&transport=websocket", upgrade, "Bad handshake method"},
		{"no upgrade", "GET", "EIO=4&transport=websocket", nil, "Bad request"},
		{"another websocket version", "GET", "EIO=4&transport=websocket", append(upgrade[:6:6], "Sec-WebSocket-Version", "8"), "Bad request"},
		{"engine.io 3", "GET", "EIO=3&transport=websocket", upgrade, "Unsupported protocol version"},
		{"no engine.io version", "GET", "transport=websocket", upgrade, "Unsupported protocol version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := http.NewRequestWithContext(t.Context(), tt.method, srv.URL+"/api/socket.io/?"+tt.query, nil)
			require.NoError(t, err)
			for i := 0; i+1 < len(tt.headers); i += 2 {
				r.Header.Set(tt.headers[i], tt.headers[i+1])
			}
			resp, err := http.DefaultClient.Do(r)
			require.NoError(t, err)
			defer resp.Body.Close()
			body := make([]byte, 200)
			n, _ := resp.Body.Read(body)
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
			assert.Equal(t, tt.message, strings.TrimSpace(string(body[:n])))
		})
	}
}

func TestConnectionLimits(t *testing.T) {
	h, srv := newTestHub(t, Config{MaxConns: 3, MaxConnsPerUser: 2})
	a1 := dial(t, srv, "alice")
	dial(t, srv, "alice")
	_, resp, err := tryDial(t, srv, "alice")
	require.Error(t, err)
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "a third of alice's is refused")
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))

	dial(t, srv, "bob")
	_, resp, err = tryDial(t, srv, "carol")
	require.Error(t, err)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "a fourth in all is refused")
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))
	dial(t, srv, "").open() // a client without credentials counts apart

	// A connection that ends gives its slot back.
	require.NoError(t, a1.ws.CloseNow())
	eventually(t, func() bool { _, mine := h.Open("alice"); return mine == 1 }, "alice's first is gone")
	dial(t, srv, "carol").connect()
}

// TestAnonymousConnectionsHaveABoundOfTheirOwn: clients without
// credentials fill a bound of their own, and one more is refused and its
// connection closed, while users still connect up to theirs.
func TestAnonymousConnectionsHaveABoundOfTheirOwn(t *testing.T) {
	h, srv := newTestHub(t, Config{MaxConns: 2, MaxAnonymousConns: 3})
	for range 3 {
		dial(t, srv, "").open() // held, never connecting
	}
	_, resp, err := tryDial(t, srv, "")
	require.Error(t, err)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))
	assert.True(t, resp.Close, "the refused client's connection is closed")
	all, anonymous := h.Open("")
	assert.Equal(t, 3, all)
	assert.Equal(t, 3, anonymous)

	dial(t, srv, "alice").connect()
	dial(t, srv, "bob").connect()
	_, resp, err = tryDial(t, srv, "carol")
	require.Error(t, err)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "the users' own bound")
	assert.False(t, resp.Close, "a user refused keeps its connection")
}

// TestAnonymousConnectionsLiveShort: a client without credentials is cut
// off once AnonymousTimeout is up, from its websocket's opening, whether
// it never connects or never answers the close after it is told.
func TestAnonymousConnectionsLiveShort(t *testing.T) {
	const life = 300 * time.Millisecond
	h, srv := newTestHub(t, Config{AnonymousTimeout: life})
	silent := dial(t, srv, "")
	start := time.Now()
	silent.open()
	silent.closed()
	assert.Less(t, time.Since(start), life+time.Second, "one that never connects")

	deaf := dial(t, srv, "")
	start = time.Now()
	deaf.open()
	deaf.send("40") // then reads nothing more: the close handshake would wait 5 s for it
	eventually(t, func() bool { _, anonymous := h.Open(""); return anonymous == 0 }, "one that never answers the close is cut off")
	assert.Less(t, time.Since(start), life+time.Second, "one that never answers the close")

	// A user's connection is not cut.
	alice := dial(t, srv, "alice")
	alice.connect()
	time.Sleep(2 * life)
	h.Publish("alice", "on_asset_delete", "id")
	assert.Equal(t, `42["on_asset_delete","id"]`, alice.next())
}

// TestUsersGetInWhileAnonymousConnectionsFlood: while many clients without
// credentials keep opening connections, each reopened as soon as it ends
// or is refused, a user connects and gets its connect answer at once.
func TestUsersGetInWhileAnonymousConnectionsFlood(t *testing.T) {
	h, srv := newTestHub(t, Config{MaxConns: 4, MaxAnonymousConns: 8, AnonymousTimeout: time.Second})
	ctx, cancel := context.WithCancel(t.Context())
	var flood sync.WaitGroup
	defer flood.Wait()
	defer cancel()
	var refused atomic.Int64
	for range 100 {
		flood.Go(func() {
			for ctx.Err() == nil {
				ws, _, err := websocket.Dial(ctx, socketURL(srv), nil)
				if err != nil {
					refused.Add(1)
					continue
				}
				for { // held, never connecting, until the server ends it
					if _, _, err := ws.Read(ctx); err != nil {
						break
					}
				}
				_ = ws.CloseNow()
			}
		})
	}
	eventually(t, func() bool { return refused.Load() > 100 }, "the flood fills its bound")
	for _, user := range []string{"alice", "bob", "carol", "dave"} {
		start := time.Now()
		dial(t, srv, user).connect()
		t.Logf("%s connected in %v", user, time.Since(start))
	}
	_, anonymous := h.Open("")
	assert.LessOrEqual(t, anonymous, 8)
}

func TestPingsAndSilentClients(t *testing.T) {
	h, srv := newTestHub(t, Config{PingInterval: 50 * time.Millisecond, PingTimeout: 200 * time.Millisecond})
	c := dial(t, srv, "alice")
	_, interval, timeout := c.open()
	assert.Equal(t, 50, interval)
	assert.Equal(t, 200, timeout)
	c.send("40")
	c.next()
	for range 3 {
		assert.Equal(t, "2", c.next())
		c.send("3")
	}
	// A client that stops answering is dropped once the pong is due.
	assert.Equal(t, "2", c.next())
	start := time.Now()
	c.closed()
	assert.Less(t, time.Since(start), 2*time.Second)
	eventually(t, func() bool { all, _ := h.Open(""); return all == 0 }, "its slot is released")
}

func TestClientThatNeverConnectsIsDropped(t *testing.T) {
	h, srv := newTestHub(t, Config{ConnectTimeout: 100 * time.Millisecond})
	c := dial(t, srv, "alice")
	c.open()
	c.closed()
	eventually(t, func() bool { all, _ := h.Open(""); return all == 0 }, "its slot is released")
}

func TestSlowClientIsDropped(t *testing.T) {
	// A client that stops reading: its events queue up to the bound, then
	// it is dropped, and nothing of it is kept.
	for _, tt := range []struct {
		name string
		cfg  Config
	}{
		{"queue", Config{MaxQueuedBytes: 256 << 10, WriteTimeout: time.Minute}},
		{"write deadline", Config{MaxQueuedBytes: 1 << 30, WriteTimeout: time.Second}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, srv := newTestHub(t, tt.cfg)
			slow := dial(t, srv, "alice")
			slow.connect()
			fast := dial(t, srv, "alice")
			fast.connect()
			payload := strings.Repeat("x", 32<<10)
			deadline := time.Now().Add(20 * time.Second)
			for h.Listening("alice") {
				_, mine := h.Open("alice")
				if mine < 2 {
					break
				}
				require.True(t, time.Now().Before(deadline), "the slow client was never dropped")
				h.Publish("alice", "on_asset_update", payload)
				// The fast client takes what it is sent.
				assert.True(t, strings.HasPrefix(fast.next(), `42["on_asset_update"`))
			}
			eventually(t, func() bool { _, mine := h.Open("alice"); return mine == 1 }, "the slow client is gone")
			h.Publish("alice", "on_asset_delete", "id")
			for f := fast.next(); !strings.Contains(f, "on_asset_delete"); f = fast.next() {
			}
		})
	}
}

func TestOversizedAndBrokenPackets(t *testing.T) {
	_, srv := newTestHub(t, Config{})
	t.Run("over maxPayload", func(t *testing.T) {
		c := dial(t, srv, "alice")
		c.connect()
		_ = c.ws.Write(t.Context(), websocket.MessageText, make([]byte, 1_000_001))
		assert.Equal(t, websocket.StatusMessageTooBig, c.closed())
	})
	t.Run("long but within it", func(t *testing.T) {
		c := dial(t, srv, "alice")
		c.connect()
		c.send(`42["hello","` + strings.Repeat("x", 100_000) + `"]`)
		c.send("2") // the client's ping is no pong, and no harm
		c.send(`40/x,`)
		assert.Equal(t, `44/x,{"message":"Invalid namespace"}`, c.next(), "still served")
	})
	for _, frame := range []string{"", "x", "4", "49"} {
		t.Run("packet "+frame, func(t *testing.T) {
			c := dial(t, srv, "alice")
			c.connect()
			c.send(frame)
			c.closed()
		})
	}
}

func TestCloseEndsEveryConnection(t *testing.T) {
	h, srv := newTestHub(t, Config{})
	reading := dial(t, srv, "alice")
	reading.connect()
	// A client that never reads again answers no close frame: Close cuts it.
	deaf := dial(t, srv, "bob")
	deaf.connect()
	start := time.Now()
	h.Close()
	assert.Less(t, time.Since(start), 3*time.Second)
	assert.Equal(t, websocket.StatusGoingAway, reading.closed())
	all, _ := h.Open("")
	assert.Zero(t, all)
	_, resp, err := tryDial(t, srv, "alice")
	require.Error(t, err)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
}

func TestNothingIsLeftOfClientsThatVanish(t *testing.T) {
	h, srv := newTestHub(t, Config{})
	// The server's own goroutines, and a connection's first ones, settle.
	warm := dial(t, srv, "alice")
	warm.connect()
	require.NoError(t, warm.ws.CloseNow())
	eventually(t, func() bool { all, _ := h.Open(""); return all == 0 }, "the warm-up is gone")
	runtime.GC()
	before := runtime.NumGoroutine()
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)

	const n = 100
	clients := make([]*client, n)
	for i := range clients {
		clients[i] = dial(t, srv, "user"+string(rune('a'+i%26)))
		clients[i].connect()
	}
	all, _ := h.Open("")
	require.Equal(t, n, all)
	runtime.GC()
	var m1 runtime.MemStats
	runtime.ReadMemStats(&m1)
	perConn := (int64(m1.HeapInuse) - int64(m0.HeapInuse)) / n
	t.Logf("%d connections: %d goroutines more, %d KiB of heap each (both ends)", n, runtime.NumGoroutine()-before, perConn>>10)
	assert.Less(t, perConn, int64(128<<10), "a connection, with its client's end, costs little")

	for _, c := range clients {
		require.NoError(t, c.ws.CloseNow()) // no close frame: the client is simply gone
	}
	eventually(t, func() bool { all, _ := h.Open(""); return all == 0 }, "every connection is gone")
	// Polled here, not with assert.Eventually, whose own goroutines count.
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if now := runtime.NumGoroutine(); now > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines left:\n%s", now-before, buf[:runtime.Stack(buf, true)])
	}
}

func TestEventFrames(t *testing.T) {
	f, err := eventFrame("on_upload_success", map[string]any{"id": "x", "n": nil})
	require.NoError(t, err)
	assert.Equal(t, `42["on_upload_success",{"id":"x","n":null}]`, string(f))
	_, err = eventFrame("bad", func() {})
	assert.Error(t, err)
	assert.Equal(t, "/", namespace([]byte(`{"token":"x"}`)))
	assert.Equal(t, "/admin", namespace([]byte(`/admin,{}`)))
	assert.Equal(t, `44/a\"b,{"message":"Invalid namespace"}`, string(invalidNamespaceFrame(`/a"b`)))
	assert.NotEqual(t, newID(), newID())
	var refusal *Refusal
	assert.True(t, errors.As(error(&Refusal{Status: 400, Message: "m"}), &refusal))
}

func TestConnectAnswerComesWithTheRoom(t *testing.T) {
	// A client that has its connect answer is in its user's room, so an
	// event published at once reaches it: the answer is queued under the
	// lock Publish holds, as the connection joins the room.
	h := New(Config{})
	t.Cleanup(h.Close)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c := &conn{hub: h, user: "alice", socketID: newID(), ctx: ctx, cancel: cancel,
		wake: make(chan struct{}, 1), pong: make(chan struct{}, 1)}
	h.mu.Lock() // as a Publish in progress
	go c.connect("/")
	select {
	case <-c.wake:
		h.mu.Unlock()
		t.Fatal("the connect answer was queued before the connection joined its room")
	case <-time.After(200 * time.Millisecond):
	}
	h.mu.Unlock()
	select {
	case <-c.wake:
	case <-time.After(5 * time.Second):
		t.Fatal("the connect answer was never queued")
	}
	frames, _ := c.take()
	require.Len(t, frames, 1)
	assert.True(t, strings.HasPrefix(string(frames[0]), "40{"), "%s", frames[0])
	assert.True(t, h.Listening("alice"))
}
