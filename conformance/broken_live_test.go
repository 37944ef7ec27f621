package conformance_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/coder/websocket"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// A broken variant of TestBrokenVariantsAreCaught for the scenario of
// live.feature: a server whose live events reach every connection.

// tellsEveryConnectionOfUploads sends every upload's on_upload_success to
// every connection to the live events, whoever's it is, as a server that
// emits to all its sockets instead of the owner's room. It stands between
// the clients and the mock's endpoint, passing every frame through, and
// adds the event once an upload is answered.
func tellsEveryConnectionOfUploads(h http.Handler, _ model.Dataset) http.Handler {
	return &everyConnection{mock: h, backend: httptest.NewServer(h), clients: map[*websocket.Conn]bool{}}
}

type everyConnection struct {
	mock    http.Handler
	backend *httptest.Server // the mock's endpoint, for the connections passed through
	mu      sync.Mutex
	clients map[*websocket.Conn]bool
}

// Close closes the mock's endpoint (startMockWith closes a wrapper that
// can be).
func (e *everyConnection) Close() error {
	e.backend.Close()
	return nil
}

func (e *everyConnection) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasPrefix(r.URL.Path, "/api/socket.io/"):
		e.pass(w, r)
	case isUpload(r):
		rec := httptest.NewRecorder()
		e.mock.ServeHTTP(rec, r)
		copyAnswer(w, rec)
		var up struct{ ID string }
		if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &up) != nil {
			return
		}
		asset := httptest.NewRequest(http.MethodGet, "/api/asset/"+up.ID+"?"+r.URL.RawQuery, nil)
		for _, k := range []string{"x-api-key", "Authorization", "Cookie"} {
			if v := r.Header.Get(k); v != "" {
				asset.Header.Set(k, v)
			}
		}
		got := httptest.NewRecorder()
		e.mock.ServeHTTP(got, asset)
		if got.Code == http.StatusOK {
			e.broadcast(append(append([]byte(`42["on_upload_success",`), got.Body.Bytes()...), ']'))
		}
	default:
		e.mock.ServeHTTP(w, r)
	}
}

// pass connects a client to the mock's endpoint with the handshake's
// headers, and passes their frames both ways until either ends.
func (e *everyConnection) pass(w http.ResponseWriter, r *http.Request) {
	header := r.Header.Clone()
	for _, k := range []string{"Upgrade", "Connection", "Sec-Websocket-Key", "Sec-Websocket-Version", "Sec-Websocket-Extensions"} {
		header.Del(k)
	}
	up, _, err := websocket.Dial(r.Context(), "ws"+strings.TrimPrefix(e.backend.URL, "http")+r.URL.RequestURI(), &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer up.CloseNow()
	down, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer down.CloseNow()
	e.mu.Lock()
	e.clients[down] = true
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.clients, down)
		e.mu.Unlock()
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pipe := func(from, to *websocket.Conn) {
		defer cancel()
		for {
			typ, b, err := from.Read(ctx)
			if err != nil || to.Write(ctx, typ, b) != nil {
				return
			}
		}
	}
	go pipe(up, down)
	pipe(down, up)
}

func (e *everyConnection) broadcast(frame []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for c := range e.clients {
		_ = c.Write(context.Background(), websocket.MessageText, frame)
	}
}
