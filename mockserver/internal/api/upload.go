package api

import (
	"bufio"
	"cmp"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mediaspec/mediaspec/mockserver/exif"
	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/formdata"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/ingest"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/mp4"
)

// Limits on what one upload may carry, each answered with a clear 400.
const (
	maxParts      = 100      // parts in one multipart body
	maxFieldBytes = 64 << 10 // bytes of one text field
)

// upload is POST /api/asset/upload: after authentication, the checksum
// header, then the multipart body, streamed and hashed part by part.
func (s *server) upload(c *call) error {
	r, p := c.r, c.p()
	// Checked before the checksum header, so that a link holder without
	// upload rights cannot probe which checksums exist.
	if p.Link != nil && !p.Link.AllowUpload {
		// The contract's error, with its name (the reference's has none).
		return &httpx.Error{Status: http.StatusUnauthorized, Message: "Unauthorized"}
	}
	if v := r.Header.Get(s.cfg.ChecksumHeader); v != "" {
		if sum, ok := store.DecodeChecksum(strings.TrimSpace(v)); ok {
			var dup *model.AssetRecord
			s.store.Read(func(v *store.View) { dup = v.AssetByChecksum(p.User.ID, sum) })
			if dup != nil {
				httpx.WriteRawJSON(c.w, http.StatusOK, uploadAnswer(model.UploadResult{ID: dup.ID, Duplicate: true}))
				return nil
			}
		}
	}
	up, done, err := s.receiveUpload(c, (*upload).validate)
	defer done()
	if err != nil {
		return err
	}
	asset, live := up.records(p.User.ID, s.places)
	res, err := store.Update(s.store, func(tx *store.Tx) (store.Upload, error) {
		return tx.AddUpload(p.User.ID, asset, live)
	})
	if err != nil {
		return err
	}
	status := http.StatusCreated
	picturesQueued := false // and on_upload_success sent once they are made
	if !res.Duplicate {
		s.metadataRead() // as it was read, before the store took it
	}
	if res.Duplicate {
		status = http.StatusOK
	} else if s.folder != nil {
		picturesQueued = s.keepFile(up.assetFile, res.ID)
		s.keepMotionVideo(up, res)
		if up.liveFile != nil && res.LiveVideoID != "" && !s.folder.Has(media.Original, res.LiveVideoID) {
			s.keepFile(up.liveFile, res.LiveVideoID)
		}
	}
	httpx.WriteRawJSON(c.w, status, uploadAnswer(model.UploadResult{ID: res.ID, Duplicate: res.Duplicate}))
	if !res.Duplicate && !picturesQueued {
		s.tellUploadedNow(c.w, p.User.ID, res.ID)
	}
	return nil
}

// receiveUpload reads c's multipart body as an upload, its parts streamed
// and hashed, and judges it with check. done gives back what the reading
// holds (its buffers, the memory set aside, the files no one kept): the
// caller keeps the files it wants before it calls done.
func (s *server) receiveUpload(c *call, check func(*upload) error) (up *upload, done func(), err error) {
	w, r := c.w, c.r
	// The body is guarded against a client that stalls by guardBodies, as
	// every request's is.
	if max := s.cfg.MaxUploadBytes; max > 0 {
		if r.ContentLength > max {
			return nil, func() {}, tooLarge(max)
		}
		r.Body = http.MaxBytesReader(w, r.Body, max)
	}
	bufs := s.uploadBuffers.get()
	held := s.held.Reserve()
	up, err = readUpload(r, bufs, s.folder, held, check)
	done = func() {
		if up != nil {
			// Kept by now where the upload made an asset; else no one's.
			for _, f := range []*media.Arriving{up.assetFile, up.liveFile} {
				if f != nil {
					f.Drop()
				}
			}
		}
		held.Release()
		s.uploadBuffers.put(bufs)
	}
	if err != nil {
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			err = tooLarge(mbe.Limit)
		case errors.Is(err, errNoRoom):
			err = held.NoRoom(w)
		}
		return up, done, err
	}
	return up, done, nil
}

