package api

import (
	"archive/zip"
	"bytes"
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx/httpxtest"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/internal/store/storetest"
	"github.com/mediaspec/mediaspec/spec"
)

// downloadsServer is a mock on storetest.DownloadsDataset that keeps
// uploads.
func downloadsServer(t *testing.T) *httptest.Server {
	t.Helper()
	return newTestServer(t, func(c *Config) {
		c.Dataset = storetest.DownloadsDataset
		c.MediaDir = t.TempDir()
	})
}

// passwordToken is the token LinkPassword's password gives its holder.
func passwordToken(t *testing.T) string {
	t.Helper()
	for _, l := range storetest.DownloadsDataset().SharedLinks {
		if l.Key == storetest.LinkPassword {
			return store.LinkToken(&l)
		}
	}
	t.Fatal("no password link in the dataset")
	return ""
}

// TestWhoMayDownload: the rows of who may take what, on each of the three
// routes: a download's plan of the asset, an archive of it, the asset on
// its own. Each row is one credential and one asset.
func TestWhoMayDownload(t *testing.T) {
	srv := downloadsServer(t)
	const (
		noAccess = "Not found or no asset.download access"
		inAlbum  = storetest.AliceAssetID
		loose    = storetest.ArchivedID // in no album, Alice's
	)
	token := url.QueryEscape(passwordToken(t))
	type cred struct{ header, query string }
	key := func(k string) cred { return cred{query: "key=" + url.QueryEscape(k)} }
	for _, tt := range []struct {
		name   string
		cred   cred
		id     string
		status int
		msg    string
	}{
		{"the owner", cred{header: keyAlice}, loose, 200, ""},
		{"the owner, a trashed asset", cred{header: keyAlice}, storetest.TrashedID, 200, ""},
		{"an album user, an asset of the album", cred{header: keyBob}, inAlbum, 200, ""},
		{"an album user, the video of a live photo of the album", cred{header: keyBob}, storetest.LiveVideoID, 200, ""},
		{"an album user, a trashed asset of the album", cred{header: keyBob}, storetest.TrashedID, 400, noAccess},
		{"an album user, an asset of the owner's in no album", cred{header: keyBob}, loose, 400, noAccess},
		{"another user", cred{header: keyCarol}, inAlbum, 400, noAccess},
		{"a partner, an asset of the library shared with them", cred{header: keyAlice}, storetest.BobAssetID, 200, ""},
		{"a partner, an archived asset of that library", cred{header: keyAlice}, storetest.BobArchivedID, 400, noAccess},
		{"the partner who shares, an asset of the one shared with", cred{header: keyBob}, loose, 400, noAccess},
		{"an unknown asset", cred{header: keyAlice}, "00000000-0000-4000-8000-00000000dead", 400, noAccess},
		{"a link that allows downloads, its album's asset", key(linkUpload), inAlbum, 200, ""},
		{"a link that allows downloads, the video of its album's live photo", key(linkUpload), storetest.LiveVideoID, 200, ""},
		{"a link that allows downloads, an asset it does not hold", key(linkUpload), loose, 400, noAccess},
		{"an album link that allows no downloads, its album's asset", key(storetest.LinkNoDL), inAlbum, 400, noAccess},
		{"an individual link that allows no downloads, its asset", key(linkView), inAlbum, 400, noAccess},
		{"an individual link that allows downloads, its asset", key(storetest.LinkDownload), storetest.NoExifID, 200, ""},
		{"a link with a password, without its token", key(storetest.LinkPassword), inAlbum, 401, "Invalid password"},
		{"a link with a password, with a wrong token", cred{query: "key=" + storetest.LinkPassword + "&token=nope"}, inAlbum, 401, "Invalid password"},
		{"a link with a password, with its token", cred{query: "key=" + storetest.LinkPassword + "&token=" + token}, inAlbum, 200, ""},
		{"a link with a password, its token in the cookie", cred{query: "key=" + storetest.LinkPassword, header: "cookie:immich_shared_link_token=" + token}, inAlbum, 200, ""},
		{"an expired link", key(linkExpired), inAlbum, 401, "Invalid share key"},
		{"an unknown key", key("nope"), inAlbum, 401, "Invalid share key"},
		{"an unknown API key", cred{header: "nope"}, inAlbum, 401, "Invalid API key"},
		{"no credentials", cred{}, inAlbum, 401, "Authentication required"},
	} {
		for _, route := range []struct{ name, path, body string }{
			{"info", "/api/download/info", `{"assetIds":["` + tt.id + `"]}`},
			{"archive", "/api/download/archive", `{"assetIds":["` + tt.id + `"]}`},
			{"asset", "/api/download/asset/" + tt.id, ``},
		} {
			t.Run(tt.name+", "+route.name, func(t *testing.T) {
				u := srv.URL + route.path
				if tt.cred.query != "" {
					u += "?" + tt.cred.query
				}
				r := newRequest(t, http.MethodPost, u, strings.NewReader(route.body), "Content-Type", "application/json")
				switch h := tt.cred.header; {
				case strings.HasPrefix(h, "cookie:"):
					r.Header.Set("Cookie", strings.TrimPrefix(h, "cookie:"))
				case h != "":
					r.Header.Set("x-api-key", h)
				}
				rep := do(t, r)
				if tt.status >= 400 {
					requireError(t, rep, tt.status, tt.msg)
					return
				}
				want := tt.status
				if route.name == "info" {
					want = http.StatusCreated // the reference's POST without @HttpCode
				}
				require.Equal(t, want, rep.status, "%s", rep.body)
				switch route.name {
				case "info":
					var plan struct{ Archives []struct{ AssetIDs []string } }
					rep.json(t, &plan)
					require.NotEmpty(t, plan.Archives)
					assert.Equal(t, tt.id, plan.Archives[0].AssetIDs[0])
				case "archive":
					zr, err := zip.NewReader(bytes.NewReader(rep.body), int64(len(rep.body)))
					require.NoError(t, err)
					assert.Len(t, zr.File, 1)
				case "asset":
					assert.NotEmpty(t, rep.body)
				}
			})
		}
	}
}

