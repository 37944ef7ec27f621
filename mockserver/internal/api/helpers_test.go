package api

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store/storetest"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The small dataset the tests start from (package storetest), with its
// credentials.
const (
	keyAlice       = storetest.KeyAlice
	keyBob         = storetest.KeyBob
	keyCarol       = storetest.KeyCarol
	linkUpload     = storetest.LinkUpload
	linkView       = storetest.LinkView
	linkExpired    = storetest.LinkExpired
	aliceID        = storetest.AliceID
	bobID          = storetest.BobID
	carolID        = storetest.CarolID
	aliceAssetID   = storetest.AliceAssetID
	aliceAssetBody = storetest.AliceAssetBody
	testPassword   = storetest.Password
)

var (
	testDataset = storetest.Dataset
	testNow     = storetest.Now
	sha1Base64  = storetest.SHA1Base64
)

// login logs in as email with testPassword and returns the access token.
func login(t *testing.T, srv *httptest.Server, email string) string {
	t.Helper()
	rep := controlJSON(t, srv, http.MethodPost, "/api/auth/login", "", map[string]string{"email": email, "password": testPassword})
	require.Equal(t, http.StatusCreated, rep.status, "login: %s", rep.body)
	var res model.Login
	rep.json(t, &res)
	require.NotEmpty(t, res.AccessToken)
	return res.AccessToken
}

// newTestServer starts a mock on testDataset, changed by opts.
func newTestServer(t *testing.T, opts ...func(*Config)) *httptest.Server {
	t.Helper()
	cfg := Config{Dataset: testDataset, Now: testNow}
	for _, o := range opts {
		o(&cfg)
	}
	h, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() }) // after the server, before its media folder goes
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// filePart is a file of a test form.
type formFile struct{ field, filename, content string }

// form is a multipart body under construction.
type form struct {
	fields [][2]string
	files  []formFile
}

// validForm is an upload with every required part, of content.
func validForm(content string) form {
	return form{
		fields: [][2]string{
			{"deviceAssetId", "PXL_20261101_093000000.jpg-2048"},
			{"deviceId", "pixel-8"},
			{"fileCreatedAt", "2026-11-01T09:30:00.000Z"},
			{"fileModifiedAt", "2026-11-01T09:30:00.000Z"},
		},
		files: []formFile{{"assetData", "PXL_20261101_093000000.jpg", content}},
	}
}

// without returns f without the named fields.
func (f form) without(names ...string) form {
	out := form{files: f.files}
	for _, kv := range f.fields {
		keep := true
		for _, n := range names {
			keep = keep && kv[0] != n
		}
		if keep {
			out.fields = append(out.fields, kv)
		}
	}
	return out
}

// with returns f with the field set to v (added, or replacing its value).
func (f form) with(name, v string) form {
	out := f.without(name)
	out.fields = append(out.fields, [2]string{name, v})
	return out
}

// withField adds a text part, beside any of the same name.
func (f form) withField(name, v string) form {
	out := f.without()
	out.fields = append(out.fields, [2]string{name, v})
	return out
}

func (f form) encode(t testing.TB) (body []byte, contentType string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, kv := range f.fields {
		require.NoError(t, mw.WriteField(kv[0], kv[1]))
	}
	for _, ff := range f.files {
		w, err := mw.CreateFormFile(ff.field, ff.filename)
		require.NoError(t, err)
		_, err = io.WriteString(w, ff.content)
		require.NoError(t, err)
	}
	require.NoError(t, mw.Close())
	return buf.Bytes(), mw.FormDataContentType()
}

// uploadRequest is an upload of f with the x-api-key of key ("" for none).
func uploadRequest(t *testing.T, srv *httptest.Server, f form, key string) *http.Request {
	t.Helper()
	body, ct := f.encode(t)
	r, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+"/api/asset/upload", bytes.NewReader(body))
	require.NoError(t, err)
	r.Header.Set("Content-Type", ct)
	if key != "" {
		r.Header.Set("x-api-key", key)
	}
	return r
}

// reply is a response read to its end.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) json(t *testing.T, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.body, v), "body: %s", r.body)
}

func do(t *testing.T, r *http.Request) reply {
	t.Helper()
	resp, err := http.DefaultClient.Do(r)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return reply{status: resp.StatusCode, header: resp.Header, body: b}
}

func newRequest(t *testing.T, method, url string, body io.Reader, headers ...string) *http.Request {
	t.Helper()
	r, err := http.NewRequestWithContext(t.Context(), method, url, body)
	require.NoError(t, err)
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	return r
}

// controlJSON sends a JSON control request acting as key ("" for none).
func controlJSON(t *testing.T, srv *httptest.Server, method, path, key string, body any) reply {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	r := newRequest(t, method, srv.URL+path, bytes.NewReader(b), "Content-Type", "application/json")
	if key != "" {
		r.Header.Set("x-api-key", key)
	}
	return do(t, r)
}

// errorReply is the JSON error body, read strictly.
type errorReply struct {
	Message    any    `json:"message"`
	Error      string `json:"error"`
	StatusCode int    `json:"statusCode"`
}

// requireError checks that rep is the contract's JSON error with status and message.
func requireError(t *testing.T, rep reply, status int, message any) {
	t.Helper()
	require.Equal(t, status, rep.status, "body: %s", rep.body)
	require.Equal(t, "application/json", rep.header.Get("Content-Type"), "the contract names it exactly")
	var keys map[string]json.RawMessage
	rep.json(t, &keys)
	require.Len(t, keys, 3, "an error has exactly message, error and statusCode: %s", rep.body)
	var e errorReply
	rep.json(t, &e)
	require.Equal(t, http.StatusText(status), e.Error)
	require.Equal(t, status, e.StatusCode)
	if message != nil {
		want, err := json.Marshal(message)
		require.NoError(t, err)
		require.JSONEq(t, string(want), string(keys["message"]))
	}
}

// withFile returns f with one more file part.
func (f form) withFile(field, filename, content string) form {
	out := form{fields: f.fields, files: append(slices.Clone(f.files), formFile{field, filename, content})}
	return out
}

// onlyFields returns f without its files.
func (f form) onlyFields() form { return form{fields: f.fields} }

// onlyFiles returns f without its text fields.
func (f form) onlyFiles() form { return form{files: f.files} }

// listAssets is GET /__mock/assets acting as key.
func listAssets(t *testing.T, srv *httptest.Server, key string) []model.Asset {
	t.Helper()
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/__mock/assets", nil, "x-api-key", key))
	require.Equal(t, http.StatusOK, rep.status, "body: %s", rep.body)
	var assets []model.Asset
	rep.json(t, &assets)
	return assets
}

func assertAssetCount(t *testing.T, srv *httptest.Server, key string, n int) {
	t.Helper()
	assert.Len(t, listAssets(t, srv, key), n)
}

// listLinks is GET /api/shared-links acting as key.
func listLinks(t *testing.T, srv *httptest.Server, key string) []model.SharedLink {
	t.Helper()
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-api-key", key))
	require.Equal(t, http.StatusOK, rep.status, "body: %s", rep.body)
	var links []model.SharedLink
	rep.json(t, &links)
	return links
}
