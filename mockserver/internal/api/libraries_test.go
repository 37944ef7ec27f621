package api

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// lib sends a JSON request (body raw JSON, "" for none) about libraries as
// key.
func lib(t *testing.T, srv *httptest.Server, method, path, key, body string) reply {
	t.Helper()
	r := newRequest(t, method, srv.URL+path, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		r.Header.Set("x-api-key", key)
	}
	return do(t, r)
}

// makeLibrary makes a library of alice's with body's fields beside ownerId.
func makeLibrary(t *testing.T, srv *httptest.Server, fields string) model.Library {
	t.Helper()
	body := `{"ownerId":"` + aliceID + `"` + fields + `}`
	rep := lib(t, srv, http.MethodPost, "/api/libraries", keyAlice, body)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var l model.Library
	rep.json(t, &l)
	return l
}

const noLibrary = "00000000-0000-4000-a000-000000000000"

func TestLibraryRefusals(t *testing.T) {
	srv := newTestServer(t)
	l := makeLibrary(t, srv, "")
	assert.Equal(t, "New External Library", l.Name)
	assert.Equal(t, []string{}, l.ImportPaths)
	assert.Nil(t, l.RefreshedAt)
	for _, tc := range []struct {
		name, method, path, key, body string
		status                        int
		message                       any
	}{
		{"no credentials", "GET", "/api/libraries", "", "", 401, "Authentication required"},
		{"no admin", "POST", "/api/libraries", keyBob, `{"ownerId":"` + aliceID + `"}`, 403, "Forbidden resource"},
		{"no admin, one library", "GET", "/api/libraries/" + l.ID, keyBob, "", 403, "Forbidden resource"},
		{"no owner", "POST", "/api/libraries", keyAlice, `{}`, 400, []string{"ownerId must be a UUID", "ownerId should not be empty", "ownerId must be a string"}},
		{"empty values", "POST", "/api/libraries", keyAlice, `{"ownerId":"` + aliceID + `","name":"","importPaths":["",1],"exclusionPatterns":"a"}`, 400,
			[]string{"name should not be empty", "each value in importPaths should not be empty", "each value in importPaths must be a string", "exclusionPatterns must contain no more than 128 elements", "All exclusionPatterns's elements must be unique"}},
		{"nulls", "POST", "/api/libraries", keyAlice, `{"ownerId":"` + aliceID + `","name":5,"importPaths":null,"exclusionPatterns":null}`, 400,
			[]string{"name must be a string", "importPaths must contain no more than 128 elements", "All importPaths's elements must be unique", "each value in importPaths should not be empty", "each value in importPaths must be a string", "exclusionPatterns must contain no more than 128 elements", "All exclusionPatterns's elements must be unique", "each value in exclusionPatterns should not be empty", "each value in exclusionPatterns must be a string"}},
		{"paths twice", "POST", "/api/libraries", keyAlice, `{"ownerId":"` + aliceID + `","importPaths":["/path","/path"]}`, 400, []string{"All importPaths's elements must be unique"}},
		{"patterns twice", "PUT", "/api/libraries/" + l.ID, keyAlice, `{"exclusionPatterns":["**/*.jpg","**/*.jpg"]}`, 400, []string{"All exclusionPatterns's elements must be unique"}},
		{"empty pattern", "PUT", "/api/libraries/" + l.ID, keyAlice, `{"exclusionPatterns":[""]}`, 400, []string{"each value in exclusionPatterns should not be empty"}},
		{"empty name", "PUT", "/api/libraries/" + l.ID, keyAlice, `{"name":""}`, 400, []string{"name should not be empty"}},
		{"a path too long", "POST", "/api/libraries", keyAlice, `{"ownerId":"` + aliceID + `","importPaths":["/` + strings.Repeat("a", 4096) + `"]}`, 400, []string{"each value in importPaths must be shorter than or equal to 4096 characters"}},
		{"owner no user", "POST", "/api/libraries", keyAlice, `{"ownerId":"` + noLibrary + `"}`, 500, "Failed to create library"},
		{"get none", "GET", "/api/libraries/" + noLibrary, keyAlice, "", 500, "Failed to get library"},
		{"update none", "PUT", "/api/libraries/" + noLibrary, keyAlice, `{}`, 500, "Failed to update library"},
		{"delete none", "DELETE", "/api/libraries/" + noLibrary, keyAlice, "", 500, "Failed to delete library"},
		{"scan none", "POST", "/api/libraries/" + noLibrary + "/scan", keyAlice, `{}`, 500, "Failed to scan library"},
		{"statistics none", "GET", "/api/libraries/" + noLibrary + "/statistics", keyAlice, "", 400, "Library not found"},
		{"scan, a flag no boolean", "POST", "/api/libraries/" + l.ID + "/scan", keyAlice, `{"refreshAllFiles":"yes"}`, 400, []string{"refreshAllFiles must be a boolean value"}},
		{"no UUID", "GET", "/api/libraries/abc", keyAlice, "", 400, []string{"id must be a UUID"}},
		{"validate, not a path list", "POST", "/api/libraries/" + l.ID + "/validate", keyAlice, `{"importPaths":"x"}`, 400, []string{"importPaths must contain no more than 128 elements", "All importPaths's elements must be unique"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requireError(t, lib(t, srv, tc.method, tc.path, tc.key, tc.body), tc.status, tc.message)
		})
	}
	// As the reference: no library to remove from, or to validate for, is no error.
	assert.Equal(t, http.StatusNoContent, lib(t, srv, "POST", "/api/libraries/"+noLibrary+"/removeOffline", keyAlice, "").status)
	rep := lib(t, srv, "POST", "/api/libraries/"+noLibrary+"/validate", keyAlice, `{}`)
	require.Equal(t, http.StatusOK, rep.status)
	assert.JSONEq(t, `{"importPaths":[]}`, string(rep.body))
}

