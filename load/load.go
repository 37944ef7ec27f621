// Package load measures a server of the media-asset API under load: workers
// send requests back to back for a fixed time (listing shared links,
// uploading new files, or a mix) and the run reports requests per second,
// latency percentiles from a histogram, errors by status and bytes moved.
//
// It is built to cost the server it measures as little as possible, since
// both usually share one machine: one transport whose idle pool holds a
// connection per worker, upload bodies assembled from a prebuilt form and a
// shared random block, and per-worker counters merged only at the end.
package load

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Scenario is what the workers send.
type Scenario string

// The scenarios.
const (
	// ScenarioList lists the caller's shared links: GET {target}/shared-links.
	ScenarioList Scenario = "list"
	// ScenarioUpload uploads a new file each time: POST {target}/asset/upload.
	ScenarioUpload Scenario = "upload"
	// ScenarioMixed sends four listings to one upload, as an app that
	// browses more than it adds.
	ScenarioMixed Scenario = "mixed"
	// ScenarioAlbum opens one album of AlbumAssets assets, made before the
	// run through the API: GET {target}/albums/{id}.
	ScenarioAlbum Scenario = "album"
	// ScenarioThumbnail fetches the thumbnail of the first asset of the
	// caller's first shared link: GET {target}/asset/thumbnail/{id}.
	ScenarioThumbnail Scenario = "thumbnail"
	// ScenarioFile fetches the original of that asset: GET
	// {target}/asset/file/{id}.
	ScenarioFile Scenario = "file"
	// ScenarioArchive downloads a zip of ArchiveFiles files of UploadSize,
	// uploaded before the run: POST {target}/download/archive.
	ScenarioArchive Scenario = "archive"
)

// Scenarios lists every scenario.
func Scenarios() []Scenario {
	return []Scenario{ScenarioList, ScenarioUpload, ScenarioMixed, ScenarioAlbum, ScenarioThumbnail, ScenarioFile, ScenarioArchive}
}

// DefaultAlbumAssets is how many assets the album scenario's album holds.
const DefaultAlbumAssets = 500

// DefaultArchiveFiles is how many files the archive scenario's zip holds.
const DefaultArchiveFiles = 20

// Defaults of a Config's zero fields.
const (
	DefaultDuration    = 10 * time.Second
	DefaultConcurrency = 16
	DefaultUploadSize  = 100 << 10
	DefaultTimeout     = 10 * time.Second
	DefaultAPIKey      = "mediaspec-dev-key"
)

// minUploadSize is the smallest file an upload can carry: its first line makes
// it unique.
const minUploadSize = 64

// ErrRemoteTarget is returned for a target that is not on this machine while
// Config.AllowRemote is off.
var ErrRemoteTarget = errors.New("target is not a loopback address")

// ErrConfig is returned, wrapped, for a Config that cannot be run: an unknown
// scenario, a negative number, a target that is not a URL.
var ErrConfig = errors.New("invalid load configuration")

