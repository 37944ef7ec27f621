package api

import (
	"archive/zip"
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/thumbhash"
)

// Downloads: which archives a download makes (POST /api/download/info),
// an archive of originals (POST /api/download/archive) and one original
// (POST /api/download/asset/{id}), for whoever asset.download lets take
// them (the store says who).
//
// An original is the uploaded file, byte for byte, where the media folder
// keeps it; else, for a seeded asset, the picture serveFile paints from its
// thumbhash; else (a seeded asset the dataset shows unprocessed, or an
// upload under --media-dir off) a grey picture of its size.

// maxArchives is how many archives are written at once; one more is
// answered 503 at once. Each holds an archiveBuffer and an httpx.WriteChunk
// buffer while its client reads (archiveWriter says for how long). Slots
// are not kept per user: on a developer's machine every client is the one
// user.
const maxArchives = 16

// archiveBuffer is what an archive reads of a file at a time.
const archiveBuffer = 256 << 10

// downloadInfoAnswer is DownloadResponseDto.
type downloadInfoAnswer struct {
	TotalSize int64           `json:"totalSize"`
	Archives  []archiveAnswer `json:"archives"`
}

// archiveAnswer is DownloadArchiveInfo.
type archiveAnswer struct {
	Size     int64    `json:"size"`
	AssetIDs []string `json:"assetIds"`
}

// downloadInfo is POST /api/download/info (201): the archives a download of the
// assets named, an album or a user's timeline is made of.
func (s *server) downloadInfo(c *call, b dto.Body) error {
	r := store.DownloadRequest{ArchiveSize: archiveSizeOf(b)}
	if b.Has("assetIds") {
		r.AssetIDs = lowerIDs(b.Strings("assetIds")) // never nil: asked for, even none
	}
	if id, ok := b.String("albumId"); ok {
		id = strings.ToLower(id)
		r.AlbumID = &id
	}
	if id, ok := b.String("userId"); ok {
		id = strings.ToLower(id)
		r.UserID = &id
	}
	plan, err := store.Query(s.store, func(v *store.View) (store.DownloadPlan, error) { return v.DownloadInfo(c.p(), r) })
	if err != nil {
		return err
	}
	out := downloadInfoAnswer{TotalSize: plan.TotalSize, Archives: make([]archiveAnswer, len(plan.Archives))}
	for i, ar := range plan.Archives {
		out.Archives[i] = archiveAnswer{Size: ar.Size, AssetIDs: ar.AssetIDs}
	}
	body, err := json.Marshal(out)
	if err != nil {
		return fmt.Errorf("encoding the download's archives: %w", err)
	}
	a := one(0, body)
	s.large.Write(c.w, http.StatusCreated, a.parts, a.size, a.etag) // a POST without @HttpCode: 201, as the reference
	return nil
}

// archiveSizeOf is the body's archiveSize, which the DTO has judged a
// positive whole number (JSON's 1e20 too), within int64; 0 when absent.
func archiveSizeOf(b dto.Body) int64 {
	n, ok := b["archiveSize"].(json.Number)
	if !ok {
		return 0
	}
	if v, err := n.Int64(); err == nil {
		return v
	}
	f, err := n.Float64()
	if err != nil || f >= 1<<63 {
		return 1<<63 - 1
	}
	return int64(f)
}

// lowerIDs is ids in lower case, as the store keeps ids: the reference's
// database compares UUIDs in any case.
func lowerIDs(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strings.ToLower(id)
	}
	return out
}

// original is where an asset's original comes from.
type original struct {
	kept     *media.KeptFile // the uploaded file, open until closed; nil: painted
	src      pictureSource   // what the picture is painted from
	modified time.Time       // the file's time: the asset's fileModifiedAt
}

// close lets the kept file go.
func (o original) close() {
	if o.kept != nil {
		_ = o.kept.Close()
	}
}