// TestWhoMayDownloadAnAlbumOrATimeline: album.download and
// timeline.download, through POST /api/download/info.
func TestWhoMayDownloadAnAlbumOrATimeline(t *testing.T) {
	srv := downloadsServer(t)
	album := `{"albumId":"` + storetest.AlbumID + `"}`
	for _, tt := range []struct {
		name, query, key, body string
		status                 int
		msg                    string
	}{
		{"the owner, the album", "", keyAlice, album, 201, ""},
		{"an album user, the album", "", keyBob, album, 201, ""},
		{"another user, the album", "", keyCarol, album, 400, "Not found or no album.download access"},
		{"its link that allows downloads", "key=" + linkUpload, "", album, 201, ""},
		{"an individual link that carries it", "key=" + storetest.LinkAlbumSide, "", album, 201, ""},
		{"its link that allows no downloads", "key=" + storetest.LinkNoDL, "", album, 400, "Not found or no album.download access"},
		{"a link of other assets", "key=" + storetest.LinkDownload, "", album, 400, "Not found or no album.download access"},
		{"its link with a password, no token", "key=" + storetest.LinkPassword, "", album, 401, "Invalid password"},
		{"the caller's timeline", "", keyAlice, `{"userId":"` + aliceID + `"}`, 201, ""},
		{"another's timeline", "", keyBob, `{"userId":"` + aliceID + `"}`, 400, "Not found or no timeline.download access"},
		{"a timeline through a link", "key=" + linkUpload, "", `{"userId":"` + aliceID + `"}`, 400, "Not found or no timeline.download access"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u := srv.URL + "/api/download/info"
			if tt.query != "" {
				u += "?" + tt.query
			}
			r := newRequest(t, http.MethodPost, u, strings.NewReader(tt.body), "Content-Type", "application/json")
			if tt.key != "" {
				r.Header.Set("x-api-key", tt.key)
			}
			rep := do(t, r)
			if tt.status >= 400 {
				requireError(t, rep, tt.status, tt.msg)
				return
			}
			require.Equal(t, tt.status, rep.status, "%s", rep.body)
			var plan struct{ Archives []struct{ AssetIDs []string } }
			rep.json(t, &plan)
			require.NotEmpty(t, plan.Archives)
		})
	}
}

