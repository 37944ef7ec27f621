package api

import (
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/formdata"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// TestUploadErrors holds every error of uploadFile in the contract: its
// status and its exact message.
func TestUploadErrors(t *testing.T) {
	allMissing := []string{
		"deviceAssetId must be a string", "deviceAssetId should not be empty",
		"deviceId must be a string", "deviceId should not be empty",
		"fileCreatedAt must be a Date instance", "fileCreatedAt should not be empty",
		"fileModifiedAt must be a Date instance", "fileModifiedAt should not be empty",
	}
	tests := []struct {
		name    string
		form    form
		key     string            // x-api-key; "" for none
		query   string            // raw query
		headers map[string]string // more request headers
		status  int
		message any
	}{
		{name: "no credentials", form: validForm("x"), status: 401, message: "Authentication required"},
		{name: "unknown API key", form: validForm("x"), key: "nope", status: 401, message: "Invalid API key"},
		{name: "unknown bearer token", form: validForm("x"), headers: map[string]string{"Authorization": "Bearer nope"}, status: 401, message: "Invalid user token"},
		{name: "bearer wins over a good API key", form: validForm("x"), key: keyAlice, headers: map[string]string{"Authorization": "Bearer nope"}, status: 401, message: "Invalid user token"},
		{name: "unknown share key", form: validForm("x"), query: "key=nope", status: 401, message: "Invalid share key"},
		{name: "share key wins over a good API key", form: validForm("x"), key: keyAlice, query: "key=nope", status: 401, message: "Invalid share key"},
		{name: "share key wins over a good bearer token", form: validForm("x"), query: "key=nope", headers: map[string]string{"Authorization": "Bearer " + keyAlice}, status: 401, message: "Invalid share key"},
		{name: "expired share key", form: validForm("x"), query: "key=" + linkExpired, status: 401, message: "Invalid share key"},
		{name: "link without allowUpload", form: validForm("x"), query: "key=" + linkView, status: 401, message: "Unauthorized"},
		{
			name: "link without allowUpload, before the checksum header", form: validForm("x"), query: "key=" + linkView,
			headers: map[string]string{DefaultChecksumHeader: sha1Base64([]byte(aliceAssetBody))}, status: 401, message: "Unauthorized",
		},
		{name: "a multipart body without files", form: validForm("x").onlyFields(), key: keyAlice, status: 400, message: "File is required"},
		{name: "files but no assetData", form: form{fields: validForm("x").fields, files: []formFile{{"sidecarData", "a.xmp", "<x/>"}}}, key: keyAlice, status: 400, message: "Field(s) assetData should not be empty"},
		{name: "a second assetData", form: validForm("x").withFile("assetData", "b.jpg", "y"), key: keyAlice, status: 400, message: "Unexpected field"},
		{name: "a file under an unknown name", form: validForm("x").withFile("thumbnailData", "b.jpg", "y"), key: keyAlice, status: 400, message: "Unexpected field"},
		{name: "a second livePhotoData", form: validForm("x").withFile("livePhotoData", "a.mov", "y").withFile("livePhotoData", "b.mov", "z"), key: keyAlice, status: 400, message: "Unexpected field"},
		{name: "unsupported assetData type", form: form{fields: validForm("x").fields, files: []formFile{{"assetData", "notes.txt", "x"}}}, key: keyAlice, status: 400, message: "Unsupported file type notes.txt"},
		{name: "assetData without extension", form: form{fields: validForm("x").fields, files: []formFile{{"assetData", "README", "x"}}}, key: keyAlice, status: 400, message: "Unsupported file type README"},
		{name: "an image as livePhotoData", form: validForm("x").withFile("livePhotoData", "live.jpg", "y"), key: keyAlice, status: 400, message: "Unsupported file type live.jpg"},
		{name: "a sidecar that is not XMP", form: validForm("x").withFile("sidecarData", "meta.json", "{}"), key: keyAlice, status: 400, message: "Unsupported file type meta.json"},
		{name: "every field missing", form: validForm("x").onlyFiles(), key: keyAlice, status: 400, message: allMissing},
		{name: "deviceAssetId missing", form: validForm("x").without("deviceAssetId"), key: keyAlice, status: 400, message: []string{"deviceAssetId must be a string", "deviceAssetId should not be empty"}},
		{name: "deviceAssetId empty", form: validForm("x").with("deviceAssetId", ""), key: keyAlice, status: 400, message: []string{"deviceAssetId should not be empty"}},
		{name: "deviceId missing", form: validForm("x").without("deviceId"), key: keyAlice, status: 400, message: []string{"deviceId must be a string", "deviceId should not be empty"}},
		{name: "deviceId empty", form: validForm("x").with("deviceId", ""), key: keyAlice, status: 400, message: []string{"deviceId should not be empty"}},
		{name: "fileCreatedAt missing", form: validForm("x").without("fileCreatedAt"), key: keyAlice, status: 400, message: []string{"fileCreatedAt must be a Date instance", "fileCreatedAt should not be empty"}},
		{name: "fileModifiedAt missing", form: validForm("x").without("fileModifiedAt"), key: keyAlice, status: 400, message: []string{"fileModifiedAt must be a Date instance", "fileModifiedAt should not be empty"}},
		{name: "fileCreatedAt not a date", form: validForm("x").with("fileCreatedAt", "yesterday"), key: keyAlice, status: 400, message: "fileCreatedAt must be a date string"},
		{name: "fileModifiedAt not a date", form: validForm("x").with("fileModifiedAt", "2024-13-45"), key: keyAlice, status: 400, message: "fileModifiedAt must be a date string"},
		{name: "a bad date replaces the other messages", form: validForm("x").without("deviceId").with("isFavorite", "yes").with("fileCreatedAt", "31/12/2024"), key: keyAlice, status: 400, message: "fileCreatedAt must be a date string"},
		{name: "isFavorite not a boolean", form: validForm("x").with("isFavorite", "yes"), key: keyAlice, status: 400, message: []string{"isFavorite must be a boolean value"}},
		{
			name: "every boolean wrong, with a missing field", form: validForm("x").without("deviceId").with("isOffline", "1").with("isVisible", "TRUE").with("isArchived", "").with("isFavorite", "no"), key: keyAlice, status: 400,
			message: []string{"deviceId must be a string", "deviceId should not be empty", "isFavorite must be a boolean value", "isArchived must be a boolean value", "isVisible must be a boolean value", "isOffline must be a boolean value"},
		},
		{name: "over the user's quota", form: validForm(strings.Repeat("q", 2048)), key: keyCarol, status: 400, message: "Quota has been exceeded!"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newTestServer(t)
			r := uploadRequest(t, srv, tt.form, tt.key)
			r.URL.RawQuery = tt.query
			for k, v := range tt.headers {
				r.Header.Set(k, v)
			}
			requireError(t, do(t, r), tt.status, tt.message)
			assertAssetCount(t, srv, keyAlice, 1) // nothing was stored
		})
	}
}