// originalOf is where a's original comes from.
func (s *server) originalOf(a *model.AssetRecord) original {
	o := original{modified: a.FileModifiedAt.Time}
	if s.folder != nil {
		if f, _, ok := s.folder.Open(media.Original, a.ID); ok {
			o.kept = f
			return o
		}
	}
	o.src = sourceOf(a, true)
	if o.src.thumbhash == nil {
		grey := *a
		hash := base64.StdEncoding.EncodeToString(greyThumbhash())
		grey.Thumbhash = &hash
		o.src = sourceOf(&grey, true)
	}
	return o
}

// greyThumbhash is the ThumbHash of a flat grey 4:3 picture: the picture
// of an original the mock has nothing to paint from.
func greyThumbhash() []byte {
	return thumbhash.Encode(4, 3, bytes.Repeat([]byte{0x80, 0x80, 0x80, 0xff}, 4*3))
}

// open is the original's bytes, its size and its Content-Type; a painted
// original waits up to wait for a painter (errPaintersBusy).
func (s *server) open(ctx context.Context, o original, wait time.Duration) (io.ReadSeeker, int64, string, error) {
	if o.kept != nil {
		return o.kept, o.kept.Size(), "", nil
	}
	body, contentType, err := s.painted(ctx, o.src, kindOriginal, wait)
	if err != nil {
		return nil, 0, "", fmt.Errorf("painting the original of asset %s: %w", o.src.id, err)
	}
	return bytes.NewReader(body), int64(len(body)), contentType, nil
}

// downloadAsset is POST /api/download/asset/{id}: one original, with the
// headers of the reference's file answers (Express's send): Cache-Control
// public, max-age=0; a weak ETag of size and time; Last-Modified the
// file's time, which the reference sets to fileModifiedAt; Range
// requests; 304 where If-None-Match or If-Modified-Since says the client
// has it, a POST too, as Express answers. A range past the file is a JSON
// 416 (the reference answers 500 Failed to download file).
func (s *server) downloadAsset(c *call) error {
	a, err := store.Query(s.store, func(v *store.View) (*model.AssetRecord, error) { return v.DownloadableOriginal(c.p(), c.id) })
	if err != nil {
		return err
	}
	o := s.originalOf(a)
	defer o.close()
	content, size, contentType, err := s.open(c.r.Context(), o, s.painters.wait)
	if errors.Is(err, errPaintersBusy) {
		return s.painters.busy(c.w, kindOriginal)
	}
	if err != nil {
		return err
	}
	if o.kept != nil {
		contentType = downloadType(a)
	}
	h := c.w.Header()
	h.Set("Cache-Control", "public, max-age=0")
	h.Set("Content-Type", contentType)
	etag := fmt.Sprintf(`W/"%x-%x"`, size, o.modified.UnixMilli())
	h.Set("ETag", etag)
	if fresh(c.r.Header, etag, o.modified) {
		h.Set("Last-Modified", o.modified.UTC().Format(http.TimeFormat))
		c.w.WriteHeader(http.StatusNotModified)
		return nil
	}
	// http.ServeContent judges these for GET and HEAD alone, and answers
	// 412 to a POST's If-None-Match: judged above.
	c.r.Header.Del("If-None-Match")
	c.r.Header.Del("If-Modified-Since")
	httpx.ServeContent(deadlineResponse{ResponseWriter: c.w, rc: http.NewResponseController(c.w)}, c.r, o.modified, content)
	return nil
}

// fresh says whether the client has the answer tagged etag, last modified
// at modified, as Express's freshness check says: every tag of
// If-None-Match, weak or strong, or *, and If-Modified-Since at or after
// modified, where each is asked; Cache-Control: no-cache asks anew.
func fresh(h http.Header, etag string, modified time.Time) bool {
	inm, ims := h.Get("If-None-Match"), h.Get("If-Modified-Since")
	if inm == "" && ims == "" || strings.Contains(h.Get("Cache-Control"), "no-cache") {
		return false
	}
	if inm != "" && strings.TrimSpace(inm) != "*" {
		match := false
		for _, tag := range strings.Split(inm, ",") {
			tag = strings.TrimSpace(tag)
			match = match || strings.TrimPrefix(tag, "W/") == strings.TrimPrefix(etag, "W/")
		}
		if !match {
			return false
		}
	}
	if ims != "" {
		t, err := http.ParseTime(ims)
		if err != nil || modified.Truncate(time.Second).After(t) {
			return false
		}
	}
	return true
}

