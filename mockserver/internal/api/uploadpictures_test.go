package api

import (
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"fmt"
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
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/webp"

	"github.com/mediaspec/mediaspec/fixtures"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/media/mediatest"
	"github.com/mediaspec/mediaspec/mockserver/pictures"
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
	assert.Contains(t, indexed(dir, media.Original), res.ID)
}

// indexed are the keys of the blobs of kind a media folder's index names,
// with their sizes. It may run beside the test, in require.Eventually: an
// unreadable index names none.
func indexed(dir string, kind media.Kind) map[string]int64 {
	b, _ := os.ReadFile(filepath.Join(dir, "blobs.index"))
	keys := map[string]int64{}
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		if len(f) == 6 && f[0] == string(kind) {
			size, _ := strconv.ParseInt(f[4], 10, 64)
			keys[f[1]] = size
		}
	}
	return keys
}

// packBytes is how many bytes a media folder's packs hold in all.
func packBytes(dir string) int64 {
	entries, _ := os.ReadDir(filepath.Join(dir, "packs"))
	var n int64
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			n += info.Size()
		}
	}
	return n
}

// TestUploadsThatAreNotPicturesGetNoPictures: an empty file, a truncated
// one, text named .png, a PNG declaring 100,000 × 100,000 pixels and a
// HEIC that is none: each upload is stored, with its original, and gets
// no pictures, as on the reference: resized false, thumbhash null, and
// 404 for its thumbnail and preview. Never a 500, never a crash.
func TestUploadsThatAreNotPicturesGetNoPictures(t *testing.T) {
	h, err := New(Config{Dataset: testDataset, Now: testNow, MediaDir: t.TempDir()})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	cut := testJPEG(t, 320, 240)
	uploads := map[string][]byte{
		"empty.jpg":  nil,
		"cut.jpg":    cut[:len(cut)/2],
		"notes.png":  []byte("these are not the pixels you are looking for"),
		"bomb.png":   pngBomb(t),
		"photo.heic": []byte("\x00\x00\x00\x18ftypheic not a HEIC file"),
	}
	ids := map[string]string{}
	for name, content := range uploads {
		rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", name, string(content)), keyAlice))
		require.Equal(t, http.StatusCreated, rep.status, "%s: %s", name, rep.body)
		var res struct{ ID string }
		rep.json(t, &res)
		ids[name] = res.ID
	}
	require.NoError(t, h.Close()) // every queued picture job has run
	for name, id := range ids {
		t.Run(name, func(t *testing.T) {
			rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/"+id, nil, "x-api-key", keyAlice))
			var a struct {
				Resized   bool    `json:"resized"`
				Thumbhash *string `json:"thumbhash"`
			}
			rep.json(t, &a)
			assert.False(t, a.Resized)
			assert.Nil(t, a.Thumbhash)
			for _, path := range []string{"/api/asset/thumbnail/" + id, "/api/asset/thumbnail/" + id + "?format=JPEG", "/api/asset/file/" + id + "?isThumb=true"} {
				requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+path, nil, "x-api-key", keyAlice)), 404, "No thumbnail found for asset "+id)
			}
			orig := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+id, nil, "x-api-key", keyAlice))
			assert.Equal(t, http.StatusOK, orig.status)
			assert.Equal(t, string(uploads[name]), string(orig.body), "the original is what came, whatever it is")
		})
	}
}

// TestRefusedAndDuplicateUploadsKeepNoFile: only an upload that makes a
// new asset keeps its file; the bytes of duplicates and refused uploads
// are written over, not piled up.
func TestRefusedAndDuplicateUploadsKeepNoFile(t *testing.T) {
	srv, dir := newMediaServer(t)
	content := string(testJPEG(t, 64, 48))
	rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "a.jpg", content), keyAlice))
	require.Equal(t, http.StatusCreated, rep.status)
	for range 5 {
		rep = do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "b.jpg", content), keyAlice))
		require.Equal(t, http.StatusOK, rep.status, "a duplicate")
		rep = do(t, uploadRequest(t, srv, validForm("").onlyFields().without("deviceId").withFile("assetData", "c.jpg", content+"x"), keyAlice))
		require.Equal(t, http.StatusBadRequest, rep.status)
	}
	assert.Len(t, indexed(dir, media.Original), 1)
	waitForPicture(t, srv, "/api/asset/thumbnail/"+indexedKey(indexed(dir, media.Original)))
	thumbs := indexed(dir, media.Thumb)
	previews := indexed(dir, media.Preview)
	kept := int64(len(content))
	for _, n := range thumbs {
		kept += n
	}
	for _, n := range previews {
		kept += n
	}
	// Each pack may end with the bytes of the last file dropped there.
	assert.Less(t, packBytes(dir), kept+4*int64(len(content)), "the bytes of ten duplicate or refused uploads did not pile up")
}