// TestUploadMalformedBodies: a body that is not a well-formed multipart form
// is a 400 with a message, and the server goes on answering.
func TestUploadMalformedBodies(t *testing.T) {
	good, ct := validForm("x").encode(t)
	tests := []struct {
		name        string
		contentType string
		body        []byte
		message     string
	}{
		{"a JSON body", "application/json", []byte(`{"deviceId":"x"}`), "File is required"},
		{"no Content-Type", "", good, "File is required"},
		{"no boundary", "multipart/form-data", good, "Malformed multipart body: the Content-Type has no boundary"},
		{"an unreadable Content-Type", "multipart/form-data; boundary", good, ""},
		{"another boundary", "multipart/form-data; boundary=elsewhere", good, ""},
		{"cut off inside assetData", ct, good[:len(good)-40], "Malformed multipart body: it ends before its closing boundary"},
		{"cut off after the preamble", ct, good[:20], ""},
		{"an empty body", ct, nil, ""},
		{"a part's header without a colon", "multipart/form-data; boundary=B", []byte("--B\r\nno colon here\r\n\r\nx\r\n--B--\r\n"), "Malformed multipart body: a part's headers cannot be read"},
		{"a part's headers past their bound", "multipart/form-data; boundary=B", []byte("--B\r\nContent-Disposition: form-data; name=\"a\"\r\nX-Pad: " + strings.Repeat("p", formdata.MaxHeaderBytes) + "\r\n\r\nx\r\n--B--\r\n"), "Malformed multipart body: a part's headers are too large"},
		{"a line where a part should start", "multipart/form-data; boundary=B", []byte("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--Bz\r\n"), ""},
	}
	srv := newTestServer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRequest(t, http.MethodPost, srv.URL+"/api/asset/upload", bytes.NewReader(tt.body), "x-api-key", keyAlice)
			if tt.contentType != "" {
				r.Header.Set("Content-Type", tt.contentType)
			}
			rep := do(t, r)
			var msg any
			if tt.message != "" {
				msg = tt.message
			}
			requireError(t, rep, http.StatusBadRequest, msg)
			for _, w := range goWords() {
				assert.NotContains(t, strings.ToLower(string(rep.body)), strings.ToLower(w), "the API's words, never Go's")
			}
			assert.NotContains(t, string(rep.body), "multipart: ", "never the Go package's words")
			// The server still answers.
			requireUpload(t, srv, validForm(tt.name), keyAlice, http.StatusCreated)
		})
	}
}

