package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
)

// serverVersionFrame is on_server_version as the reference (v1.105.1)
// sends it, byte for byte.
const serverVersionFrame = `42["on_server_version",{"options":{},"loose":false,"includePrerelease":false,"raw":"1.105.1","major":1,"minor":105,"patch":1,"prerelease":[],"build":[],"version":"1.105.1"}]`

// liveClient is a websocket at the mock's socket.io endpoint, speaking its
// frames by hand.
type liveClient struct {
	t  *testing.T
	ws *websocket.Conn
}

// liveURL is the endpoint as socket.io-client asks for it, with query
// ("" for none) added.
func liveURL(srv *httptest.Server, query string) string {
	u := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/socket.io/?EIO=4&transport=websocket"
	if query != "" {
		u += "&" + query
	}
	return u
}

// dialLive opens a websocket at the endpoint with headers (name, value...),
// reads the open packet and connects to the namespace.
func dialLive(t *testing.T, srv *httptest.Server, query string, headers ...string) *liveClient {
	t.Helper()
	h := http.Header{}
	for i := 0; i+1 < len(headers); i += 2 {
		h.Set(headers[i], headers[i+1])
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, liveURL(srv, query), &websocket.DialOptions{HTTPHeader: h})
	require.NoError(t, err, "%v", resp)
	ws.SetReadLimit(1 << 20)
	t.Cleanup(func() { _ = ws.CloseNow() })
	c := &liveClient{t: t, ws: ws}
	require.True(t, strings.HasPrefix(c.next(), `0{"sid":`), "the open packet")
	require.NoError(t, ws.Write(t.Context(), websocket.MessageText, []byte("40")))
	require.True(t, strings.HasPrefix(c.next(), `40{"sid":`), "connected")
	return c
}

// next is the next frame, within 10 s (the upstream's e2e tests wait as
// long for an upload's event).
func (c *liveClient) next() string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), 10*time.Second)
	defer cancel()
	_, b, err := c.ws.Read(ctx)
	require.NoError(c.t, err)
	return string(b)
}

// event is the next frame, as an event: its name and payload.
func (c *liveClient) event() (name string, payload json.RawMessage) {
	c.t.Helper()
	f := c.next()
	require.True(c.t, strings.HasPrefix(f, "42["), "an event: %s", f)
	var ev []json.RawMessage
	require.NoError(c.t, json.Unmarshal([]byte(f[2:]), &ev))
	require.Len(c.t, ev, 2)
	require.NoError(c.t, json.Unmarshal(ev[0], &name))
	return name, ev[1]
}

// uploaded is the next event, which must be on_upload_success: the asset.
func (c *liveClient) uploaded() json.RawMessage {
	c.t.Helper()
	name, payload := c.event()
	require.Equal(c.t, "on_upload_success", name, "%s", payload)
	return payload
}

// uploadAs uploads content as name with the credentials of key and is the
// new asset's id.
func uploadAs(t *testing.T, srv *httptest.Server, key, name, content string) string {
	t.Helper()
	f := validForm("").onlyFields().withFile("assetData", name, content)
	rep := do(t, uploadRequest(t, srv, f, key))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var res struct{ ID string }
	rep.json(t, &res)
	return res.ID
}

// idOf is the id of an asset payload.
func idOf(t *testing.T, payload json.RawMessage) string {
	t.Helper()
	var a struct{ ID string }
	require.NoError(t, json.Unmarshal(payload, &a))
	return a.ID
}

func TestLiveCredentials(t *testing.T) {
	// As the reference's gateway: the headers' credentials, first present
	// wins; a key in the query counts for nothing.
	srv := newTestServer(t)
	token := login(t, srv, "alice@example.com")
	tests := []struct {
		name    string
		query   string
		headers []string
		ok      bool
	}{
		{"bearer", "", []string{"Authorization", "Bearer " + token}, true},
		{"bearer, any case", "", []string{"Authorization", "bearer " + token}, true},
		{"cookie", "", []string{"Cookie", "immich_is_authenticated=true; immich_access_token=" + token}, true},
		{"user token header", "", []string{"x-immich-user-token", token}, true},
		{"API key header", "", []string{"x-api-key", keyAlice}, true},
		{"nothing", "", nil, false},
		{"a wrong bearer", "", []string{"Authorization", "Bearer nope"}, false},
		{"an API key as bearer", "", []string{"Authorization", "Bearer " + keyAlice}, false},
		{"a wrong bearer beside a good key", "", []string{"Authorization", "Bearer nope", "x-api-key", keyAlice}, false},
		{"a wrong API key", "", []string{"x-api-key", "nope"}, false},
		{"an API key in the query", "apiKey=" + keyAlice, nil, false},
		{"a link's key in the query", "key=" + linkUpload, nil, false},
		{"a link's key header", "", []string{"x-immich-share-key", linkUpload}, false},
		{"a link's key beside a good key", "", []string{"x-immich-share-key", linkUpload, "x-api-key", keyAlice}, false},
		{"an expired link's key", "", []string{"x-immich-share-key", linkExpired}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialLive(t, srv, tt.query, tt.headers...)
			if tt.ok {
				assert.Equal(t, serverVersionFrame, c.next(), "the reference's frame, byte for byte")
				return
			}
			assert.Equal(t, `42["error","unauthorized"]`, c.next())
			assert.Equal(t, `41`, c.next())
		})
	}
}

