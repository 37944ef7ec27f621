package formdata

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"errors"
	"io"
	"math/rand/v2"
	"mime"
	"mime/multipart"
	"net/textproto"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seen is what a reader made of a body: each part's name, file name,
// headers and bytes, and whether it ended well.
type seen struct {
	Parts []seenPart
	Err   bool
}

type seenPart struct {
	Name, File string
	Header     textproto.MIMEHeader
	Body       string
	BodyErr    bool
}

// readStd reads body as mime/multipart reads it (its raw parts: quoted-
// printable ones are not decoded here either).
func readStd(body []byte, boundary string) seen {
	var s seen
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	for {
		p, err := mr.NextRawPart()
		if err != nil {
			s.Err = err != io.EOF
			return s
		}
		b, err := io.ReadAll(p)
		s.Parts = append(s.Parts, seenPart{p.FormName(), p.FileName(), p.Header, string(b), err != nil})
	}
}

// readOurs reads body with a Reader over a buffer of size bytes, through
// Read or WriteTo as useWriteTo says for each part.
func readOurs(body []byte, boundary string, size int, useWriteTo func(int) bool) seen {
	var s seen
	r := NewReader(bufio.NewReaderSize(bytes.NewReader(body), size), boundary)
	for i := 0; ; i++ {
		p, err := r.NextPart()
		if err != nil {
			s.Err = err != io.EOF
			return s
		}
		var b bytes.Buffer
		if useWriteTo(i) {
			_, err = p.WriteTo(&b)
		} else {
			_, err = io.Copy(&b, struct{ io.Reader }{p}) // Read alone
		}
		s.Parts = append(s.Parts, seenPart{p.FormName(), p.FileName(), p.Header(), b.String(), err != nil})
	}
}

func form(t testing.TB, parts ...[2]string) ([]byte, string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, p := range parts {
		if strings.HasPrefix(p[0], "file:") {
			fw, err := w.CreateFormFile("assetData", strings.TrimPrefix(p[0], "file:"))
			require.NoError(t, err)
			_, _ = fw.Write([]byte(p[1]))
			continue
		}
		require.NoError(t, w.WriteField(p[0], p[1]))
	}
	require.NoError(t, w.Close())
	return b.Bytes(), w.Boundary()
}

// seeds are bodies that exercise the framing's corners.
func seeds(t testing.TB) [][2]string {
	const bd = "XyZ"
	random := make([]byte, 20000)
	_, _ = rand.NewChaCha8([32]byte{7}).Read(random)
	valid, boundary := form(t, [2]string{"deviceId", "phone"}, [2]string{"file:IMG_1.JPG", string(random)})
	out := [][2]string{
		{string(valid), boundary},
		{string(valid[:len(valid)-10]), boundary}, // cut off
		{string(valid[:len(valid)/2]), boundary},
		{"preamble\r\n--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n--XyZ--\r\nepilogue", bd},
		{"--XyZ\nContent-Disposition: form-data; name=\"a\"\n\nvalue\n--XyZ--\n", bd},                     // bare newlines
		{"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv --XyZa \r\n--XyZb\r\n--XyZ--", bd}, // boundary-like data
		{"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n--XyZ\r\n--XyZ--", bd},               // empty body, boundary at once
		{"--XyZ \t\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--XyZ--  \r\n", bd},          // transport padding
		{"--XyZ\r\nbroken header\r\n\r\nv\r\n--XyZ--", bd},
		{"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--XyZ\r\nx\r\n--XyZ--", bd},
		{"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\njunk\r\n--XyZ--", bd},
		{"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--XyZ-", bd},
		{"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--XyZ--", bd},
		{"--XyZ\r\nContent-Disposition: form-data; name=\"a\"; filename=\"../x/IMG.JPG\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\na=3Db\r\n--XyZ--", bd},
		{"--XyZ\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nv\r\n--XyZ--", bd},
		{"", bd},
		{"--XyZ--", bd},
		{"no boundary at all", bd},
	}
	return out
}