func TestUploadTooLarge(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.MaxUploadBytes = 1024 })
	t.Run("declared length", func(t *testing.T) {
		r := uploadRequest(t, srv, validForm(strings.Repeat("x", 2048)), keyAlice)
		requireError(t, do(t, r), http.StatusRequestEntityTooLarge, "Upload is larger than the limit of 1024 bytes")
	})
	t.Run("streamed without length", func(t *testing.T) {
		r := uploadRequest(t, srv, validForm(strings.Repeat("x", 2048)), keyAlice)
		r.ContentLength = -1
		r.Body = io.NopCloser(struct{ io.Reader }{r.Body}) // hide the length
		requireError(t, do(t, r), http.StatusRequestEntityTooLarge, "Upload is larger than the limit of 1024 bytes")
	})
	requireUpload(t, srv, validForm("small"), keyAlice, http.StatusCreated)
}

// requireUpload uploads f and checks the status; it returns the result.
func requireUpload(t *testing.T, srv *httptest.Server, f form, key string, status int) model.UploadResult {
	t.Helper()
	rep := do(t, uploadRequest(t, srv, f, key))
	require.Equal(t, status, rep.status, "body: %s", rep.body)
	var res model.UploadResult
	rep.json(t, &res)
	return res
}

func TestUploadAndDuplicates(t *testing.T) {
	srv := newTestServer(t)
	photo := "the bytes of a new photo"
	first := requireUpload(t, srv, validForm(photo), keyAlice, http.StatusCreated)
	assert.False(t, first.Duplicate)
	assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, first.ID)

	again := requireUpload(t, srv, validForm(photo).with("deviceAssetId", "another"), keyAlice, http.StatusOK)
	assert.Equal(t, model.UploadResult{ID: first.ID, Duplicate: true}, again)

	// Duplicates are per owner: Bob's copy is a new asset of Bob's.
	bobs := requireUpload(t, srv, validForm(photo), keyBob, http.StatusCreated)
	assert.NotEqual(t, first.ID, bobs.ID)

	// Through a link that allows uploads, the asset is the link owner's.
	r := uploadRequest(t, srv, validForm(photo), "")
	r.URL.RawQuery = "key=" + linkUpload
	rep := do(t, r)
	require.Equal(t, http.StatusOK, rep.status, "body: %s", rep.body)
	var viaLink model.UploadResult
	rep.json(t, &viaLink)
	assert.Equal(t, first.ID, viaLink.ID)

	// A session's access token works as a bearer token; an API key does not.
	r = uploadRequest(t, srv, validForm(photo), "")
	r.Header.Set("Authorization", "Bearer "+login(t, srv, "alice@example.com"))
	assert.Equal(t, http.StatusOK, do(t, r).status)
	r = uploadRequest(t, srv, validForm(photo), "")
	r.Header.Set("Authorization", "Bearer "+keyAlice)
	requireError(t, do(t, r), 401, "Invalid user token")
}

