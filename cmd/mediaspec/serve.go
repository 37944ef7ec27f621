package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/pictures"
)

// Defaults of `mediaspec serve`, as the contract gives them.
const (
	defaultAddr   = "127.0.0.1:2283"
	defaultAPIKey = "mediaspec-dev-key"
	defaultLinks  = 12
	defaultUsers  = fake.DefaultOtherUsers
	defaultSeed   = 1
)

// datasetFlags are the flags that say which dataset to start with; `serve`
// and `fixtures` share them.
type datasetFlags struct {
	seed     int64
	anchor   string
	apiKey   string
	password string
	links    int
	users    int
	empty    bool
}

// isDatasetFlag says whether register adds the flag of that name.
func isDatasetFlag(name string) bool {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	new(datasetFlags).register(fs)
	return fs.Lookup(name) != nil
}

func (f *datasetFlags) register(fs *flag.FlagSet) {
	fs.Int64Var(&f.seed, "seed", defaultSeed, "seed of the generated dataset; 0 picks a random seed and prints it")
	fs.StringVar(&f.anchor, "anchor", "", "generated dates lie before this date (YYYY-MM-DD or RFC 3339; default: today, 00:00 UTC)")
	fs.StringVar(&f.apiKey, "api-key", defaultAPIKey, "the default user's API key")
	fs.StringVar(&f.password, "password", fake.DefaultPassword, "every generated user's password, for POST /api/auth/login")
	fs.IntVar(&f.links, "links", defaultLinks, "shared links of the default user")
	fs.IntVar(&f.users, "users", defaultUsers, "users besides the default one, each with links of their own")
	fs.BoolVar(&f.empty, "empty", false, "start with no user at all, as a freshly installed server: the first admin signs up (POST /api/auth/admin-sign-up)")
}

// generate makes the dataset the flags describe; now gives "today".
func (f *datasetFlags) generate(now time.Time) (model.Dataset, error) {
	if f.links < 0 || f.users < 0 {
		return model.Dataset{}, fmt.Errorf("%w: --links and --users cannot be negative", errUsage)
	}
	anchor := now.UTC().Truncate(24 * time.Hour)
	if f.anchor != "" {
		t, err := parseAnchor(f.anchor)
		if err != nil {
			return model.Dataset{}, fmt.Errorf("%w: --anchor: %v", errUsage, err)
		}
		anchor = t
	}
	if f.seed == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		f.seed = int64(binary.LittleEndian.Uint64(b[:])>>2) + 1
	}
	users := f.users
	if users == 0 { // fake reads 0 as its default; --users 0 means none
		users = -1
	}
	return fake.Generate(fake.Options{Seed: f.seed, Anchor: anchor, Links: f.links, Users: users, APIKey: f.apiKey, Password: f.password}), nil
}