// keepFile keeps an upload's file as the original of the asset id, and
// queues its pictures; it says whether they were queued. Where it cannot
// be kept, the asset stands and its pictures answer 404, as the
// reference's do when their making fails.
func (s *server) keepFile(f *media.Arriving, id string) bool {
	if err := f.Keep(media.Original, id); err != nil {
		s.log.Error("upload", "error", err)
		return false
	}
	return s.pictureJobs.Add(id)
}

// errTooManyFiles is the answer to an upload, or a profile image, while
// every place for a file is taken.
var errTooManyFiles = httpx.Errorf(http.StatusServiceUnavailable, "Too many uploads are arriving at once; try again in a moment")

// incoming is a new file in the media folder for a client's upload or
// profile image (media.Folder.Incoming): errTooManyFiles while every place
// for one is taken.
func incoming(m *media.Folder) (*media.Arriving, error) {
	f, err := m.Incoming()
	if errors.Is(err, media.ErrTooManyFiles) {
		return nil, errTooManyFiles
	}
	return f, err
}

// uploadAnswer is the JSON of an upload's answer, as json.Marshal writes
// it, without its reflection: an id of the store's (a UUID) needs no
// escaping; any other is left to json.Marshal.
func uploadAnswer(r model.UploadResult) []byte {
	if !dto.IsUUIDString(r.ID) {
		b, err := json.Marshal(r)
		if err != nil {
			panic(fmt.Sprintf("encoding an upload's answer: %v", err)) // a string and a bool always encode
		}
		return b
	}
	b := make([]byte, 0, len(`{"id":"","duplicate":false}`)+len(r.ID))
	b = append(b, `{"id":"`...)
	b = append(b, r.ID...)
	b = append(b, `","duplicate":`...)
	b = strconv.AppendBool(b, r.Duplicate)
	return append(b, '}')
}

func tooLarge(limit int64) *httpx.Error {
	return httpx.Errorf(http.StatusRequestEntityTooLarge, "Upload is larger than the limit of %d bytes", limit)
}

// filePart is a file of the upload, read to its end: its name, SHA-1, size
// and the head of its bytes (for EXIF); the rest was hashed and dropped.
type filePart struct {
	filename string
	sum      [20]byte
	size     int64
	head     []byte
	// video read the boxes of a video file as it streamed past.
	video *mp4.Scanner
}

// upload is a multipart upload, read but not yet validated as a whole.
type upload struct {
	// fields are the text fields the upload reads (uploadFields), as sent.
	fields map[string]string
	// held is the memory set aside for what the upload keeps of its parts.
	held *httpx.Reservation
	// repeated are the text fields sent more than once: the reference
	// reads them as lists, which no field takes.
	repeated []string
	files    int
	asset    *filePart
	live     *filePart
	sidecar  *filePart

	deviceAssetID, deviceID, duration string
	fileCreatedAt, fileModifiedAt     time.Time
	isFavorite, isArchived, isOffline bool
	isVisible                         bool

	// assetFile is assetData arrived in the media folder (nil where none
	// is kept), and liveFile livePhotoData; each is kept or dropped.
	assetFile, liveFile *media.Arriving
	motion              *motionVideo // the video a motion photo carries (motionphoto.go)
}

// uploadBuffers are the buffers one upload reads with, reused across uploads.
type uploadBuffers struct {
	large bool
	copy  []byte        // moves file bytes to the hash
	sink  fileSink      // where a file's bytes go
	field []byte        // takes a text field's value, most of which are short
	head  []byte        // keeps the head of assetData, for its EXIF
	read  *bufio.Reader // reads the body in large pieces: fewer read calls on the connection
	file  *bufio.Writer // writes assetData to the media folder in large pieces
}

