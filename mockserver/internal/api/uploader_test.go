package api

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServerInfo(t *testing.T) {
	srv := newTestServer(t)
	for _, tt := range []struct{ path, body string }{
		{"/.well-known/immich", `{"api":{"endpoint":"/api"}}`},
		{"/api/server-info/ping", `{"res":"pong"}`},
		{"/api/server-info/version", `{"major":1,"minor":105,"patch":1}`},
		{"/api/server-info/media-types", `{"video":[".3gp",".3gpp",".avi",".flv",".insv",".m2ts",".m4v",".mkv",".mov",".mp4",".mpe",".mpeg",".mpg",".mts",".webm",".wmv"],
			"image":[".3fr",".ari",".arw",".cap",".cin",".cr2",".cr3",".crw",".dcr",".dng",".erf",".fff",".iiq",".k25",".kdc",".mrw",".nef",".orf",".ori",".pef",".psd",".raf",".raw",".rw2",".rwl",".sr2",".srf",".srw",".x3f",".avif",".bmp",".gif",".heic",".heif",".hif",".insp",".jpe",".jpeg",".jpg",".jxl",".png",".svg",".tif",".tiff",".webp"],
			"sidecar":[".xmp"]}`},
	} {
		t.Run(tt.path, func(t *testing.T) {
			// Any credentials, even bad ones, are ignored.
			rep := do(t, newRequest(t, http.MethodGet, srv.URL+tt.path, nil, "x-api-key", "wrong", "Authorization", "Bearer wrong"))
			require.Equal(t, http.StatusOK, rep.status)
			assert.Equal(t, "application/json", rep.header.Get("Content-Type"))
			assert.JSONEq(t, tt.body, string(rep.body))
		})
	}
}

func TestBulkUploadCheck(t *testing.T) {
	srv := newTestServer(t)
	sum := sha1.Sum([]byte(aliceAssetBody))
	b64, hx := base64.StdEncoding.EncodeToString(sum[:]), hex.EncodeToString(sum[:])
	bobSum := sha1.Sum([]byte("bob's photo"))
	body := fmt.Sprintf(`{"assets":[{"id":"a","checksum":"%s"},{"id":"b","checksum":"%s"},{"id":"c","checksum":"%s"},{"id":"d","checksum":"%s"},{"id":"e","checksum":"zz"},{"id":"a","checksum":"%s"}]}`,
		b64, hx, strings.ToUpper(hx), hex.EncodeToString(bobSum[:]), b64)
	rep := postJSON(t, srv, "/api/asset/bulk-upload-check", body, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	dup := func(id string) string {
		return `{"id":"` + id + `","assetId":"` + aliceAssetID + `","action":"reject","reason":"duplicate"}`
	}
	assert.JSONEq(t, `{"results":[`+dup("a")+`,`+dup("b")+`,`+dup("c")+`,{"id":"d","action":"accept"},{"id":"e","action":"accept"},`+dup("a")+`]}`, string(rep.body),
		"base64 or hex in either case; another's file and an undecodable checksum are accepted; repeats are each answered")
	assert.JSONEq(t, `{"results":[]}`, string(postJSON(t, srv, "/api/asset/bulk-upload-check", `{"assets":[]}`, "x-api-key", keyAlice).body))

	for _, tt := range []struct {
		name, body string
		message    any
	}{
		{"nothing", `{}`, []any{"assets must be an array"}},
		{"not an array", `{"assets":"x"}`, []any{"assets must be an array", "each value in nested property assets must be either object or array"}},
		{"an empty item", `{"assets":[{}]}`, []any{"assets.0.id should not be empty", "assets.0.id must be a string", "assets.0.checksum should not be empty", "assets.0.checksum must be a string"}},
		{"an item that is no object", `{"assets":[1]}`, []any{"assets.each value in nested property assets must be either object or array"}},
		{"an item that is an array", `{"assets":[[]]}`, []any{"assets.each value in nested property assets must be either object or array"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, postJSON(t, srv, "/api/asset/bulk-upload-check", tt.body, "x-api-key", keyAlice), 400, tt.message)
		})
	}
	requireError(t, postJSON(t, srv, "/api/asset/bulk-upload-check?key="+linkUpload, `{"assets":[]}`), 403, "Forbidden resource")
}

