package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The JSON bodies of the workflow operations, fuzzed: whatever the body, the
// answer is a success or a 4xx JSON error, never a 500 or a panic.

func serveJSON(h http.Handler, method, path string, body []byte) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("x-api-key", keyAlice)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func fuzzJSON(f *testing.F, method, path string, seeds ...string) {
	for _, s := range append(seeds, `{}`, ``, `[]`, `null`, `{"`, `{"a":1}}`, `"x"`, `{"assetIds":{"0":"x"}}`) {
		f.Add([]byte(s))
	}
	h := fuzzHandler(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		w := serveJSON(h, method, path, body)
		if w.Code < 400 {
			if !json.Valid(w.Body.Bytes()) {
				t.Fatalf("status %d: not JSON: %q", w.Code, w.Body)
			}
			return
		}
		checkAnswer(t, w)
	})
}

func FuzzCreateSharedLink(f *testing.F) {
	fuzzJSON(f, http.MethodPost, "/api/shared-links",
		`{"type":"INDIVIDUAL","assetIds":["`+aliceAssetID+`"],"password":"x","expiresAt":"2030-01-01T00:00:00Z","allowUpload":"true"}`,
		`{"type":"ALBUM","albumId":"`+testAlbumID+`","description":null,"showMetadata":false}`,
		`{"type":"ALBUM","albumId":"`+testAlbumID+`","expiresAt":"9999-12-31T23:59:59-05:00"}`)
}

func FuzzUpdateSharedLink(f *testing.F) {
	fuzzJSON(f, http.MethodPatch, "/api/shared-links/"+viewLinkID,
		`{"description":null,"password":"","expiresAt":"2030-01-01","changeExpiryTime":true,"allowDownload":false}`,
		`{"changeExpiryTime":"true","expiresAt":null,"type":"ALBUM"}`)
}

func FuzzCreateAlbum(f *testing.F) {
	fuzzJSON(f, http.MethodPost, "/api/albums",
		`{"albumName":"x","description":"d","assetIds":["`+aliceAssetID+`"],"albumUsers":[{"userId":"`+bobID+`","role":"editor"}]}`,
		`{"albumName":"","albumUsers":[{}, 1, null]}`)
}

func FuzzAddAssetsToAlbum(f *testing.F) {
	fuzzJSON(f, http.MethodPut, "/api/albums/"+testAlbumID+"/assets",
		`{"ids":["`+aliceAssetID+`","`+aliceAssetID+`"]}`, `{"ids":"x"}`, `{"ids":[1,true,null]}`)
}

func FuzzBulkUploadCheck(f *testing.F) {
	fuzzJSON(f, http.MethodPost, "/api/asset/bulk-upload-check",
		`{"assets":[{"id":"a","checksum":"`+sha1Base64([]byte(aliceAssetBody))+`"},{"id":"b","checksum":"zz"}]}`,
		`{"assets":[{"id":1,"checksum":null},2,[]]}`, `{"assets":"x"}`)
}