// A multipart part hands out at most 4 KiB per read (mime/multipart's peek
// buffer), so a larger copy buffer would never fill. Reading the body 64 KiB
// at a time takes a sixteenth of the read calls, but an upload whose client
// stalls would hold those 64 KiB for as long as the body deadline lets it:
// only maxLargeBuffers uploads read through large buffers at once, the rest
// through small ones, and the memory of ten thousand stalled uploads stays
// about ten thousand times the small size.
const (
	copyBufferSize  = 4 << 10
	fieldBufferSize = 256
	largeReadSize   = 64 << 10
	smallReadSize   = 4 << 10
	maxLargeBuffers = 64
)

// bufferPool hands out upload buffers: large ones to at most maxLargeBuffers
// uploads at once, small ones beyond.
type bufferPool struct {
	large, small sync.Pool
	inUse        atomic.Int32 // large buffers handed out
}

func newBufferPool() *bufferPool {
	p := &bufferPool{}
	p.large.New = func() any { return newUploadBuffers(true) }
	p.small.New = func() any { return newUploadBuffers(false) }
	return p
}

// newUploadBuffers makes a set of buffers. The head grows as an asset's
// first bytes arrive, up to exif.MaxHead, and is kept for the next upload:
// an upload whose client stalls before its file holds no head at all.
func newUploadBuffers(large bool) *uploadBuffers {
	size := smallReadSize
	if large {
		size = largeReadSize
	}
	return &uploadBuffers{large: large, copy: make([]byte, copyBufferSize), field: make([]byte, fieldBufferSize), sink: fileSink{hash: sha1.New()}, read: bufio.NewReaderSize(nil, size), file: bufio.NewWriterSize(nil, size)}
}

func (p *bufferPool) get() *uploadBuffers {
	if p.inUse.Add(1) <= maxLargeBuffers {
		return p.large.Get().(*uploadBuffers)
	}
	p.inUse.Add(-1)
	return p.small.Get().(*uploadBuffers)
}

func (p *bufferPool) put(b *uploadBuffers) {
	if b.large {
		p.large.Put(b)
		p.inUse.Add(-1)
		return
	}
	p.small.Put(b)
}

// readUpload streams the multipart body, hashing each file as it passes;
// memory stays bounded by the limits whatever the size of the files. It
// returns the upload with its fields validated, or the error to answer. The
// upload's assetData head lives in bufs until they are reused. What it
// keeps of the parts (the fields, the heads of its files) is set aside in
// held as it grows: past the room there is, it stops with errNoRoom.
func readUpload(r *http.Request, bufs *uploadBuffers, m *media.Folder, held *httpx.Reservation, check func(*upload) error) (*upload, error) {
	bufs.read.Reset(r.Body)
	defer bufs.read.Reset(nil)
	up := &upload{fields: make(map[string]string, 8), held: held} // the fields a client sends
	mr, err := multipartReader(r.Header.Get("Content-Type"), bufs.read)
	if errors.Is(err, errNotMultipart) {
		return up, check(up) // no part at all: judged as such
	}
	if err != nil {
		return nil, err
	}
	for n := 0; ; n++ {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, malformed(err)
		}
		if n == maxParts {
			return nil, httpx.Errorf(http.StatusBadRequest, "Too many parts: an upload has at most %d", maxParts)
		}
		if part.FileName() == "" {
			err = up.readField(part, bufs.field)
		} else {
			up.files++
			err = up.readFile(part, bufs, m)
		}
		if errors.Is(err, errNoRoom) {
			return up, err // answered at once: the rest of the part is not waited for
		}
		part.Close()
		if err != nil {
			return up, err
		}
	}
	if err := check(up); err != nil {
		return up, err
	}
	return up, nil
}

// errNotMultipart is the answer to a body that is not multipart/form-data,
// and so has no file; an upload judges it as a body without parts.
var errNotMultipart = httpx.Errorf(http.StatusBadRequest, "File is required")

// multipartReader reads a multipart/form-data body; any other body has no
// part (errNotMultipart).
func multipartReader(contentType string, body *bufio.Reader) (*formdata.Reader, error) {
	mediaType, boundary, err := formdata.ParseContentType(contentType)
	switch {
	case err != nil && strings.HasPrefix(strings.ToLower(strings.TrimSpace(contentType)), "multipart/"):
		return nil, httpx.Errorf(http.StatusBadRequest, "Malformed multipart body: Content-Type %q cannot be read", contentType)
	case err != nil || mediaType != "multipart/form-data":
		return nil, errNotMultipart
	case boundary == "":
		return nil, httpx.Errorf(http.StatusBadRequest, "Malformed multipart body: the Content-Type has no boundary")
	}
	return formdata.NewReader(body, boundary), nil
}