func TestLiveServerVersionGoesToTheUsersRoom(t *testing.T) {
	// The reference sends on_server_version to the user's room: each
	// connect of a user's client reaches the others of the user too.
	srv := newTestServer(t)
	first := dialLive(t, srv, "", "x-api-key", keyAlice)
	assert.Equal(t, serverVersionFrame, first.next())
	second := dialLive(t, srv, "", "x-api-key", keyAlice)
	assert.Equal(t, serverVersionFrame, second.next())
	assert.Equal(t, serverVersionFrame, first.next(), "the second's connect, heard by the first")
	bob := dialLive(t, srv, "", "x-api-key", keyBob)
	assert.Equal(t, serverVersionFrame, bob.next())
	id := uploadAs(t, srv, keyAlice, "a.jpg", "not bob's")
	assert.Equal(t, id, idOf(t, first.uploaded()), "bob's connect is not alice's")
}

func TestLiveUploadSuccessWithoutMediaFolder(t *testing.T) {
	// No pictures will be made: the event follows the answer at once.
	srv := newTestServer(t)
	alice := dialLive(t, srv, "", "x-api-key", keyAlice)
	alice.next()
	bob := dialLive(t, srv, "", "x-api-key", keyBob)
	bob.next()

	id := uploadAs(t, srv, keyAlice, "IMG_0001.jpg", "first")
	payload := alice.uploaded()
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/"+id, nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, rep.status)
	assert.JSONEq(t, string(rep.body), string(payload), "the asset as its owner reads it")

	// A duplicate is no upload; a live photo's video is hidden; an upload
	// through a link is its owner's; bob hears only of his own.
	dup := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "again.jpg", "first"), keyAlice))
	require.Equal(t, http.StatusOK, dup.status)
	form := validForm("").onlyFields().withFile("assetData", "IMG_0002.HEIC", "still").withFile("livePhotoData", "IMG_0002.MOV", "motion")
	rep = do(t, uploadRequest(t, srv, form, keyAlice))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var still struct{ ID string }
	rep.json(t, &still)
	body, ct := validForm("via link").encode(t)
	rep = do(t, newRequest(t, http.MethodPost, srv.URL+"/api/asset/upload?key="+linkUpload, bytes.NewReader(body), "Content-Type", ct))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var viaLink struct{ ID string }
	rep.json(t, &viaLink)
	bobs := uploadAs(t, srv, keyBob, "bob.jpg", "bob's")

	assert.Equal(t, still.ID, idOf(t, alice.uploaded()), "the still, not the duplicate, nor its video")
	assert.Equal(t, viaLink.ID, idOf(t, alice.uploaded()), "the link's upload, to its owner")
	assert.Equal(t, bobs, idOf(t, bob.uploaded()), "bob's first event is his own upload")
}

func TestLiveUploadSuccessOnceThePicturesAreMade(t *testing.T) {
	srv, _ := newMediaServer(t)
	alice := dialLive(t, srv, "", "Authorization", "Bearer "+login(t, srv, "alice@example.com"))
	alice.next()
	jpg, err := fixtures.ReadFile(fixtures.LisbonJPEG)
	require.NoError(t, err)
	id := uploadAs(t, srv, keyAlice, "IMG_4021.JPG", string(jpg))
	payload := alice.uploaded()
	var a struct {
		ID        string
		Resized   bool
		Thumbhash *string
		ExifInfo  struct{ Make *string }
		Owner     *struct{ ID string }
	}
	require.NoError(t, json.Unmarshal(payload, &a))
	assert.Equal(t, id, a.ID)
	assert.True(t, a.Resized, "its pictures are made")
	assert.NotNil(t, a.Thumbhash)
	assert.NotNil(t, a.ExifInfo.Make)
	require.NotNil(t, a.Owner)
	assert.Equal(t, aliceID, a.Owner.ID)
	thumb := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/thumbnail/"+id, nil, "x-api-key", keyAlice))
	assert.Equal(t, http.StatusOK, thumb.status, "the thumbnail is there when the event is")

	// A live photo is told of once: its video is hidden, as on the reference.
	clip, err := fixtures.ReadFile(fixtures.ClipMP4)
	require.NoError(t, err)
	form := validForm("").onlyFields().withFile("assetData", "IMG_0002.JPG", string(testJPEG(t, 64, 48))).withFile("livePhotoData", "IMG_0002.MOV", string(clip))
	rep := do(t, uploadRequest(t, srv, form, keyAlice))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	require.NoError(t, json.Unmarshal(rep.body, &a))
	still := a.ID
	require.NoError(t, json.Unmarshal(alice.uploaded(), &a))
	assert.Equal(t, still, a.ID)
	var withVideo struct{ LivePhotoVideoID string }
	do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/"+still, nil, "x-api-key", keyAlice)).json(t, &withVideo)
	waitForPicture(t, srv, "/api/asset/thumbnail/"+withVideo.LivePhotoVideoID)

	// A file no picture can be made of is told of too, once that is known.
	id = uploadAs(t, srv, keyAlice, "broken.jpg", "no JPEG at all")
	require.NoError(t, json.Unmarshal(alice.uploaded(), &a))
	assert.Equal(t, id, a.ID)
	assert.False(t, a.Resized)
}