func parseAnchor(v string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a date (YYYY-MM-DD) or an RFC 3339 date-time", v)
	}
	return t.UTC(), nil
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve")
	var (
		df             datasetFlags
		addr           = fs.String("addr", defaultAddr, "address to listen on")
		fixtures       = fs.String("fixtures", "", "start with the dataset in this file (written by mediaspec fixtures or GET /__mock/dataset) instead of a generated one")
		latency        = durationFlag(fs, "latency", 0, "delay every API response by this long, e.g. 300ms (a bare number is milliseconds)")
		checksumHeader = fs.String("checksum-header", mockserver.DefaultChecksumHeader, "name of the header that carries a file's SHA-1 for duplicate detection")
		maxUpload      = sizeFlag(fs, "max-upload-bytes", 0, "answer 413 to an upload body larger than this, e.g. 1MiB (a bare number is bytes; 0: no limit)")
		mediaDir       = fs.String("media-dir", "", "folder where uploads and their pictures are kept (default: a temporary folder, removed on exit); off: keep no upload (their pictures answer 404), for the fastest uploads")
		maxDecode      = fs.Int("max-decode-pixels", pictures.DefaultMaxDecodePixels, "an uploaded picture declaring more pixels gets a placeholder thumbnail instead of being decoded")
		refShapes      = fs.Bool("reference-shapes", false, "answer in the reference server's exact shapes where it is thin or quirky (see docs/differences.md), instead of the full, consistent ones")
		thumbCache     = sizeFlag(fs, "thumbnail-cache", mockserver.DefaultThumbnailCache, "encoded pictures (thumbnails, previews, originals) kept in memory, e.g. 256MiB (a bare number is bytes)")
		noControl      = fs.Bool("no-control", false, "turn the control API (/__mock/) off")
		controlOrigin  = fs.String("control-origin", "", "the one web origin (like http://localhost:5173) whose pages may call the control API from a browser")
		logFormat      = fs.String("log-format", "text", "request log format: text or json")
		quiet          = fs.Bool("quiet", false, "log nothing")
		maxFiles       = fs.Int("max-upload-files", 0, "uploads writing their files at once; one more is answered 503 (0: a twentieth of the file descriptor limit)")
		maxConns       = fs.Int("max-connections", 0, "connections open at once; one more is answered 503 at once (0: the file descriptor limit less a reserve)")
		maxListed      = fs.Int("max-listed-assets", mockserver.DefaultMaxListedAssets, "the assets one user's GET /api/shared-links may show (an album link's album assets count twice); a dataset or a write past it is refused")
		maxRecords     = fs.Int("max-records", mockserver.DefaultMaxMadeRecords, "the records callers may make beside the dataset's (users, API keys, sessions, albums, links, people, partners, activities, tags, memories); a write past it is answered 507")
		imports        = importFlag(fs)
		geodata        = fs.String("geodata", "", "name the places of uploads' positions from this folder of GeoNames files (cities500.txt, admin1CodesASCII.txt, admin2Codes.txt, geodata-date.txt) as the reference does from its own, instead of from the reference's own folder built in (cities500 of 2023-03-05)")
		sqlAddr        = fs.String("sql-addr", "", "also listen here (e.g. 127.0.0.1:5433) for SQL over the Postgres protocol: what the upstream's API test suite writes into its server's database (DELETE FROM its tables, faces, people's thumbnails), carried out on the mock's state; see docs/control-api.md")
		sqlPassword    = fs.String("sql-password", "postgres", "the password a client of --sql-addr gives, under any user name")
		requestMemory  = sizeFlag(fs, "request-memory", mockserver.DefaultRequestMemory, "what the requests being served may hold at once of what their callers sent (JSON bodies, the fields and file heads of uploads), e.g. 256MiB; a request that finds no room is answered 503")
	)
	df.register(fs)
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if *maxDecode < 1 {
		return fmt.Errorf("%w: --max-decode-pixels must be 1 or more, not %d", errUsage, *maxDecode)
	}
	if *thumbCache < 1 {
		return fmt.Errorf("%w: --thumbnail-cache must be 1 byte or more, not %d", errUsage, *thumbCache)
	}
	if *maxFiles < 0 {
		return fmt.Errorf("%w: --max-upload-files must be 0 or more, not %d", errUsage, *maxFiles)
	}
	if *maxRecords < 1 {
		return fmt.Errorf("%w: --max-records must be 1 or more, not %d", errUsage, *maxRecords)
	}
	if *requestMemory < 1<<20 {
		return fmt.Errorf("%w: --request-memory must be 1MiB or more, not %d", errUsage, *requestMemory)
	}
	if *maxListed < 1 {
		return fmt.Errorf("%w: --max-listed-assets must be 1 or more, not %d", errUsage, *maxListed)
	}
	if *maxConns < 0 {
		return fmt.Errorf("%w: --max-connections must be 0 or more, not %d", errUsage, *maxConns)
	}
	if *fixtures != "" {
		// The file is the whole dataset: flags that would make another one
		// would be silently ignored, a key the user then cannot use.
		var ignored []string
		fs.Visit(func(f *flag.Flag) {
			if isDatasetFlag(f.Name) {
				ignored = append(ignored, "--"+f.Name)
			}
		})
		if len(ignored) > 0 {
			return fmt.Errorf("%w: %s cannot be used with --fixtures, whose file holds the whole dataset", errUsage, strings.Join(ignored, ", "))
		}
	}
	if df.empty {
		// No user means nothing generated: the flags that shape generated
		// data would be silently ignored.
		var ignored []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name != "empty" && isDatasetFlag(f.Name) {
				ignored = append(ignored, "--"+f.Name)
			}
		})
		if len(ignored) > 0 {
			return fmt.Errorf("%w: %s cannot be used with --empty, which starts with no user and no data", errUsage, strings.Join(ignored, ", "))
		}
	}
	logOut := newLogBuffer(stderr)
	defer logOut.Close() // the last lines, "stopped" among them
	logger, err := newLogger(logOut, *logFormat, *quiet)
	if err != nil {
		return err
	}

	var d model.Dataset
	if *fixtures != "" {
		data, err := os.ReadFile(*fixtures)
		if err != nil {
			return fmt.Errorf("fixtures: %w", err)
		}
		if d, err = mockserver.ReadDataset(data); err != nil {
			return fmt.Errorf("fixtures %s: %w", *fixtures, err)
		}
	} else if d, err = df.generate(time.Now()); err != nil {
		return err
	}
	if df.empty {
		d = mockserver.EmptyDataset(d, false)
	}
	if len(*imports) > 0 {
		if d, err = importLibrary(d, *imports); err != nil {
			return err
		}
	}
	media, temporary, reused := *mediaDir, false, false
	if media == "" && d.MediaDir != "" {
		// A dataset written by a mock that kept its uploads: reuse them,
		// where they still are.
		if info, err := os.Stat(d.MediaDir); err == nil && info.IsDir() {
			media, reused = d.MediaDir, true
		}
	}
	switch media {
	case "off":
		media = ""
	case "":
		if media, err = os.MkdirTemp("", "mediaspec-media-"); err != nil {
			return fmt.Errorf("media folder: %w", err)
		}
		temporary = true
		defer os.RemoveAll(media)
	}
	geocoder, geoBanner, err := loadGeodata(*geodata)
	if err != nil {
		return err
	}
	h, err := mockserver.New(mockserver.Config{
		Dataset:           func() model.Dataset { return d },
		ChecksumHeader:    *checksumHeader,
		MaxUploadBytes:    *maxUpload,
		MaxUploadFiles:    *maxFiles,
		ThumbnailCache:    *thumbCache,
		ReferenceShapes:   *refShapes,
		MediaDir:          media,
		MediaDirTemporary: temporary,
		MaxDecodePixels:   *maxDecode,
		Latency:           *latency,
		NoControl:         *noControl,
		ControlOrigin:     *controlOrigin,
		Logger:            logger,
		MaxListedAssets:   *maxListed,
		RequestMemory:     *requestMemory,
		MaxMadeRecords:    *maxRecords,
		ScanLibraries:     len(*imports) > 0,
		ReverseGeocoder:   geocoder,
	})
	if tooLarge, ok := errors.AsType[*mockserver.ListingTooLarge](err); ok && *fixtures == "" && !df.empty {
		// Generated data past the bound: say what fits, and how to raise it.
		listed := listedAssets(d, d.Users[0].ID)
		fits := int(float64(df.links) * float64(tooLarge.Bound) / float64(listed) * 0.95)
		return fmt.Errorf("%w: --links %d makes the default user's shared links list %d assets, past the bound of %d; "+
			"about --links %d fits (seed %d), or raise the bound: --max-listed-assets %d (a listing of n assets is about 2n KiB of JSON)",
			errUsage, df.links, listed, tooLarge.Bound, fits, df.seed, listed)
	}
	if err != nil {
		return err
	}
	defer func() { _ = h.Close() }() // the picture workers, before a temporary media folder goes

	// Bind before saying anything, so a busy port fails at once.
	// Start-up made garbage the server will not need again (the password
	// hash alone takes 19 MiB): hand it back now rather than keep it as
	// idle memory until the runtime gets round to it.
	debug.FreeOSMemory()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", *addr, err)
	}
	sqlAt, stopSQL, err := openSQLDoor(ctx, *sqlAddr, *sqlPassword, h, logger)
	if err != nil {
		_ = ln.Close()
		return err
	}
	defer stopSQL()
	fmt.Fprintf(stdout, "mediaspec mock server listening on http://%s/api\n", localAddr(ln.Addr()))
	if sqlAt != "" {
		fmt.Fprintf(stdout, "sql: postgres://postgres:%s@%s/immich takes the upstream e2e harness's SQL on the mock's state\n", url.PathEscape(*sqlPassword), sqlAt)
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		fmt.Fprintf(stdout, "(on every interface, as --addr %s asks: other machines reach it too)\n", *addr)
	}
	if len(d.Users) == 0 {
		fmt.Fprintf(stdout, "no user yet, as a freshly installed server: the first admin signs up (POST /api/auth/admin-sign-up)\n")
	} else {
		fmt.Fprintf(stdout, "API key: %s (header x-api-key)\n", d.Users[0].APIKey)
	}
	fmt.Fprintf(stdout, "dataset: seed %d, anchor %s, %d users, %d shared links\n", d.Seed, d.Anchor.Format(time.DateOnly), len(d.Users), len(d.SharedLinks))
	if reused {
		fmt.Fprintf(stdout, "media: the dataset's folder %s, with its uploads and their pictures\n", media)
	}
	switch {
	case len(d.Users) == 0:
	case *fixtures == "":
		fmt.Fprintf(stdout, "login: %s, password %s (POST /api/auth/login; every user has this password)\n", d.Users[0].Email, df.password)
	default:
		fmt.Fprintf(stdout, "login: %s, with the password the dataset was made with\n", d.Users[0].Email)
	}
	fmt.Fprint(stdout, geoBanner)
	if len(*imports) > 0 {
		fmt.Fprintf(stdout, "library: %s, imported for %s as it is scanned (in the background; never written)\n", strings.Join(*imports, ", "), d.Users[0].Email)
	}
	if l, ok := uploadLink(d, time.Now()); ok {
		fmt.Fprintf(stdout, "upload link: key %s takes uploads (POST /api/asset/upload?key=...)\n", l.Key)
	}
	return serveUntilDone(ctx, mockserver.Listener(ln, *maxConns), h, logger)
}

