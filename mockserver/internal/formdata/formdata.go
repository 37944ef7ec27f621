// Package formdata reads a multipart/form-data body as it streams, as
// mime/multipart reads it, from the caller's own buffered reader: a file
// part's bytes are searched for the boundary where they lie in that
// buffer and handed to the writer from there (Part.WriteTo), without the
// 4 KiB buffer and the copy that mime/multipart puts between.
//
// Its framing is mime/multipart's, line for line: the preamble skipped,
// a first boundary line ending in a bare "\n" switching the body to bare
// newlines, a boundary followed by anything but a blank, a newline or
// "--" being data, the closing boundary ending the body even without its
// newline. Two things differ, as the reference reads a body: a part's
// headers are at most MaxHeaderBytes (mime/multipart allows 10 MiB; the
// reference refuses 20 KB of them), and a quoted-printable part is kept
// as it was sent (the reference stores and hashes "a=3Db", not "a=b").
package formdata

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/textproto"
	"path/filepath"
	"strings"
)

// MaxHeaderBytes bounds the headers of one part.
const MaxHeaderBytes = 16 << 10

var (
	// ErrBoundary: the body does not follow the boundary of its
	// Content-Type (a line where a boundary must be).
	ErrBoundary = errors.New("formdata: the body does not follow its boundary")
	// ErrHeader: a part's headers cannot be read.
	ErrHeader = errors.New("formdata: a part's headers cannot be read")
	// ErrHeaderTooLarge: a part's headers pass MaxHeaderBytes.
	ErrHeaderTooLarge = errors.New("formdata: a part's headers are too large")
)

// Reader reads the parts of a body one after the other.
type Reader struct {
	br               *bufio.Reader
	nl               []byte // "\r\n", or "\n" once the body shows bare newlines
	nlDashBoundary   []byte // nl + "--" + boundary
	dashBoundaryDash []byte // "--" + boundary + "--"
	dashBoundary     []byte // "--" + boundary
	partsRead        int
	current          *Part
	part             Part // the one Part, each NextPart's

	// What reads the parts' headers, kept from part to part: the block
	// of a part's header lines, and the readers over it.
	block  []byte
	header bytes.Reader
	lines  *bufio.Reader
	tp     textproto.Reader
}

// NewReader reads a body from br, whose buffer must hold more than a
// boundary line (mime's boundaries are at most 70 bytes).
func NewReader(br *bufio.Reader, boundary string) *Reader {
	b := []byte("\r\n--" + boundary + "--")
	return &Reader{
		br:               br,
		nl:               b[:2],
		nlDashBoundary:   b[:len(b)-2],
		dashBoundaryDash: b[2:],
		dashBoundary:     b[2 : len(b)-2],
		block:            make([]byte, 0, blockSize),
	}
}

// blockSize is the room a Reader makes at first for a part's header
// lines: a client's are a line or two.
const blockSize = 256

// NextPart is the next part, io.EOF after the last. The part before it
// is read to its end first, and its Part is the next one's: a Part is
// good until the next call of NextPart.
func (r *Reader) NextPart() (*Part, error) {
	if r.current != nil {
		if err := r.current.Close(); err != nil {
			return nil, err
		}
		r.current = nil
	}
	if len(r.dashBoundary) == 2 {
		return nil, fmt.Errorf("%w: the boundary is empty", ErrBoundary)
	}
	expectNewPart := false
	for {
		line, err := r.readLine()
		if err == io.EOF && r.isFinalBoundary(line) {
			return nil, io.EOF // "--boundary--" without its newline
		}
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if r.isBoundaryDelimiterLine(line) {
			r.partsRead++
			r.part = Part{r: r}
			p := &r.part
			if err = r.readHeader(&p.header); err != nil {
				return nil, err
			}
			r.current = p
			return p, nil
		}
		if r.isFinalBoundary(line) {
			return nil, io.EOF
		}
		if expectNewPart {
			return nil, fmt.Errorf("%w: a line where a part's boundary must be", ErrBoundary)
		}
		if r.partsRead == 0 {
			continue // the preamble
		}
		if bytes.Equal(line, r.nl) {
			expectNewPart = true // the newline between a part's body and the boundary
			continue
		}
		return nil, fmt.Errorf("%w: a line after a part where the boundary must be", ErrBoundary)
	}
}