// TestSameAsMimeMultipart: on every seed, cut anywhere, the parts and the
// outcome are those of mime/multipart, through Read and through WriteTo,
// over a 4 KiB buffer (mime/multipart's own) and a 64 KiB one.
func TestSameAsMimeMultipart(t *testing.T) {
	for i, sd := range seeds(t) {
		body := []byte(sd[0])
		cuts := []int{len(body)}
		for c := 0; c < len(body) && c < 400; c++ {
			cuts = append(cuts, c)
		}
		for _, c := range cuts {
			want := readStd(body[:c], sd[1])
			for _, size := range []int{4096, 64 << 10} {
				for _, wt := range []func(int) bool{func(int) bool { return true }, func(int) bool { return false }} {
					got := readOurs(body[:c], sd[1], size, wt)
					if !assert.Equal(t, want, got, "seed %d cut at %d, buffer %d", i, c, size) {
						return
					}
				}
			}
		}
	}
}

func FuzzSameAsMimeMultipart(f *testing.F) {
	for _, sd := range seeds(f) {
		if len(sd[0]) < 2000 {
			f.Add([]byte(sd[0]), sd[1], uint8(0))
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, boundary string, mode uint8) {
		if len(body) > 8<<10 || boundary == "" || len(boundary) > 70 || strings.ContainsAny(boundary, "\r\n") {
			return
		}
		want := readStd(body, boundary)
		got := readOurs(body, boundary, 4096+int(mode)%3*100, func(i int) bool { return mode>>(i%8)&1 == 1 })
		require.Equal(t, want, got)
	})
}

func TestHeadersAreBounded(t *testing.T) {
	body := "--b\r\nContent-Disposition: form-data; name=\"a\"\r\nX-Long: " + strings.Repeat("x", MaxHeaderBytes) + "\r\n\r\nv\r\n--b--"
	_, err := NewReader(bufio.NewReaderSize(strings.NewReader(body), 4096), "b").NextPart()
	assert.ErrorIs(t, err, ErrHeaderTooLarge)

	_, err = NewReader(bufio.NewReader(strings.NewReader("--b\r\nbroken\r\n\r\n")), "b").NextPart()
	assert.ErrorIs(t, err, ErrHeader)
}

// TestWriteToHandsTheBufferOver: a file part's bytes reach the writer
// in the reader's buffer, in writes as large as it holds, and hash as
// they were sent.
func TestWriteToHandsTheBufferOver(t *testing.T) {
	random := make([]byte, 1<<20)
	_, _ = rand.NewChaCha8([32]byte{3}).Read(random)
	body, boundary := form(t, [2]string{"file:a.jpg", string(random)})
	r := NewReader(bufio.NewReaderSize(bytes.NewReader(body), 64<<10), boundary)
	p, err := r.NextPart()
	require.NoError(t, err)
	w := &countingHash{h: sha1.New()}
	n, err := io.CopyBuffer(w, p, make([]byte, 4096))
	require.NoError(t, err)
	assert.Equal(t, int64(len(random)), n)
	assert.Equal(t, sha1.Sum(random), [20]byte(w.h.Sum(nil)))
	assert.Less(t, w.writes, len(random)/(32<<10), "writes of the buffer's size, not of the copy buffer's")
	_, err = r.NextPart()
	assert.Equal(t, io.EOF, err)
}

type countingHash struct {
	h interface {
		io.Writer
		Sum([]byte) []byte
	}
	writes int
}

func (c *countingHash) Write(b []byte) (int, error) { c.writes++; return c.h.Write(b) }

