package mockserver

import (
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testJPEG is a w×h JPEG of a gradient, without EXIF.
func testJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(255 * x / w), uint8(255 * y / h), 120, 255})
		}
	}
	var b bytes.Buffer
	require.NoError(t, jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}))
	return b.Bytes()
}

// pngBomb is a PNG whose header declares 100,000 × 100,000 pixels.
func pngBomb(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))))
	p := b.Bytes()
	// The IHDR chunk follows the 8-byte signature: length, type, data, CRC.
	binary.BigEndian.PutUint32(p[16:], 100_000)
	binary.BigEndian.PutUint32(p[20:], 100_000)
	binary.BigEndian.PutUint32(p[29:], crc32.ChecksumIEEE(p[12:29]))
	return p
}

func newMediaServer(t *testing.T) (*httptest.Server, string) {
	dir := t.TempDir()
	return newTestServer(t, func(c *Config) { c.MediaDir = dir }), dir
}

// waitForPicture polls a picture route until it answers 200, as a client
// of the reference does while its jobs run.
func waitForPicture(t *testing.T, srv *httptest.Server, path string) reply {
	t.Helper()
	var rep reply
	require.Eventually(t, func() bool {
		rep = do(t, newRequest(t, http.MethodGet, srv.URL+path, nil, "x-api-key", keyAlice))
		return rep.status == http.StatusOK
	}, 10*time.Second, 20*time.Millisecond, "%s never answered 200: %d %s", path, rep.status, rep.body)
	return rep
}

// TestUploadKeepsItsBytesAndGetsPictures: an upload's original comes back
// byte for byte (its SHA-1 is the asset's checksum), with the type of its
// extension; its thumbnail and preview are made after the answer, and then
// the asset has its thumbhash and resized: true.
func TestUploadKeepsItsBytesAndGetsPictures(t *testing.T) {
	srv, dir := newMediaServer(t)
	content := testJPEG(t, 640, 480)
	rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "IMG_0042.jpg", string(content)), keyAlice))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var res struct{ ID string }
	rep.json(t, &res)

	orig := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+res.ID, nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, orig.status)
	assert.Equal(t, "image/jpeg", orig.header.Get("Content-Type"))
	sum := sha1.Sum(orig.body)
	assert.Equal(t, content, orig.body, "byte for byte")
	part := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+res.ID, nil, "x-api-key", keyAlice, "Range", "bytes=100-199"))
	assert.Equal(t, http.StatusPartialContent, part.status)
	assert.Equal(t, content[100:200], part.body)

	thumb := decodeImage(t, waitForPicture(t, srv, "/api/asset/thumbnail/"+res.ID))
	assert.Equal(t, image.Rect(0, 0, 333, 250), thumb.Bounds())
	preview := decodeImage(t, waitForPicture(t, srv, "/api/asset/thumbnail/"+res.ID+"?format=JPEG"))
	assert.Equal(t, image.Rect(0, 0, 640, 480), preview.Bounds(), "never enlarged")

	// The asset says so once both are written.
	var asset struct {
		Checksum  string
		Thumbhash *string
		Resized   bool
	}
	require.Eventually(t, func() bool {
		do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/"+res.ID, nil, "x-api-key", keyAlice)).json(t, &asset)
		return asset.Resized
	}, 10*time.Second, 20*time.Millisecond)
	assert.Equal(t, base64.StdEncoding.EncodeToString(sum[:]), asset.Checksum)
	assert.NotNil(t, asset.Thumbhash)

	assert.Empty(t, arriving(dir), "nothing is left arriving")
}

// arriving are the upload files in a media folder's incoming/ (a picture
// being written there is the workers' own). It may run beside the test, in
// require.Eventually: an unreadable folder holds none.
func arriving(dir string) []string {
	entries, _ := os.ReadDir(filepath.Join(dir, "incoming"))
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "upload-") {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestUploadsThatAreNotPicturesGetPlaceholders: an empty file, a truncated
// one, text named .png, a PNG declaring 100,000 × 100,000 pixels and a
// video: each upload is stored, and gets a placeholder thumbnail, never a
// 500 and never a crash.
func TestUploadsThatAreNotPicturesGetPlaceholders(t *testing.T) {
	srv, _ := newMediaServer(t)
	cut := testJPEG(t, 320, 240)
	for name, content := range map[string][]byte{
		"empty.jpg":  nil,
		"cut.jpg":    cut[:len(cut)/2],
		"notes.png":  []byte("these are not the pixels you are looking for"),
		"bomb.png":   pngBomb(t),
		"clip.mp4":   []byte("\x00\x00\x00\x18ftypmp42 not really a video"),
		"photo.heic": []byte("\x00\x00\x00\x18ftypheic not decoded by Go"),
	} {
		t.Run(name, func(t *testing.T) {
			rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", name, string(content)), keyAlice))
			require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
			var res struct{ ID string }
			rep.json(t, &res)
			img := decodeImage(t, waitForPicture(t, srv, "/api/asset/thumbnail/"+res.ID))
			assert.Equal(t, 250, min(img.Bounds().Dx(), img.Bounds().Dy()))
			orig := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+res.ID, nil, "x-api-key", keyAlice))
			assert.Equal(t, http.StatusOK, orig.status)
			assert.Equal(t, string(content), string(orig.body), "the original is what came, whatever it is")
		})
	}
}

