// Package api is the mock's API: the server, its route table (routes.go),
// and a file per area of the upstream's API (albums, assets, shared links,
// users...) with its handlers, beside the answers each audience is shown
// (answers.go) and the request bodies it takes (bodies.go). It stands on
// the store (the state), httpx (the HTTP plumbing), media (the media
// folder and its pictures) and ingest (a file's metadata); package
// mockserver is its face to the rest of mediaspec.
package api

import (
	"cmp"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/jobs"
	"github.com/mediaspec/mediaspec/mockserver/internal/live"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/pictures"
	"github.com/mediaspec/mediaspec/openapi"
)

// DefaultChecksumHeader is the request header that carries a file's SHA-1
// for duplicate detection before the upload.
const DefaultChecksumHeader = "x-service-checksum"

// DefaultMaxMadeRecords is the default of Config.MaxMadeRecords.
const DefaultMaxMadeRecords = store.MaxMadeRecords

// DefaultThumbnailCache is the default bound of the picture cache, in bytes.
const DefaultThumbnailCache = media.DefaultPictureCache

// DefaultRequestMemory is the default of Config.RequestMemory.
const DefaultRequestMemory = 64 << 20

// Config is what a mock server is made of.
type Config struct {
	// Dataset gives the starting state; POST /__mock/reset goes back to it.
	Dataset func() model.Dataset
	// ChecksumHeader names the duplicate-detection header (DefaultChecksumHeader when empty).
	ChecksumHeader string
	// MaxUploadBytes limits an upload's body; over it the mock answers 413. Zero: no limit.
	MaxUploadBytes int64
	// Latency delays every API response.
	Latency time.Duration
	// BodyTimeout is how long an upload body may stall, and how long it may
	// arrive slower than 1 KiB/s, before the mock answers 408 (default 30 s).
	BodyTimeout time.Duration
	// NoControl turns the control API (/__mock/) off.
	NoControl bool
	// ControlOrigin is the one web origin (scheme://host:port) allowed to
	// call the control API from a browser; none when empty.
	ControlOrigin string
	// Logger gets one line per request; nil logs nothing.
	Logger *slog.Logger
	// ThumbnailCache bounds the pictures kept encoded, in bytes; 0 means
	// DefaultThumbnailCache.
	ThumbnailCache int64
	// MediaDir is where uploads are kept, with their pictures; "" keeps
	// none (their pictures answer 404).
	MediaDir string
	// ScanLibraries: every library of the dataset is scanned at start, and
	// again after each reset back to the dataset (serve --import).
	ScanLibraries bool
	// ReferenceShapes makes the mock answer in the reference's exact
	// shapes where the reference is thin or quirky (link listings without
	// album assets, link answers without their album, an album's flags in
	// link bodies): a frontend proves it survives the real server. By
	// default the mock answers the full, consistent shapes.
	ReferenceShapes bool
	// MediaDirTemporary: MediaDir goes when the process ends, so the
	// dataset does not name it (and the same seed gives the same bytes in
	// every process).
	MediaDirTemporary bool
	// MaxUploadFiles bounds the uploads writing their files at once; 0
	// means DefaultMaxUploadFiles.
	MaxUploadFiles int
	// MaxDecodePixels bounds the pixels an uploaded picture may declare
	// and be decoded; 0 means pictures.DefaultMaxDecodePixels.
	MaxDecodePixels int
	// MaxListedAssets bounds the assets one user's listing (GET
	// /api/shared-links) shows; 0 means DefaultMaxListedAssets.
	MaxListedAssets int
	// Now is the wall clock; nil means time.Now.
	Now func() time.Time
	// MaxMadeRecords bounds the records callers make beside the dataset's
	// (users, keys, sessions, albums, links, people, partners,
	// activities); past it a write that would make one is answered 507. 0
	// means DefaultMaxMadeRecords.
	MaxMadeRecords int
	// RequestMemory bounds what the requests being served hold at once of
	// what their callers sent, in bytes: JSON bodies and their values, and
	// the fields, file heads and sidecars of uploads. A request that finds
	// no room is answered 503. 0 means DefaultRequestMemory.
	RequestMemory int64
	// MaxLiveConnections bounds the live-event connections (socket.io) of
	// users open at once, and MaxLiveConnectionsPerUser those of one user;
	// 0 means live.DefaultMaxConns and live.DefaultMaxConnsPerUser.
	MaxLiveConnections, MaxLiveConnectionsPerUser int
	// MaxAnonymousLiveConnections bounds, apart from the users', the
	// live-event connections without credentials open at once, each told
	// it is unauthorized and ended within live.DefaultAnonymousTimeout; 0
	// means live.DefaultMaxAnonymousConns.
	MaxAnonymousLiveConnections int
	// ReverseGeocoder names the places of uploads' positions (serve
	// --geodata); nil names them from the reference's own GeoNames
	// cities, built in.
	ReverseGeocoder ReverseGeocoder
}

