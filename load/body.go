package load

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/textproto"
	"strings"
	"time"
)

// fillerSize is the size of the random block that fills every uploaded file
// after its unique first line; a larger file repeats it.
const fillerSize = 64 << 10

// counterDigits is the width of the per-upload counter written into the
// form: fixed, so that it can be patched in place.
const counterDigits = 12

// uploadForm is the multipart body of one worker's uploads, built once. A
// body is the head (the text fields, the file part's header and the file's
// first line, where the counter sits), then the shared random filler up to
// the file's size, then the tail (the closing boundary). Only the head
// differs from one upload to the next, so each request copies and patches
// those few hundred bytes and shares the rest: a file of any size costs the
// same memory and almost no CPU to produce.
//
// The head is copied rather than patched in place because a transport may
// still read a request's body after RoundTrip has returned (the
// http.RoundTripper contract allows it): one buffer reused across requests
// would race.
type uploadForm struct {
	head        []byte
	tail        []byte
	filler      []byte
	fill        int64 // filler bytes in a body: the file's size less its first line
	counterAt   []int // offsets in head of the counter's digits
	dateAt      []int // offsets in head of fileCreatedAt's and fileModifiedAt's values
	contentType string
}

// formDate is the files' date in the form, of the width every date takes.
const formDate = "2026-01-02T03:04:05.000Z"

// newUploadForm builds the form of a worker's uploads of files of size bytes.
// tag is the run's random tag: with it and the worker's number in the file's
// first line, every file of every run is new content. filler is shared and
// only read.
func newUploadForm(tag string, worker int, size int64, filler []byte) (*uploadForm, error) {
	placeholder := strings.Repeat("#", counterDigits)
	name := fmt.Sprintf("load-%s-w%03d-%s", tag, worker, placeholder)
	// The file's first line is what makes its content, and so its SHA-1, new.
	firstLine := fmt.Sprintf("mediaspec load %s w%03d %s\n", tag, worker, placeholder)
	if size < int64(len(firstLine)) {
		return nil, fmt.Errorf("upload size %d is below the %d bytes a unique file needs", size, len(firstLine))
	}

	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, kv := range [][2]string{
		{"deviceAssetId", name},
		{"deviceId", "mediaspec-load"},
		{"fileCreatedAt", formDate},
		{"fileModifiedAt", formDate},
	} {
		if err := mw.WriteField(kv[0], kv[1]); err != nil {
			return nil, fmt.Errorf("build upload form: %w", err)
		}
	}
	// CreateFormFile would say application/octet-stream; a photo app says what it sends.
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="assetData"; filename="%s.jpg"`, name))
	h.Set("Content-Type", "image/jpeg")
	if _, err := mw.CreatePart(h); err != nil {
		return nil, fmt.Errorf("build upload form: %w", err)
	}
	b.WriteString(firstLine)
	head := bytes.Clone(b.Bytes())
	b.Reset()
	if err := mw.Close(); err != nil {
		return nil, fmt.Errorf("build upload form: %w", err)
	}

	f := &uploadForm{
		head:        head,
		tail:        bytes.Clone(b.Bytes()),
		filler:      filler,
		fill:        size - int64(len(firstLine)),
		contentType: mw.FormDataContentType(),
	}
	for off := 0; ; {
		i := bytes.Index(head[off:], []byte(formDate))
		if i < 0 {
			break
		}
		f.dateAt = append(f.dateAt, off+i)
		off += i + len(formDate)
	}
	for off := 0; ; {
		i := bytes.Index(head[off:], []byte(placeholder))
		if i < 0 {
			break
		}
		f.counterAt = append(f.counterAt, off+i)
		copy(head[off+i:], strings.Repeat("0", counterDigits))
		off += i + counterDigits
	}
	return f, nil
}

// length returns the size of a whole body.
func (f *uploadForm) length() int64 {
	return int64(len(f.head)) + f.fill + int64(len(f.tail))
}

// body returns the body of upload number n.
func (f *uploadForm) body(n uint64) *uploadBody {
	head := bytes.Clone(f.head)
	var digits [counterDigits]byte
	for i := counterDigits - 1; i >= 0; i-- {
		digits[i] = byte('0' + n%10)
		n /= 10
	}
	for _, at := range f.counterAt {
		copy(head[at:], digits[:])
	}
	return &uploadBody{form: f, head: head}
}

// bodyAt is body(n) of a file dated at (UTC, to the millisecond; years
// 1000 to 9999).
func (f *uploadForm) bodyAt(n uint64, at time.Time) *uploadBody {
	b := f.body(n)
	date := at.UTC().Format("2006-01-02T15:04:05.000Z")
	for _, off := range f.dateAt {
		copy(b.head[off:], date)
	}
	return b
}

// uploadBody reads one upload's body: its head, the filler, the tail.
type uploadBody struct {
	form *uploadForm
	head []byte // what is left to read of the head
	fill int64  // filler bytes read
	tail int    // tail bytes read
}

// Read implements io.Reader.
func (b *uploadBody) Read(p []byte) (int, error) {
	switch {
	case len(b.head) > 0:
		n := copy(p, b.head)
		b.head = b.head[n:]
		return n, nil
	case b.fill < b.form.fill:
		// The filler repeats: continue where the previous read stopped.
		chunk := b.form.filler[b.fill%int64(len(b.form.filler)):]
		if left := b.form.fill - b.fill; int64(len(chunk)) > left {
			chunk = chunk[:left]
		}
		n := copy(p, chunk)
		b.fill += int64(n)
		return n, nil
	case b.tail < len(b.form.tail):
		n := copy(p, b.form.tail[b.tail:])
		b.tail += n
		return n, nil
	}
	return 0, io.EOF
}

// Close implements io.Closer; a transport closes a request's body when done.
func (b *uploadBody) Close() error { return nil }

// newFiller returns fillerSize pseudo-random bytes, the same for a seed.
// Random, so that a server that compresses or deduplicates blocks gets no
// help from the load.
func newFiller(seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 0x6d65646961))
	b := make([]byte, fillerSize)
	for i := 0; i+8 <= len(b); i += 8 {
		v := r.Uint64()
		for j := range 8 {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	return b
}