// TestRefusedAndDuplicateUploadsKeepNoFile: only an upload that makes a
// new asset keeps its file.
func TestRefusedAndDuplicateUploadsKeepNoFile(t *testing.T) {
	srv, dir := newMediaServer(t)
	content := string(testJPEG(t, 64, 48))
	rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "a.jpg", content), keyAlice))
	require.Equal(t, http.StatusCreated, rep.status)
	rep = do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "b.jpg", content), keyAlice))
	require.Equal(t, http.StatusOK, rep.status, "a duplicate")
	rep = do(t, uploadRequest(t, srv, validForm("").onlyFields().without("deviceId").withFile("assetData", "c.jpg", content+"x"), keyAlice))
	require.Equal(t, http.StatusBadRequest, rep.status)

	originals, err := os.ReadDir(filepath.Join(dir, "originals"))
	require.NoError(t, err)
	assert.Len(t, originals, 1)
	assert.Empty(t, arriving(dir))
}

// TestReusedMediaFolderStartsClean: files left arriving by a mock that
// stopped belong to no asset; a mock that reuses the folder removes them,
// and keeps the originals.
func TestReusedMediaFolderStartsClean(t *testing.T) {
	dir := t.TempDir()
	m, err := openMedia(dir, 0)
	require.NoError(t, err)
	f, done, err := m.incoming()
	require.NoError(t, err)
	done()
	require.NoError(t, os.WriteFile(m.original("kept"), []byte("an original"), 0o600))

	_, err = openMedia(dir, 0)
	require.NoError(t, err)
	_, err = os.Stat(f.Name())
	assert.ErrorIs(t, err, os.ErrNotExist, "the half-arrived file is gone")
	kept, err := os.ReadFile(m.original("kept"))
	require.NoError(t, err)
	assert.Equal(t, "an original", string(kept))
}

// TestRawUploadShowsItsEmbeddedPreview: a RAW file Go cannot decode gets
// the pictures of the JPEG preview its camera embedded, not a placeholder.
func TestRawUploadShowsItsEmbeddedPreview(t *testing.T) {
	srv, _ := newMediaServer(t)
	raw := append([]byte("MM\x00*\x00\x00\x00\x08 sensor data, then the camera's preview: "), testJPEG(t, 480, 640)...)
	rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "IMG_0007.CR2", string(raw)), keyAlice))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var res struct{ ID string }
	rep.json(t, &res)
	img := decodeImage(t, waitForPicture(t, srv, "/api/asset/thumbnail/"+res.ID))
	assert.Equal(t, image.Rect(0, 0, 250, 333), img.Bounds(), "the preview's portrait shape, not a 4:3 placeholder")
}

// TestCloseWaitsForThePictures: Close returns once the queued pictures are
// made, so that the media folder may be removed; uploads after it are
// answered, without pictures.
func TestCloseWaitsForThePictures(t *testing.T) {
	dir := t.TempDir()
	h, err := New(Config{Dataset: testDataset, Now: testNow, MediaDir: dir})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()
	rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "IMG_0100.jpg", string(testJPEG(t, 64, 48))), keyAlice))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var res struct{ ID string }
	rep.json(t, &res)

	Close(h)
	_, err = os.Stat(filepath.Join(dir, "thumbs", res.ID+".webp"))
	assert.NoError(t, err, "the queued thumbnail was made before Close returned")
	rep = do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "IMG_0101.jpg", string(testJPEG(t, 32, 24))), keyAlice))
	assert.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	Close(h) // twice is no harm
}

// TestUploadFilesAreBounded: while every place for an upload file is taken
// (by a client that stalls in the middle of its file), one more upload is
// answered 503 before a file is opened; the freed place serves again.
func TestUploadFilesAreBounded(t *testing.T) {
	dir := t.TempDir()
	srv := newTestServer(t, func(c *Config) { c.MediaDir, c.MaxUploadFiles = dir, 1 })
	body, ct := validForm("").onlyFields().withFile("assetData", "IMG_0200.jpg", string(testJPEG(t, 64, 48))).encode(t)
	pr, pw := io.Pipe()
	stalled := make(chan reply, 1)
	go func() {
		r, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/asset/upload", pr)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("x-api-key", keyAlice)
		r.ContentLength = int64(len(body))
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			stalled <- reply{}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		stalled <- reply{status: resp.StatusCode, body: b}
	}()
	_, err := pw.Write(body[:len(body)-100]) // all but the end of the file
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		return len(arriving(dir)) == 1
	}, 5*time.Second, 10*time.Millisecond, "the stalled upload has its file open")

	requireError(t, do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "IMG_0201.jpg", string(testJPEG(t, 32, 24))), keyAlice)),
		503, "Too many uploads are arriving at once; try again in a moment")

	_, err = pw.Write(body[len(body)-100:])
	require.NoError(t, err)
	require.NoError(t, pw.Close())
	assert.Equal(t, http.StatusCreated, (<-stalled).status)
	rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "IMG_0202.jpg", string(testJPEG(t, 32, 24))), keyAlice))
	assert.Equal(t, http.StatusCreated, rep.status, "the freed place serves again: %s", rep.body)
}