// malformed maps an error of reading the multipart body to its answer.
func malformed(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return err
	}
	if errors.Is(err, httpx.ErrBodyTooSlow) {
		return httpx.Errorf(http.StatusRequestTimeout, "Upload cut off: %v", err)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return httpx.Errorf(http.StatusBadRequest, "Malformed multipart body: it ends before its closing boundary")
	}
	// The rest are the reader's own errors, in Go's words: told in the
	// API's.
	switch {
	case errors.Is(err, formdata.ErrHeader):
		return httpx.Errorf(http.StatusBadRequest, "Malformed multipart body: a part's headers cannot be read")
	case errors.Is(err, formdata.ErrHeaderTooLarge):
		return httpx.Errorf(http.StatusBadRequest, "Malformed multipart body: a part's headers are too large")
	}
	return httpx.Errorf(http.StatusBadRequest, "Malformed multipart body: it does not follow the boundary of its Content-Type")
}

func (up *upload) readField(part *formdata.Part, scratch []byte) error {
	b, grown, err := readBounded(part, scratch[:0], maxFieldBytes+1, up.held)
	defer up.held.Give(grown) // the grown scratch is let go
	if errors.Is(err, errNoRoom) {
		return err
	}
	if err != nil {
		return malformed(err)
	}
	if len(b) > maxFieldBytes {
		return httpx.Errorf(http.StatusBadRequest, "Field %s is too long: at most %d bytes", part.FormName(), maxFieldBytes)
	}
	name := part.FormName()
	if !slices.Contains(uploadFields, name) {
		return nil // read for its bound, and ignored, as the reference ignores it
	}
	if _, seen := up.fields[name]; seen {
		up.repeated = append(up.repeated, name)
	}
	if !up.held.Take(int64(len(b))) {
		return errNoRoom
	}
	up.fields[name] = string(b)
	return nil
}

// uploadFields are the text fields an upload reads; the rest are ignored.
var uploadFields = []string{"deviceAssetId", "deviceId", "fileCreatedAt", "fileModifiedAt", "duration", "isFavorite", "isArchived", "isVisible", "isOffline"}

// errNoRoom stops an upload that would keep more of its parts than the
// memory set aside for what requests hold has room for.
var errNoRoom = errors.New("no room to keep the upload's parts")