func TestAssetInfo(t *testing.T) {
	srv := newTestServer(t)
	get := func(id string, headers ...string) (reply, map[string]any) {
		var a map[string]any
		rep := getJSON(t, srv, "/api/asset/"+id, &a, headers...)
		return rep, a
	}
	rep, a := get(aliceAssetID, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, aliceAssetID, a["id"])
	assert.Contains(t, a, "owner")
	assert.Equal(t, []any{}, a["tags"])
	assert.Equal(t, []any{}, a["people"])
	assert.Contains(t, a, "exifInfo")

	for name, h := range map[string][]string{
		"an album's viewer":            {"x-api-key", keyBob},
		"its INDIVIDUAL link's key":    {"x-immich-share-key", linkView},
		"its album's ALBUM link's key": {"x-immich-share-key", linkUpload},
	} {
		t.Run(name, func(t *testing.T) {
			rep, a := get(aliceAssetID, h...)
			require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
			assert.NotEqual(t, true, a["isFavorite"], "the real flag only for the owner")
			assert.Equal(t, h[0] == "x-api-key", a["owner"] != nil, "no owner through a link")
		})
	}
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/"+aliceAssetID, nil, "x-api-key", keyCarol)), 400, "Not found or no asset.read access")
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/00000000-0000-4000-8000-00000000beef", nil, "x-api-key", keyAlice)), 400, "Not found or no asset.read access")
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/00000000-0000-4000-8000-000000b0a5e7", nil, "x-immich-share-key", linkView)), 400, "Not found or no asset.read access")
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/nope", nil, "x-api-key", keyAlice)), 400, []any{"id must be a UUID"})

	// An editor's asset added to Alice's album: Alice may now read it.
	al := createAlbum(t, srv, keyAlice, `{"albumName":"Shared","albumUsers":[{"userId":"`+bobID+`","role":"editor"}]}`)
	bobAsset := "00000000-0000-4000-8000-000000b0a5e7"
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/"+bobAsset, nil, "x-api-key", keyAlice)), 400, "Not found or no asset.read access")
	sendJSON(t, srv, http.MethodPut, "/api/albums/"+al["id"].(string)+"/assets", `{"ids":["`+bobAsset+`"]}`, "x-api-key", keyBob)
	rep, _ = get(bobAsset, "x-api-key", keyAlice)
	assert.Equal(t, http.StatusOK, rep.status)

	// Sanitized through a link that hides metadata.
	l := createLink(t, srv, keyAlice, `{"type":"INDIVIDUAL","assetIds":["`+aliceAssetID+`"],"showMetadata":false}`)
	rep, a = get(aliceAssetID, "x-immich-share-key", l["key"].(string))
	require.Equal(t, http.StatusOK, rep.status)
	assert.Len(t, a, 8, "%v", a)
}

func TestPicturesAndStatistics(t *testing.T) {
	srv := newTestServer(t)
	for _, path := range []string{"/api/asset/thumbnail/" + aliceAssetID, "/api/asset/thumbnail/" + aliceAssetID + "?format=JPEG", "/api/asset/file/" + aliceAssetID + "?isThumb=true"} {
		rep := do(t, newRequest(t, http.MethodGet, srv.URL+path, nil, "x-api-key", keyAlice))
		requireError(t, rep, 404, "No thumbnail found for asset "+aliceAssetID)
		assert.Equal(t, "none", rep.header.Get("Cache-Control"))
	}
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/thumbnail/"+aliceAssetID+"?format=GIF", nil, "x-api-key", keyAlice)), 400, []any{"format must be one of the following values: JPEG, WEBP"})
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+aliceAssetID+"?isThumb=maybe", nil, "x-api-key", keyAlice)), 400, []any{"isThumb must be a boolean value"})
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/thumbnail/"+aliceAssetID, nil, "x-api-key", keyCarol)), 400, "Not found or no asset.view access")

	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/"+bobID+"/profile-image", nil, "x-api-key", keyAlice)), 404, "User does not have a profile image")
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/00000000-0000-4000-8000-00000000beef/profile-image", nil, "x-api-key", keyAlice)), 400, "User not found")
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/"+bobID+"/profile-image?key="+linkView, nil)), 403, "Forbidden resource")

	var stats map[string]any
	require.Equal(t, http.StatusOK, getJSON(t, srv, "/api/asset/statistics", &stats, "x-api-key", keyAlice).status)
	assert.Equal(t, map[string]any{"images": 1.0, "videos": 0.0, "total": 1.0}, stats)
	getJSON(t, srv, "/api/asset/statistics?isFavorite=true", &stats, "x-api-key", keyAlice)
	assert.Equal(t, 0.0, stats["total"])
	requireError(t, getJSON(t, srv, "/api/asset/statistics?isArchived=x", nil, "x-api-key", keyAlice), 400, []any{"isArchived must be a boolean value"})
}