// readLine is the next line, newline included, as bufio.Reader.ReadSlice
// finds it; a line longer than the buffer is mime/multipart's error too.
func (r *Reader) readLine() ([]byte, error) {
	line, err := r.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		return line, fmt.Errorf("%w: a line longer than %d bytes", ErrBoundary, r.br.Size())
	}
	return line, err
}

// readHeader reads a part's headers, to the blank line that ends them.
func (r *Reader) readHeader(h *partHeader) error {
	block := r.block[:0]
	defer func() { r.block = block[:0] }()
	for lineStart := 0; ; {
		line, err := r.br.ReadSlice('\n')
		if len(block)+len(line) > MaxHeaderBytes {
			return ErrHeaderTooLarge
		}
		block = append(block, line...)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue // a line longer than the buffer: its rest follows
		case err == io.EOF:
			// Cut off in its headers: mime/multipart's answer is
			// textproto's of the same bytes, io.EOF (as if the body had
			// ended well) where the cut falls between two lines.
			if _, err := r.parseHeader(block); err != nil {
				return err
			}
			return io.EOF
		case err != nil:
			return err
		}
		if whole := block[lineStart:]; string(whole) == "\n" || string(whole) == "\r\n" {
			break // the blank line
		}
		lineStart = len(block)
	}
	if lines, ok := plainHeader(block, h.plain[:0]); ok {
		h.lines = lines
		return nil
	}
	var err error
	h.mime, err = r.parseHeader(block)
	return err
}

// partHeader is a part's headers: the lines of a plain block
// (plainHeader), or textproto's reading of any other.
type partHeader struct {
	lines []headerLine
	plain [4]headerLine // room for the lines of most parts
	mime  textproto.MIMEHeader
}

// headerLine is one header of a part: its key, canonical, and its value.
type headerLine struct{ key, value string }

// get is the first value of the header of canonical key, as
// textproto.MIMEHeader.Get gives it.
func (h *partHeader) get(key string) string {
	if h.mime != nil {
		return h.mime.Get(key)
	}
	for _, l := range h.lines {
		if l.key == key {
			return l.value
		}
	}
	return ""
}

// header is the headers as textproto gives them.
func (h *partHeader) header() textproto.MIMEHeader {
	if h.mime == nil {
		h.mime = textproto.MIMEHeader{}
		for _, l := range h.lines {
			h.mime[l.key] = append(h.mime[l.key], l.value)
		}
	}
	return h.mime
}

// plainHeader reads a block of header lines that ends in its blank line
// when every line is a plain "Key: value": the key of ASCII letters,
// digits and dashes, the value of bytes textproto takes, no line
// continued. It reads it as textproto does (the key made canonical, the
// value without the blanks around it), without textproto's map and a
// string a value, and appends its lines to lines; any other block it
// reports false of, and textproto reads it.
func plainHeader(block []byte, lines []headerLine) ([]headerLine, bool) {
	n := 0
	for rest := block; ; n++ {
		content, after, ok := bytes.Cut(rest, []byte{'\n'})
		if !ok {
			return nil, false // cut off
		}
		content = bytes.TrimSuffix(content, []byte{'\r'})
		rest = after
		if len(content) == 0 {
			if len(rest) > 0 {
				return nil, false
			}
			break
		}
		key, value, ok := bytes.Cut(content, []byte{':'})
		if !ok || !plainKey(key) || !plainValue(value) {
			return nil, false
		}
	}
	s := string(block) // one string, which the keys and values are cut from
	for i := 0; i < n; i++ {
		end := strings.IndexByte(s, '\n')
		content := strings.TrimSuffix(s[:end], "\r")
		s = s[end+1:]
		key, value, _ := strings.Cut(content, ":")
		lines = append(lines, headerLine{canonicalKey(key), strings.Trim(value, " \t")})
	}
	return lines, true
}