// readBounded appends to b what r has, to its end or to limit bytes in
// all: a field's value is read into the upload's scratch buffer, and only
// a value larger than it takes memory of its own, set aside in held
// (grown, which the caller gives back once it lets the value go).
func readBounded(r io.Reader, b []byte, limit int, held *httpx.Reservation) (_ []byte, grown int64, _ error) {
	for len(b) < limit {
		if len(b) == cap(b) {
			before := cap(b)
			more := min(cap(b)+1, limit-len(b))
			b = slices.Grow(b, more)
			if !held.Take(int64(cap(b) - before)) {
				return b, grown, errNoRoom
			}
			grown += int64(cap(b) - before)
		}
		n, err := r.Read(b[len(b):min(cap(b), limit)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, grown, nil
		}
		if err != nil {
			return b, grown, err
		}
	}
	return b, grown, nil
}

// readFile hashes a file part, checking first that its name and type are
// ones the upload takes.
func (up *upload) readFile(part *formdata.Part, bufs *uploadBuffers, m *media.Folder) error {
	var slot **filePart
	var allowed func(ext string) bool
	sink := &bufs.sink
	sink.head = headWriter{} // only the asset's head is kept: only its EXIF is read
	switch part.FormName() {
	case "assetData":
		slot, allowed = &up.asset, func(ext string) bool { return model.AssetTypeOf(ext) != "" }
		if !up.held.Take(int64(cap(bufs.head))) {
			return errNoRoom
		}
		sink.head = headWriter{b: bufs.head[:0], max: exif.MaxHead, sniff: exif.SniffSize, room: up.held}
		defer func() { bufs.head = sink.head.b[:0] }() // the grown head serves the next upload
	case "livePhotoData":
		slot, allowed = &up.live, func(ext string) bool { return model.AssetTypeOf(ext) == model.AssetVideo }
	case "sidecarData":
		slot, allowed = &up.sidecar, func(ext string) bool { return ext == ".xmp" }
		// One byte more than a sidecar is read at, to tell one too large.
		sink.head = headWriter{max: exif.MaxXMP + 1, room: up.held}
	}
	if slot == nil || *slot != nil {
		return httpx.Errorf(http.StatusBadRequest, "Unexpected field")
	}
	filename, err := rawFileName(part)
	if err != nil {
		return err
	}
	if !allowed(strings.ToLower(path.Ext(filename))) {
		return httpx.Errorf(http.StatusBadRequest, "Unsupported file type %s", filename)
	}
	sink.hash.Reset()
	sink.video, sink.file = nil, nil
	if model.AssetTypeOf(strings.ToLower(path.Ext(filename))) == model.AssetVideo {
		// Its movie header may come after the media: read as it passes.
		sink.video = &mp4.Scanner{SkipCover: true}
	}
	kept := (**media.Arriving)(nil) // where the file arrives in the media folder
	switch {
	case m == nil:
	case slot == &up.asset:
		kept = &up.assetFile
	case slot == &up.live:
		kept = &up.liveFile
	}
	if kept != nil {
		f, err := incoming(m)
		if err != nil {
			return err
		}
		*kept = f
		bufs.file.Reset(f)
		defer bufs.file.Reset(nil)
		sink.file = bufs.file
	}
	n, err := io.CopyBuffer(sink, part, bufs.copy)
	if errors.Is(err, errNoRoom) {
		return err
	}
	if errors.Is(err, syscall.ENOSPC) {
		return httpx.Errorf(http.StatusInsufficientStorage, "No space left in the media folder for this upload")
	}
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return fmt.Errorf("writing the upload's file: %w", err)
	}
	if err != nil {
		return malformed(err)
	}
	if kept != nil {
		if err := bufs.file.Flush(); errors.Is(err, syscall.ENOSPC) {
			return httpx.Errorf(http.StatusInsufficientStorage, "No space left in the media folder for this upload")
		} else if err != nil {
			return fmt.Errorf("writing the upload's file: %w", err)
		}
	}
	f := &filePart{filename: filename, size: n, head: sink.head.b, video: sink.video}
	sink.hash.Sum(f.sum[:0])
	*slot = f
	return nil
}

// fileSink is where a file part's bytes go as they arrive, kept with the
// upload's buffers: its SHA-1, its head, the boxes of a video, and the
// media folder where it is kept.
type fileSink struct {
	hash  hash.Hash // reset for each file
	head  headWriter
	video *mp4.Scanner  // nil: not a video
	file  *bufio.Writer // nil: not kept
}

// Write hands p to each; only keeping it, and growing the head past its
// room, can fail.
func (s *fileSink) Write(p []byte) (int, error) {
	s.hash.Write(p)
	if _, err := s.head.Write(p); err != nil {
		return 0, err
	}
	if s.video != nil {
		_, _ = s.video.Write(p)
	}
	if s.file != nil {
		if n, err := s.file.Write(p); err != nil {
			return n, err
		}
	}
	return len(p), nil
}