// A read error of the body (a size limit, a client too slow) reaches the
// caller as it is.
func TestReadErrorsPassThrough(t *testing.T) {
	body, boundary := form(t, [2]string{"file:a.jpg", strings.Repeat("z", 100000)})
	limit := errors.New("too large")
	src := io.MultiReader(bytes.NewReader(body[:50000]), errReader{limit})
	p, err := NewReader(bufio.NewReaderSize(src, 4096), boundary).NextPart()
	require.NoError(t, err)
	_, err = p.WriteTo(io.Discard)
	assert.ErrorIs(t, err, limit)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// BenchmarkFilePart reads a 100 KiB file part into SHA-1 with this
// package and with mime/multipart, over the same 64 KiB buffered body.
func BenchmarkFilePart(b *testing.B) {
	random := make([]byte, 100<<10)
	_, _ = rand.NewChaCha8([32]byte{5}).Read(random)
	body, boundary := form(b, [2]string{"deviceId", "phone"}, [2]string{"file:a.jpg", string(random)})
	br := bufio.NewReaderSize(nil, 64<<10)
	copyBuf := make([]byte, 4096)
	for _, impl := range []string{"formdata", "mime"} {
		b.Run(impl, func(b *testing.B) {
			b.SetBytes(int64(len(random)))
			b.ReportAllocs()
			for b.Loop() {
				br.Reset(bytes.NewReader(body))
				h := sha1.New()
				var err error
				if impl == "formdata" {
					r := NewReader(br, boundary)
					for p, e := r.NextPart(); e == nil; p, e = r.NextPart() {
						_, err = io.CopyBuffer(h, p, copyBuf)
					}
				} else {
					r := multipart.NewReader(br, boundary)
					for p, e := r.NextPart(); e == nil; p, e = r.NextPart() {
						_, err = io.CopyBuffer(h, p, copyBuf)
					}
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// dispositionSeeds are Content-Dispositions as clients send them, and as
// they may: escapes, other spacing and case, RFC 2231 names, breaks.
var dispositionSeeds = []string{
	`form-data; name="deviceId"`,
	`form-data; name="assetData"; filename="IMG_0001.JPG"`,
	`form-data; name=""`,
	`form-data; name="a"; filename=""`,
	`form-data; name="a"; filename="C:\dir\x.jpg"`,
	`form-data; name="a"; filename="q\"uote.jpg"`,
	`form-data; name="a"; filename="line` + "\r\n" + `break.jpg"`,
	`form-data;name="a"`,
	`form-data; name="a" ; filename="b"`,
	`Form-Data; name="a"`,
	`form-data; NAME="a"`,
	`form-data; name=a`,
	`form-data; name="a"; filename*=UTF-8''%C3%A9.jpg`,
	`form-data; name="a"; filename="b"; filename="c"`,
	`form-data; name="a";`,
	`form-data; name="a`,
	`form-data; name="été"; filename="写真.jpg"`,
	`attachment; filename="x"`,
	``,
}

// checkDisposition checks parseFormData against mime.ParseMediaType: where
// it reads a value, it reads what ParseMediaType reads.
func checkDisposition(t *testing.T, v string) {
	name, filename, ok := parseFormData(v)
	if !ok {
		return
	}
	typ, params, err := mime.ParseMediaType(v)
	require.NoError(t, err, "%q", v)
	assert.Equal(t, "form-data", typ, "%q", v)
	assert.Equal(t, name, params["name"], "%q", v)
	assert.Equal(t, filename, params["filename"], "%q", v)
	for k := range params {
		assert.Contains(t, []string{"name", "filename"}, k, "%q", v)
	}
}

func TestDispositionAsParseMediaType(t *testing.T) {
	for _, v := range dispositionSeeds {
		checkDisposition(t, v)
	}
	// What clients send is read without ParseMediaType; the rest by it.
	for v, fast := range map[string]bool{
		dispositionSeeds[0]: true, dispositionSeeds[1]: true, dispositionSeeds[5]: false, dispositionSeeds[8]: false,
	} {
		_, _, ok := parseFormData(v)
		assert.Equal(t, fast, ok, "%q", v)
	}
	// And a part reads the same either way.
	for _, v := range dispositionSeeds {
		p := &Part{header: partHeader{mime: textproto.MIMEHeader{"Content-Disposition": {v}}}}
		typ, params, err := mime.ParseMediaType(v)
		if err != nil {
			params = nil
		}
		if typ == "form-data" {
			assert.Equal(t, params["name"], p.FormName(), "%q", v)
		} else {
			assert.Empty(t, p.FormName(), "%q", v)
		}
		assert.Equal(t, params["filename"], p.RawFileName(), "%q", v)
	}
}

func FuzzDispositionAsParseMediaType(f *testing.F) {
	for _, v := range dispositionSeeds {
		f.Add(v)
	}
	f.Fuzz(checkDisposition)
}

// contentTypeSeeds are Content-Types of uploads as clients send them, and
// as they may.
var contentTypeSeeds = []string{
	"multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW",
	"multipart/form-data; boundary=--------------------------123456789012345678901234",
	"multipart/form-data; boundary=\"quoted boundary\"",
	"multipart/form-data; boundary=\"q\\\"uote\"",
	"multipart/form-data; boundary=\"\"",
	"multipart/form-data; boundary=",
	"multipart/form-data; boundary=a b",
	"multipart/form-data; boundary=a;",
	"multipart/form-data; boundary=a; charset=utf-8",
	"multipart/form-data;boundary=abc",
	"Multipart/Form-Data; boundary=abc",
	"multipart/form-data; BOUNDARY=abc",
	"multipart/form-data; boundary=ab\"c",
	"multipart/form-data; boundary=\"abc",
	"multipart/form-data; boundary=été",
	"multipart/mixed; boundary=abc",
	"multipart/form-data",
	"application/json",
	"",
}

// checkContentType checks ParseContentType against mime.ParseMediaType.
func checkContentType(t *testing.T, v string) {
	typ, boundary, err := ParseContentType(v)
	wantType, params, wantErr := mime.ParseMediaType(v)
	assert.Equal(t, wantErr, err, "%q", v)
	assert.Equal(t, wantType, typ, "%q", v)
	assert.Equal(t, params["boundary"], boundary, "%q", v)
}

func TestContentTypeAsParseMediaType(t *testing.T) {
	for _, v := range contentTypeSeeds {
		checkContentType(t, v)
	}
}

func FuzzContentTypeAsParseMediaType(f *testing.F) {
	for _, v := range contentTypeSeeds {
		f.Add(v)
	}
	f.Fuzz(checkContentType)
}

// headerSeeds are blocks of part headers as clients send them, and as
// they may: continued lines, odd keys and bytes, bare newlines, no end.
var headerSeeds = []string{
	"Content-Disposition: form-data; name=\"deviceId\"\r\n\r\n",
	"Content-Disposition: form-data; name=\"assetData\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n",
	"content-disposition:form-data; name=\"a\"  \r\ncontent-TYPE: \t text/plain\t\r\n\r\n",
	"X-A: 1\r\nX-A: 2\r\nx-a: 3\r\n\r\n",
	"A: b\n\n",
	"A: b\r\n continued\r\n\r\n",
	" A: b\r\n\r\n",
	"A : b\r\n\r\n",
	"A_B: c\r\n\r\n",
	"A: b\x00c\r\n\r\n",
	"A: b\rc\r\n\r\n",
	"A: b\r\r\n\r\n",
	"A: b\x7f\r\n\r\n",
	"A: été\r\n\r\n",
	"A: b\r\n",
	"A\r\n\r\n",
	":b\r\n\r\n",
	"\r\n",
	"A: b\r\n\r\nextra",
}

// checkHeader checks plainHeader against textproto: where it reads a
// block, it reads what textproto reads.
func checkHeader(t *testing.T, block []byte) {
	lines, ok := plainHeader(block, nil)
	if !ok {
		return
	}
	want, err := textproto.NewReader(bufio.NewReader(bytes.NewReader(block))).ReadMIMEHeader()
	require.NoError(t, err, "%q", block)
	h := partHeader{lines: lines}
	assert.Equal(t, want, h.header(), "%q", block)
	for k := range want {
		assert.Equal(t, want.Get(k), (&partHeader{lines: lines}).get(k), "%q", block)
	}
}

func TestPlainHeaderAsTextproto(t *testing.T) {
	for _, b := range headerSeeds {
		checkHeader(t, []byte(b))
	}
	for b, plain := range map[string]bool{headerSeeds[0]: true, headerSeeds[1]: true, headerSeeds[2]: true, headerSeeds[5]: false, headerSeeds[7]: false} {
		_, ok := plainHeader([]byte(b), nil)
		assert.Equal(t, plain, ok, "%q", b)
	}
}

func FuzzPlainHeaderAsTextproto(f *testing.F) {
	for _, b := range headerSeeds {
		f.Add([]byte(b))
	}
	f.Fuzz(checkHeader)
}
