// Package mockserver is mediaspec's in-memory reference implementation of
// the media-asset API: every operation the upstream's clients call, with
// the behaviour of the project's contract, plus a control API (/__mock/)
// that tests and frontend developers use to set up state.
//
// This package only wires: the server and its routes are internal/api, on
// internal/store (the state), internal/httpx (the HTTP plumbing),
// internal/media (the media folder and its pictures) and internal/ingest
// (what a file's metadata tells).
package mockserver

import (
	"context"
	"net"

	"github.com/mediaspec/mediaspec/mockserver/internal/api"
	"github.com/mediaspec/mediaspec/mockserver/internal/sqldoor"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Config is what a mock server is made of: its dataset, its limits, its
// media folder, its shapes (see its fields).
type Config = api.Config

// ReverseGeocoder names the places of uploads' positions in the
// reference's stead (a geonames.Index, for serve --geodata); without one,
// the reference's own GeoNames cities, built in, name them.
type ReverseGeocoder = api.ReverseGeocoder

// Server is a mock server: the handler of its API and control API, and
// the workers that make the pictures of uploads. Close stops the workers.
type Server = api.Server

// New builds a mock server holding cfg.Dataset's state.
func New(cfg Config) (*Server, error) { return api.New(cfg) }

// SQLConfig is the SQL door's password and bounds (ServeSQL).
type SQLConfig = sqldoor.Config

// ServeSQL opens s's SQL door on ln until ctx ends: the Postgres protocol,
// for the SQL the upstream's e2e harness writes into its server's database
// (emptying tables, adding faces, setting people's thumbnails), carried
// out on s's records. See docs/control-api.md.
func ServeSQL(ctx context.Context, ln net.Listener, s *Server, cfg SQLConfig) error {
	return sqldoor.Serve(ctx, ln, s.SQL(), cfg)
}

// ListingTooLarge is why New refuses a dataset, or a write is refused,
// whose user's listing would pass the bound (errors.As finds it).
type ListingTooLarge = api.ListingTooLarge

// The defaults of Config's fields.
const (
	// DefaultChecksumHeader is the request header that carries a file's
	// SHA-1 for duplicate detection before the upload.
	DefaultChecksumHeader = api.DefaultChecksumHeader
	// DefaultMaxMadeRecords is the default of Config.MaxMadeRecords.
	DefaultMaxMadeRecords = api.DefaultMaxMadeRecords
	// DefaultThumbnailCache is the default bound of the picture cache, in bytes.
	DefaultThumbnailCache = api.DefaultThumbnailCache
	// DefaultRequestMemory is the default of Config.RequestMemory.
	DefaultRequestMemory = api.DefaultRequestMemory
	// DefaultMaxListedAssets is the bound of the assets one user's listing
	// shows, unless Config.MaxListedAssets sets another.
	DefaultMaxListedAssets = api.DefaultMaxListedAssets
)

// DefaultMaxUploadFiles is how many uploads and profile images may be
// writing their files at once when Config.MaxUploadFiles is 0: half the
// tenth of the process's file descriptors that DefaultMaxConnections leaves
// beside the connections; 512 where the limit cannot be read.
func DefaultMaxUploadFiles() int { return api.DefaultMaxUploadFiles() }

// ReadDataset reads a dataset document (what GET /__mock/dataset answers and
// `serve --fixtures` loads) and checks that it holds together. An error names
// the problem and where it is: a line and column, or the record.
func ReadDataset(data []byte) (model.Dataset, error) { return api.ReadDataset(data) }

// EmptyDataset is d without its data: with keepDefaultUser, its default
// user (its first) alone; else no user at all, as a server freshly
// installed.
func EmptyDataset(d model.Dataset, keepDefaultUser bool) model.Dataset {
	return api.EmptyDataset(d, keepDefaultUser)
}