func TestUploadChecksumHeader(t *testing.T) {
	sum := sha1.Sum([]byte(aliceAssetBody))
	for name, value := range map[string]string{
		"base64": sha1Base64([]byte(aliceAssetBody)),
		"hex":    hex.EncodeToString(sum[:]),
		"HEX":    strings.ToUpper(hex.EncodeToString(sum[:])),
	} {
		t.Run(name, func(t *testing.T) {
			srv := newTestServer(t)
			// Other bytes in the body: the header alone decides, and the body
			// is neither read nor stored.
			r := uploadRequest(t, srv, validForm("other bytes"), keyAlice)
			r.Header.Set(DefaultChecksumHeader, value)
			rep := do(t, r)
			require.Equal(t, http.StatusOK, rep.status, "body: %s", rep.body)
			var res model.UploadResult
			rep.json(t, &res)
			assert.Equal(t, model.UploadResult{ID: aliceAssetID, Duplicate: true}, res)
			assertAssetCount(t, srv, keyAlice, 1)
			requireUpload(t, srv, validForm("other bytes"), keyAlice, http.StatusCreated)
		})
	}
	t.Run("not a checksum, or another user's, is no match", func(t *testing.T) {
		srv := newTestServer(t)
		for _, v := range []string{"nonsense", strings.Repeat("z", 40), sha1Base64([]byte("bob's photo"))} {
			r := uploadRequest(t, srv, validForm("fresh "+v), keyAlice)
			r.Header.Set(DefaultChecksumHeader, v)
			assert.Equal(t, http.StatusCreated, do(t, r).status)
		}
	})
	t.Run("configurable name", func(t *testing.T) {
		srv := newTestServer(t, func(c *Config) { c.ChecksumHeader = "x-asset-checksum" })
		r := uploadRequest(t, srv, validForm("other"), keyAlice)
		r.Header.Set("x-asset-checksum", hex.EncodeToString(sum[:]))
		assert.Equal(t, http.StatusOK, do(t, r).status)
	})
}

func TestUploadStoredAsset(t *testing.T) {
	srv := newTestServer(t)
	f := validForm("a live photo's still").
		with("isFavorite", "true").with("isArchived", "false").with("duration", "0:00:02.500000").
		with("fileCreatedAt", "2024-05-30").
		withFile("livePhotoData", "IMG_0042.MOV", "the moving part").
		withFile("sidecarData", "IMG_0042.xmp", "<x:xmpmeta/>")
	f.files[0].filename = "IMG_0042.HEIC"
	res := requireUpload(t, srv, f, keyAlice, http.StatusCreated)

	assets := listAssets(t, srv, keyAlice)
	require.Len(t, assets, 3)
	still, video := assets[0], assets[1]
	assert.Equal(t, res.ID, still.ID)
	assert.Equal(t, "IMG_0042.HEIC", still.OriginalFileName)
	assert.Equal(t, model.AssetImage, still.Type)
	assert.Equal(t, sha1Base64([]byte("a live photo's still")), still.Checksum)
	assert.Equal(t, "2024-05-30T00:00:00Z", still.FileCreatedAt.Format("2006-01-02T15:04:05Z07:00"))
	assert.Equal(t, still.FileCreatedAt, still.LocalDateTime)
	assert.Equal(t, "0:00:02.500000", still.Duration)
	assert.True(t, still.IsFavorite)
	assert.False(t, still.IsArchived)
	require.NotNil(t, still.ExifInfo)
	require.NotNil(t, still.ExifInfo.FileSizeInByte)
	assert.EqualValues(t, len("a live photo's still"), *still.ExifInfo.FileSizeInByte)
	require.NotNil(t, still.LivePhotoVideoID)
	assert.Equal(t, video.ID, *still.LivePhotoVideoID)
	assert.Equal(t, model.AssetVideo, video.Type)
	assert.Equal(t, "IMG_0042.MOV", video.OriginalFileName)

	// Without a duration, an asset gets the reference's default.
	requireUpload(t, srv, validForm("plain"), keyAlice, http.StatusCreated)
	assert.Equal(t, model.DefaultDuration, listAssets(t, srv, keyAlice)[0].Duration)
}