func TestLibraryValidateMessages(t *testing.T) {
	media := t.TempDir()
	srv := newTestServer(t, func(c *Config) { c.MediaDir = media })
	dir := t.TempDir()
	file := filepath.Join(dir, "a.jpg")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	l := makeLibrary(t, srv, "")
	paths := []string{dir, filepath.Join(dir, "nope"), file, file + "/x", "relative/nowhere", media, filepath.Join(media, "packs")}
	body, _ := json.Marshal(map[string][]string{"importPaths": paths})
	rep := lib(t, srv, "POST", "/api/libraries/"+l.ID+"/validate", keyAlice, string(body))
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var out model.LibraryChecks
	rep.json(t, &out)
	want := []model.ImportPathCheck{
		{ImportPath: dir, IsValid: true},
		{ImportPath: paths[1], Message: "Path does not exist (ENOENT)"},
		{ImportPath: file, Message: "Not a directory"},
		{ImportPath: paths[3], Message: "Error: ENOTDIR: not a directory, stat '" + paths[3] + "'"},
		{ImportPath: paths[4], Message: "Path does not exist (ENOENT)"},
		{ImportPath: media, Message: "Cannot use media upload folder for external libraries"},
		{ImportPath: paths[6], Message: "Cannot use media upload folder for external libraries"},
	}
	assert.Equal(t, want, out.ImportPaths)

	// An update keeps its change, and then says the path will not do.
	requireError(t, lib(t, srv, "PUT", "/api/libraries/"+l.ID, keyAlice, `{"importPaths":["`+paths[1]+`"]}`), 400, "Invalid import path: Path does not exist (ENOENT)")
	var got model.Library
	getJSON(t, srv, "/api/libraries/"+l.ID, &got, "x-api-key", keyAlice)
	assert.Equal(t, []string{paths[1]}, got.ImportPaths)

	if os.Geteuid() != 0 { // root reads every folder
		locked := filepath.Join(dir, "locked")
		require.NoError(t, os.Mkdir(locked, 0o000))
		rep := lib(t, srv, "POST", "/api/libraries/"+l.ID+"/validate", keyAlice, `{"importPaths":["`+locked+`"]}`)
		assert.Contains(t, string(rep.body), "Lacking read permission for folder")
	}
}