// downloadType is the Content-Type of a kept original, as the reference
// sends it: by the extension of the file it stored, which is the upload's,
// but .mov for a live photo's video, whatever it was sent as.
func downloadType(a *model.AssetRecord) string {
	if a.Type == model.AssetVideo && !a.IsVisible {
		return "video/quicktime"
	}
	return originalType(a.OriginalFileName)
}

// deadlineResponse gives each write of an answer written by another
// (http.ServeContent) the deadline of its size: a client that stops
// reading is let go within about httpx.WriteBase, whatever the file's size.
type deadlineResponse struct {
	http.ResponseWriter
	rc *http.ResponseController
}

func (d deadlineResponse) Write(p []byte) (int, error) {
	_ = d.rc.SetWriteDeadline(time.Now().Add(httpx.WriteDeadline(len(p))))
	return d.ResponseWriter.Write(p)
}

// Unwrap lets a ResponseController reach the connection.
func (d deadlineResponse) Unwrap() http.ResponseWriter { return d.ResponseWriter }

// archiveEntry is a file of an archive: its name there, and its original.
type archiveEntry struct {
	name string
	original
	content io.Reader // its bytes where opened before the archive started
}

// downloadArchive is POST /api/download/archive: a zip of the originals
// of the assets named, in the order named (a repeated id is a second
// copy, as on the reference), each stored as it is (media files are
// compressed already), named as uploaded, a name met again as NAME+1.EXT,
// NAME+2.EXT... It is written as it is read, through an httpx.WriteChunk
// buffer: memory does not grow with the files' sizes, only by the central
// directory's few dozen bytes a file. As on the reference,
// application/octet-stream, chunked, no Content-Disposition.
func (s *server) downloadArchive(c *call, b dto.Body) error {
	assets, err := store.Query(s.store, func(v *store.View) ([]*model.AssetRecord, error) {
		return v.DownloadableAssets(c.p(), lowerIDs(b.Strings("assetIds")))
	})
	if err != nil {
		return err
	}
	names := make([]string, len(assets))
	for i, a := range assets {
		names[i] = a.OriginalFileName
	}
	names = archiveNames(names)
	entries := make([]archiveEntry, len(assets))
	for i, a := range assets {
		entries[i] = archiveEntry{name: names[i], original: s.originalOf(a)}
	}
	defer func() {
		for _, e := range entries {
			e.close()
		}
	}()
	if !s.archives.Take(c.w) {
		return nil
	}
	defer s.archives.Release()
	// The first file is opened before the answer starts: painters busy
	// past the wait are then a 503, not an archive cut short.
	if len(entries) > 0 {
		content, _, _, err := s.open(c.r.Context(), entries[0].original, s.painters.wait)
		if errors.Is(err, errPaintersBusy) {
			return s.painters.busy(c.w, kindOriginal)
		}
		if err != nil {
			return err
		}
		entries[0].content = content
	}
	c.w.Header().Set("Content-Type", "application/octet-stream")
	c.w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(s.newArchiveWriter(c.w), httpx.WriteChunk)
	err = s.writeArchive(c.r.Context(), bw, entries, make([]byte, archiveBuffer))
	if err == nil {
		err = bw.Flush()
	}
	var readErr *archiveReadError
	if errors.As(err, &readErr) {
		// The client must not take what came for a whole archive: the
		// answer ends without its last chunk.
		s.log.Error("an archive was cut short", "error", err)
		panic(http.ErrAbortHandler)
	}
	return nil // a write error: the client went, or stopped reading
}

// archiveReadError is a failure to read a file while an archive streams,
// which the server, not the client, is to blame for.
type archiveReadError struct{ err error }

func (e *archiveReadError) Error() string { return e.err.Error() }
func (e *archiveReadError) Unwrap() error { return e.err }