// rawFileName is a file part's filename as the client sent it, which must be
// a plain name: Part.FileName would quietly drop a path, and the
// stored originalFileName is shown to every client of the link.
func rawFileName(part *formdata.Part) (string, error) {
	name := part.RawFileName()
	bad := !utf8.ValidString(name) || name == "." || name == ".." || strings.ContainsAny(name, `/\`) ||
		strings.ContainsFunc(name, unicode.IsControl)
	if bad {
		return "", httpx.Errorf(http.StatusBadRequest, "Invalid file name %q: a file name is a plain name without a path or control characters", name)
	}
	if len(name) > store.MaxFileNameBytes {
		return "", httpx.Errorf(http.StatusBadRequest, "The file name of %s is %d bytes long: a file name is at most %d bytes", part.FormName(), len(name), store.MaxFileNameBytes)
	}
	return name, nil
}

// headWriter keeps the first max bytes written to it, and drops the rest.
// With sniff set, it keeps more than the first sniff bytes only of a file
// they show to be one whose head is read past them (ingest.HoldsMetadata): of a
// video or a document, the copy would be read by no one. The memory it
// grows into is set aside in room first (none where room is nil): past
// the room there is, it fails with errNoRoom.
type headWriter struct {
	b     []byte
	max   int
	sniff int // 0: keep up to max, whatever the file
	room  *httpx.Reservation
}

func (w *headWriter) Write(p []byte) (int, error) {
	n := len(p)
	if w.sniff > 0 {
		k := min(w.sniff-len(w.b), len(p), w.max-len(w.b))
		if err := w.keep(p[:k]); err != nil {
			return 0, err
		}
		p = p[k:]
		if len(w.b) < w.sniff {
			return n, nil
		}
		if !ingest.HoldsMetadata(w.b) {
			w.max = len(w.b)
		}
		w.sniff = 0
	}
	if room := w.max - len(w.b); room > 0 {
		if err := w.keep(p[:min(room, len(p))]); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// keep appends p, growing the head within max and its room.
func (w *headWriter) keep(p []byte) error {
	if need := len(w.b) + len(p); need > cap(w.b) {
		grown := min(max(need, 2*cap(w.b), exif.SniffSize), w.max)
		if w.room != nil && !w.room.Take(int64(grown-cap(w.b))) {
			return errNoRoom
		}
		b := make([]byte, len(w.b), grown)
		copy(b, w.b)
		w.b = b
	}
	w.b = append(w.b, p...)
	return nil
}

// validate checks the files, then the text fields together, and reports
// every problem of the fields in one message, in the reference's order and
// words.
func (up *upload) validate() error {
	if err := up.validateFiles(); err != nil {
		return err
	}
	return up.validateFields(true)
}

// validateFiles checks that the upload has its assetData.
func (up *upload) validateFiles() error {
	if up.files == 0 {
		return httpx.Errorf(http.StatusBadRequest, "File is required")
	}
	if up.asset == nil {
		return httpx.Errorf(http.StatusBadRequest, "Field(s) assetData should not be empty")
	}
	return nil
}

// validateFields checks the text fields: those every upload has, and with
// flags its booleans too.
func (up *upload) validateFields(flags bool) error {
	var problems []string
	str := func(name string) string {
		v, ok := up.fields[name]
		switch {
		case slices.Contains(up.repeated, name):
			problems = append(problems, name+" must be a string")
		case !ok:
			problems = append(problems, name+" must be a string", name+" should not be empty")
		case v == "":
			problems = append(problems, name+" should not be empty")
		case !utf8.ValidString(v):
			problems = append(problems, name+" must be valid UTF-8")
		}
		return v
	}
	up.deviceAssetID = str("deviceAssetId")
	up.deviceID = str("deviceId")
	for _, f := range []struct{ name, v string }{{"deviceAssetId", up.deviceAssetID}, {"deviceId", up.deviceID}} {
		if utf8.RuneCountInString(f.v) > store.MaxNameChars {
			problems = append(problems, fmt.Sprintf("%s must be shorter than or equal to %d characters", f.name, store.MaxNameChars))
		}
	}

	// A date that is there but not ISO 8601 replaces every other message, as
	// the reference's transform fails before its validation runs.
	for _, d := range []struct {
		name string
		dst  *time.Time
	}{{"fileCreatedAt", &up.fileCreatedAt}, {"fileModifiedAt", &up.fileModifiedAt}} {
		v, ok := up.fields[d.name]
		if slices.Contains(up.repeated, d.name) {
			problems = append(problems, d.name+" must be a Date instance")
			continue
		}
		if !ok || v == "" {
			problems = append(problems, d.name+" must be a Date instance", d.name+" should not be empty")
			continue
		}
		t, ok := dto.ParseDate(v)
		if !ok {
			return httpx.Errorf(http.StatusBadRequest, "%s must be a date string", d.name)
		}
		*d.dst = t
	}
	up.duration = cmp.Or(up.fields["duration"], model.DefaultDuration)

	boolean := func(name string, def bool) bool {
		v, ok := up.fields[name]
		switch {
		case slices.Contains(up.repeated, name):
		case !ok:
			return def
		case v == "true":
			return true
		case v == "false":
			return false
		}
		problems = append(problems, name+" must be a boolean value")
		return def
	}
	up.isVisible = true
	if flags {
		up.isFavorite = boolean("isFavorite", false)
		up.isArchived = boolean("isArchived", false)
		up.isVisible = boolean("isVisible", true)
		up.isOffline = boolean("isOffline", false)
	}
	if len(problems) > 0 {
		return &httpx.Error{Status: http.StatusBadRequest, Message: problems}
	}
	return nil
}

// records makes the stored asset of the upload, and the hidden video of a
// live photo if it has one. The store gives them their ids and times.
func (up *upload) records(owner string, places ingest.Places) (asset model.AssetRecord, live *model.AssetRecord) {
	asset = up.record(owner, up.asset, up.asset.filename, model.AssetTypeOf(strings.ToLower(path.Ext(up.asset.filename))), up.isVisible)
	up.readMetadata(&asset, up.asset, up.sidecar, places)
	if up.live != nil {
		v := up.record(owner, up.live, liveVideoName(up.asset.filename, up.live.filename), model.AssetVideo, false)
		up.readMetadata(&v, up.live, nil, places)
		live = &v
	}
	return asset, live
}

// liveVideoName is the name of a live photo's video, as the reference gives
// it: the still's, with the video's extension (IMG_4022.HEIC and
// VID_0001.mov make IMG_4022.mov), within the bound of a file name.
func liveVideoName(still, video string) string {
	base, ext := strings.TrimSuffix(still, path.Ext(still)), path.Ext(video)
	for len(base)+len(ext) > store.MaxFileNameBytes {
		_, size := utf8.DecodeLastRuneInString(base)
		base = base[:len(base)-size]
	}
	return base + ext
}

func (up *upload) record(owner string, f *filePart, name, typ string, visible bool) model.AssetRecord {
	created := up.fileCreatedAt.UTC()
	a := model.AssetRecord{
		OwnerID:          owner,
		DeviceAssetID:    up.deviceAssetID,
		DeviceID:         up.deviceID,
		Type:             typ,
		OriginalPath:     originalPath(owner, created, name),
		OriginalFileName: name,
		Checksum:         base64.StdEncoding.EncodeToString(f.sum[:]),
		Duration:         up.duration,
		FileCreatedAt:    model.At(up.fileCreatedAt),
		FileModifiedAt:   model.At(up.fileModifiedAt),
		LocalDateTime:    model.At(up.fileCreatedAt),
		IsFavorite:       up.isFavorite,
		IsArchived:       up.isArchived,
		IsOffline:        up.isOffline,
		IsVisible:        visible,
	}
	return a
}

// originalPath is where the reference keeps an upload's file:
// upload/library/OWNER/YYYY/YYYY-MM-DD/NAME, by the file's creation date.
func originalPath(owner string, created time.Time, name string) string {
	b := make([]byte, 0, len("upload/library/")+len(owner)+len("/2006/2006-01-02/")+len(name))
	b = append(b, "upload/library/"...)
	b = append(b, owner...)
	b = append(b, '/')
	b = created.AppendFormat(b, "2006")
	b = append(b, '/')
	b = created.AppendFormat(b, time.DateOnly)
	b = append(b, '/')
	b = append(b, name...)
	return string(b)
}