func TestLiveUploadSuccessInTheReferenceShape(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.ReferenceShapes = true })
	alice := dialLive(t, srv, "", "x-api-key", keyAlice)
	alice.next()
	uploadAs(t, srv, keyAlice, "IMG_0001.jpg", "first")
	var keys map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(alice.uploaded(), &keys))
	assert.NotContains(t, keys, "owner", "the reference's event has no owner")
	assert.Contains(t, keys, "exifInfo")
}

func TestLiveEndpointRefusals(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.MaxLiveConnectionsPerUser = 1 })
	for _, tt := range []struct{ method, path, message string }{
		{"GET", "/api/socket.io", "Cannot GET /api/socket.io"},
		{"GET", "/api/socket.io/?EIO=4&transport=polling", "Transport unknown"},
		{"POST", "/api/socket.io/?EIO=4&transport=websocket", "Bad handshake method"},
		{"GET", "/api/socket.io/?EIO=4&transport=websocket", "Bad request"},
	} {
		rep := do(t, newRequest(t, tt.method, srv.URL+tt.path, nil))
		status := http.StatusBadRequest
		if strings.HasPrefix(tt.message, "Cannot") {
			status = http.StatusNotFound
		}
		requireError(t, rep, status, tt.message)
	}

	// One of alice's at most: a second is refused, bob's is not.
	dialLive(t, srv, "", "x-api-key", keyAlice)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, liveURL(srv, ""), &websocket.DialOptions{HTTPHeader: http.Header{"X-Api-Key": {keyAlice}}})
	require.Error(t, err)
	require.NotNil(t, resp)
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	dialLive(t, srv, "", "x-api-key", keyBob)
}

// TestLiveUsersGetInWhileAnonymousClientsFlood: clients without
// credentials, opening connections as fast as they end or are refused,
// fill a bound of their own: the users' few places stay theirs, and a
// user gets its connect answer.
func TestLiveUsersGetInWhileAnonymousClientsFlood(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.MaxLiveConnections = 2 })
	ctx, cancel := context.WithCancel(t.Context())
	var flood sync.WaitGroup
	defer flood.Wait()
	defer cancel()
	var refused atomic.Int64
	for range 200 {
		flood.Go(func() {
			for ctx.Err() == nil {
				ws, _, err := websocket.Dial(ctx, liveURL(srv, ""), nil)
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
	require.Eventually(t, func() bool { return refused.Load() > 200 }, 10*time.Second, 5*time.Millisecond, "the flood fills its bound")
	for _, key := range []string{keyAlice, keyBob} {
		start := time.Now()
		c := dialLive(t, srv, "", "x-api-key", key)
		assert.Equal(t, serverVersionFrame, c.next())
		t.Logf("connected in %v, %d anonymous handshakes refused so far", time.Since(start), refused.Load())
	}
}

// TestLiveAnonymousBound: Config.MaxAnonymousLiveConnections bounds the
// clients without credentials; one more is answered the JSON 503, and its
// connection closed.
func TestLiveAnonymousBound(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.MaxAnonymousLiveConnections = 2 })
	dial := func() (*websocket.Conn, *http.Response, error) {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		return websocket.Dial(ctx, liveURL(srv, ""), nil)
	}
	for range 2 {
		ws, _, err := dial()
		require.NoError(t, err)
		t.Cleanup(func() { _ = ws.CloseNow() })
	}
	_, resp, err := dial()
	require.Error(t, err)
	require.NotNil(t, resp)
	b, _ := io.ReadAll(resp.Body)
	requireError(t, reply{status: resp.StatusCode, header: resp.Header, body: b}, 503,
		"Too many live connections without credentials: the server keeps at most 2 open at once")
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))
	assert.True(t, resp.Close, "its connection is closed")
	dialLive(t, srv, "", "x-api-key", keyAlice)
}

func TestCloseEndsLiveConnections(t *testing.T) {
	h, err := New(Config{Dataset: testDataset, Now: testNow})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c := dialLive(t, srv, "", "x-api-key", keyAlice)
	assert.Equal(t, serverVersionFrame, c.next())
	go func() { _ = h.Close() }()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, _, err = c.ws.Read(ctx)
	assert.Equal(t, websocket.StatusGoingAway, websocket.CloseStatus(err), "%v", err)
}