func indexedKey(keys map[string]int64) string {
	for k := range keys {
		return k
	}
	return ""
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

// TestHEICUploadShowsItsPicture: a phone's HEIC gets pictures of its own
// pixels, upright as its EXIF says: the same as those of the JPEG that holds
// the same picture, never a placeholder.
func TestHEICUploadShowsItsPicture(t *testing.T) {
	srv, _ := newMediaServer(t)
	thumbnail := func(name string) image.Image {
		data, err := fixtures.ReadFile(name)
		require.NoError(t, err)
		rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", name, string(data)), keyAlice))
		require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
		var res struct{ ID string }
		rep.json(t, &res)
		return decodeImage(t, waitForPicture(t, srv, "/api/asset/thumbnail/"+res.ID))
	}
	heic, jpg := thumbnail(fixtures.LisbonHEIC), thumbnail(fixtures.LisbonJPEG)
	require.Equal(t, image.Rect(0, 0, 250, 333), heic.Bounds(), "upright: orientation 6 turns 480×360 to portrait")
	assert.Equal(t, jpg.Bounds(), heic.Bounds())
	var sum, n int
	for y := range 333 {
		for x := range 250 {
			a, b := color.RGBAModel.Convert(heic.At(x, y)).(color.RGBA), color.RGBAModel.Convert(jpg.At(x, y)).(color.RGBA)
			for _, d := range [3]int{int(a.R) - int(b.R), int(a.G) - int(b.G), int(a.B) - int(b.B)} {
				sum, n = sum+max(d, -d), n+1
			}
		}
	}
	assert.Less(t, float64(sum)/float64(n), 8.0, "mean difference per channel from the JPEG's thumbnail")
}

// TestVideoUploadShowsAPoster: a video's pictures are the cover stored in
// it where there is one, else a generated poster frame of the video's own
// size (Go decodes no video frames).
func TestVideoUploadShowsAPoster(t *testing.T) {
	srv, _ := newMediaServer(t)
	thumbnail := func(name string, data []byte) reply {
		rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", name, string(data)), keyAlice))
		require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
		var res struct{ ID string }
		rep.json(t, &res)
		return waitForPicture(t, srv, "/api/asset/thumbnail/"+res.ID)
	}
	clip, err := fixtures.ReadFile(fixtures.ClipMP4)
	require.NoError(t, err)
	poster, _, _, err := pictures.PosterPictures(64, 64)
	require.NoError(t, err)
	assert.Equal(t, poster, thumbnail(fixtures.ClipMP4, clip).body, "the poster of the clip's 64×64")

	// The same clip with a cover in its movie's metadata, as editors write it.
	cover := testJPEG(t, 320, 180)
	meta := mp4Box("udta", mp4Box("meta", []byte{0, 0, 0, 0}, mp4Box("ilst", mp4Box("covr", mp4Box("data", []byte{0, 0, 0, 13, 0, 0, 0, 0}, cover)))))
	withCover := append(mp4Box("ftyp", []byte("isom\x00\x00\x02\x00")), mp4Box("moov", mp4Box("mvhd", make([]byte, 100)), meta)...)
	img := decodeImage(t, thumbnail("cover.mp4", withCover))
	require.Equal(t, image.Rect(0, 0, 320, 180), img.Bounds())
	got := color.RGBAModel.Convert(img.At(300, 90)).(color.RGBA)
	assert.Greater(t, got.R, uint8(200), "the cover's red right side: %v", got)
}

// TestLivePhotoVideoIsKept: a live photo's video is kept beside its still:
// a client plays it from its own file, byte for byte, and it gets its
// pictures; a second still sharing the video keeps the first's file.
func TestLivePhotoVideoIsKept(t *testing.T) {
	srv, dir := newMediaServer(t)
	still, err := fixtures.ReadFile(fixtures.LisbonHEIC)
	require.NoError(t, err)
	clip, err := fixtures.ReadFile(fixtures.ClipMP4)
	require.NoError(t, err)
	upload := func(stillName string, still []byte) string {
		form := validForm("").onlyFields().withFile("assetData", stillName, string(still)).withFile("livePhotoData", "IMG_4022.MOV", string(clip))
		rep := do(t, uploadRequest(t, srv, form, keyAlice))
		require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
		var res struct{ ID string }
		rep.json(t, &res)
		var asset struct{ LivePhotoVideoID string }
		do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/"+res.ID, nil, "x-api-key", keyAlice)).json(t, &asset)
		require.NotEmpty(t, asset.LivePhotoVideoID)
		return asset.LivePhotoVideoID
	}
	video := upload("IMG_4022.HEIC", still)
	orig := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+video, nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, orig.status)
	assert.Equal(t, clip, orig.body, "the video, byte for byte")
	waitForPicture(t, srv, "/api/asset/thumbnail/"+video)

	assert.Equal(t, video, upload("IMG_4023.JPG", testJPEG(t, 64, 48)), "the same video")
	orig = do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+video, nil, "x-api-key", keyAlice))
	assert.Equal(t, clip, orig.body)
	assert.Len(t, indexed(dir, media.Original), 3, "two stills and one video")
}

