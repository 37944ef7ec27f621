package steps

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/cucumber/godog"
)

// Live events: the socket.io endpoint a photo app keeps open (engine.io 4,
// socket.io 5, over a websocket at <base>/socket.io/), on which the server
// tells a user's connections of what changed, such as on_upload_success
// once an upload is ready to show. The harness speaks the few frames it
// needs by hand: an engine.io packet is one text message, its type as one
// digit ('0' open, '2' ping, '3' pong, '4' message) then its data; a
// socket.io packet rides in a message, its type as one digit ('0' connect,
// '1' disconnect, '2' event, '4' connect error) then its JSON.

// TagLive marks the scenarios that connect to the live events: a target
// without the socket.io endpoint fails them, and can be checked without
// them with --tags 'not @live'.
const TagLive = "@live"

// liveState is what the live steps keep within a scenario.
type liveState struct {
	mine, others *liveConn
	photo        string // the id of my upload the connections are judged by
	theirs       string // the other user's upload
}

// errUnheard is (wrapped in) the error of a wait for an event that did not
// come.
var errUnheard = errors.New("heard nothing of it")

// liveEvent is a socket.io event: its name and payload.
type liveEvent struct {
	name    string
	payload json.RawMessage
}

// liveConn is a connection to the live events, read by a goroutine of its
// own that answers the server's pings and queues the events.
type liveConn struct {
	whose string // "my", "the other user's", for messages
	ws    *websocket.Conn

	mu     sync.Mutex
	events []liveEvent
	ended  error         // why the connection ended; nil while it is open
	wake   chan struct{} // a new event, or the end
}

// liveURL is the endpoint as socket.io-client asks for it: the base URL's
// scheme made ws or wss, and its path (base path included) followed by
// /socket.io/.
func (cfg Config) liveURL() string {
	u := cfg.BaseURL
	switch {
	case strings.HasPrefix(u, "https://"):
		u = "wss://" + strings.TrimPrefix(u, "https://")
	default:
		u = "ws://" + strings.TrimPrefix(u, "http://")
	}
	return u + "/socket.io/?EIO=4&transport=websocket"
}

