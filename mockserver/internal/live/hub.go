// Package live is the mock's socket.io endpoint (/api/socket.io/): the few
// frames of engine.io 4 and socket.io 5 that the reference's clients
// (socket.io-client 4.7, websocket transport) use, over a websocket, and
// the hub that sends the reference's events to the connections of one
// user, or of all.
//
// Every connection costs a bounded amount: two goroutines, the buffers of
// its websocket, at most 512 bytes of what it sends at a time, and the
// events queued for it, at most Config.MaxQueuedBytes. A client that does
// not answer a ping, does not connect in time, or does not take its
// events, is dropped; at most Config.MaxConns connections of users are
// open, and Config.MaxConnsPerUser of one user, and one more is refused
// before its websocket opens. Clients without credentials, which are only
// told they are unauthorized, have a bound of their own
// (Config.MaxAnonymousConns) and a short life (Config.AnonymousTimeout):
// however many of them a script opens, they never keep a user out.
package live

import (
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// The events of the reference (server/src/interfaces/event.interface.ts)
// and their payloads.
const (
	UploadSuccess = "on_upload_success" // the asset, once its pictures are made
	AssetUpdate   = "on_asset_update"   // the asset
	AssetDelete   = "on_asset_delete"   // the asset's id
	AssetTrash    = "on_asset_trash"    // the assets' ids
	AssetRestore  = "on_asset_restore"  // the assets' ids
	AssetHidden   = "on_asset_hidden"   // the asset's id
	StackUpdate   = "on_asset_stack_update"
	UserDelete    = "on_user_delete"    // the user's id, to everyone
	ServerVersion = "on_server_version" // the version, on every connect
	ConfigUpdate  = "on_config_update"
)

// Defaults of Config.
const (
	DefaultMaxConns          = 1024
	DefaultMaxConnsPerUser   = 32
	DefaultMaxAnonymousConns = 64
	DefaultConnectTimeout    = 10 * time.Second
	DefaultAnonymousTimeout  = 2 * time.Second
	DefaultWriteTimeout      = 10 * time.Second
	DefaultMaxQueuedBytes    = 1 << 20
)

// Config is what a hub is made of. Zero values take the defaults.
type Config struct {
	// MaxConns bounds the connections of users open at once,
	// MaxConnsPerUser those of one user.
	MaxConns, MaxConnsPerUser int
	// MaxAnonymousConns bounds the connections without credentials open
	// at once, apart from the users': each is only told it is
	// unauthorized.
	MaxAnonymousConns int
	// AnonymousTimeout bounds the whole life of a connection without
	// credentials, from its websocket's opening to its end: a client that
	// is slow to connect, or to answer the close, is cut off then.
	AnonymousTimeout time.Duration
	// PingInterval and PingTimeout are the engine's heartbeat: a ping every
	// PingInterval, its pong due within PingTimeout, or the connection is
	// dropped. The reference's 25 s and 20 s by default.
	PingInterval, PingTimeout time.Duration
	// ConnectTimeout is how long a client may take to connect to the
	// namespace once its websocket is open.
	ConnectTimeout time.Duration
	// WriteTimeout bounds the writing of one frame: a client that does not
	// take it in that time is dropped.
	WriteTimeout time.Duration
	// MaxQueuedBytes bounds the frames waiting for one connection: a
	// client that falls further behind is dropped.
	MaxQueuedBytes int
	// OnConnect is called when a user's client has connected and joined
	// the user's room (the reference sends on_server_version then).
	OnConnect func(userID string)
	// Logger gets a line per connection dropped; nil logs nothing.
	Logger *slog.Logger
}

// Hub is the set of live connections, by user.
type Hub struct {
	cfg Config

	mu        sync.Mutex
	closed    bool
	open      int                           // users' connections counted, from before their upgrade
	perUser   map[string]int                // of them, by user
	anonymous int                           // connections without credentials counted
	conns     map[*conn]struct{}            // upgraded
	rooms     map[string]map[*conn]struct{} // connected to the namespace, by user
	wg        sync.WaitGroup                // one per connection counted
}

// New makes a hub.
func New(cfg Config) *Hub {
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = DefaultMaxConns
	}
	if cfg.MaxConnsPerUser <= 0 {
		cfg.MaxConnsPerUser = DefaultMaxConnsPerUser
	}
	if cfg.MaxAnonymousConns <= 0 {
		cfg.MaxAnonymousConns = DefaultMaxAnonymousConns
	}
	if cfg.AnonymousTimeout <= 0 {
		cfg.AnonymousTimeout = DefaultAnonymousTimeout
	}
	if cfg.PingInterval <= 0 {
		cfg.PingInterval = defaultPingInterval * time.Millisecond
	}
	if cfg.PingTimeout <= 0 {
		cfg.PingTimeout = defaultPingTimeout * time.Millisecond
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.MaxQueuedBytes <= 0 {
		cfg.MaxQueuedBytes = DefaultMaxQueuedBytes
	}
	if cfg.OnConnect == nil {
		cfg.OnConnect = func(string) {}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Hub{
		cfg:     cfg,
		perUser: make(map[string]int),
		conns:   make(map[*conn]struct{}),
		rooms:   make(map[string]map[*conn]struct{}),
	}
}

// Listening says whether a client of userID is connected: a caller whose
// payload costs something to build asks first.
func (h *Hub) Listening(userID string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.rooms[userID]) > 0
}

// Publish sends an event to the connections of userID, as the reference's
// clientSend does. A connection too far behind to take it is dropped.
func (h *Hub) Publish(userID, event string, payload any) {
	if !h.Listening(userID) {
		return
	}
	frame, err := eventFrame(event, payload)
	if err != nil {
		h.cfg.Logger.Error("live event", "event", event, "error", err)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.rooms[userID] {
		c.send(frame)
	}
}

// Broadcast sends an event to every connected client, as the reference's
// clientBroadcast does.
func (h *Hub) Broadcast(event string, payload any) {
	frame, err := eventFrame(event, payload)
	if err != nil {
		h.cfg.Logger.Error("live event", "event", event, "error", err)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, room := range h.rooms {
		for c := range room {
			c.send(frame)
		}
	}
}

// Open is the number of connections open, with or without credentials,
// and of them those of userID ("": those without).
func (h *Hub) Open(userID string) (all, user int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if userID == "" {
		return h.open + h.anonymous, h.anonymous
	}
	return h.open + h.anonymous, h.perUser[userID]
}

// closeGrace is how long Close lets clients answer its close frame before
// it cuts their connections.
const closeGrace = time.Second

// Close closes every connection, telling each client the server is going
// away (socket.io-client then reconnects, as after a restart), refuses new
// ones, and returns once every connection's goroutines are gone: within
// about a second, whatever the clients do.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	conns := make([]*conn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	done := make(chan struct{})
	go func() {
		h.wg.Wait()
		close(done)
	}()
	var closing sync.WaitGroup
	defer closing.Wait()
	for _, c := range conns {
		closing.Go(c.goingAway)
	}
	select {
	case <-done:
		return
	case <-time.After(closeGrace):
	}
	for _, c := range conns {
		c.drop("the server is closing")
	}
	<-done
}

// reserve counts a connection of userID ("" for a client that will be told
// it is unauthorized, counted apart) before its upgrade, or says why it
// may not open.
func (h *Hub) reserve(userID string) *Refusal {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.closed:
		return &Refusal{Status: 503, Message: "The server is closing", retry: true}
	case userID == "" && h.anonymous >= h.cfg.MaxAnonymousConns:
		return &Refusal{Status: 503, Message: tooMany(h.cfg.MaxAnonymousConns, " without credentials"), retry: true, close: true}
	case userID != "" && h.open >= h.cfg.MaxConns:
		return &Refusal{Status: 503, Message: tooMany(h.cfg.MaxConns, ""), retry: true}
	case userID != "" && h.perUser[userID] >= h.cfg.MaxConnsPerUser:
		return &Refusal{Status: 429, Message: tooMany(h.cfg.MaxConnsPerUser, " of one user"), retry: true}
	}
	if userID == "" {
		h.anonymous++
	} else {
		h.open++
		h.perUser[userID]++
	}
	h.wg.Add(1)
	return nil
}

// release uncounts a connection reserve counted, upgraded or not.
func (h *Hub) release(userID string, c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if userID == "" {
		h.anonymous--
	} else {
		h.open--
		if h.perUser[userID]--; h.perUser[userID] <= 0 {
			delete(h.perUser, userID)
		}
	}
	if c != nil {
		delete(h.conns, c)
		if room := h.rooms[userID]; room != nil {
			delete(room, c)
			if len(room) == 0 {
				delete(h.rooms, userID)
			}
		}
	}
	h.wg.Done()
}

// add records an upgraded connection, unless the hub is closing.
func (h *Hub) add(c *conn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.conns[c] = struct{}{}
	return true
}

// join puts a connected client in its user's room.
// join puts c in its user's room and queues its connect answer, under the
// lock Publish holds: no event comes before the answer, nor is lost after it.
func (h *Hub) join(c *conn, connectAnswer []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	room := h.rooms[c.user]
	if room == nil {
		room = make(map[*conn]struct{})
		h.rooms[c.user] = room
	}
	room[c] = struct{}{}
	c.send(connectAnswer)
}

func tooMany(limit int, of string) string {
	return "Too many live connections" + of + ": the server keeps at most " + strconv.Itoa(limit) + " open at once"
}

// Refusal is why a handshake was answered without opening a websocket:
// the status and message to answer. A refusal for being over a limit
// asks the client to retry (Retry-After); one of a client without
// credentials over theirs also closes its connection, so that a script
// reopening them holds no connection while it waits.
type Refusal struct {
	Status  int
	Message string
	retry   bool
	close   bool
}

func (r *Refusal) Error() string { return r.Message }

// RetryAfter says whether the client may retry in a moment.
func (r *Refusal) RetryAfter() bool { return r.retry }
