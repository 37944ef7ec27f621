package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/live"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Live events: the reference's socket.io gateway at /api/socket.io/, which
// its web app and its e2e tests connect to, and the events it sends a
// user's connections when their state changes. An operation that changes
// the state tells the user's clients with s.live.Publish(userID,
// live.AssetTrash, ids), or everyone's with s.live.Broadcast.

// newLiveHub makes the hub of the live-event connections: a client that
// connects gets on_server_version, as do the other connections of its user
// (the reference sends it to the user's room).
func (s *server) newLiveHub() *live.Hub {
	return live.New(live.Config{
		MaxConns:          s.cfg.MaxLiveConnections,
		MaxConnsPerUser:   s.cfg.MaxLiveConnectionsPerUser,
		MaxAnonymousConns: s.cfg.MaxAnonymousLiveConnections,
		OnConnect:         func(userID string) { s.live.Publish(userID, live.ServerVersion, serverVersionEvent()) },
		Logger:            s.log,
	})
}

// liveSocket is /api/socket.io/: a websocket for the user the handshake's
// credentials name, or one told it is unauthorized once it connects, as
// the reference tells it. A handshake the endpoint cannot take (polling,
// another engine.io version, no upgrade) or one over the limits is
// answered with the error before the websocket opens.
func (s *server) liveSocket(c *call) error {
	err := s.live.Serve(c.w, c.r, s.liveUser(c.r))
	var refusal *live.Refusal
	if errors.As(err, &refusal) {
		return httpx.Errorf(refusal.Status, "%s", refusal.Message)
	}
	return err
}

// liveUser is the user a handshake's credentials name, as the reference's
// gateway reads them: from the headers only (it hands its check no query:
// a key in the URL names no one), and a shared link's key names no one
// either ("" then). The reference lets a link's key in as the link's
// owner, to hear every event of the owner's library: the mock does not.
func (s *server) liveUser(r *http.Request) string {
	headersOnly := *r
	u := *r.URL
	u.RawQuery = ""
	headersOnly.URL = &u
	p, err := s.store.Authenticate(credentialsOf(&headersOnly))
	if err != nil || p.Link != nil || p.User == nil {
		return ""
	}
	return p.User.ID
}

// noRoute answers as for a route the mux does not know.
func noRoute(c *call) error {
	return httpx.Errorf(http.StatusNotFound, "Cannot %s %s", c.r.Method, c.r.URL.Path)
}

// makePicturesThenTell makes an upload's pictures, then sends its owner's
// clients on_upload_success, as the reference does once its thumbnail job
// is done. Unlike the reference, it does so even when the pictures could
// not be made (a file Go cannot decode): the asset is there, and a client
// waiting for the event to show it is not left waiting for ever.
func (s *server) makePicturesThenTell(id string) error {
	defer s.tellUploaded(id)
	return s.makeUploadPictures(id)
}

// tellUploadedNow sends on_upload_success for an upload whose pictures
// will not be made (no media folder, a full queue), once its answer is on
// its way: a client learns of its upload before it hears of it. Where its
// owner has no live connection, nothing is told, and the answer goes out
// as every other does.
func (s *server) tellUploadedNow(w http.ResponseWriter, owner, id string) {
	if !s.live.Listening(owner) {
		return
	}
	_ = http.NewResponseController(w).Flush()
	s.tellUploaded(id)
}

// tellUploaded sends on_upload_success with an asset as its owner reads it
// (GET /api/asset/{id}) to the owner's clients, unless it is hidden (the
// video of a live photo), as the reference skips it. With
// ReferenceShapes, without its owner, as the reference sends it.
func (s *server) tellUploaded(id string) {
	var owner string
	var out model.Asset
	s.store.Read(func(v *store.View) {
		a := v.Asset(id)
		if a == nil || !a.IsVisible || !s.live.Listening(a.OwnerID) {
			return
		}
		look := audience{p: store.Principal{User: v.User(a.OwnerID)}}.assetRead(a)
		look.owner = !s.cfg.ReferenceShapes
		owner, out = a.OwnerID, assetAnswer(v, a, look)
	})
	if owner != "" {
		s.live.Publish(owner, live.UploadSuccess, out)
	}
}

// semVer is a version as the reference sends it in on_server_version: the
// whole object of the npm semver package, serialized.
type semVer struct {
	Options           struct{} `json:"options"`
	Loose             bool     `json:"loose"`
	IncludePrerelease bool     `json:"includePrerelease"`
	Raw               string   `json:"raw"`
	Major             int      `json:"major"`
	Minor             int      `json:"minor"`
	Patch             int      `json:"patch"`
	Prerelease        []string `json:"prerelease"`
	Build             []string `json:"build"`
	Version           string   `json:"version"`
}

// serverVersionEvent is the payload of on_server_version.
func serverVersionEvent() semVer {
	v := fmt.Sprintf("%d.%d.%d", versionMajor, versionMinor, versionPatch)
	return semVer{
		Raw: v, Version: v, Major: versionMajor, Minor: versionMinor, Patch: versionPatch,
		Prerelease: []string{}, Build: []string{},
	}
}
