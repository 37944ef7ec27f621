package api

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// upstreamAssets is the upstream e2e suite's test-assets folder, which
// this machine keeps beside its build of the suite; UPSTREAM_TEST_ASSETS
// names another. Its files are too large to be the project's fixtures
// (the JPEG XL is 1.7 MB, the motion photo 3.6 MB): the tests that read
// them skip where it is absent.
func upstreamAssets(t *testing.T) string {
	dir := os.Getenv("UPSTREAM_TEST_ASSETS")
	if dir == "" {
		dir = "/tmp/upstream-cache/upstream-e2e/66fced40e/e2e/test-assets"
	}
	if _, err := os.Stat(filepath.Join(dir, "formats")); err != nil {
		t.Skipf("the upstream e2e suite's test assets are absent (%v); set UPSTREAM_TEST_ASSETS", err)
	}
	return dir
}

// upstreamFormats are the format files of the upstream's test 'should
// upload and generate a thumbnail for $input' (asset.e2e-spec.ts) and its
// motion photos ('should extract motionphoto video from $filepath'), with
// what the test expects: the asset's fields, its exifInfo's, and a motion
// photo's video checksum. (Its RAW files and two Samsung JPEGs are not in
// this machine's copy.)
var upstreamFormats = []struct {
	file  string
	asset map[string]any
	exif  map[string]any
	video string // the checksum of a motion photo's video
}{
	{
		file:  "formats/avif/8bit-sRGB.avif",
		asset: map[string]any{"type": "IMAGE", "originalFileName": "8bit-sRGB.avif", "resized": true},
		exif: map[string]any{"description": "", "exifImageHeight": 1080.0, "exifImageWidth": 1617.0,
			"fileSizeInByte": 862_424.0, "latitude": nil, "longitude": nil},
	},
	{
		file:  "formats/jpg/el_torcal_rocks.jpg",
		asset: map[string]any{"type": "IMAGE", "originalFileName": "el_torcal_rocks.jpg", "resized": true},
		exif: map[string]any{"dateTimeOriginal": "2012-08-05T11:39:59.000Z", "exifImageWidth": 512.0,
			"exifImageHeight": 341.0, "latitude": nil, "longitude": nil, "focalLength": 75.0, "iso": 200.0,
			"fNumber": 11.0, "exposureTime": "1/160", "fileSizeInByte": 53_493.0, "make": "SONY",
			"model": "DSLR-A550", "orientation": nil, "description": "SONY DSC"},
	},
	{
		file:  "formats/jxl/8bit-sRGB.jxl",
		asset: map[string]any{"type": "IMAGE", "originalFileName": "8bit-sRGB.jxl", "resized": true},
		exif: map[string]any{"description": "", "exifImageHeight": 1080.0, "exifImageWidth": 1440.0,
			"fileSizeInByte": 1_780_777.0, "latitude": nil, "longitude": nil},
	},
	{
		file: "formats/heic/IMG_2682.heic",
		asset: map[string]any{"type": "IMAGE", "originalFileName": "IMG_2682.heic", "resized": true,
			"fileCreatedAt": "2019-03-21T16:04:22.348Z"},
		exif: map[string]any{"dateTimeOriginal": "2019-03-21T16:04:22.348Z", "exifImageWidth": 4032.0,
			"exifImageHeight": 3024.0, "latitude": 41.2203, "longitude": -96.071_625, "make": "Apple",
			"model": "iPhone 7", "lensModel": "iPhone 7 back camera 3.99mm f/1.8", "fileSizeInByte": 880_703.0,
			"exposureTime": "1/887", "iso": 20.0, "focalLength": 3.99, "fNumber": 1.8, "timeZone": "America/Chicago"},
	},
	{
		file:  "formats/png/density_plot.png",
		asset: map[string]any{"type": "IMAGE", "originalFileName": "density_plot.png", "resized": true},
		exif: map[string]any{"exifImageWidth": 800.0, "exifImageHeight": 800.0, "latitude": nil,
			"longitude": nil, "fileSizeInByte": 25_408.0},
	},
	{file: "formats/motionphoto/Samsung One UI 6.heic", video: "/ejgzywvgvzvVhUYVfvkLzFBAF0="},
	// Not in the test's table, but in the folder: the reference's answer
	// is compared below.
	{file: "formats/webp/denali.webp"},
}