// TestConcurrentIdenticalUploads: 50 uploads of the same bytes at once make
// one asset; every other answer is a duplicate with its id.
func TestConcurrentIdenticalUploads(t *testing.T) {
	srv := newTestServer(t)
	const n = 50
	body, ct := validForm("the same bytes, fifty times").encode(t)
	// The requests are made here, and answers read without require in the
	// goroutines: t's require may only stop the test's own goroutine.
	requests := make([]*http.Request, n)
	for i := range requests {
		requests[i] = newRequest(t, http.MethodPost, srv.URL+"/api/asset/upload", bytes.NewReader(body), "Content-Type", ct, "x-api-key", keyAlice)
	}
	var wg sync.WaitGroup
	results := make([]reply, n)
	errs := make([]error, n)
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			resp, err := http.DefaultClient.Do(requests[i])
			if err != nil {
				errs[i] = err
				return
			}
			defer resp.Body.Close()
			results[i].status = resp.StatusCode
			results[i].body, errs[i] = io.ReadAll(resp.Body)
		})
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	ids := map[string]int{}
	statuses := map[int]int{}
	for _, rep := range results {
		var res model.UploadResult
		rep.json(t, &res)
		statuses[rep.status]++
		ids[res.ID]++
		assert.Equal(t, rep.status == http.StatusOK, res.Duplicate)
	}
	assert.Equal(t, map[int]int{http.StatusCreated: 1, http.StatusOK: n - 1}, statuses)
	assert.Len(t, ids, 1, "every answer names the one asset")
	assertAssetCount(t, srv, keyAlice, 2)
}

// TestUploadIgnoresUnknownTextParts: text parts the upload does not have are
// ignored, and isVisible is taken but never shown.
func TestUploadIgnoresUnknownTextParts(t *testing.T) {
	srv := newTestServer(t)
	res := requireUpload(t, srv, validForm("with extras").with("albumName", "Holiday").with("isVisible", "false"), keyAlice, http.StatusCreated)
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/__mock/assets", nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, rep.status)
	assert.Contains(t, string(rep.body), res.ID)
	assert.NotContains(t, string(rep.body), "isVisible")
	assert.NotContains(t, string(rep.body), "Holiday")
}

// TestUploadAuthenticationFirst: without credentials the answer is 401,
// whatever the body or the checksum header: nothing else of the request is
// read before authentication, and nothing is stored.
func TestUploadAuthenticationFirst(t *testing.T) {
	good, ct := validForm("x").encode(t)
	tests := []struct {
		name        string
		contentType string
		body        []byte
		headers     []string
	}{
		{name: "a multipart body cut off", contentType: ct, body: good[:len(good)-40]},
		{name: "a multipart body without boundary", contentType: "multipart/form-data", body: good},
		{name: "an unreadable multipart Content-Type", contentType: "multipart/form-data; boundary", body: good},
		{name: "a JSON body", contentType: "application/json", body: []byte(`{"deviceId":"x"}`)},
		{name: "no body at all"},
		{
			name: "a checksum header matching Alice's asset", contentType: ct, body: good,
			headers: []string{DefaultChecksumHeader, sha1Base64([]byte(aliceAssetBody))},
		},
	}
	srv := newTestServer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRequest(t, http.MethodPost, srv.URL+"/api/asset/upload", bytes.NewReader(tt.body), tt.headers...)
			if tt.contentType != "" {
				r.Header.Set("Content-Type", tt.contentType)
			}
			requireError(t, do(t, r), http.StatusUnauthorized, "Authentication required")
			assertAssetCount(t, srv, keyAlice, 1)
		})
	}
}

// TestUploadCredentialOrder: the query key is looked at first, so a good
// upload link key beside an unknown bearer token uploads as the link's owner.
func TestUploadCredentialOrder(t *testing.T) {
	srv := newTestServer(t)
	r := uploadRequest(t, srv, validForm("through the link, beside a bad token"), "")
	r.URL.RawQuery = "key=" + linkUpload
	r.Header.Set("Authorization", "Bearer nope")
	rep := do(t, r)
	require.Equal(t, http.StatusCreated, rep.status, "body: %s", rep.body)
	var res model.UploadResult
	rep.json(t, &res)
	assets := listAssets(t, srv, keyAlice)
	require.Len(t, assets, 2)
	assert.Equal(t, res.ID, assets[0].ID, "the asset is the link owner's")
	assert.Equal(t, aliceID, assets[0].OwnerID)
}