// plainKey says whether k is a key of ASCII letters, digits and dashes.
func plainKey(k []byte) bool {
	for _, c := range k {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return len(k) > 0
}

// plainValue says whether every byte of v is one textproto takes in a
// header's value: a visible ASCII character, a blank, or a byte of UTF-8
// and other text beyond ASCII.
func plainValue(v []byte) bool {
	for _, c := range v {
		if c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// canonicalKey is a plain key as textproto makes it canonical: a capital
// at its start and after each dash, the rest small. A key that is so
// already is returned as it is, without a copy.
func canonicalKey(k string) string {
	upper := true
	for i := 0; i < len(k); i++ {
		c := k[i]
		if upper && 'a' <= c && c <= 'z' || !upper && 'A' <= c && c <= 'Z' {
			return textproto.CanonicalMIMEHeaderKey(k)
		}
		upper = c == '-'
	}
	return k
}

// headerReadSize is the buffer of the reader of a part's header lines.
const headerReadSize = 512

// parseHeader reads a part's header lines as textproto reads them.
func (r *Reader) parseHeader(block []byte) (textproto.MIMEHeader, error) {
	r.header.Reset(block)
	if r.lines == nil {
		r.lines = bufio.NewReaderSize(&r.header, headerReadSize)
	} else {
		r.lines.Reset(&r.header)
	}
	r.tp.R = r.lines
	h, err := r.tp.ReadMIMEHeader()
	switch {
	case err == io.EOF:
		return nil, io.EOF
	case err != nil:
		return nil, fmt.Errorf("%w: %w", ErrHeader, err)
	}
	return h, nil
}

// isBoundaryDelimiterLine says whether line is a boundary that opens a
// part; the first one decides whether the body's newlines are bare.
func (r *Reader) isBoundaryDelimiterLine(line []byte) bool {
	if !bytes.HasPrefix(line, r.dashBoundary) {
		return false
	}
	rest := skipLWSPChar(line[len(r.dashBoundary):])
	if r.partsRead == 0 && len(rest) == 1 && rest[0] == '\n' {
		r.nl = r.nl[1:]
		r.nlDashBoundary = r.nlDashBoundary[1:]
	}
	return bytes.Equal(rest, r.nl)
}

// isFinalBoundary says whether line is the boundary that closes the body.
func (r *Reader) isFinalBoundary(line []byte) bool {
	if !bytes.HasPrefix(line, r.dashBoundaryDash) {
		return false
	}
	rest := skipLWSPChar(line[len(r.dashBoundaryDash):])
	return len(rest) == 0 || bytes.Equal(rest, r.nl)
}

func skipLWSPChar(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// Part is one part of the body: its headers, then its bytes.
type Part struct {
	header partHeader

	r       *Reader
	total   int64 // bytes of the body read
	n       int   // bytes known to be body, still in the buffer
	err     error // once n is read: io.EOF at the boundary, or the read's error
	readErr error // of the last read into the buffer

	// Of the Content-Disposition, once read: its type, and its name and
	// filename parameters.
	dispositionRead    bool
	disposition        string
	formName, fileName string
}

// Header is the part's headers, as textproto reads them.
func (p *Part) Header() textproto.MIMEHeader { return p.header.header() }

// FormName is the part's name, if its Content-Disposition is form-data.
func (p *Part) FormName() string {
	p.parseDisposition()
	if p.disposition != "form-data" {
		return ""
	}
	return p.formName
}

// FileName is the base of the part's filename, as mime/multipart gives
// it: "" for a part with no filename.
func (p *Part) FileName() string {
	p.parseDisposition()
	if p.fileName == "" {
		return ""
	}
	return filepath.Base(p.fileName)
}

// RawFileName is the part's filename as it was sent, path and all: ""
// for a part with no filename, or one whose Content-Disposition cannot be
// read.
func (p *Part) RawFileName() string {
	p.parseDisposition()
	return p.fileName
}

// parseDisposition reads the Content-Disposition once. The file name is
// a string of its own: a stored asset keeps it, and it would keep the
// part's whole header block, which its value is cut from.
func (p *Part) parseDisposition() {
	if p.dispositionRead {
		return
	}
	p.dispositionRead = true
	v := p.header.get("Content-Disposition")
	if name, filename, ok := parseFormData(v); ok {
		p.disposition, p.formName, p.fileName = "form-data", name, strings.Clone(filename)
		return
	}
	disposition, params, err := mime.ParseMediaType(v)
	p.disposition = disposition
	if err == nil {
		p.formName, p.fileName = params["name"], strings.Clone(params["filename"])
	}
}

// parseFormData reads the Content-Disposition that clients send, without
// the map and the copies of mime.ParseMediaType: form-data; name="..."
// and, for a file, ; filename="...", each value quoted and holding no
// quote, backslash or line break. It gives what ParseMediaType gives of
// such a value, and reports false for any other, which ParseMediaType
// reads.
func parseFormData(v string) (name, filename string, ok bool) {
	rest, ok := strings.CutPrefix(v, `form-data; name="`)
	if !ok {
		return "", "", false
	}
	if name, rest, ok = quotedValue(rest); !ok {
		return "", "", false
	}
	if rest == "" {
		return name, "", true
	}
	if rest, ok = strings.CutPrefix(rest, `; filename="`); !ok {
		return "", "", false
	}
	if filename, rest, ok = quotedValue(rest); !ok || rest != "" {
		return "", "", false
	}
	return name, filename, true
}

// ParseContentType is mime.ParseMediaType of a request's Content-Type,
// giving its media type and its boundary parameter. The Content-Type that
// clients send (multipart/form-data; boundary=..., the boundary a token,
// or quoted and holding no quote, backslash or line break) is read
// without ParseMediaType's map and copies; any other goes to it.
func ParseContentType(v string) (mediaType, boundary string, err error) {
	if rest, ok := strings.CutPrefix(v, "multipart/form-data; boundary="); ok {
		if quoted, ok := strings.CutPrefix(rest, `"`); ok {
			if b, rest, ok := quotedValue(quoted); ok && rest == "" {
				return "multipart/form-data", b, nil
			}
		} else if isToken(rest) {
			return "multipart/form-data", rest, nil
		}
	}
	mediaType, params, err := mime.ParseMediaType(v)
	return mediaType, params["boundary"], err
}

// isToken says whether s is a token of a MIME parameter (RFC 2045): one
// character or more, none a space, a control or a tspecial.
func isToken(s string) bool {
	for _, c := range []byte(s) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?=`, c) >= 0 {
			return false
		}
	}
	return s != ""
}

// quotedValue is the value of a quoted string whose opening quote is read,
// up to its closing quote, and what follows that; false where the value
// holds a backslash or a line break (an escape, or no value at all, which
// ParseMediaType tells).
func quotedValue(s string) (value, rest string, ok bool) {
	end := strings.IndexAny(s, "\"\\\r\n")
	if end < 0 || s[end] != '"' {
		return "", "", false
	}
	return s[:end], s[end+1:], true
}

// available is the body's bytes in the buffer now, waiting for more until
// there are some or the part has ended (io.EOF) or failed.
func (p *Part) available() ([]byte, error) {
	br := p.r.br
	for p.n == 0 && p.err == nil {
		peek, _ := br.Peek(br.Buffered())
		p.n, p.err = scanUntilBoundary(peek, p.r.dashBoundary, p.r.nlDashBoundary, p.total, p.readErr)
		if p.n == 0 && p.err == nil {
			_, p.readErr = br.Peek(len(peek) + 1) // read more into the buffer
			if p.readErr == io.EOF {
				p.readErr = io.ErrUnexpectedEOF
			}
		}
	}
	if p.n == 0 {
		return nil, p.err
	}
	peek, _ := br.Peek(p.n)
	return peek, nil
}

// consume moves past n bytes of the body.
func (p *Part) consume(n int) {
	_, _ = p.r.br.Discard(n)
	p.total += int64(n)
	p.n -= n
}

// Read reads the part's body.
func (p *Part) Read(b []byte) (int, error) {
	avail, err := p.available()
	if len(avail) == 0 {
		return 0, err
	}
	n := copy(b, avail)
	p.consume(n)
	if p.n == 0 && p.err != nil {
		return n, p.err
	}
	return n, nil
}

// WriteTo writes the part's body to w from where it lies in the reader's
// buffer; io.Copy and io.CopyBuffer call it.
func (p *Part) WriteTo(w io.Writer) (int64, error) {
	var written int64
	for {
		avail, err := p.available()
		if len(avail) == 0 {
			if err == io.EOF {
				err = nil
			}
			return written, err
		}
		n, werr := w.Write(avail)
		written += int64(n)
		p.consume(n)
		if werr != nil {
			return written, werr
		}
		if n < len(avail) {
			return written, io.ErrShortWrite
		}
	}
}

// Close reads the rest of the part's body.
func (p *Part) Close() error {
	_, err := p.WriteTo(io.Discard)
	return err
}

// scanUntilBoundary is how many bytes of buf are the body's for sure, and
// whether the body ends after them (io.EOF) or the read failed (readErr),
// as mime/multipart scans: "\n--boundary" ends the body where a blank, a
// newline, "--" or the end of the input follows it.
func scanUntilBoundary(buf, dashBoundary, nlDashBoundary []byte, total int64, readErr error) (int, error) {
	if total == 0 {
		// At the body's start, "--boundary" ends it as well.
		if bytes.HasPrefix(buf, dashBoundary) {
			switch matchAfterPrefix(buf, dashBoundary, readErr) {
			case -1:
				return len(dashBoundary), nil
			case 0:
				return 0, nil
			case +1:
				return 0, io.EOF
			}
		}
		if bytes.HasPrefix(dashBoundary, buf) {
			return 0, readErr
		}
	}
	if i := bytes.Index(buf, nlDashBoundary); i >= 0 {
		switch matchAfterPrefix(buf[i:], nlDashBoundary, readErr) {
		case -1:
			return i + len(nlDashBoundary), nil
		case 0:
			return i, nil
		case +1:
			return i, io.EOF
		}
	}
	if bytes.HasPrefix(nlDashBoundary, buf) {
		return 0, readErr
	}
	// A boundary the buffer ends in the middle of starts in its last
	// len(nlDashBoundary)-1 bytes: only they are searched for its first
	// byte (mime/multipart searches the whole buffer, byte by byte).
	from := max(0, len(buf)-len(nlDashBoundary)+1)
	if i := bytes.LastIndexByte(buf[from:], nlDashBoundary[0]); i >= 0 && bytes.HasPrefix(nlDashBoundary, buf[from+i:]) {
		return from + i, nil
	}
	return len(buf), readErr
}

// matchAfterPrefix is +1 where buf, which starts with prefix, is a
// boundary (prefix followed by a blank, a newline, "--" or the end of the
// input), -1 where it is not, and 0 where more input must decide.
func matchAfterPrefix(buf, prefix []byte, readErr error) int {
	if len(buf) == len(prefix) {
		if readErr != nil {
			return +1
		}
		return 0
	}
	c := buf[len(prefix)]
	if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
		return +1
	}
	if c == '-' {
		if len(buf) == len(prefix)+1 {
			if readErr != nil {
				return -1
			}
			return 0
		}
		if buf[len(prefix)+1] == '-' {
			return +1
		}
	}
	return -1
}