// TestDownloadInfoBody: the reference's messages for a DownloadInfoDto, in
// its order, and its 400 for a body that asks for nothing.
func TestDownloadInfoBody(t *testing.T) {
	srv := downloadsServer(t)
	for _, tt := range []struct {
		body string
		msg  any
	}{
		{`{}`, "assetIds, albumId, or userId is required"},
		{`[1]`, "assetIds, albumId, or userId is required"},
		{`{"assetIds":"x","albumId":"y","userId":3,"archiveSize":-1.5}`, []any{"each value in assetIds must be a UUID", "assetIds must be an array", "albumId must be a UUID", "userId must be a UUID", "userId must be a string", "archiveSize must be a positive number", "archiveSize must be an integer number"}},
		{`{"assetIds":[],"archiveSize":null}`, []any{"archiveSize must be a positive number", "archiveSize must be an integer number"}},
		{`{"assetIds":[],"archiveSize":"5"}`, []any{"archiveSize must be a positive number", "archiveSize must be an integer number"}},
		{`{"assetIds":[],"archiveSize":5.5}`, []any{"archiveSize must be an integer number"}},
		{`{"assetIds":[],"archiveSize":0}`, []any{"archiveSize must be a positive number"}},
		{`{"assetIds":[],"archiveSize":true}`, []any{"archiveSize must be a positive number", "archiveSize must be an integer number"}},
		{`{"assetIds":[1]}`, []any{"each value in assetIds must be a UUID"}},
		{`{"assetIds":["x"],"albumId":null,"userId":""}`, []any{"each value in assetIds must be a UUID", "albumId must be a UUID", "albumId must be a string", "userId must be a UUID"}},
		{`{"assetIds":null}`, []any{"each value in assetIds must be a UUID", "assetIds must be an array"}},
		{`{"assetIds":`, "Unexpected end of JSON input"},
	} {
		t.Run(tt.body, func(t *testing.T) {
			requireError(t, postJSON(t, srv, "/api/download/info", tt.body, "x-api-key", keyAlice), 400, tt.msg)
		})
	}
	for _, tt := range []struct {
		body string
		msg  any
	}{
		{`{}`, []any{"each value in assetIds must be a UUID", "assetIds should not be empty", "assetIds must be an array"}},
		{`{"assetIds":"x"}`, []any{"each value in assetIds must be a UUID", "assetIds must be an array"}},
	} {
		t.Run("archive "+tt.body, func(t *testing.T) {
			requireError(t, postJSON(t, srv, "/api/download/archive", tt.body, "x-api-key", keyAlice), 400, tt.msg)
		})
	}
	t.Run("archiveSize splits, and a huge one is taken", func(t *testing.T) {
		for size, want := range map[string]int{"1": 2, "1e20": 1, "9223372036854775807": 1} {
			rep := postJSON(t, srv, "/api/download/info", `{"assetIds":["`+storetest.LooseID+`","`+storetest.ArchivedID+`"],"archiveSize":`+size+`}`, "x-api-key", keyAlice)
			require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
			var plan struct {
				TotalSize int64
				Archives  []struct {
					Size     int64
					AssetIDs []string
				}
			}
			rep.json(t, &plan)
			assert.Len(t, plan.Archives, want, "archiveSize %s", size)
			assert.Equal(t, int64(700), plan.TotalSize)
		}
	})
	t.Run("ids in any case", func(t *testing.T) {
		rep := postJSON(t, srv, "/api/download/info", `{"assetIds":["`+strings.ToUpper(storetest.LooseID)+`"]}`, "x-api-key", keyAlice)
		require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
		assert.Contains(t, string(rep.body), storetest.LooseID)
	})
}