// server is the mock: its configuration, its state and its routes.
type server struct {
	cfg     Config
	store   *store.Store
	answers *answerCache
	log     *slog.Logger
	mux     *http.ServeMux

	openapiJSON, openapiYAML []byte
	openapiETag              string
	uploadBuffers            *bufferPool
	held                     *httpx.MemoryBudget // what requests hold of what their callers sent
	large                    httpx.LargeAnswers
	datasets                 httpx.LargeAnswers
	archives                 httpx.LargeAnswers // the archives being written (downloads.go)
	archivePace              pace               // zero: httpx.WriteBase and httpx.MinWriteRate (downloads.go)
	painters                 painters           // the pictures being painted (painters.go)
	pictures                 *media.PictureCache
	profiles                 *media.ProfileImages
	folder                   *media.Folder // the media folder; nil: uploads are not kept
	pictureJobs              *media.PictureJobs
	posters                  sync.Map // [2]int{w, h} of the preview → *poster

	live *live.Hub // the live-event connections (socket.io)

	jobs *jobs.Board // the queues of the mock's work, as the reference's job page shows them (jobs.go)

	scans *scans // the external libraries' scans (libraryscan.go)
}

// Server is a mock server: the handler of its API and control API, and
// the workers that make the pictures of uploads.
type Server struct {
	http.Handler
	s *server
}

// New builds a mock server holding cfg.Dataset's state.
func New(cfg Config) (*Server, error) {
	s, err := newServer(cfg)
	if err != nil {
		return nil, err
	}
	return &Server{Handler: s.middleware(s.dispatch()), s: s}, nil
}

// Close stops the workers that make the pictures of uploads, once those
// queued are made, so that the media folder may be removed, and closes the
// live-event connections. The handler answers on, without making pictures,
// and refuses live-event connections.
func (m *Server) Close() error {
	m.s.scans.close()
	m.s.jobs.Close() // the picture workers among them
	m.s.live.Close()
	return nil
}

// newServer builds the mock with its routes.
func newServer(cfg Config) (*server, error) {
	if cfg.Dataset == nil {
		return nil, fmt.Errorf("mockserver: no dataset")
	}
	cfg.ChecksumHeader = cmp.Or(cfg.ChecksumHeader, DefaultChecksumHeader)
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = httpx.DefaultBodyTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxDecodePixels <= 0 {
		cfg.MaxDecodePixels = pictures.DefaultMaxDecodePixels
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	st, err := store.New(cfg.Dataset(), cfg.Now, store.MaxListed(cfg.MaxListedAssets), store.MaxMade(cfg.MaxMadeRecords))
	if err != nil {
		return nil, fmt.Errorf("mockserver: dataset: %w", err)
	}
	s := &server{cfg: cfg, store: st, answers: newAnswerCache(st), log: cfg.Logger, mux: http.NewServeMux()}
	s.openapiJSON, s.openapiYAML = openapi.JSON(), openapi.YAML()
	s.openapiETag = httpx.ETagOf(s.openapiJSON)
	s.uploadBuffers = newBufferPool()
	s.held = httpx.NewMemoryBudget(cmp.Or(cfg.RequestMemory, DefaultRequestMemory))
	s.large = make(httpx.LargeAnswers, httpx.MaxLargeAnswers)
	s.datasets = make(httpx.LargeAnswers, httpx.MaxDatasetAnswers)
	s.archives = make(httpx.LargeAnswers, maxArchives)
	s.painters = newPainters(paintSlots())
	s.pictures = media.NewPictureCache(cmp.Or(cfg.ThumbnailCache, DefaultThumbnailCache))
	s.live = s.newLiveHub()
	s.jobs = jobs.NewBoard(s.log)
	s.scans = newScans(s.jobs.Queue(jobs.Library), s.scanLibraryFiles)
	s.jobs.Queue(jobs.Library).SetStarter(s.scanAll)
	if cfg.MediaDir != "" {
		maxFiles := cfg.MaxUploadFiles
		if maxFiles <= 0 {
			maxFiles = DefaultMaxUploadFiles()
		}
		if s.folder, err = media.Open(cfg.MediaDir, maxFiles); err != nil {
			return nil, fmt.Errorf("mockserver: %w", err)
		}
		if !cfg.MediaDirTemporary {
			st.SetMediaDir(s.folder.Dir())
		}
		s.pictureJobs = media.StartPictureJobs(s.jobs.Queue(jobs.ThumbnailGeneration), media.PictureWorkers, s.log, s.pictureJob)
	}
	s.profiles = media.NewProfileImages(s.folder)
	s.routes()
	s.mux.HandleFunc("/", unknownRoute)
	s.scanAtStart()
	return s, nil
}

// DefaultMaxUploadFiles is how many uploads and profile images may be
// writing their files at once: half the tenth of the process's file
// descriptors that DefaultMaxConnections leaves beside the connections;
// 512 where the limit cannot be read. One more is answered 503 before it
// takes a pack, and the mock never runs out of descriptors, whatever its
// clients do.
func DefaultMaxUploadFiles() int {
	n, ok := httpx.FileLimit()
	if !ok {
		return 512
	}
	return int(max(16, min(n/10, 10_000)/2))
}

// DefaultMaxListedAssets is the bound of the assets one user's listing
// shows, unless Config.MaxListedAssets sets another.
const DefaultMaxListedAssets = store.MaxListedAssets

// ListingTooLarge is why New refuses a dataset, or a write is refused,
// whose user's listing would pass the bound (errors.As finds it).
type ListingTooLarge = store.ListingTooLarge