// Extensions the contract lists for assetData, copied from BEHAVIOUR.md.
var (
	imageExtensions = []string{
		".3fr", ".ari", ".arw", ".avif", ".bmp", ".cap", ".cin", ".cr2", ".cr3", ".crw", ".dcr", ".dng", ".erf", ".fff",
		".gif", ".heic", ".heif", ".hif", ".iiq", ".insp", ".jpe", ".jpeg", ".jpg", ".jxl", ".k25", ".kdc", ".mrw", ".nef",
		".orf", ".ori", ".pef", ".png", ".psd", ".raf", ".raw", ".rw2", ".rwl", ".sr2", ".srf", ".srw", ".svg", ".tif",
		".tiff", ".webp", ".x3f",
	}
	videoExtensions = []string{
		".3gp", ".3gpp", ".avi", ".flv", ".insv", ".m2ts", ".m4v", ".mkv", ".mov", ".mp4", ".mpe", ".mpeg", ".mpg",
		".mts", ".webm", ".wmv",
	}
)

// TestUploadFileTypes: every listed extension is taken as assetData, in lower
// and upper case, and gives the asset its type; livePhotoData takes videos
// only; anything else is refused with the file's name.
func TestUploadFileTypes(t *testing.T) {
	srv := newTestServer(t)
	fields := validForm("").fields
	want := map[string]string{} // asset id → its type
	n := 0
	upload := func(t *testing.T, f form, typ string) {
		t.Helper()
		res := requireUpload(t, srv, f, keyAlice, http.StatusCreated)
		want[res.ID] = typ
	}
	for _, tt := range []struct {
		typ  string
		exts []string
	}{{model.AssetImage, imageExtensions}, {model.AssetVideo, videoExtensions}} {
		for _, ext := range tt.exts {
			for _, name := range []string{"file" + ext, "FILE" + strings.ToUpper(ext)} {
				t.Run("assetData "+name, func(t *testing.T) {
					n++
					upload(t, form{fields: fields, files: []formFile{{"assetData", name, fmt.Sprintf("asset %d", n)}}}, tt.typ)
				})
			}
		}
	}
	for _, ext := range videoExtensions {
		for _, name := range []string{"live" + ext, "LIVE" + strings.ToUpper(ext)} {
			t.Run("livePhotoData "+name, func(t *testing.T) {
				n++
				f := form{fields: fields, files: []formFile{{"assetData", "still.jpg", fmt.Sprintf("still %d", n)}}}
				upload(t, f.withFile("livePhotoData", name, fmt.Sprintf("motion %d", n)), model.AssetImage)
			})
		}
	}

	stored := listAssets(t, srv, keyAlice)
	got := map[string]string{}
	for _, a := range stored {
		got[a.ID] = a.Type
		if a.LivePhotoVideoID != nil {
			want[*a.LivePhotoVideoID] = model.AssetVideo // a live photo's moving part is a video
		}
	}
	delete(got, aliceAssetID)
	assert.Equal(t, want, got)

	for _, tt := range []struct {
		name string
		form form
		file string
	}{
		{"an audio file", form{fields: fields, files: []formFile{{"assetData", "song.mp3", "la"}}}, "song.mp3"},
		{"a text file", form{fields: fields, files: []formFile{{"assetData", "notes.TXT", "la"}}}, "notes.TXT"},
		{"no extension", form{fields: fields, files: []formFile{{"assetData", "IMG_0001", "la"}}}, "IMG_0001"},
		{"a listed extension not at the end", form{fields: fields, files: []formFile{{"assetData", "photo.jpg.zip", "la"}}}, "photo.jpg.zip"},
		{"a sidecar as assetData", form{fields: fields, files: []formFile{{"assetData", "IMG_0001.xmp", "la"}}}, "IMG_0001.xmp"},
		{"an image as livePhotoData", validForm("la").withFile("livePhotoData", "live.jpg", "la"), "live.jpg"},
		{"an upper-case image as livePhotoData", validForm("la").withFile("livePhotoData", "LIVE.HEIC", "la"), "LIVE.HEIC"},
	} {
		t.Run("refused: "+tt.name, func(t *testing.T) {
			requireError(t, do(t, uploadRequest(t, srv, tt.form, keyAlice)), http.StatusBadRequest, "Unsupported file type "+tt.file)
		})
	}
	assertAssetCount(t, srv, keyAlice, len(stored)) // nothing more was stored
}