// connectLive opens a connection to the live events as the user of apiKey
// (header x-api-key, as a client sends its credentials in the handshake),
// and waits until the server has taken it: its socket.io connect answered,
// and its greeting, on_server_version, heard.
func (s *scenario) connectLive(ctx context.Context, whose, apiKey string) (*liveConn, error) {
	// A websocket outlives any http.Client.Timeout, which the websocket
	// package refuses: deadlines come from contexts here.
	client := *s.cfg.Client
	client.Timeout = 0
	dialCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	url := s.cfg.liveURL()
	ws, resp, err := websocket.Dial(dialCtx, url, &websocket.DialOptions{
		HTTPClient: &client,
		HTTPHeader: http.Header{"X-Api-Key": {apiKey}},
	})
	if err != nil {
		why := err.Error()
		if resp != nil {
			why = fmt.Sprintf("it answered %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
		}
		return nil, fmt.Errorf("connecting to the live events (socket.io, a websocket at %s) for %s user: %s; "+
			"a target without them can be checked with --tags 'not %s'", strings.SplitN(url, "?", 2)[0], whose, why, TagLive)
	}
	ws.SetReadLimit(4 << 20)
	c := &liveConn{whose: whose, ws: ws, wake: make(chan struct{}, 1)}

	// The engine's open packet, then socket.io's connect to the main
	// namespace and its answer.
	frame, err := readFrame(dialCtx, ws)
	if err != nil || !strings.HasPrefix(frame, "0{") {
		_ = ws.CloseNow()
		return nil, fmt.Errorf("the live events sent %s user no engine.io open packet first: %q %v", whose, short([]byte(frame)), err)
	}
	if err := ws.Write(dialCtx, websocket.MessageText, []byte("40")); err != nil {
		_ = ws.CloseNow()
		return nil, fmt.Errorf("connecting %s user to the live events: %w", whose, err)
	}
	for {
		// Until the connect is answered, a ping is answered and an event
		// kept (a server should send none, but this is not what is judged).
		if frame, err = readFrame(dialCtx, ws); err != nil {
			_ = ws.CloseNow()
			return nil, fmt.Errorf("the live events did not answer %s user's socket.io connect: %w", whose, err)
		}
		if strings.HasPrefix(frame, "40") {
			break
		}
		if err := c.take(dialCtx, frame); err != nil {
			_ = ws.CloseNow()
			return nil, fmt.Errorf("the live events did not answer %s user's socket.io connect: %w", whose, err)
		}
	}
	go c.read()
	// A server tells a connection it does not take (wrong credentials) so
	// after the connect; one it takes, it greets with its version.
	if _, err := c.await(ctx, s.settleTime(), func(e liveEvent) (bool, error) {
		if e.name == "error" {
			return false, fmt.Errorf("the live events refused %s user's connection: %s", whose, e.payload)
		}
		return e.name == "on_server_version", nil
	}); err != nil {
		c.close()
		return nil, fmt.Errorf("%w (a connection the server takes is greeted with on_server_version)", err)
	}
	return c, nil
}

// readFrame reads one text message.
func readFrame(ctx context.Context, ws *websocket.Conn) (string, error) {
	_, b, err := ws.Read(ctx)
	return string(b), err
}

// read reads the connection until it ends: it answers pings and queues
// events.
func (c *liveConn) read() {
	ctx := context.Background()
	var err error
	for err == nil {
		var frame string
		if frame, err = readFrame(ctx, c.ws); err == nil {
			err = c.take(ctx, frame)
		}
	}
	c.mu.Lock()
	c.ended = err
	c.mu.Unlock()
	c.signal()
}

// take handles a frame the server sent: a ping is answered, an event
// queued, a disconnect ends the connection (the error says why), anything
// else (a noop, another socket.io packet) is nothing the steps judge.
func (c *liveConn) take(ctx context.Context, frame string) error {
	switch {
	case frame == "2": // a ping: the server ends a connection that does not answer
		return c.ws.Write(ctx, websocket.MessageText, []byte("3"))
	case frame == "41" || frame == "1":
		return errors.New("the server disconnected it")
	case strings.HasPrefix(frame, "42"):
		var ev []json.RawMessage
		var e liveEvent
		if json.Unmarshal([]byte(frame[2:]), &ev) != nil || len(ev) == 0 || json.Unmarshal(ev[0], &e.name) != nil {
			return fmt.Errorf("the server sent an event that is not socket.io's: %q", short([]byte(frame)))
		}
		if len(ev) > 1 {
			e.payload = ev[1]
		}
		c.mu.Lock()
		c.events = append(c.events, e)
		c.mu.Unlock()
		c.signal()
	}
	return nil
}

// signal wakes a wait for the connection's events.
func (c *liveConn) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// await goes through the connection's events, those heard already first,
// until match says one is what is waited for (it is returned) or fails,
// the connection ends or wait passes.
func (c *liveConn) await(ctx context.Context, wait time.Duration, match func(liveEvent) (bool, error)) (liveEvent, error) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for next := 0; ; {
		c.mu.Lock()
		events, ended := c.events[next:], c.ended
		c.mu.Unlock()
		for _, e := range events {
			next++
			if ok, err := match(e); err != nil || ok {
				return e, err
			}
		}
		if ended != nil {
			return liveEvent{}, fmt.Errorf("%s connection to the live events ended: %w", c.whose, ended)
		}
		select {
		case <-ctx.Done():
			return liveEvent{}, ctx.Err()
		case <-deadline.C:
			return liveEvent{}, fmt.Errorf("%s connection to the live events %w in %s (the --settle time)", c.whose, errUnheard, wait)
		case <-c.wake:
		}
	}
}

// close ends the connection as a client does: socket.io's disconnect,
// then the websocket's close.
func (c *liveConn) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = c.ws.Write(ctx, websocket.MessageText, []byte("41"))
	_ = c.ws.Close(websocket.StatusNormalClosure, "")
}