// Config says what to send, where and for how long.
type Config struct {
	// Target is the API's base URL, base path included
	// (http://127.0.0.1:2283/api). Nothing is sent anywhere else: redirects
	// are not followed.
	Target string
	// AllowRemote allows a target that is not a loopback address.
	AllowRemote bool
	// APIKey goes in every request's x-api-key header (DefaultAPIKey if empty).
	APIKey string
	// Scenario is what to send (ScenarioList if empty).
	Scenario Scenario
	// Duration is how long workers start new requests (DefaultDuration if
	// zero). Requests under way then finish, within Timeout.
	Duration time.Duration
	// Concurrency is the number of workers, each with one request at a time
	// (DefaultConcurrency if zero).
	Concurrency int
	// UploadSize is the size of each uploaded file in bytes
	// (DefaultUploadSize if zero).
	UploadSize int64
	// UploadFiles is how many different files the uploads send, each worker
	// going round its share of them; 0: a new file every time.
	UploadFiles int
	// Tag names the run's files (12 hex digits): runs with the same tag
	// upload the same files. Empty: a random tag, files no run sent before.
	Tag string
	// Timeout bounds each request (DefaultTimeout if zero).
	Timeout time.Duration
	// ArchiveFiles is how many files, of UploadSize each, the archive
	// scenario's zip holds (DefaultArchiveFiles if zero); they are uploaded
	// before the run.
	ArchiveFiles int
	// AlbumAssets is how many assets the album scenario's album holds
	// (DefaultAlbumAssets if zero); they are uploaded before the run.
	AlbumAssets int
	// Progress, when set, is called every ProgressEvery (default 500 ms)
	// from another goroutine while the load runs.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// withDefaults fills the zero fields and checks the others.
func (c Config) withDefaults() (Config, *url.URL, error) {
	if c.APIKey == "" {
		c.APIKey = DefaultAPIKey
	}
	if c.Scenario == "" {
		c.Scenario = ScenarioList
	}
	if c.Duration == 0 {
		c.Duration = DefaultDuration
	}
	if c.Concurrency == 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.UploadSize == 0 {
		c.UploadSize = DefaultUploadSize
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.AlbumAssets == 0 {
		c.AlbumAssets = DefaultAlbumAssets
	}
	if c.ArchiveFiles == 0 {
		c.ArchiveFiles = DefaultArchiveFiles
	}
	if c.ProgressEvery <= 0 {
		c.ProgressEvery = 500 * time.Millisecond
	}
	switch {
	case !slices.Contains(Scenarios(), c.Scenario):
		return c, nil, fmt.Errorf("%w: unknown scenario %q (want list, upload, mixed, album, thumbnail, file or archive)", ErrConfig, c.Scenario)
	case c.Duration < 0:
		return c, nil, fmt.Errorf("%w: duration %s is negative", ErrConfig, c.Duration)
	case c.Concurrency < 0 || c.Concurrency > 10000:
		return c, nil, fmt.Errorf("%w: concurrency %d is not between 1 and 10000", ErrConfig, c.Concurrency)
	case c.UploadFiles < 0:
		return c, nil, fmt.Errorf("%w: upload files %d is negative", ErrConfig, c.UploadFiles)
	case c.UploadSize < 0:
		return c, nil, fmt.Errorf("%w: upload size %d is negative", ErrConfig, c.UploadSize)
	case c.AlbumAssets < 0 || c.AlbumAssets > 100000:
		return c, nil, fmt.Errorf("%w: album assets %d is not between 1 and 100000", ErrConfig, c.AlbumAssets)
	case c.ArchiveFiles < 0 || c.ArchiveFiles > 10000:
		return c, nil, fmt.Errorf("%w: archive files %d is not between 1 and 10000", ErrConfig, c.ArchiveFiles)
	case c.Timeout < 0:
		return c, nil, fmt.Errorf("%w: timeout %s is negative", ErrConfig, c.Timeout)
	case c.Scenario != ScenarioList && c.Scenario != ScenarioAlbum && c.UploadSize < minUploadSize:
		return c, nil, fmt.Errorf("%w: upload size %d is below %d bytes, the least a file that is new each time needs", ErrConfig, c.UploadSize, minUploadSize)
	}
	target, err := ParseTarget(c.Target, c.AllowRemote)
	if err != nil {
		return c, nil, err
	}
	return c, target, nil
}

// ParseTarget checks a target URL: http or https, a host, and unless
// allowRemote, a host on this machine (localhost or a loopback address).
func ParseTarget(raw string, allowRemote bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%w: target %q is not an http:// or https:// URL with a host", ErrConfig, raw)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%w: target %q has a query or fragment: give the API's base URL", ErrConfig, raw)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	if allowRemote {
		return u, nil
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
		return u, nil
	}
	return nil, fmt.Errorf("%w: %w: %s (a load test is for a server on this machine)", ErrConfig, ErrRemoteTarget, host)
}

// operation is one kind of request.
type operation int

const (
	opList operation = iota
	opUpload
	opAlbum
	opThumbnail
	opFile
	opArchive
	numOps
)

func (o operation) String() string {
	return [...]string{"list", "upload", "album", "thumbnail", "file", "archive"}[o]
}

// pick returns the operation of a worker's i-th request.
func (s Scenario) pick(worker, i int) operation {
	switch s {
	case ScenarioUpload:
		return opUpload
	case ScenarioAlbum:
		return opAlbum
	case ScenarioThumbnail:
		return opThumbnail
	case ScenarioFile:
		return opFile
	case ScenarioArchive:
		return opArchive
	case ScenarioMixed:
		// One in five uploads, the workers out of step with each other.
		if (i+worker)%5 == 0 {
			return opUpload
		}
	}
	return opList
}

// Run sends the load cfg describes and reports on it. It stops by itself
// after cfg.Duration, plus the time requests under way take to finish (at
// most cfg.Timeout). When ctx ends first, Run returns what it measured so
// far with Result.Interrupted set, and ctx's error.
func Run(ctx context.Context, cfg Config) (Result, error) {
	cfg, target, err := cfg.withDefaults()
	if err != nil {
		return Result{}, err
	}
	tag, filler, err := runTag(cfg.Tag)
	if err != nil {
		return Result{}, err
	}

	var wire wireCounter
	transport := newTransport(cfg.Concurrency, &wire)
	defer transport.CloseIdleConnections()
	client := &http.Client{
		Transport: transport,
		Timeout:   cfg.Timeout,
		// Only the target is loaded: a redirect is an answer, not a new destination.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}

	var albumURL, assetID string
	var archiveBody []byte
	switch cfg.Scenario {
	case ScenarioArchive:
		if archiveBody, err = makeArchive(ctx, client, target, cfg, tag, filler); err != nil {
			return Result{}, err
		}
	case ScenarioAlbum:
		if albumURL, err = makeAlbum(ctx, client, target, cfg, tag, filler); err != nil {
			return Result{}, err
		}
	case ScenarioThumbnail, ScenarioFile:
		if assetID, err = sharedAsset(ctx, client, target, cfg.APIKey); err != nil {
			return Result{}, err
		}
	}
	workers := make([]*worker, cfg.Concurrency)
	for i := range workers {
		w := &worker{
			id:       i,
			client:   client,
			scenario: cfg.Scenario,
			apiKey:   cfg.APIKey,
			listURL:  target.JoinPath("shared-links").String(),
			uploadTo: target.JoinPath("asset", "upload").String(),
			albumURL: albumURL,

			archiveURL:  target.JoinPath("download", "archive").String(),
			archiveBody: archiveBody,
		}
		if assetID != "" {
			w.thumbnailURL = target.JoinPath("asset", "thumbnail", assetID).String()
			w.fileURL = target.JoinPath("asset", "file", assetID).String()
		}
		if cfg.UploadFiles > 0 {
			w.files = uint64(max(1, cfg.UploadFiles/cfg.Concurrency))
		}
		for op := range w.ops {
			w.ops[op] = newOpStats()
		}
		if cfg.Scenario == ScenarioUpload || cfg.Scenario == ScenarioMixed {
			if w.form, err = newUploadForm(tag, i, cfg.UploadSize, filler); err != nil {
				return Result{}, err
			}
		}
		workers[i] = w
	}

	start := time.Now()
	stopAt := start.Add(cfg.Duration)
	// The hard stop: no request outlives it, whatever the server does.
	runCtx, cancel := context.WithDeadline(ctx, stopAt.Add(cfg.Timeout))
	defer cancel()

	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Go(func() { w.run(runCtx, ctx, stopAt) })
	}
	stopProgress := func() {}
	if cfg.Progress != nil {
		stopProgress = reportProgress(cfg, start, workers, &wire)
	}
	wg.Wait()
	elapsed := time.Since(start)
	stopProgress()

	res := summarize(cfg, target, elapsed, workers, &wire)
	if err := ctx.Err(); err != nil {
		res.Interrupted = true
		return res, fmt.Errorf("load interrupted: %w", err)
	}
	return res, nil
}

// makeAlbum uploads cfg.AlbumAssets new files and makes an album of them,
// through the API, and returns the album's URL.
// sharedAsset is the first asset of the caller's first shared link with
// one, whose pictures the picture scenarios load.
func sharedAsset(ctx context.Context, client *http.Client, target *url.URL, apiKey string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target.JoinPath("shared-links").String(), nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("x-api-key", apiKey)
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("finding an asset: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("finding an asset: GET %s answered %d", req.URL.Path, resp.StatusCode)
	}
	var links []struct {
		Assets []struct{ ID string } `json:"assets"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 256<<20)).Decode(&links); err != nil {
		return "", fmt.Errorf("finding an asset: the listing: %w", err)
	}
	for _, l := range links {
		if len(l.Assets) > 0 {
			return l.Assets[0].ID, nil
		}
	}
	return "", errors.New("finding an asset: the caller's shared links hold none")
}

func makeAlbum(ctx context.Context, client *http.Client, target *url.URL, cfg Config, tag string, filler []byte) (string, error) {
	ids, err := uploadFiles(ctx, client, target, cfg, tag, filler, cfg.AlbumAssets, minUploadSize)
	if err != nil {
		return "", fmt.Errorf("making the album's assets: %w", err)
	}
	body, err := json.Marshal(map[string]any{"albumName": "mediaspec load " + tag, "assetIds": ids})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target.JoinPath("albums").String(), bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	var album struct {
		ID         string
		AssetCount int
	}
	if err := sendJSON(client, cfg.APIKey, req, http.StatusCreated, &album); err != nil {
		return "", fmt.Errorf("making the album: %w", err)
	}
	if album.AssetCount != len(ids) {
		return "", fmt.Errorf("the album holds %d assets, not the %d uploaded", album.AssetCount, len(ids))
	}
	return target.JoinPath("albums", album.ID).String(), nil
}

// makeArchive uploads cfg.ArchiveFiles new files of cfg.UploadSize and
// returns the body of the request for their archive.
func makeArchive(ctx context.Context, client *http.Client, target *url.URL, cfg Config, tag string, filler []byte) ([]byte, error) {
	ids, err := uploadFiles(ctx, client, target, cfg, tag, filler, cfg.ArchiveFiles, cfg.UploadSize)
	if err != nil {
		return nil, fmt.Errorf("making the archive's files: %w", err)
	}
	return json.Marshal(map[string]any{"assetIds": ids})
}

// sendJSON sends req as the key's user and decodes its answer, which must
// have the status want, into out.
func sendJSON(client *http.Client, apiKey string, req *http.Request, want int, out any) error {
	req.Header.Set("x-api-key", apiKey)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s answered %d: %s", req.Method, req.URL.Path, resp.StatusCode, body)
	}
	return json.Unmarshal(body, out)
}

// uploadFiles uploads n new files of size bytes, one after the other,
// and returns their ids.
func uploadFiles(ctx context.Context, client *http.Client, target *url.URL, cfg Config, tag string, filler []byte, n int, size int64) ([]string, error) {
	form, err := newUploadForm(tag, 0, size, filler)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, n)
	for i := range uint64(n) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, target.JoinPath("asset", "upload").String(), form.body(i))
		if err != nil {
			return nil, err
		}
		req.ContentLength = form.length()
		req.Header.Set("Content-Type", form.contentType)
		var up struct{ ID string }
		if err := sendJSON(client, cfg.APIKey, req, http.StatusCreated, &up); err != nil {
			return nil, err
		}
		ids = append(ids, up.ID)
	}
	return ids, nil
}

// runTag returns a random tag that makes this run's files unlike any other
// run's, and the filler derived from it.
func runTag(tag string) (string, []byte, error) {
	var b [6]byte
	if tag == "" {
		if _, err := rand.Read(b[:]); err != nil {
			return "", nil, fmt.Errorf("random run tag: %w", err)
		}
	} else if n, err := hex.Decode(b[:], []byte(tag)); err != nil || n != len(b) || len(tag) != 2*len(b) {
		return "", nil, fmt.Errorf("%w: tag %q is not 12 hex digits", ErrConfig, tag)
	}
	var seed [8]byte
	copy(seed[:], b[:])
	return hex.EncodeToString(b[:]), newFiller(binary.LittleEndian.Uint64(seed[:])), nil
}

// newTransport returns the transport of a run: an idle connection kept for
// every worker, no compression (the load measures what the server encodes,
// not gzip), no proxy from the environment, and every byte on the wire
// counted.
func newTransport(concurrency int, wire *wireCounter) *http.Transport {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := dialer.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &countingConn{Conn: c, wire: wire}, nil
		},
		MaxIdleConns:        2 * concurrency,
		MaxIdleConnsPerHost: 2 * concurrency,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		WriteBufferSize:     64 << 10,
		ReadBufferSize:      64 << 10,
	}
}

// wireCounter counts the bytes of every connection of a run.
type wireCounter struct{ sent, received atomic.Int64 }

// countingConn is a connection that counts what passes through it.
type countingConn struct {
	net.Conn
	wire *wireCounter
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.wire.received.Add(int64(n))
	return n, err
}

func (c *countingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.wire.sent.Add(int64(n))
	return n, err
}

// opStats is what a worker measured of one operation.
type opStats struct {
	hist         *histogram
	statuses     map[int]int64
	transport    map[string]int64
	firstFailure string         // the first transport error's message
	samples      map[int]string // the start of the first body of each error status
	bodySent     int64
	bodyReceived int64
}

func newOpStats() *opStats {
	return &opStats{hist: newHistogram(), statuses: map[int]int64{}, transport: map[string]int64{}, samples: map[int]string{}}
}

// worker sends one request at a time. Only its own goroutine writes its
// stats; the live counters are atomic for the progress line.
type worker struct {
	id       int
	client   *http.Client
	scenario Scenario
	apiKey   string
	listURL  string
	uploadTo string
	albumURL string
	// thumbnailURL and fileURL are the pictures of the picture scenarios.
	thumbnailURL, fileURL string
	// archiveURL and archiveBody are the archive scenario's request.
	archiveURL  string
	archiveBody []byte
	form        *uploadForm
	uploads     uint64
	files       uint64 // how many different files the worker uploads; 0: a new one each time

	ops  [numOps]*opStats
	done atomic.Int64 // requests completed
	errs atomic.Int64 // of which failed
	new  atomic.Int64 // uploads answered 201 Created
}

// run sends requests until stopAt. Requests carry runCtx; one that fails
// because parent ended is not counted, as it was cut short by the caller,
// not by the server.
func (w *worker) run(runCtx, parent context.Context, stopAt time.Time) {
	buf := make([]byte, 64<<10)
	for i := 0; time.Now().Before(stopAt) && runCtx.Err() == nil; i++ {
		op := w.scenario.pick(w.id, i)
		st := w.ops[op]
		begin := time.Now()
		ans, err := w.send(runCtx, op, buf)
		latency := time.Since(begin)
		if err != nil && parent.Err() != nil {
			return
		}
		st.bodyReceived += ans.received
		w.done.Add(1)
		if err != nil {
			kind := classify(err)
			st.transport[kind]++
			if st.firstFailure == "" {
				st.firstFailure = err.Error()
			}
			w.errs.Add(1)
			continue
		}
		st.hist.record(latency)
		st.bodySent += ans.sent
		st.statuses[ans.status]++
		if op == opUpload && ans.status == http.StatusCreated {
			w.new.Add(1)
		}
		if !ok(ans.status) {
			w.errs.Add(1)
			if _, seen := st.samples[ans.status]; !seen {
				st.samples[ans.status] = ans.sample
			}
		}
	}
}

// ok reports whether a status is a success.
func ok(status int) bool { return status >= 200 && status < 300 }

// maxSample is how much of an error body a report shows.
const maxSample = 300

// answer is what one request got.
type answer struct {
	status   int
	sent     int64  // request body bytes
	received int64  // response body bytes
	sample   string // the start of the body of an error status not seen before
}

// send sends one request and reads the whole answer. A transport error comes
// with the bytes received before it.
func (w *worker) send(ctx context.Context, op operation, buf []byte) (answer, error) {
	var ans answer
	req, err := w.request(ctx, op)
	if err != nil {
		return ans, err
	}
	ans.sent = max(req.ContentLength, 0)
	resp, err := w.client.Do(req)
	if err != nil {
		return ans, err
	}
	defer resp.Body.Close()
	if !ok(resp.StatusCode) {
		// The first body of each error status is kept, to say what went wrong.
		if _, seen := w.ops[op].samples[resp.StatusCode]; !seen {
			n, _ := io.ReadFull(resp.Body, buf[:maxSample])
			ans.sample = strings.ToValidUTF8(string(buf[:n]), "?")
			ans.received += int64(n)
		}
	}
	for {
		n, err := resp.Body.Read(buf)
		ans.received += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return ans, fmt.Errorf("read body: %w", err)
		}
	}
	ans.status = resp.StatusCode
	return ans, nil
}

// request builds the next request of an operation.
func (w *worker) request(ctx context.Context, op operation) (*http.Request, error) {
	var req *http.Request
	var err error
	switch op {
	case opUpload:
		n := w.uploads
		w.uploads++
		if w.files > 0 {
			n %= w.files
		}
		if req, err = http.NewRequestWithContext(ctx, http.MethodPost, w.uploadTo, w.form.body(n)); err != nil {
			return nil, fmt.Errorf("new request: %w", err)
		}
		req.ContentLength = w.form.length()
		// Lets the transport resend the upload on a connection that closed before it was sent.
		req.GetBody = func() (io.ReadCloser, error) { return w.form.body(n), nil }
		req.Header.Set("Content-Type", w.form.contentType)
	case opAlbum:
		if req, err = http.NewRequestWithContext(ctx, http.MethodGet, w.albumURL, nil); err != nil {
			return nil, fmt.Errorf("new request: %w", err)
		}
	case opArchive:
		if req, err = http.NewRequestWithContext(ctx, http.MethodPost, w.archiveURL, bytes.NewReader(w.archiveBody)); err != nil {
			return nil, fmt.Errorf("new request: %w", err)
		}
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(w.archiveBody)), nil }
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("x-api-key", w.apiKey)
		return req, nil
	case opThumbnail, opFile:
		u := w.thumbnailURL
		if op == opFile {
			u = w.fileURL
		}
		if req, err = http.NewRequestWithContext(ctx, http.MethodGet, u, nil); err != nil {
			return nil, fmt.Errorf("new request: %w", err)
		}
		req.Header.Set("x-api-key", w.apiKey)
		return req, nil
	default:
		if req, err = http.NewRequestWithContext(ctx, http.MethodGet, w.listURL, nil); err != nil {
			return nil, fmt.Errorf("new request: %w", err)
		}
	}
	req.Header.Set("x-api-key", w.apiKey)
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// classify names the kind of a transport error, for counting.
func classify(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.EPIPE):
		return "broken pipe"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed early"
	}
	return "other"
}

// Progress is a snapshot of a run under way.
type Progress struct {
	Elapsed, Duration time.Duration
	Requests, Errors  int64
	// Created counts uploads answered 201 Created: new assets on the server.
	Created int64
	// RequestsPerSecond is over the last interval.
	RequestsPerSecond float64
	// BytesSent and BytesReceived are on the wire so far.
	BytesSent, BytesReceived int64
}

// String formats p as one status line.
func (p Progress) String() string {
	return fmt.Sprintf("%5.1fs/%s  %s req  %s req/s  %s errors  sent %s  received %s",
		p.Elapsed.Seconds(), p.Duration, group(p.Requests), group(int64(p.RequestsPerSecond)),
		group(p.Errors), humanBytes(p.BytesSent), humanBytes(p.BytesReceived))
}

// reportProgress calls cfg.Progress every cfg.ProgressEvery until the
// returned function is called.
func reportProgress(cfg Config, start time.Time, workers []*worker, wire *wireCounter) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(cfg.ProgressEvery)
		defer t.Stop()
		var lastReqs int64
		last := start
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				var p Progress
				for _, w := range workers {
					p.Requests += w.done.Load()
					p.Errors += w.errs.Load()
					p.Created += w.new.Load()
				}
				p.Elapsed, p.Duration = now.Sub(start), cfg.Duration
				p.RequestsPerSecond = float64(p.Requests-lastReqs) / now.Sub(last).Seconds()
				p.BytesSent, p.BytesReceived = wire.sent.Load(), wire.received.Load()
				lastReqs, last = p.Requests, now
				cfg.Progress(p)
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// group writes n with thousands separators.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return "-" + group(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// humanBytes writes a byte count in decimal units (kB, MB, GB).
func humanBytes(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
