package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
)

// extractedPath holds what the reference showed for each fixture file
// uploaded to it, read back once its metadata job had run.
const extractedPath = "../../../../shared/reference/extracted.json"

type extractedCase struct {
	Case   string `json:"case"`
	Upload struct {
		Status    int  `json:"status"`
		Duplicate bool `json:"duplicate"`
	} `json:"upload"`
	Asset          map[string]any `json:"asset"`
	LivePhotoVideo map[string]any `json:"livePhotoVideo"`
}

// masked are the fields the reference's record masks or labels: ids,
// server paths, the owner, the time of the upload. livePhotoVideoId is
// compared as present or not.
var masked = []string{"id", "ownerId", "owner", "originalPath", "updatedAt", "livePhotoVideoId"}

// deliberate are the fields where the mock answers otherwise on purpose,
// by case ("" for every case), each with why; docs/differences.md names
// each.
var deliberate = map[string]map[string]string{
	"": {
		"thumbhash": "the mock's ThumbHash is made from its own resized picture: the same picture, other bytes",
	},
	"DSC05678.ARW as is": {
		"exifInfo.exifImageWidth":  "the mock gives the size the camera's EXIF declares (ExifImageWidth), the reference the size of the RAW's first image",
		"exifInfo.exifImageHeight": "the mock gives the size the camera's EXIF declares (ExifImageHeight), the reference the size of the RAW's first image",
	},
	"IMG_4022.HEIC as is": {
		"resized":   "the mock decodes HEIC and makes its pictures; the reference's build could not",
		"thumbhash": "the mock decodes HEIC and makes its pictures; the reference's build could not",
	},
	"IMG_4022.HEIC as a live photo": {
		"resized":                  "the mock decodes HEIC and makes its pictures; the reference's build could not",
		"thumbhash":                "the mock decodes HEIC and makes its pictures; the reference's build could not",
		"livePhotoVideo.resized":   "the mock makes the video's poster; the reference had not yet",
		"livePhotoVideo.thumbhash": "the mock makes the video's poster; the reference had not yet",
	},
	"VID_20240101_120000.mp4 as is": {
		"thumbhash": "the mock's poster has a ThumbHash; the reference gave its video thumbnail none",
	},
}

// differs is why the mock answers path otherwise in case c, or "".
func differs(c, path string) string {
	for prefix, fields := range deliberate {
		if prefix == "" || strings.HasPrefix(c, prefix) {
			if why := fields[path]; why != "" {
				return why
			}
		}
	}
	return ""
}