// writeArchive writes a zip of entries to w, each file stored and read
// through buf. A painted file is painted when its turn comes, holding no
// more than its encoding; it waits for a painter up to
// painters.patientWait (or ctx's end), then cuts the archive short.
func (s *server) writeArchive(ctx context.Context, w io.Writer, entries []archiveEntry, buf []byte) error {
	zw := zip.NewWriter(w)
	for _, e := range entries {
		fh := &zip.FileHeader{Name: e.name, Method: zip.Store, Modified: e.modified.UTC()}
		fh.SetMode(0o644)
		f, err := zw.CreateHeader(fh)
		if err != nil {
			return err
		}
		content := e.content
		if content == nil {
			if content, _, _, err = s.open(ctx, e.original, s.painters.patientWait); err != nil {
				return &archiveReadError{err}
			}
		}
		if err := copyFile(f, content, buf); err != nil {
			return err
		}
	}
	return zw.Close()
}

// pace is how fast an archive's client must take it (archiveWriter).
type pace struct {
	base time.Duration
	rate int64 // bytes a second
}

// archiveWriter writes an archive's pieces, each within base plus its size
// at rate, as every answer's are; and, so that a client cannot renew that
// deadline forever by taking each piece just in time, the whole archive
// within base plus its size at rate too: writes that have waited on the
// client for longer than that are cut, whatever it does. Only the time
// spent waiting in Write is counted: what the server spends painting or
// reading a file between writes is not the client's.
type archiveWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	pace    pace
	written int64
	waited  time.Duration
}

func (s *server) newArchiveWriter(w http.ResponseWriter) *archiveWriter {
	return &archiveWriter{w: w, rc: http.NewResponseController(w), pace: cmp.Or(s.archivePace, pace{httpx.WriteBase, httpx.MinWriteRate})}
}

// within is how long n bytes may take at the pace, after base.
func (p pace) within(n int64) time.Duration {
	return p.base + time.Duration(float64(n)/float64(p.rate)*float64(time.Second))
}

func (a *archiveWriter) Write(p []byte) (int, error) {
	start := time.Now()
	left := a.pace.within(a.written+int64(len(p))) - a.waited
	_ = a.rc.SetWriteDeadline(start.Add(min(a.pace.within(int64(len(p))), left)))
	n, err := a.w.Write(p)
	a.written += int64(n)
	a.waited += time.Since(start)
	return n, err
}

// copyFile copies a file into an archive, telling a failure to read it
// (archiveReadError) from a failure to write.
func copyFile(dst io.Writer, src io.Reader, buf []byte) error {
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return werr
			}
		}
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return &archiveReadError{err}
		}
	}
}

// archiveNames are the names of an archive's files, as the reference
// names them: each file's own name, a name met again as NAME+1.EXT,
// NAME+2.EXT... (EXT as Node's path.parse reads it: none for .bashrc).
// Where that gives a name the archive holds already (an upload named
// IMG+1.jpg beside two IMG.jpg), the reference writes two files of one
// name; the mock counts on. A name is never a path: only its last element
// is kept, so an archive never writes outside the folder it is opened in.
func archiveNames(names []string) []string {
	out := make([]string, len(names))
	used := make(map[string]bool, len(names))
	counts := make(map[string]int, len(names))
	for i, name := range names {
		name = baseName(name)
		n := counts[name]
		candidate := name
		for {
			if n > 0 {
				stem, ext := splitExt(name)
				candidate = stem + "+" + strconv.Itoa(n) + ext
			}
			if !used[candidate] {
				break
			}
			n++
		}
		counts[name] = n + 1
		used[candidate] = true
		out[i] = candidate
	}
	return out
}

// baseName is the last element of a name, with / or \ as separators; a
// name with none ("", "..") is "file".
func baseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	if name == "" || name == "." || name == ".." {
		return "file"
	}
	return name
}

// splitExt splits a file name as Node's path.parse does: IMG.jpg is IMG
// and .jpg, a.tar.gz a.tar and .gz; a name that only starts with a dot
// has no extension.
func splitExt(name string) (string, string) {
	ext := path.Ext(name)
	if ext == name || strings.Trim(name[:len(name)-len(ext)], ".") == "" {
		return name, ""
	}
	return name[:len(name)-len(ext)], ext
}