// upstreamDeliberate are the fields where the mock answers otherwise than
// the reference did on purpose, by field ("exifInfo.city") or by file and
// field ("8bit-sRGB.jxl|resized"), each with why; docs/differences.md
// names each.
var upstreamDeliberate = map[string]string{
	"thumbhash":                "the mock's ThumbHash is made from its own resized picture",
	"8bit-sRGB.jxl|resized":    "the mock decodes JPEG XL (libjxl in WebAssembly); the reference's libvips could not",
	"IMG_2682.heic|resized":    "the mock decodes HEIC (libheif in WebAssembly); the reference's libvips could not",
	"One UI 6.heic|resized":    "the mock decodes HEIC (libheif in WebAssembly); the reference's libvips could not",
	"livePhotoVideo.resized":   "the mock makes the hidden video's poster; the reference makes none",
	"livePhotoVideo.thumbhash": "the mock makes the hidden video's poster; the reference makes none",
}

// upstreamWhy is why the mock answers path of file otherwise, or "".
func upstreamWhy(file, path string) string {
	if why := upstreamDeliberate[path]; why != "" {
		return why
	}
	for key, why := range upstreamDeliberate {
		if name, field, ok := strings.Cut(key, "|"); ok && strings.HasSuffix(file, name) && field == path {
			return why
		}
	}
	return ""
}

// TestUpstreamFormats uploads each format file of the upstream's suite,
// waits for its thumbnail as the suite does, and checks what the suite
// expects, then every field against what the reference answered for the
// same file (testdata/upstream-formats.json), but for the deliberate
// differences.
func TestUpstreamFormats(t *testing.T) {
	dir := upstreamAssets(t)
	raw, err := os.ReadFile("testdata/upstream-formats.json")
	require.NoError(t, err)
	var reference struct {
		Cases map[string]map[string]any `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &reference))
	srv, _ := newMediaServer(t)
	for _, tt := range upstreamFormats {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, tt.file))
			if os.IsNotExist(err) {
				t.Skipf("%s is not in this copy of the suite", tt.file)
			}
			require.NoError(t, err)
			f := form{fields: [][2]string{
				{"deviceAssetId", "fmt-" + filepath.Base(tt.file)}, {"deviceId", "fmt"},
				{"fileCreatedAt", "2024-01-02T03:04:05.000Z"}, {"fileModifiedAt", "2024-01-02T03:04:05.000Z"},
			}}.withFile("assetData", filepath.Base(tt.file), string(data))
			rep := do(t, uploadRequest(t, srv, f, keyAlice))
			require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
			var res struct{ ID string }
			rep.json(t, &res)
			got := waitForResized(t, srv, res.ID)

			for k, want := range tt.asset {
				assert.Equal(t, want, got[k], "the suite's %s", k)
			}
			x, _ := got["exifInfo"].(map[string]any)
			for k, want := range tt.exif {
				assert.Equal(t, want, x[k], "the suite's exifInfo.%s", k)
			}
			if tt.video != "" {
				id, _ := got["livePhotoVideoId"].(string)
				require.NotEmpty(t, id, "the motion photo's video")
				video := getAsset(t, srv, id)
				assert.Equal(t, tt.video, video["checksum"], "the suite's video checksum")
				got["livePhotoVideo"] = video
				// Its original is the video's bytes, from the still's file.
				orig := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+id, nil, "x-api-key", keyAlice))
				assert.Equal(t, http.StatusOK, orig.status)
				assert.Equal(t, int(video["exifInfo"].(map[string]any)["fileSizeInByte"].(float64)), len(orig.body))
			}

			want := reference.Cases[tt.file]
			require.NotNil(t, want, "the reference's answer for %s", tt.file)
			got["hasLivePhotoVideo"] = got["livePhotoVideoId"] != nil
			wantFlat, gotFlat := flatten("", want), flatten("", got)
			for _, path := range slices.Sorted(maps.Keys(wantFlat)) {
				if strings.HasPrefix(path, "livePhotoVideo.owner") || path == "livePhotoVideo.livePhotoVideoId" {
					continue
				}
				w, g := fmt.Sprint(wantFlat[path]), fmt.Sprint(gotFlat[path])
				why := upstreamWhy(tt.file, path)
				if why != "" {
					if w != g {
						t.Logf("%s: the reference %s, the mock %s: %s", path, w, g, why)
					}
					continue
				}
				assert.Equal(t, w, g, "%s, as the reference", path)
			}
		})
	}
}

// waitForResized polls the asset until its pictures are made, as the
// suite waits for its upload event: a 12 MP HEIC or an AVIF takes seconds
// in WebAssembly.
func waitForResized(t *testing.T, srv *httptest.Server, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		a := getAsset(t, srv, id)
		if a["resized"] == true || time.Now().After(deadline) {
			return a
		}
		time.Sleep(100 * time.Millisecond)
	}
}