// TestUploadStoredFlags: isFavorite, isArchived and isOffline are false when
// the upload leaves them out, and stored as sent otherwise.
func TestUploadStoredFlags(t *testing.T) {
	srv := newTestServer(t)
	res := requireUpload(t, srv, validForm("no flags"), keyAlice, http.StatusCreated)
	a := listAssets(t, srv, keyAlice)[0]
	require.Equal(t, res.ID, a.ID)
	assert.False(t, a.IsFavorite)
	assert.False(t, a.IsArchived)
	assert.False(t, a.IsOffline)

	res = requireUpload(t, srv, validForm("offline favourite").with("isOffline", "true").with("isFavorite", "true"), keyAlice, http.StatusCreated)
	a = listAssets(t, srv, keyAlice)[0]
	require.Equal(t, res.ID, a.ID)
	assert.True(t, a.IsFavorite)
	assert.True(t, a.IsOffline)
	assert.False(t, a.IsArchived, "still false by default")
}

// TestUploadLivePhotoConflicts: a live photo whose video is the still's own
// bytes, or the bytes of a photo already kept, is refused with a 400 and
// leaves nothing behind; a video already kept is reused as the motion part.
func TestUploadLivePhotoConflicts(t *testing.T) {
	srv := newTestServer(t)
	requireError(t, do(t, uploadRequest(t, srv, validForm("same bytes").withFile("livePhotoData", "IMG_1.MOV", "same bytes"), keyAlice)),
		http.StatusBadRequest, "livePhotoData is the same file as assetData")
	assertAssetCount(t, srv, keyAlice, 1)

	rep := do(t, uploadRequest(t, srv, validForm("a new still").withFile("livePhotoData", "IMG_2.MOV", aliceAssetBody), keyAlice))
	require.Equal(t, http.StatusBadRequest, rep.status, "%s", rep.body)
	assert.Contains(t, string(rep.body), "not a video")
	assertAssetCount(t, srv, keyAlice, 1)

	video := requireUpload(t, srv, form{fields: validForm("").fields, files: []formFile{{"assetData", "clip.mov", "a clip"}}}, keyAlice, http.StatusCreated)
	still := requireUpload(t, srv, validForm("another still").withFile("livePhotoData", "IMG_3.MOV", "a clip"), keyAlice, http.StatusCreated)
	assets := listAssets(t, srv, keyAlice)
	require.Len(t, assets, 3, "the clip is reused, not stored twice")
	for _, a := range assets {
		if a.ID == still.ID {
			require.NotNil(t, a.LivePhotoVideoID)
			assert.Equal(t, video.ID, *a.LivePhotoVideoID)
		}
	}
}

// TestQuotedPrintablePartIsKeptAsSent: a file part that says it is
// quoted-printable is stored as its bytes came, as the reference stores
// it (its checksum is that of "a=3Db", not of "a=b").
func TestQuotedPrintablePartIsKeptAsSent(t *testing.T) {
	srv := newTestServer(t)
	content := "a=3Db, sent quoted-printable"
	var body strings.Builder
	for _, f := range [][2]string{{"deviceAssetId", "qp-1"}, {"deviceId", "phone"}, {"fileCreatedAt", "2024-01-01T00:00:00Z"}, {"fileModifiedAt", "2024-01-01T00:00:00Z"}} {
		fmt.Fprintf(&body, "--B\r\nContent-Disposition: form-data; name=%q\r\n\r\n%s\r\n", f[0], f[1])
	}
	body.WriteString("--B\r\nContent-Disposition: form-data; name=\"assetData\"; filename=\"qp.jpg\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + content + "\r\n--B--\r\n")
	rep := do(t, newRequest(t, http.MethodPost, srv.URL+"/api/asset/upload", strings.NewReader(body.String()),
		"x-api-key", keyAlice, "Content-Type", "multipart/form-data; boundary=B"))
	require.Equal(t, http.StatusCreated, rep.status, string(rep.body))
	var up struct{ ID string }
	rep.json(t, &up)
	var a struct{ Checksum string }
	getJSON(t, srv, "/api/asset/"+up.ID, &a, "x-api-key", keyAlice)
	sum := sha1.Sum([]byte(content))
	assert.Equal(t, base64.StdEncoding.EncodeToString(sum[:]), a.Checksum)
}
