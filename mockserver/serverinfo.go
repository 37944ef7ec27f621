package mockserver

import (
	"net/http"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The reference's version, which clients compare with their own.
const (
	versionMajor = 1
	versionMinor = 105
	versionPatch = 1
)

// The answers that never change, encoded once.
var (
	pongBody      = []byte(`{"res":"pong"}`)
	wellKnownBody = []byte(`{"api":{"endpoint":"/api"}}`)
)

// handleWellKnown is GET /.well-known/immich at the server's root: clients
// discover the API's base path with it.
func handleWellKnown() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeRawJSON(w, http.StatusOK, wellKnownBody)
	})
}

// handlePing is GET /api/server-info/ping. It, the version and the media
// types ignore any credentials, even bad ones, as on the reference.
func handlePing() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeRawJSON(w, http.StatusOK, pongBody)
	})
}

// handleVersion is GET /api/server-info/version.
func handleVersion() http.Handler {
	v := struct {
		Major int `json:"major"`
		Minor int `json:"minor"`
		Patch int `json:"patch"`
	}{versionMajor, versionMinor, versionPatch}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, v)
	})
}

// handleMediaTypes is GET /api/server-info/media-types: the extensions an
// upload takes, as the upload itself judges them.
func handleMediaTypes() http.Handler {
	v := struct {
		Video   []string `json:"video"`
		Image   []string `json:"image"`
		Sidecar []string `json:"sidecar"`
	}{model.VideoExtensions(), model.ImageExtensions(), model.SidecarExtensions()}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, v)
	})
}