// libraryFolder is a folder of media files for a library, and one beside
// it that a link leads to, with what each should come to.
func libraryFolder(t *testing.T) (dir, outside string) {
	t.Helper()
	base := t.TempDir()
	dir, outside = filepath.Join(base, "photos"), filepath.Join(base, "elsewhere")
	for _, d := range []string{dir, outside, filepath.Join(dir, "trip"), filepath.Join(dir, "Raw"), filepath.Join(dir, ".hidden")} {
		require.NoError(t, os.MkdirAll(d, 0o750))
	}
	copyFixture := func(name, to string) {
		b, err := fixtures.ReadFile(name)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(to, b, 0o600))
	}
	copyFixture("DSC01234.JPG", filepath.Join(dir, "DSC01234.JPG"))
	copyFixture("IMG_4021.JPG", filepath.Join(dir, "trip", "IMG_4021.JPG"))
	copyFixture("IMG_4021.JPG.xmp", filepath.Join(dir, "trip", "IMG_4021.JPG.xmp"))
	copyFixture("VID_20240101_120000.mp4", filepath.Join(dir, "trip", "clip.mp4"))
	copyFixture("Screenshot_20240301-091500.png", filepath.Join(dir, "Raw", "excluded.png"))
	copyFixture("Screenshot_20240301-091500.png", filepath.Join(dir, ".hidden", "hidden.png"))
	copyFixture("Screenshot_20240301-091500.png", filepath.Join(dir, ".dot.png"))
	copyFixture("DSC01234.JPG", filepath.Join(outside, "secret.jpg"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not media"), 0o600))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.jpg"), filepath.Join(dir, "leak.jpg")))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "leakdir")))
	require.NoError(t, os.Symlink(filepath.Join("..", "DSC01234.JPG"), filepath.Join(dir, "trip", "again.jpg")))
	return dir, outside
}

// folderPrint is every file below dir with a hash of its bytes, mode and
// mtime: what a scan must leave as it found it.
func folderPrint(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		info, err := d.Info()
		require.NoError(t, err)
		sum := ""
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			sum = string(sha256.New().Sum(b))
		}
		out[p] = info.Mode().String() + info.ModTime().String() + sum
		return nil
	}))
	return out
}

// libraryAssets are the library's assets by file name, once a scan has
// brought their number to n (within a bound), and their pictures made.
func libraryAssets(t *testing.T, srv *httptest.Server, id string, n int) map[string]model.Asset {
	t.Helper()
	var out map[string]model.Asset
	require.Eventually(t, func() bool {
		var res struct {
			Assets struct{ Items []model.Asset } `json:"assets"`
		}
		rep := postJSON(t, srv, "/api/search/metadata", `{"libraryId":"`+id+`","withDeleted":true}`, "x-api-key", keyAlice)
		rep.json(t, &res)
		out = map[string]model.Asset{}
		made := true
		for _, a := range res.Assets.Items {
			out[a.OriginalFileName] = a
			made = made && (a.Thumbhash != nil || a.IsOffline)
		}
		return len(out) == n && made
	}, 10*time.Second, 20*time.Millisecond, "the scan brings the library to %d assets", n)
	return out
}

func scanLibrary(t *testing.T, srv *httptest.Server, id, body string) {
	t.Helper()
	rep := lib(t, srv, "POST", "/api/libraries/"+id+"/scan", keyAlice, body)
	require.Equal(t, http.StatusNoContent, rep.status, "%s", rep.body)
}

// waitRefreshed waits for a scan to end after since.
func waitRefreshed(t *testing.T, srv *httptest.Server, id string, since *model.Time) model.Library {
	t.Helper()
	var l model.Library
	require.Eventually(t, func() bool {
		getJSON(t, srv, "/api/libraries/"+id, &l, "x-api-key", keyAlice)
		return l.RefreshedAt != nil && (since == nil || l.RefreshedAt.After(since.Time))
	}, 10*time.Second, 10*time.Millisecond)
	return l
}

