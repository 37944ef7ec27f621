package conformance_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The broken variants of the downloads (TestBrokenVariantsAreCaught).

// isDownload selects the requests of the download routes.
func isDownload(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/api/download/")
}

// downloadsAsOwner forgets what a link allows: a link's holder downloads
// as its owner does (the scenarios' links are the default user's).
func downloadsAsOwner(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := r.URL.Query(); isDownload(r) && q.Has("key") {
			q.Del("key")
			q.Del("token")
			r.URL.RawQuery = q.Encode()
			r.Header.Set("x-api-key", apiKey)
		}
		h.ServeHTTP(w, r)
	})
}

// archiveLeavesOneOut leaves the last asset asked for out of an archive.
func archiveLeavesOneOut(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isDownload(r) && r.URL.Path == "/api/download/archive" {
			var in struct {
				AssetIDs []string `json:"assetIds"`
			}
			if json.NewDecoder(r.Body).Decode(&in) == nil && len(in.AssetIDs) > 1 {
				in.AssetIDs = in.AssetIDs[:len(in.AssetIDs)-1]
			}
			b, _ := json.Marshal(in)
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
		}
		h.ServeHTTP(w, r)
	})
}

// archiveOtherBytes changes one byte of every file of an archive and
// writes a zip that holds together (CRCs, sizes): only a check of the
// bytes themselves sees it.
func archiveOtherBytes(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isDownload(r) || r.URL.Path != "/api/download/archive" {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body))); rec.Code == http.StatusOK && err == nil {
			var out bytes.Buffer
			zw := zip.NewWriter(&out)
			for _, f := range zr.File {
				rc, _ := f.Open()
				b, _ := io.ReadAll(rc)
				if len(b) > 0 {
					b[len(b)/2] ^= 0xff
				}
				fw, _ := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Store, Modified: f.Modified})
				_, _ = fw.Write(b)
			}
			_ = zw.Close()
			body = out.Bytes()
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}
