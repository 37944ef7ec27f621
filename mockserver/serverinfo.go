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

// wellKnown is GET /.well-known/immich at the server's root: clients
// discover the API's base path with it.
func wellKnown(c *call) error {
	writeRawJSON(c.w, http.StatusOK, wellKnownBody)
	return nil
}

// ping is GET /api/server-info/ping. It, the version and the media types
// ignore any credentials, even bad ones, as on the reference.
func ping(c *call) error {
	writeRawJSON(c.w, http.StatusOK, pongBody)
	return nil
}

// version is GET /api/server-info/version.
func version(c *call) error {
	return c.json(http.StatusOK, struct {
		Major int `json:"major"`
		Minor int `json:"minor"`
		Patch int `json:"patch"`
	}{versionMajor, versionMinor, versionPatch})
}

// mediaTypes is GET /api/server-info/media-types: the extensions an upload
// takes, as the upload itself judges them.
func mediaTypes(c *call) error {
	return c.json(http.StatusOK, struct {
		Video   []string `json:"video"`
		Image   []string `json:"image"`
		Sidecar []string `json:"sidecar"`
	}{model.VideoExtensions(), model.ImageExtensions(), model.SidecarExtensions()})
}