// mp4Box is an MP4 box of type typ around content.
func mp4Box(typ string, content ...[]byte) []byte {
	body := bytes.Join(content, nil)
	return append(append(binary.BigEndian.AppendUint32(nil, uint32(8+len(body))), typ...), body...)
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

	h.Close()
	assert.Contains(t, indexed(dir, media.Thumb), res.ID, "the queued thumbnail was made before Close returned")
	rep = do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "IMG_0101.jpg", string(testJPEG(t, 32, 24))), keyAlice))
	assert.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	h.Close() // twice is no harm
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
	// Once the stalled upload holds the place, one more is refused.
	// Each try is a new file: one that got in before the stalled upload
	// held the place is no duplicate of the last upload below.
	var refused reply
	tries := 0
	require.Eventually(t, func() bool {
		tries++
		refused = do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "IMG_0201.jpg", string(testJPEG(t, 32+tries, 24))), keyAlice))
		return refused.status == http.StatusServiceUnavailable
	}, 5*time.Second, 10*time.Millisecond, "the stalled upload holds the only place")
	requireError(t, refused, 503, "Too many uploads are arriving at once; try again in a moment")

	_, err = pw.Write(body[len(body)-100:])
	require.NoError(t, err)
	require.NoError(t, pw.Close())
	assert.Equal(t, http.StatusCreated, (<-stalled).status)
	rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "IMG_0202.jpg", string(testJPEG(t, 32, 24))), keyAlice))
	assert.Equal(t, http.StatusCreated, rep.status, "the freed place serves again: %s", rep.body)
}

// TestAOnePixelUploadGetsItsPictures: the upstream's own tests upload
// one-pixel pictures; their pictures are made, and the mock lives on.
func TestAOnePixelUploadGetsItsPictures(t *testing.T) {
	srv, _ := newMediaServer(t)
	var b bytes.Buffer
	img := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	img.Pix[3] = 255
	require.NoError(t, png.Encode(&b, img))
	rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "dot.png", b.String()), keyAlice))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var res struct{ ID string }
	rep.json(t, &res)
	thumb, err := webp.Decode(bytes.NewReader(waitForPicture(t, srv, "/api/asset/thumbnail/"+res.ID).body))
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 1, 1), thumb.Bounds(), "never enlarged")
}

// TestEveryReaderLetsItsPackGo: eight uploads arriving at once are kept
// in eight packs; once their pictures are made (each original read), and
// every answer that reads a kept file has been given (thumbnail, preview,
// original, download, archive), no pack has a user left, and no more than
// media.MaxIdlePacks are open.
func TestEveryReaderLetsItsPackGo(t *testing.T) {
	dir := t.TempDir()
	h, err := New(Config{Dataset: testDataset, Now: testNow, MediaDir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	const n = 8
	stalled := make([]*stalledImage, n)
	for i := range stalled {
		body, ct := validForm("").onlyFields().withFile("assetData", fmt.Sprintf("IMG_%04d.jpg", i), string(testJPEG(t, 64+i, 48))).encode(t)
		stalled[i] = stallBody(t, srv, "/api/asset/upload", keyAlice, body, ct)
	}
	require.Eventually(t, func() bool { return mediatest.OpenPacks(t, dir) == n }, 5*time.Second, 10*time.Millisecond, "a pack for each upload arriving")
	ids := make([]string, n)
	for i, s := range stalled {
		rep := s.finish()
		require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
		var res struct{ ID string }
		rep.json(t, &res)
		ids[i] = res.ID
	}
	for _, id := range ids {
		require.Eventually(t, func() bool {
			var a struct{ Resized bool }
			do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/"+id, nil, "x-api-key", keyAlice)).json(t, &a)
			return a.Resized
		}, 10*time.Second, 20*time.Millisecond, "the pictures of %s are made", id)
	}
	for _, id := range ids {
		for _, path := range []string{"/api/asset/thumbnail/" + id, "/api/asset/thumbnail/" + id + "?format=JPEG", "/api/asset/file/" + id} {
			assert.Equal(t, http.StatusOK, do(t, newRequest(t, http.MethodGet, srv.URL+path, nil, "x-api-key", keyAlice)).status, path)
		}
		assert.Equal(t, http.StatusOK, do(t, newRequest(t, http.MethodPost, srv.URL+"/api/download/asset/"+id, nil, "x-api-key", keyAlice)).status)
	}
	archive := controlJSON(t, srv, http.MethodPost, "/api/download/archive", keyAlice, map[string]any{"assetIds": ids})
	require.Equal(t, http.StatusOK, archive.status, "%s", archive.body)

	assert.Zero(t, h.s.folder.InUse(), "no writer or reader holds a pack")
	assert.LessOrEqual(t, mediatest.OpenPacks(t, dir), media.MaxIdlePacks)
}
