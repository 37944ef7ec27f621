package api

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
)

// socketIOClientEnv names the folder where `npm install socket.io-client@4.7`
// was run (it holds node_modules/socket.io-client): the upstream's own
// client, which TestLiveWithSocketIOClient runs under node. The test
// downloads nothing; without node or the folder it is skipped, saying why.
const socketIOClientEnv = "MEDIASPEC_SOCKETIO_CLIENT"

// socketIOScript connects as the upstream's e2e suite does (e2e/src/utils.ts,
// connectWebsocket): the websocket transport, the access token as a bearer
// header, a new manager; and prints each thing that happens to the socket
// as a line of JSON, with the milliseconds since it started. It
// disconnects when its stdin closes.
const socketIOScript = `
const { io } = require('socket.io-client');
const [, , baseUrl, token] = process.argv;
const t0 = Date.now(); const say = (o) => { o.ms = Date.now() - t0; process.stdout.write(JSON.stringify(o) + "\n"); };
const socket = io(baseUrl, {
  path: '/api/socket.io',
  transports: ['websocket'],
  extraHeaders: { Authorization: 'Bearer ' + token },
  autoConnect: true,
  forceNew: true,
  reconnection: false,
});
socket.on('connect', () => say({ event: 'connect', id: socket.id }));
socket.on('connect_error', (e) => say({ event: 'connect_error', message: String(e && e.message) }));
socket.on('disconnect', (reason) => say({ event: 'disconnect', payload: reason }));
socket.onAny((event, payload) => say({ event, payload }));
process.stdin.on('end', () => socket.disconnect());
process.stdin.resume();
`

// nodeSocketIO is the node binary and the socket.io-client folder, or the
// reason the test cannot run.
func nodeSocketIO(t *testing.T) (node, modules string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("node is not on the PATH (%v): the socket.io-client test needs it", err)
	}
	dir := os.Getenv(socketIOClientEnv)
	if dir == "" {
		t.Skipf("%s is not set: run `npm install --prefix DIR socket.io-client@4.7` and set it to DIR (or run make test-live)", socketIOClientEnv)
	}
	modules = filepath.Join(dir, "node_modules")
	data, err := os.ReadFile(filepath.Join(modules, "socket.io-client", "package.json"))
	if err != nil {
		t.Skipf("%s=%s holds no socket.io-client (%v): run `npm install --prefix %s socket.io-client@4.7`", socketIOClientEnv, dir, err, dir)
	}
	var pkg struct{ Version string }
	require.NoError(t, json.Unmarshal(data, &pkg))
	if !strings.HasPrefix(pkg.Version, "4.") {
		t.Skipf("%s holds socket.io-client %s: the upstream's clients use 4.7", dir, pkg.Version)
	}
	t.Logf("node %s, socket.io-client %s", node, pkg.Version)
	return node, modules
}

// nodeClient is socket.io-client running under node, and what it says.
type nodeClient struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin interface{ Close() error }
	lines chan nodeLine
}

// nodeLine is one thing that happened to the node client's socket.
type nodeLine struct {
	Event   string          `json:"event"`
	ID      string          `json:"id"`
	Message string          `json:"message"`
	MS      int             `json:"ms"`
	Payload json.RawMessage `json:"payload"`
}

// startNodeClient runs the script against baseURL with token.
func startNodeClient(t *testing.T, node, modules, baseURL, token string) *nodeClient {
	t.Helper()
	script := filepath.Join(t.TempDir(), "client.js")
	require.NoError(t, os.WriteFile(script, []byte(socketIOScript), 0o600))
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, node, script, baseURL, token)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	c := &nodeClient{t: t, cmd: cmd, stdin: stdin, lines: make(chan nodeLine, 64)}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var l nodeLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				l = nodeLine{Event: "unreadable", Message: sc.Text()}
			}
			c.t.Logf("node: %s", cutLogged(sc.Text()))
			c.lines <- l
		}
	}()
	t.Cleanup(func() {
		_ = stdin.Close()
		if err := cmd.Wait(); err != nil && !errors.Is(ctx.Err(), context.Canceled) {
			t.Errorf("node: %v\n%s", err, stderr.String())
		}
	})
	return c
}

// next is the next thing the client says, within 10 s: as long as the
// upstream's e2e tests wait for an upload's event.
func (c *nodeClient) next() nodeLine {
	c.t.Helper()
	select {
	case l, ok := <-c.lines:
		require.True(c.t, ok, "node ended")
		return l
	case <-time.After(10 * time.Second):
		require.FailNow(c.t, "nothing from node within 10 s")
	}
	return nodeLine{}
}

// TestLiveWithSocketIOClient: the upstream's own client connects with a
// bearer token, hears on_server_version, and hears on_upload_success
// with the id of the file then uploaded through the API; with a bad token
// it is told it is unauthorized, and disconnected by the server.
func TestLiveWithSocketIOClient(t *testing.T) {
	node, modules := nodeSocketIO(t)
	srv, _ := newMediaServer(t)
	token := login(t, srv, "alice@example.com")

	t.Run("a session's token", func(t *testing.T) {
		c := startNodeClient(t, node, modules, srv.URL, token)
		connected := c.next()
		require.Equal(t, "connect", connected.Event, "%+v", connected)
		assert.Len(t, connected.ID, 20)
		version := c.next()
		require.Equal(t, "on_server_version", version.Event, "%+v", version)
		var v struct{ Major, Minor, Patch int }
		require.NoError(t, json.Unmarshal(version.Payload, &v))
		assert.Equal(t, struct{ Major, Minor, Patch int }{1, 105, 1}, v)

		jpg, err := fixtures.ReadFile(fixtures.LisbonJPEG)
		require.NoError(t, err)
		id := uploadAs(t, srv, keyAlice, "IMG_4021.JPG", string(jpg))
		uploaded := c.next()
		require.Equal(t, "on_upload_success", uploaded.Event, "%+v", uploaded)
		var a struct {
			ID      string
			Resized bool
		}
		require.NoError(t, json.Unmarshal(uploaded.Payload, &a))
		assert.Equal(t, id, a.ID)
		assert.True(t, a.Resized, "told once its pictures are made")

		require.NoError(t, c.stdin.Close())
		bye := c.next()
		assert.Equal(t, "disconnect", bye.Event)
		assert.JSONEq(t, `"io client disconnect"`, string(bye.Payload))
	})

	t.Run("a wrong token", func(t *testing.T) {
		c := startNodeClient(t, node, modules, srv.URL, "nope")
		assert.Equal(t, "connect", c.next().Event, "the reference lets the connect through first")
		told := c.next()
		assert.Equal(t, "error", told.Event)
		assert.JSONEq(t, `"unauthorized"`, string(told.Payload))
		bye := c.next()
		assert.Equal(t, "disconnect", bye.Event)
		assert.JSONEq(t, `"io server disconnect"`, string(bye.Payload), "the server disconnected it: no reconnection")
	})
}
