package conformance_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// apiKey is the default user's API key of the test mock.
const apiKey = "mediaspec-dev-key"

// anchor is the generated data's anchor: a fixed day, so runs repeat.
var anchor = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// The datasets the tests start from: the one `mediaspec check` runs against
// by default, and a smaller one (it is judged once for every broken variant
// of broken_test.go).
var (
	defaultData = fake.Options{Seed: 1, Anchor: anchor, Links: 12, Users: 3, APIKey: apiKey}
	smallData   = fake.Options{Seed: 2, Anchor: anchor, Links: 4, Users: 1, APIKey: apiKey}
)

// startMock starts a mock on the dataset opts generates, its handler
// wrapped by wrap (nil: as it is), and returns the API's base URL. The mock
// keeps uploads and makes their pictures, in a temporary media folder.
func startMock(t *testing.T, opts fake.Options, wrap func(http.Handler, model.Dataset) http.Handler) string {
	t.Helper()
	return startMockWith(t, mockserver.Config{MediaDir: t.TempDir(), MaxUploadBytes: uploadLimit}, opts, wrap)
}

// uploadLimit is the upload body size the tests' mocks refuse beyond, and
// declare to the harness.
const uploadLimit = 4 << 20

// startMockWith is startMock with cfg (its Dataset set here): without a
// MediaDir, uploads are not kept and no picture is made.
func startMockWith(t *testing.T, cfg mockserver.Config, opts fake.Options, wrap func(http.Handler, model.Dataset) http.Handler) string {
	t.Helper()
	d := fake.Generate(opts)
	cfg.Dataset = func() model.Dataset { return d }
	m, err := mockserver.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.Close() }) // before its media folder goes
	var h http.Handler = m
	if wrap != nil {
		h = wrap(h, d)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	if c, ok := h.(io.Closer); ok { // a wrapper with a server of its own
		t.Cleanup(func() { _ = c.Close() })
	}
	return srv.URL + "/api"
}

// refusesNull refuses a JSON request body that holds a null anywhere, as
// the reference refuses `"assetIds": null` (400 "assetIds must be an
// array"): a field the harness means to leave out, it leaves out.
func refusesNull(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			h.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if path := nullIn(withoutNones(r, decode(body)), "$"); path != "" && json.Valid(body) {
			writeJSON(w, http.StatusBadRequest, errorBody(http.StatusBadRequest, path+" must not be null"))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}

// withoutNones is a request's body without the nulls the reference takes
// as "none": an admin clears a user's quota and storage label with them,
// and a user a person's birth date and their assets' group of duplicates.
func withoutNones(r *http.Request, body any) any {
	m, ok := body.(map[string]any)
	var fields []string
	switch {
	case !ok || r.Method != http.MethodPut:
		return body
	case strings.HasPrefix(r.URL.Path, "/api/admin/users/"):
		fields = []string{"quotaSizeInBytes", "storageLabel"}
	case strings.HasPrefix(r.URL.Path, "/api/people/"):
		fields = []string{"birthDate"}
	case r.URL.Path == "/api/asset":
		fields = []string{"duplicateId"} // a group of duplicates resolved
	}
	for _, field := range fields {
		if v, ok := m[field]; ok && v == nil {
			delete(m, field)
		}
	}
	return m
}

// nullIn is the path of the first null in v, or "".
func nullIn(v any, path string) string {
	switch v := v.(type) {
	case nil:
		return path
	case map[string]any:
		for k, x := range v {
			if p := nullIn(x, path+"."+k); p != "" {
				return p
			}
		}
	case []any:
		for i, x := range v {
			if p := nullIn(x, fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	}
	return ""
}