func TestLibraryScan(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.MediaDir = t.TempDir() })
	dir, _ := libraryFolder(t)
	before := folderPrint(t, filepath.Dir(dir))
	body, _ := json.Marshal(map[string]any{"importPaths": []string{dir}, "exclusionPatterns": []string{"**/raw/**"}})
	l := makeLibrary(t, srv, ","+strings.Trim(string(body), "{}"))
	scanLibrary(t, srv, l.ID, "")
	assets := libraryAssets(t, srv, l.ID, 4)
	assert.ElementsMatch(t, []string{"DSC01234.JPG", "IMG_4021.JPG", "clip.mp4", "again.jpg"}, namesOf(assets),
		"not excluded (whatever the case), hidden, no media, nor a link that leads out")
	first := waitRefreshed(t, srv, l.ID, nil)
	assert.Equal(t, 4, first.AssetCount)

	photo := assets["DSC01234.JPG"]
	assert.Equal(t, filepath.Join(dir, "DSC01234.JPG"), photo.OriginalPath)
	assert.Equal(t, l.ID, *photo.LibraryID)
	assert.Equal(t, "Library Import", photo.DeviceID)
	assert.Equal(t, model.AssetVideo, assets["clip.mp4"].Type)
	var full model.Asset
	getJSON(t, srv, "/api/asset/"+photo.ID, &full, "x-api-key", keyAlice)
	require.NotNil(t, full.ExifInfo)
	require.NotNil(t, full.ExifInfo.Make, "read as an upload: its EXIF")
	var side model.Asset
	getJSON(t, srv, "/api/asset/"+assets["IMG_4021.JPG"].ID, &side, "x-api-key", keyAlice)
	require.NotNil(t, side.ExifInfo)

	rep := do(t, newRequest(t, "GET", srv.URL+"/api/asset/file/"+photo.ID, nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, rep.status)
	onDisk, err := os.ReadFile(filepath.Join(dir, "DSC01234.JPG"))
	require.NoError(t, err)
	assert.Equal(t, onDisk, rep.body, "the original, read where it lies")
	rep = do(t, newRequest(t, "GET", srv.URL+"/api/asset/thumbnail/"+photo.ID, nil, "x-api-key", keyAlice))
	assert.Equal(t, http.StatusOK, rep.status, "its thumbnail, made")

	var stats model.LibraryStats
	getJSON(t, srv, "/api/libraries/"+l.ID+"/statistics", &stats, "x-api-key", keyAlice)
	assert.Equal(t, model.LibraryStats{Photos: 3, Videos: 1, Total: 4, Usage: stats.Usage}, stats)
	assert.Positive(t, stats.Usage)
	assert.Equal(t, before, folderPrint(t, filepath.Dir(dir)), "nothing written, removed or touched")

	scanAgain(t, srv, l, dir)
}

// scanAgain changes the library's folder: a file new, one gone, one
// changed; scans take it in as the reference's do.
func scanAgain(t *testing.T, srv *httptest.Server, l model.Library, dir string) {
	t.Helper()
	b, err := fixtures.ReadFile("Screenshot_20240301-091500.png")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "new.png"), b, 0o600))
	require.NoError(t, os.Remove(filepath.Join(dir, "trip", "clip.mp4")))
	changed := filepath.Join(dir, "trip", "IMG_4021.JPG")
	require.NoError(t, os.WriteFile(changed, b, 0o600))           // now a PNG's bytes
	later := time.Now().Add(time.Hour).Truncate(time.Millisecond) // read to the millisecond, rounded as Node rounds
	require.NoError(t, os.Chtimes(changed, later, later))

	prev := waitRefreshed(t, srv, l.ID, nil)
	scanLibrary(t, srv, l.ID, `{}`)
	waitRefreshed(t, srv, l.ID, prev.RefreshedAt)
	assets := libraryAssets(t, srv, l.ID, 5)
	assert.True(t, assets["clip.mp4"].IsOffline, "gone: offline")
	assert.False(t, assets["new.png"].IsOffline)
	old := assets["IMG_4021.JPG"]
	assert.NotEqual(t, later.UTC(), old.FileModifiedAt.UTC(), "a plain scan reads no known file again")

	prev = waitRefreshed(t, srv, l.ID, nil)
	scanLibrary(t, srv, l.ID, `{"refreshModifiedFiles":true}`)
	waitRefreshed(t, srv, l.ID, prev.RefreshedAt)
	assets = libraryAssets(t, srv, l.ID, 5)
	assert.Equal(t, later.UTC(), assets["IMG_4021.JPG"].FileModifiedAt.UTC(), "read again: its mtime changed")
	assert.Equal(t, old.ID, assets["IMG_4021.JPG"].ID, "the same asset")

	rep := lib(t, srv, "POST", "/api/libraries/"+l.ID+"/removeOffline", keyAlice, "")
	require.Equal(t, http.StatusNoContent, rep.status)
	assets = libraryAssets(t, srv, l.ID, 4)
	assert.NotContains(t, assets, "clip.mp4")
}

func namesOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestLibraryDeletedTakesItsAssets(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.MediaDir = t.TempDir() })
	dir, _ := libraryFolder(t)
	before := folderPrint(t, filepath.Dir(dir))
	l := makeLibrary(t, srv, `,"importPaths":["`+dir+`"]`)
	scanLibrary(t, srv, l.ID, "")
	assets := libraryAssets(t, srv, l.ID, 5)
	ids := []string{}
	for _, a := range assets {
		ids = append(ids, a.ID)
	}
	idsJSON, _ := json.Marshal(ids)
	rep := postJSON(t, srv, "/api/albums", `{"albumName":"Scanned","assetIds":`+string(idsJSON)+`}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var album model.Album
	rep.json(t, &album)
	assert.Len(t, album.Assets, 5)
	waitRefreshed(t, srv, l.ID, nil)

	rep = lib(t, srv, "DELETE", "/api/libraries/"+l.ID, keyAlice, "")
	require.Equal(t, http.StatusNoContent, rep.status, "%s", rep.body)
	var libs []model.Library
	getJSON(t, srv, "/api/libraries", &libs, "x-api-key", keyAlice)
	for _, o := range libs {
		assert.NotEqual(t, l.ID, o.ID)
	}
	getJSON(t, srv, "/api/albums/"+album.ID, &album, "x-api-key", keyAlice)
	assert.Empty(t, album.Assets, "its assets left the album")
	rep = do(t, newRequest(t, "GET", srv.URL+"/api/asset/"+ids[0], nil, "x-api-key", keyAlice))
	assert.Equal(t, http.StatusBadRequest, rep.status, "gone")
	for _, a := range listAssets(t, srv, keyAlice) {
		assert.NotContains(t, ids, a.ID, "no asset of the library is left")
	}
	assert.Equal(t, before, folderPrint(t, filepath.Dir(dir)), "its files stay")
}

// TestLibraryAssetsDeletedLetGoOfTheirFiles: an asset of a library
// deleted for good (with force, or from an emptied trash) leaves the media
// folder's links to originals, so that scanning and deleting again and
// again holds no more memory.
func TestLibraryAssetsDeletedLetGoOfTheirFiles(t *testing.T) {
	t.Parallel()
	m, err := New(Config{Dataset: testDataset, Now: testNow, MediaDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.Close() })
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	dir, _ := libraryFolder(t)
	l := makeLibrary(t, srv, `,"importPaths":["`+dir+`"]`)
	scanLibrary(t, srv, l.ID, "")
	assets := libraryAssets(t, srv, l.ID, 5)
	waitRefreshed(t, srv, l.ID, nil)
	require.Equal(t, 5, m.s.folder.Linked())
	var ids []string
	for _, a := range assets {
		ids = append(ids, a.ID)
	}
	rep := sendJSON(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+ids[0]+`"],"force":true}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusNoContent, rep.status, "%s", rep.body)
	assert.Equal(t, 4, m.s.folder.Linked(), "deleted with force")
	rep = sendJSON(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+ids[1]+`"]}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusNoContent, rep.status, "%s", rep.body)
	assert.Equal(t, 4, m.s.folder.Linked(), "in the trash, it is still there")
	rep = postJSON(t, srv, "/api/trash/empty", `{}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusNoContent, rep.status, "%s", rep.body)
	assert.Equal(t, 3, m.s.folder.Linked(), "the trash emptied")
}

func TestLibrariesScannedAtStartAndReset(t *testing.T) {
	dir, _ := libraryFolder(t)
	d, err := withLibrary(testDataset(), dir)
	require.NoError(t, err)
	srv := newTestServer(t, func(c *Config) {
		c.Dataset = func() model.Dataset { return d }
		c.MediaDir, c.ScanLibraries = t.TempDir(), true
	})
	id := d.Libraries[0].ID
	assets := libraryAssets(t, srv, id, 5)
	assert.Equal(t, aliceID, assets["DSC01234.JPG"].OwnerID, "the default user's")
	rep := controlJSON(t, srv, http.MethodPost, "/__mock/reset", "", map[string]any{})
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	libraryAssets(t, srv, id, 5) // scanned again
}