// settleTime is how long the harness waits for what a server does after
// an answer.
func (s *scenario) settleTime() time.Duration { return cmp.Or(s.cfg.Settle, DefaultSettle) }

// uploadEvent says whether e tells of the upload of id.
func uploadEvent(e liveEvent, id string) bool {
	if e.name != "on_upload_success" {
		return false
	}
	var a struct {
		ID string `json:"id"`
	}
	return json.Unmarshal(e.payload, &a) == nil && a.ID == id
}

// registerLive closes the scenario's connections to the live events when
// it ends.
func (s *scenario) registerLive(sc *godog.ScenarioContext) {
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		for _, c := range []*liveConn{s.live.mine, s.live.others} {
			if c != nil {
				c.close()
			}
		}
		return ctx, err
	})
}

// liveSteps are the steps about the live events: who a server tells of
// an upload.
func (s *scenario) liveSteps() []step {
	return []step{
		{`^I am connected to the live events$`, s.connectMe},
		{`^the other user is connected to the live events$`, s.connectOther},
		{`^I upload a new photo to show$`, s.uploadPhotoToShow},
		{`^my connection is told that photo is uploaded, with the photo$`, s.myConnectionToldOfUpload},
		{`^the other user uploads a new photo to show$`, s.otherUploadsPhotoToShow},
		{`^their connection is told of their photo and was never told of mine$`, s.theirConnectionToldOfTheirs},
	}
}

// connectMe connects me to the live events.
func (s *scenario) connectMe(ctx context.Context) (err error) {
	s.live.mine, err = s.connectLive(ctx, "my", s.me.apiKey)
	return err
}

// connectOther connects the other user to the live events.
func (s *scenario) connectOther(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	s.live.others, err = s.connectLive(ctx, "the other user's", other.apiKey)
	return err
}

// uploadPhotoToShow uploads a new photo of mine.
func (s *scenario) uploadPhotoToShow(ctx context.Context) (err error) {
	s.live.photo, _, err = s.uploadPhoto(ctx, s.me)
	return err
}

// myConnectionToldOfUpload waits for my connection to be told my photo
// is uploaded.
func (s *scenario) myConnectionToldOfUpload(ctx context.Context) error {
	if s.live.mine == nil || s.live.photo == "" {
		return fmt.Errorf("no connection of mine, or no photo of mine, earlier in the scenario")
	}
	_, err := s.live.mine.await(ctx, s.settleTime(), func(e liveEvent) (bool, error) { return uploadEvent(e, s.live.photo), nil })
	if err != nil {
		return fmt.Errorf("want on_upload_success with the asset %s: %w", s.live.photo, err)
	}
	return nil
}

// otherUploadsPhotoToShow uploads a new photo of the other user's.
func (s *scenario) otherUploadsPhotoToShow(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	s.live.theirs, _, err = s.uploadPhoto(ctx, other)
	return err
}

// theirConnectionToldOfTheirs waits for the other user's connection to be
// told of their photo, and judges that it was never told of mine. My
// photo's event was sent before the other user's upload began (my
// connection heard it), so a server that sends it to their connection too
// sends it there before their own upload's event: their connection's
// events up to their own upload's are all it could hide among. Events of
// other uploads are no matter (the other user may be uploading elsewhere
// at the same time).
func (s *scenario) theirConnectionToldOfTheirs(ctx context.Context) error {
	if s.live.others == nil || s.live.theirs == "" || s.live.photo == "" {
		return fmt.Errorf("no connection of the other user, or no photo of each of us, earlier in the scenario")
	}
	_, err := s.live.others.await(ctx, s.settleTime(), func(e liveEvent) (bool, error) {
		if uploadEvent(e, s.live.photo) {
			return false, fmt.Errorf("the other user's connection was told of my upload %s: %s", s.live.photo, short(e.payload))
		}
		return uploadEvent(e, s.live.theirs), nil
	})
	if errors.Is(err, errUnheard) {
		return fmt.Errorf("want on_upload_success with their asset %s: %w", s.live.theirs, err)
	}
	return err
}