// openSQLDoor opens the SQL door on addr, when there is one: where it
// listens, and the stop that closes it and waits for its connections to
// end.
func openSQLDoor(ctx context.Context, addr, password string, h *mockserver.Server, logger *slog.Logger) (at string, stop func(), err error) {
	if addr == "" {
		return "", func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("--sql-addr: cannot listen on %s: %w", addr, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := mockserver.ServeSQL(ctx, ln, h, mockserver.SQLConfig{Password: password, Logger: logger}); err != nil {
			logger.Error("sql door stopped", "error", err)
		}
	}()
	return localAddr(ln.Addr()), func() { cancel(); <-done }, nil
}

// listedAssets is how many assets the user's listing shows in d: each
// link's own, and an ALBUM link's album assets twice (in the link and in
// its album), as the store counts them.
func listedAssets(d model.Dataset, userID string) int {
	albums := make(map[string]int, len(d.Albums))
	for _, al := range d.Albums {
		albums[al.ID] = len(al.AssetIDs)
	}
	n := 0
	for _, l := range d.SharedLinks {
		if l.UserID != userID {
			continue
		}
		n += len(l.AssetIDs)
		if l.AlbumID != nil {
			n += 2 * albums[*l.AlbumID]
		}
	}
	return n
}

// localAddr is addr as a URL on this machine reaches it: the loopback
// address for a listener on every interface (0.0.0.0, ::), whose own
// address is no place to connect to.
func localAddr(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return addr.String()
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
}

// uploadLink finds a shared link of the default user that allows uploads
// and has not expired at now, for the start-up banner.
func uploadLink(d model.Dataset, now time.Time) (model.SharedLinkRecord, bool) {
	if len(d.Users) == 0 {
		return model.SharedLinkRecord{}, false
	}
	for _, l := range d.SharedLinks {
		if l.UserID == d.Users[0].ID && l.AllowUpload && (l.ExpiresAt == nil || l.ExpiresAt.After(now)) {
			return l, true
		}
	}
	return model.SharedLinkRecord{}, false
}

// serveUntilDone serves until ctx ends, then shuts down gracefully and
// logs "stopped".
func serveUntilDone(ctx context.Context, ln net.Listener, h http.Handler, logger *slog.Logger) error {
	srv := mockserver.HTTPServer(h, logger)
	unused := trackUnused(srv)
	trimCtx, stopTrim := context.WithCancel(ctx)
	defer stopTrim()
	go mockserver.TrimMemory(trimCtx)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	start := time.Now()
	// Requests in flight get a moment to finish; an x-mock-delay of up to a
	// minute, or a slow upload, is then cut off: stopping is what was asked.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(shutdownCtx) }()
	// Shutdown closes idle connections at once, but waits for one that has
	// not sent a request yet (up to 5 s, in case one is coming): browsers
	// open such connections ahead and leave them unused. No request is
	// coming now, as the listener is closed: close them, until Shutdown is
	// done (one accepted in the meantime is closed on the next round).
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var err error
	for waiting := true; waiting; {
		unused.closeAll()
		select {
		case err = <-shut:
			waiting = false
		case <-tick.C:
		}
	}
	if err != nil {
		logger.Warn("requests still in flight were cut off", "error", err)
		_ = srv.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info("stopped", "shutdown", time.Since(start).Round(time.Microsecond))
	return nil
}

// unusedConns are the connections of a server that have not sent a request.
type unusedConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// trackUnused keeps track of srv's connections that have sent no request,
// in its ConnState hook.
func trackUnused(srv *http.Server) *unusedConns {
	u := &unusedConns{conns: make(map[net.Conn]struct{})}
	next := srv.ConnState
	srv.ConnState = func(c net.Conn, state http.ConnState) {
		u.mu.Lock()
		if state == http.StateNew {
			u.conns[c] = struct{}{}
		} else {
			delete(u.conns, c)
		}
		u.mu.Unlock()
		if next != nil {
			next(c, state)
		}
	}
	return u
}

// closeAll closes every connection that has sent no request.
func (u *unusedConns) closeAll() {
	u.mu.Lock()
	defer u.mu.Unlock()
	for c := range u.conns {
		_ = c.Close()
		delete(u.conns, c)
	}
}

func newLogger(w io.Writer, format string, quiet bool) (*slog.Logger, error) {
	if quiet {
		return slog.New(slog.DiscardHandler), nil
	}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, fmt.Errorf("%w: --log-format must be text or json, not %q", errUsage, format)
}