// TestUploadsReadAsTheReference: every fixture file uploaded as the
// reference's was (as is, with its sidecar, as a live photo) reads back
// with the fields the reference showed, but for the deliberate
// differences.
func TestUploadsReadAsTheReference(t *testing.T) {
	raw, err := os.ReadFile(extractedPath)
	if err != nil {
		t.Skipf("../shared is absent (%v): the reference's extracted metadata is needed", err)
	}
	var doc struct {
		Cases []extractedCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Len(t, doc.Cases, 8)
	read := func(name string) string {
		b, err := fixtures.ReadFile(name)
		require.NoError(t, err)
		return string(b)
	}
	// A 24-byte free box, as the reference's live photo case appends to
	// both files so that their checksums are new.
	free := string(append([]byte{0, 0, 0, 24, 'f', 'r', 'e', 'e'}, make([]byte, 16)...))
	for _, c := range doc.Cases {
		t.Run(c.Case, func(t *testing.T) {
			srv, _ := newMediaServer(t)
			f := form{fields: [][2]string{
				{"deviceAssetId", c.Asset["deviceAssetId"].(string)},
				{"deviceId", "fixtures"},
				{"fileCreatedAt", "2024-05-30T10:00:00.000Z"},
				{"fileModifiedAt", "2024-05-30T10:00:00.000Z"},
			}}
			name, _, _ := strings.Cut(c.Case, " ")
			checksums := true
			switch {
			case strings.HasSuffix(c.Case, " as is"):
				f = f.withFile("assetData", name, read(name))
			case strings.Contains(c.Case, "sidecar"):
				checksums = false // random bytes
				f = f.withFile("assetData", name, read(name)+"sixteen bytes..!").
					withFile("sidecarData", fixtures.LisbonXMP, read(fixtures.LisbonXMP))
			case strings.Contains(c.Case, "live photo"):
				checksums = false // the reference's free boxes were not empty
				f = f.withFile("assetData", name, read(name)+free).
					withFile("livePhotoData", fixtures.ClipMP4, read(fixtures.ClipMP4)+free)
			default:
				t.Fatalf("a case this test does not know how to upload: %s", c.Case)
			}
			rep := do(t, uploadRequest(t, srv, f, keyAlice))
			require.Equal(t, c.Upload.Status, rep.status, "%s", rep.body)
			var res struct {
				ID        string
				Duplicate bool
			}
			rep.json(t, &res)
			assert.Equal(t, c.Upload.Duplicate, res.Duplicate)
			// The reference's record was read after its jobs ran.
			waitForPicture(t, srv, "/api/asset/thumbnail/"+res.ID)
			got := getAsset(t, srv, res.ID)
			want := c.Asset
			if c.LivePhotoVideo != nil {
				require.NotNil(t, got["livePhotoVideoId"])
				id := got["livePhotoVideoId"].(string)
				waitForPicture(t, srv, "/api/asset/thumbnail/"+id)
				got["livePhotoVideo"] = getAsset(t, srv, id)
				want = maps.Clone(want)
				want["livePhotoVideo"] = c.LivePhotoVideo
			}
			wantFlat, gotFlat := flatten("", want), flatten("", got)
			for _, path := range slices.Sorted(maps.Keys(wantFlat)) {
				w := wantFlat[path]
				last := path[strings.LastIndex(path, ".")+1:]
				if slices.Contains(masked, strings.TrimPrefix(path, "livePhotoVideo.")) || strings.Contains(path, "owner.") {
					if last == "livePhotoVideoId" {
						assert.Equal(t, w == nil, gotFlat[path] == nil, "%s: present or not", path)
					}
					continue
				}
				if last == "checksum" && !checksums {
					continue
				}
				g, ok := gotFlat[path]
				if why := differs(c.Case, path); why != "" {
					if fmt.Sprint(w) != fmt.Sprint(g) {
						t.Logf("%s: the reference %v, the mock %v: %s", path, w, g, why)
					}
					continue
				}
				if assert.True(t, ok, "%s is missing: the reference has %v", path, w) {
					assert.Equal(t, fmt.Sprint(w), fmt.Sprint(g), "%s", path)
				}
			}
		})
	}
}

// getAsset is GET /api/asset/{id} as the owner sees it.
func getAsset(t *testing.T, srv *httptest.Server, id string) map[string]any {
	t.Helper()
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/"+id, nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var a map[string]any
	rep.json(t, &a)
	return a
}

// flatten turns nested objects into dotted paths; arrays and values stay
// as they are.
func flatten(prefix string, v map[string]any) map[string]any {
	out := map[string]any{}
	for k, x := range v {
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		if m, ok := x.(map[string]any); ok {
			maps.Copy(out, flatten(p, m))
			continue
		}
		if b, err := json.Marshal(x); err == nil && bytes.HasPrefix(b, []byte("[")) {
			x = string(b)
		}
		out[p] = x
	}
	return out
}

// TestUploadsWhoseMetadataLies: a file whose EXIF gives a date in the year
// 0000 or 9999 or an offset of +25:00, or a sidecar that is not XML or is
// too large, is stored with those fields from the form (or null), never
// refused and never a 500.
func TestUploadsWhoseMetadataLies(t *testing.T) {
	tokyo, err := fixtures.ReadFile(fixtures.TokyoJPEG)
	require.NoError(t, err)
	lisbon, err := fixtures.ReadFile(fixtures.LisbonJPEG)
	require.NoError(t, err)
	const sent = "2026-11-01T09:30:00.000Z" // validForm's fileCreatedAt
	xmp, err := fixtures.ReadFile(fixtures.LisbonXMP)
	require.NoError(t, err)
	// Cut inside its body, after the rdf:Description that holds the
	// properties: a reader that kept what it read before the error would
	// have them.
	cut := bytes.Index(xmp, []byte("<dc:description>"))
	require.Positive(t, cut)
	tests := []struct {
		name          string
		file          []byte
		sidecar       string
		created, zone string
	}{
		{name: "a capture date in the year 0000", file: bytes.ReplaceAll(tokyo, []byte("2024:04:03 19:15:30"), []byte("0000:00:00 00:00:00")), created: sent, zone: "UTC+9"},
		{name: "a capture date in the year 9999", file: bytes.ReplaceAll(tokyo, []byte("2024:04:03 19:15:30"), []byte("9999:12:31 23:59:59")), created: sent, zone: "UTC+9"},
		{name: "an offset of +25:00", file: bytes.ReplaceAll(tokyo, []byte("+09:00"), []byte("+25:00")), created: "2024-04-03T10:15:30.000Z", zone: "Asia/Tokyo"},
		// Read, the Lisbon sidecar would name the zone of its position,
		// Europe/Lisbon: the EXIF's UTC+1 shows it was not.
		{name: "a sidecar cut off, so not XML", file: lisbon, sidecar: string(xmp[:cut]), created: "2023-06-14T19:42:07.000Z", zone: "UTC+1"},
		{name: "a sidecar over the bound", file: lisbon, sidecar: string(xmp) + strings.Repeat(" ", 2<<20), created: "2023-06-14T19:42:07.000Z", zone: "UTC+1"},
	}
	srv := newTestServer(t)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := validForm("").onlyFields().with("deviceAssetId", fmt.Sprint("lies-", i)).withFile("assetData", "photo.jpg", string(tt.file)+fmt.Sprint(i))
			if tt.sidecar != "" {
				f = f.withFile("sidecarData", "photo.jpg.xmp", tt.sidecar)
			}
			rep := do(t, uploadRequest(t, srv, f, keyAlice))
			require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
			var res struct{ ID string }
			rep.json(t, &res)
			a := getAsset(t, srv, res.ID)
			assert.Equal(t, tt.created, a["fileCreatedAt"])
			exif := a["exifInfo"].(map[string]any)
			assert.Equal(t, tt.zone, exif["timeZone"])
			assert.NotNil(t, exif["make"], "the rest of the EXIF stands")
		})
	}
}