// withLibrary is d with a library of alice's of dir, as serve --import
// makes it.
func withLibrary(d model.Dataset, dir string) (model.Dataset, error) {
	d.Libraries = append(d.Libraries, model.LibraryRecord{
		ID: "5b0e8a8e-3c1b-4a6e-9f55-0d3c2f1e9a11", OwnerID: d.Users[0].ID, Name: "mine",
		ImportPaths: []string{dir}, ExclusionPatterns: []string{}, CreatedAt: model.At(testNow()), UpdatedAt: model.At(testNow()),
	})
	return d, nil
}

func TestTwoLibrariesOfOneFolder(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.MediaDir = t.TempDir() })
	dir, _ := libraryFolder(t)
	a := makeLibrary(t, srv, `,"importPaths":["`+dir+`","`+filepath.Join(dir, "trip")+`"]`)
	b := makeLibrary(t, srv, `,"importPaths":["`+dir+`"]`)
	scanLibrary(t, srv, a.ID, "")
	scanLibrary(t, srv, b.ID, "")
	first := libraryAssets(t, srv, a.ID, 5) // overlapping import paths: each file once
	second := libraryAssets(t, srv, b.ID, 5)
	assert.NotEqual(t, first["DSC01234.JPG"].ID, second["DSC01234.JPG"].ID, "each library its own asset of the file")
	assert.Equal(t, first["DSC01234.JPG"].Checksum, second["DSC01234.JPG"].Checksum, "the path's checksum, as the reference's")
}

func TestNodeTime(t *testing.T) {
	base := time.UnixMilli(447_775_200_000)
	assert.Equal(t, base.UTC(), nodeTime(base.Add(499_999)))
	assert.Equal(t, base.Add(time.Millisecond).UTC(), nodeTime(base.Add(999_936)), "utimes' 447775200.001 s, as a float, is the next millisecond")
}

func TestLibraryAssetCountInReferenceShapes(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.MediaDir, c.ReferenceShapes = t.TempDir(), true })
	dir, _ := libraryFolder(t)
	l := makeLibrary(t, srv, `,"importPaths":["`+dir+`"]`)
	scanLibrary(t, srv, l.ID, "")
	libraryAssets(t, srv, l.ID, 5)
	got := waitRefreshed(t, srv, l.ID, nil)
	assert.Zero(t, got.AssetCount, "the reference never counts them")
}

func TestScanCounts(t *testing.T) {
	release := make(chan struct{})
	started := make(chan string, 4)
	sc := newScans(nil, func(ctx context.Context, id string, req scanRequest) {
		started <- id
		<-release
	})
	t.Cleanup(sc.close)
	sc.queue("a", scanRequest{})
	<-started
	sc.queue("a", scanRequest{modified: true})
	sc.queue("a", scanRequest{all: true}) // merged with the one waiting
	sc.queue("b", scanRequest{})
	<-started
	active, waiting := sc.Counts()
	assert.Equal(t, 2, active, "a scan of each library runs")
	assert.Equal(t, 1, waiting, "the second and third of a wait as one")
	close(release)
	require.Eventually(t, func() bool { a, w := sc.Counts(); return a == 0 && w == 0 }, 5*time.Second, time.Millisecond)
	assert.Len(t, started, 1, "the waiting scan of a ran once")
}

// TestLibraryQueue: a scan is a job of the library queue (GET /api/jobs),
// and an admin's start of that queue scans every library.
func TestLibraryQueue(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.MediaDir = t.TempDir() })
	dir, _ := libraryFolder(t)
	l := makeLibrary(t, srv, `,"importPaths":["`+dir+`"]`)
	st := jobCommand(t, srv, "library", `{"command":"start"}`)
	assert.Zero(t, st.JobCounts.Failed)
	libraryAssets(t, srv, l.ID, 5) // scanned by the queue's start
	require.Eventually(t, func() bool {
		var all map[string]model.JobStatus
		getJSON(t, srv, "/api/jobs", &all, "x-api-key", keyAlice)
		c := all["library"].JobCounts
		return c.Active == 0 && c.Waiting == 0 && c.Completed >= 2
	}, 10*time.Second, 10*time.Millisecond, "the queue's start and the scan, done")
}