// uploaded is a file uploaded in a test, with what it was uploaded as.
type uploaded struct {
	id, name string
	content  []byte
	modified time.Time
}

// uploadNamed uploads content as name, as Alice, and returns its id.
func uploadNamed(t *testing.T, srv *httptest.Server, name string, content []byte, extra ...formFile) uploaded {
	t.Helper()
	f := validForm("")
	f.files = []formFile{{"assetData", name, string(content)}}
	f = f.with("fileModifiedAt", "2024-05-30T10:00:00.000Z")
	f.files = append(f.files, extra...)
	rep := do(t, uploadRequest(t, srv, f, keyAlice))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var res struct{ ID string }
	rep.json(t, &res)
	return uploaded{id: res.ID, name: name, content: content, modified: time.Date(2024, 5, 30, 10, 0, 0, 0, time.UTC)}
}

// TestDownloadArchive: a zip of the originals byte for byte, in the order
// asked, stored, named as uploaded with NAME+1.EXT for a name met again,
// dated by fileModifiedAt; with the reference's headers.
func TestDownloadArchive(t *testing.T) {
	srv := downloadsServer(t)
	a := uploadNamed(t, srv, "IMG_0001.jpg", []byte("first photo, some bytes"))
	b := uploadNamed(t, srv, "IMG_0001.jpg", []byte("second photo, other bytes"))
	c := uploadNamed(t, srv, "clip.mp4", bytes.Repeat([]byte("a video "), 100_000))
	live := uploadNamed(t, srv, "live.jpg", []byte("a still"), formFile{"livePhotoData", "motion.mp4", "its motion"})
	var still struct{ LivePhotoVideoID string }
	getJSON(t, srv, "/api/asset/"+live.id, &still, "x-api-key", keyAlice)
	require.NotEmpty(t, still.LivePhotoVideoID)

	ids := []string{a.id, b.id, c.id, live.id, still.LivePhotoVideoID, a.id}
	body, err := json.Marshal(map[string]any{"assetIds": ids})
	require.NoError(t, err)
	rep := postJSON(t, srv, "/api/download/archive", string(body), "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, "application/octet-stream", rep.header.Get("Content-Type"))
	assert.Empty(t, rep.header.Get("Content-Disposition"))
	assert.Empty(t, rep.header.Get("Content-Length"), "streamed, as it is written")
	assert.Empty(t, rep.header.Get("Cache-Control"))

	zr, err := zip.NewReader(bytes.NewReader(rep.body), int64(len(rep.body)))
	require.NoError(t, err)
	want := []struct {
		name    string
		content []byte
	}{
		{"IMG_0001.jpg", a.content}, {"IMG_0001+1.jpg", b.content}, {"clip.mp4", c.content},
		{"live.jpg", live.content}, {"live.mp4", []byte("its motion")}, {"IMG_0001+2.jpg", a.content},
	}
	require.Len(t, zr.File, len(want))
	for i, f := range zr.File {
		assert.Equal(t, want[i].name, f.Name)
		assert.Equal(t, zip.Store, f.Method, "%s: stored, not compressed", f.Name)
		assert.Equal(t, uint64(len(want[i].content)), f.UncompressedSize64)
		assert.Equal(t, time.Date(2024, 5, 30, 10, 0, 0, 0, time.UTC), f.Modified.UTC(), f.Name)
		assert.Equal(t, "-rw-r--r--", f.Mode().String())
		rc, err := f.Open()
		require.NoError(t, err)
		got, err := io.ReadAll(rc)
		require.NoError(t, err, "%s: its CRC and size hold", f.Name)
		assert.Equal(t, sha1.Sum(want[i].content), sha1.Sum(got), f.Name)
	}

	t.Run("none asked: an empty archive", func(t *testing.T) {
		rep := postJSON(t, srv, "/api/download/archive", `{"assetIds":[]}`, "x-api-key", keyAlice)
		require.Equal(t, http.StatusOK, rep.status)
		zr, err := zip.NewReader(bytes.NewReader(rep.body), int64(len(rep.body)))
		require.NoError(t, err)
		assert.Empty(t, zr.File)
	})
}

// TestDownloadAsset: the original byte for byte with the reference's
// headers; a live photo's video as the reference stored it (.mov); Range.
func TestDownloadAsset(t *testing.T) {
	srv := downloadsServer(t)
	photo := uploadNamed(t, srv, "IMG_0001.jpg", []byte("a photo's bytes"), formFile{"livePhotoData", "motion.mp4", "its motion"})
	rep := do(t, newRequest(t, http.MethodPost, srv.URL+"/api/download/asset/"+photo.id, nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, photo.content, rep.body)
	assert.Equal(t, "image/jpeg", rep.header.Get("Content-Type"))
	assert.Equal(t, "public, max-age=0", rep.header.Get("Cache-Control"))
	assert.Equal(t, "bytes", rep.header.Get("Accept-Ranges"))
	assert.Equal(t, "Thu, 30 May 2024 10:00:00 GMT", rep.header.Get("Last-Modified"))
	assert.Equal(t, fmt.Sprintf(`W/"%x-%x"`, len(photo.content), photo.modified.UnixMilli()), rep.header.Get("ETag"), "Express's ETag of a file: size and time")

	part := do(t, newRequest(t, http.MethodPost, srv.URL+"/api/download/asset/"+photo.id, nil, "x-api-key", keyAlice, "Range", "bytes=2-6"))
	require.Equal(t, http.StatusPartialContent, part.status)
	assert.Equal(t, photo.content[2:7], part.body)

	var still struct{ LivePhotoVideoID string }
	getJSON(t, srv, "/api/asset/"+photo.id, &still, "x-api-key", keyAlice)
	video := do(t, newRequest(t, http.MethodPost, srv.URL+"/api/download/asset/"+still.LivePhotoVideoID, nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, video.status)
	assert.Equal(t, "its motion", string(video.body))
	assert.Equal(t, "video/quicktime", video.header.Get("Content-Type"), "the reference keeps a live photo's video as .mov")

	offline := do(t, newRequest(t, http.MethodPost, srv.URL+"/api/download/asset/"+storetest.LooseID, nil, "x-api-key", keyAlice))
	requireError(t, offline, 400, "Asset is offline")
	assert.Equal(t, "none", offline.header.Get("Cache-Control"), "the reference's file routes' errors")
	requireError(t, do(t, newRequest(t, http.MethodPost, srv.URL+"/api/download/asset/xyz", nil, "x-api-key", keyAlice)), 400, []any{"id must be a UUID"})
}

// TestDownloadSeededOriginals: a seeded asset's original is the picture
// serveFile paints from its thumbhash; one without a thumbhash a grey
// picture of its size, in its format.
func TestDownloadSeededOriginals(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.Dataset = pictureDataset })
	file := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+aliceAssetID, nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, file.status)
	down := do(t, newRequest(t, http.MethodPost, srv.URL+"/api/download/asset/"+aliceAssetID, nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, down.status)
	assert.Equal(t, file.body, down.body, "serveFile's original")
	assert.Equal(t, file.header.Get("Content-Type"), down.header.Get("Content-Type"))

	arch := postJSON(t, srv, "/api/download/archive", `{"assetIds":["`+aliceAssetID+`"]}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, arch.status)
	zr, err := zip.NewReader(bytes.NewReader(arch.body), int64(len(arch.body)))
	require.NoError(t, err)
	require.Len(t, zr.File, 1)
	rc, err := zr.File[0].Open()
	require.NoError(t, err)
	inZip, err := io.ReadAll(rc)
	require.NoError(t, err)
	assert.Equal(t, file.body, inZip)

	plain := newTestServer(t) // its assets have no thumbhash
	grey := do(t, newRequest(t, http.MethodPost, plain.URL+"/api/download/asset/"+aliceAssetID, nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, grey.status)
	assert.Equal(t, "image/jpeg", grey.header.Get("Content-Type"))
	img, err := jpeg.Decode(bytes.NewReader(grey.body))
	require.NoError(t, err)
	r, g, b, _ := img.At(img.Bounds().Dx()/2, img.Bounds().Dy()/2).RGBA()
	assert.InDelta(t, r>>8, g>>8, 8, "grey")
	assert.InDelta(t, g>>8, b>>8, 8, "grey")
}

// TestArchiveNames: the reference's names, and the mock's where the
// reference's would clash or leave the folder.
func TestArchiveNames(t *testing.T) {
	for _, tt := range []struct{ in, want []string }{
		{[]string{"a.jpg", "b.jpg"}, []string{"a.jpg", "b.jpg"}},
		{[]string{"a.jpg", "a.jpg", "a.jpg"}, []string{"a.jpg", "a+1.jpg", "a+2.jpg"}},
		{[]string{"a.tar.gz", "a.tar.gz"}, []string{"a.tar.gz", "a.tar+1.gz"}},
		{[]string{".bashrc", ".bashrc"}, []string{".bashrc", ".bashrc+1"}},
		{[]string{"README", "README"}, []string{"README", "README+1"}},
		{[]string{"a.jpg", "A.jpg"}, []string{"a.jpg", "A.jpg"}},
		{[]string{"a+1.jpg", "a.jpg", "a.jpg"}, []string{"a+1.jpg", "a.jpg", "a+2.jpg"}},
		{[]string{"../../etc/passwd", `..\..\boot.ini`, "/abs/x.jpg", "", ".."}, []string{"passwd", "boot.ini", "x.jpg", "file", "file+1"}},
	} {
		assert.Equal(t, tt.want, archiveNames(tt.in), "%q", tt.in)
	}
}

// zeros is a file of zeros of any size, read without memory of its own.
type zeros struct{}

func (zeros) ReadAt(p []byte, _ int64) (int, error) {
	clear(p)
	return len(p), nil
}

// TestArchiveMemoryDoesNotGrowWithSize: archive/zip streams a stored file
// through its writer; writing an archive of 512 MiB allocates no more than
// one of 16 MiB, beside the buffers of the one archive.
func TestArchiveMemoryDoesNotGrowWithSize(t *testing.T) {
	s := &server{}
	allocated := func(fileSize int64) uint64 {
		entries := make([]archiveEntry, 8)
		for i := range entries {
			entries[i] = archiveEntry{name: fmt.Sprintf("VID_%04d.mp4", i), original: original{kept: &media.KeptFile{SectionReader: io.NewSectionReader(zeros{}, 0, fileSize)}, modified: time.Unix(0, 0)}}
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		require.NoError(t, s.writeArchive(t.Context(), io.Discard, entries, make([]byte, archiveBuffer)))
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := allocated(2<<20), allocated(64<<20)
	t.Logf("allocated: %d bytes for 16 MiB, %d bytes for 512 MiB", small, large)
	assert.Less(t, large, small+256<<10, "memory grows with the archive's size")
	assert.Less(t, large, uint64(2*archiveBuffer), "an archive holds its buffers and little more")
}

// TestDownloadsHaveWriteDeadlines: every piece of an archive or an
// original is written under the deadline of its size, so that a client
// that stops reading is let go as every other slow reader is.
func TestDownloadsHaveWriteDeadlines(t *testing.T) {
	h, err := New(Config{Dataset: storetest.DownloadsDataset, Now: testNow, MediaDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	big := uploadNamed(t, srv, "VID_0001.mp4", bytes.Repeat([]byte("frames "), 300_000)) // 2 MiB
	for name, r := range map[string]*http.Request{
		"archive": newRequest(t, http.MethodPost, "/api/download/archive", strings.NewReader(`{"assetIds":["`+big.id+`","`+big.id+`"]}`), "Content-Type", "application/json", "x-api-key", keyAlice),
		"asset":   newRequest(t, http.MethodPost, "/api/download/asset/"+big.id, nil, "x-api-key", keyAlice),
	} {
		t.Run(name, func(t *testing.T) {
			w := httpxtest.NewDeadlineRecorder()
			h.ServeHTTP(w, r)
			require.Equal(t, http.StatusOK, w.Code, w.Body.String())
			total := 0
			for i, d := range w.Deadlines {
				assert.LessOrEqual(t, w.Written[i], httpx.WriteChunk, "piece %d", i)
				assert.InDelta(t, httpx.WriteDeadline(w.Written[i]).Seconds(), d.Seconds(), 1, "piece %d", i)
				total += w.Written[i]
			}
			assert.Equal(t, w.Body.Len(), total, "every byte is written under a deadline")
			assert.Greater(t, len(w.Deadlines), 2*len(big.content)/httpx.WriteChunk-1)
		})
	}
}

// TestArchivesAreBounded: one archive more than maxArchives being written
// is answered 503 at once.
func TestArchivesAreBounded(t *testing.T) {
	h, err := New(Config{Dataset: storetest.DownloadsDataset, Now: testNow})
	require.NoError(t, err)
	for range maxArchives {
		h.s.archives <- struct{}{}
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, newRequest(t, http.MethodPost, "/api/download/archive", strings.NewReader(`{"assetIds":[]}`), "Content-Type", "application/json", "x-api-key", keyAlice))
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)
	assert.Equal(t, "1", w.Header().Get("Retry-After"))
	<-h.s.archives
	w = httptest.NewRecorder()
	h.ServeHTTP(w, newRequest(t, http.MethodPost, "/api/download/archive", strings.NewReader(`{"assetIds":[]}`), "Content-Type", "application/json", "x-api-key", keyAlice))
	assert.Equal(t, http.StatusOK, w.Code)
}

// TestDownloadResponsesValidate: every kind of answer of the three routes
// satisfies openapi/openapi.yaml.
func TestDownloadResponsesValidate(t *testing.T) {
	v := loadValidators(t)
	srv := downloadsServer(t)
	photo := uploadNamed(t, srv, "IMG_0001.jpg", []byte("a photo"))
	for _, tt := range []struct {
		name, path, body string
		headers          []string
		status           int
	}{
		{"info", "/api/download/info", `{"assetIds":["` + photo.id + `"]}`, nil, 201},
		{"info of nothing", "/api/download/info", `{"assetIds":[]}`, nil, 201},
		{"info refused", "/api/download/info", `{"albumId":"` + storetest.AlbumID + `"}`, []string{"x-api-key", keyCarol}, 400},
		{"info invalid", "/api/download/info", `{"archiveSize":0}`, nil, 400},
		{"archive", "/api/download/archive", `{"assetIds":["` + photo.id + `"]}`, nil, 200},
		{"archive refused", "/api/download/archive?key=" + storetest.LinkNoDL, `{"assetIds":["` + aliceAssetID + `"]}`, []string{"x-api-key", ""}, 400},
		{"asset", "/api/download/asset/" + photo.id, ``, nil, 200},
		{"asset, a part", "/api/download/asset/" + photo.id, ``, []string{"Range", "bytes=1-2"}, 206},
		{"asset offline", "/api/download/asset/" + storetest.LooseID, ``, nil, 400},
		{"asset, a range past it", "/api/download/asset/" + photo.id, ``, []string{"Range", "bytes=100-"}, 416},
		{"asset, the client has it", "/api/download/asset/" + photo.id, ``, []string{"If-None-Match", "*"}, 304},
		{"asset, no credentials", "/api/download/asset/" + photo.id, ``, []string{"x-api-key", ""}, 401},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRequest(t, http.MethodPost, srv.URL+tt.path, strings.NewReader(tt.body), append([]string{"Content-Type", "application/json", "x-api-key", keyAlice}, tt.headers...)...)
			if r.Header.Get("x-api-key") == "" {
				r.Header.Del("x-api-key")
			}
			rep := do(t, r)
			require.Equal(t, tt.status, rep.status, "body: %s", rep.body)
			// The reference's documents do not have these operations.
			resp := spec.Response{Status: rep.status, Header: rep.header, Body: rep.body}
			requireValid(t, "openapi/openapi.yaml", v.ours.ValidateResponse(t.Context(), r, resp), r, rep)
		})
	}
}

// TestDownloadAssetConditionsAndRanges: a client that has the file gets
// 304, a POST too (as Express answers); a range past the file is the JSON
// error every other answer has, not http.ServeContent's text.
func TestDownloadAssetConditionsAndRanges(t *testing.T) {
	srv := downloadsServer(t)
	photo := uploadNamed(t, srv, "IMG_0001.jpg", []byte("a photo's bytes"))
	path := srv.URL + "/api/download/asset/" + photo.id
	etag := fmt.Sprintf(`W/"%x-%x"`, len(photo.content), photo.modified.UnixMilli())
	for _, tt := range []struct {
		name    string
		headers []string
		status  int
	}{
		{"its ETag", []string{"If-None-Match", etag}, 304},
		{"its ETag, strong", []string{"If-None-Match", strings.TrimPrefix(etag, "W/")}, 304},
		{"one of its ETags", []string{"If-None-Match", `"x", ` + etag}, 304},
		{"any ETag", []string{"If-None-Match", "*"}, 304},
		{"another ETag", []string{"If-None-Match", `W/"1-2"`}, 200},
		{"its ETag, asked anew", []string{"If-None-Match", etag, "Cache-Control", "no-cache"}, 200},
		{"modified since before", []string{"If-Modified-Since", "Wed, 29 May 2024 10:00:00 GMT"}, 200},
		{"not modified since", []string{"If-Modified-Since", "Thu, 30 May 2024 10:00:00 GMT"}, 304},
		{"its ETag, but modified since", []string{"If-None-Match", etag, "If-Modified-Since", "Wed, 29 May 2024 10:00:00 GMT"}, 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := do(t, newRequest(t, http.MethodPost, path, nil, append([]string{"x-api-key", keyAlice}, tt.headers...)...))
			require.Equal(t, tt.status, rep.status, "%s", rep.body)
			assert.Equal(t, etag, rep.header.Get("ETag"))
			if tt.status == http.StatusNotModified {
				assert.Empty(t, rep.body)
			} else {
				assert.Equal(t, photo.content, rep.body)
			}
		})
	}
	rep := do(t, newRequest(t, http.MethodPost, path, nil, "x-api-key", keyAlice, "Range", "bytes=1000-"))
	requireError(t, rep, http.StatusRequestedRangeNotSatisfiable, "Requested Range Not Satisfiable")
	assert.Equal(t, fmt.Sprintf("bytes */%d", len(photo.content)), rep.header.Get("Content-Range"))
	rep = do(t, newRequest(t, http.MethodPost, path, nil, "x-api-key", keyAlice, "If-Match", `"nope"`))
	requireError(t, rep, http.StatusPreconditionFailed, "Precondition Failed")
}
