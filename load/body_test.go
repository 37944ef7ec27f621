package load

import (
	"bytes"
	"crypto/sha1"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parsedUpload is an upload body read back as a server would.
type parsedUpload struct {
	fields      map[string]string
	filename    string
	partType    string
	fileSize    int
	fileSHA1    [20]byte
	firstLine   string
	bodyLength  int
	partsOfFile int
}

func parseUpload(t *testing.T, contentType string, body io.Reader) parsedUpload {
	t.Helper()
	_, params, err := mime.ParseMediaType(contentType)
	require.NoError(t, err)
	raw, err := io.ReadAll(body)
	require.NoError(t, err)
	out := parsedUpload{fields: map[string]string{}, bodyLength: len(raw)}
	mr := multipart.NewReader(bytes.NewReader(raw), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		data, err := io.ReadAll(p)
		require.NoError(t, err)
		if p.FileName() == "" {
			out.fields[p.FormName()] = string(data)
			continue
		}
		require.Equal(t, "assetData", p.FormName())
		out.partsOfFile++
		out.filename, out.partType = p.FileName(), p.Header.Get("Content-Type")
		out.fileSize, out.fileSHA1 = len(data), sha1.Sum(data)
		out.firstLine, _, _ = strings.Cut(string(data), "\n")
	}
	return out
}

func TestUploadForm(t *testing.T) {
	filler := newFiller(7)
	for _, size := range []int64{minUploadSize, 1000, fillerSize, fillerSize + 1, 3*fillerSize + 17} {
		t.Run(group(size), func(t *testing.T) {
			f, err := newUploadForm("abc123", 4, size, filler)
			require.NoError(t, err)
			seen := map[[20]byte]bool{}
			for _, n := range []uint64{0, 1, 99, 123456789012} {
				up := parseUpload(t, f.contentType, f.body(n))
				assert.EqualValues(t, f.length(), up.bodyLength, "Content-Length matches the body")
				assert.EqualValues(t, size, up.fileSize)
				assert.Equal(t, 1, up.partsOfFile)
				assert.Equal(t, "image/jpeg", up.partType)
				assert.True(t, strings.HasSuffix(up.filename, ".jpg"), up.filename)
				assert.Contains(t, up.filename, group0(n), "the counter is in the filename")
				assert.Equal(t, strings.TrimSuffix(up.filename, ".jpg"), up.fields["deviceAssetId"])
				assert.Equal(t, "mediaspec-load", up.fields["deviceId"])
				assert.Equal(t, "2026-01-02T03:04:05.000Z", up.fields["fileCreatedAt"])
				assert.Equal(t, "2026-01-02T03:04:05.000Z", up.fields["fileModifiedAt"])
				assert.Equal(t, "mediaspec load abc123 w004 "+group0(n), up.firstLine)
				assert.False(t, seen[up.fileSHA1], "upload %d repeats an earlier file", n)
				seen[up.fileSHA1] = true
			}
		})
	}
}

// group0 writes n as the form's counter does.
func group0(n uint64) string { return fmt.Sprintf("%0*d", counterDigits, n) }

func TestUploadFormsOfWorkersAndRunsDiffer(t *testing.T) {
	filler := newFiller(1)
	sum := func(tag string, worker int) [20]byte {
		f, err := newUploadForm(tag, worker, 4096, filler)
		require.NoError(t, err)
		return parseUpload(t, f.contentType, f.body(0)).fileSHA1
	}
	assert.NotEqual(t, sum("run1", 0), sum("run1", 1), "two workers")
	assert.NotEqual(t, sum("run1", 0), sum("run2", 0), "two runs")
	assert.Equal(t, sum("run1", 0), sum("run1", 0), "the same upload is the same file")
}

func TestUploadBodyReadsInSmallPieces(t *testing.T) {
	f, err := newUploadForm("tag", 0, fillerSize+100, newFiller(2))
	require.NoError(t, err)
	whole, err := io.ReadAll(f.body(5))
	require.NoError(t, err)
	var pieces bytes.Buffer
	b, p := f.body(5), make([]byte, 7)
	for {
		n, err := b.Read(p)
		pieces.Write(p[:n])
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
	}
	assert.Equal(t, whole, pieces.Bytes())
}

func TestUploadFormTooSmall(t *testing.T) {
	_, err := newUploadForm("abcdef012345", 1, 10, newFiller(1))
	assert.ErrorContains(t, err, "below")
}
