package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/spec"
)

// upstreamDocument is the reference server's OpenAPI document, beside the
// repository in CI; a clone elsewhere does not have it.
const upstreamDocument = "../../../../shared/reference/upstream-openapi.json"

// validators are the documents every response of the mock must satisfy:
// ours, and the reference's where ../shared is there.
type validators struct {
	ours, upstream *spec.Validator
}

func loadValidators(t *testing.T) validators {
	t.Helper()
	ours, err := spec.Load(t.Context())
	require.NoError(t, err)
	v := validators{ours: ours}
	if _, err := os.Stat(upstreamDocument); err != nil {
		t.Logf("../shared is absent (%v): responses are checked against openapi/openapi.yaml only", err)
		return v
	}
	data, err := os.ReadFile(upstreamDocument)
	require.NoError(t, err)
	v.upstream, err = spec.LoadDocument(t.Context(), data)
	require.NoError(t, err)
	return v
}

// check validates a response against both documents. The reference's
// document lists only the success statuses (201 for an upload, 200 for the
// listing) and no error bodies: a 200 duplicate is checked against its 201
// schema, and errors against ours alone.
func (v validators) check(t *testing.T, r *http.Request, rep reply) {
	t.Helper()
	resp := spec.Response{Status: rep.status, Header: rep.header, Body: rep.body}
	requireValid(t, "openapi/openapi.yaml", v.ours.ValidateResponse(t.Context(), r, resp), r, rep)
	if v.upstream == nil || rep.status >= 400 {
		return
	}
	if r.URL.Path == "/api/asset/upload" && resp.Status == http.StatusOK {
		resp.Status = http.StatusCreated
	}
	requireValid(t, "the upstream document", v.upstream.ValidateResponse(t.Context(), r, resp), r, rep)
}

func requireValid(t *testing.T, doc string, err error, r *http.Request, rep reply) {
	t.Helper()
	var vs *spec.Violations
	if errors.As(err, &vs) {
		t.Fatalf("%s %s → %d does not satisfy %s:\n%v", r.Method, r.URL.Path, rep.status, doc, vs)
	}
	require.NoError(t, err, "%s %s → %d against %s", r.Method, r.URL.Path, rep.status, doc)
}

// TestEveryResponseValidates sends one request for every kind of answer the
// mock gives on the two operations and checks each against both documents.
func TestEveryResponseValidates(t *testing.T) {
	v := loadValidators(t)
	srv := newTestServer(t, func(c *Config) { c.MaxUploadBytes = 1 << 20 })
	upload := func(f form, key string, hdr ...string) func(t *testing.T) *http.Request {
		return func(t *testing.T) *http.Request {
			r := uploadRequest(t, srv, f, key)
			for i := 0; i+1 < len(hdr); i += 2 {
				r.Header.Set(hdr[i], hdr[i+1])
			}
			return r
		}
	}
	list := func(hdr ...string) func(t *testing.T) *http.Request {
		return func(t *testing.T) *http.Request {
			return newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, hdr...)
		}
	}
	tests := []struct {
		name   string
		req    func(t *testing.T) *http.Request
		status int
	}{
		{"201 new asset", upload(validForm("validated"), keyAlice), 201},
		{"200 duplicate content", upload(validForm("validated"), keyAlice), 200},
		{"200 duplicate checksum header", upload(validForm("other"), keyAlice, DefaultChecksumHeader, sha1Base64([]byte("validated"))), 200},
		{"201 live photo", upload(validForm("still").withFile("livePhotoData", "a.mov", "motion"), keyAlice), 201},
		{"400 one message", upload(validForm("x").onlyFields(), keyAlice), 400},
		{"400 a list of messages", upload(validForm("x").onlyFiles(), keyAlice), 400},
		{"400 bad date", upload(validForm("x").with("fileCreatedAt", "nope"), keyAlice), 400},
		{"400 quota", upload(validForm(string(make([]byte, 4096))), keyCarol), 400},
		{"401 no credentials", upload(validForm("x"), ""), 401},
		{"401 link without upload", func(t *testing.T) *http.Request {
			r := upload(validForm("x"), "")(t)
			r.URL.RawQuery = "key=" + linkView
			return r
		}, 401},
		{"413 too large", upload(validForm(string(make([]byte, 2<<20))), keyAlice), 413},
		{"500 asked for", upload(validForm("x"), keyAlice, "x-mock-status", "500"), 500},
		{"200 listing", list("x-api-key", keyAlice), 200},
		{"200 empty listing", list("x-api-key", keyCarol), 200},
		{"401 listing", list(), 401},
		{"403 listing", func(t *testing.T) *http.Request {
			return newRequest(t, http.MethodGet, srv.URL+"/api/shared-links?key="+linkUpload, nil)
		}, 403},
		{"503 asked for", list("x-mock-status", "503"), 503},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.req(t)
			rep := do(t, r)
			require.Equal(t, tt.status, rep.status, "body: %s", rep.body)
			v.check(t, r, rep)
		})
	}

	t.Run("the control API's link is a listing element", func(t *testing.T) {
		rep := controlJSON(t, srv, http.MethodPost, "/__mock/shared-links", keyAlice, map[string]any{
			"type": "ALBUM", "albumName": "Validated", "assetIds": []string{aliceAssetID}, "password": "pw", "expiresAt": "2030-01-01T00:00:00Z",
		})
		require.Equal(t, http.StatusCreated, rep.status, "body: %s", rep.body)
		asListing := reply{status: http.StatusOK, header: rep.header, body: append(append([]byte("["), rep.body...), ']')}
		v.check(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil), asListing)
	})
}

// TestGeneratedListingsValidate serves the generated library of 20 seeds and
// checks every user's listing, and the dataset's invariants, against both
// documents.
func TestGeneratedListingsValidate(t *testing.T) {
	v := loadValidators(t)
	anchor := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for seed := int64(1); seed <= 20; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			d := fake.Generate(fake.Options{Seed: seed, Anchor: anchor, Links: 12, APIKey: "k"})
			require.Empty(t, fake.Check(d))
			srv := newTestServer(t, func(c *Config) { c.Dataset = func() model.Dataset { return d } })
			for _, u := range d.Users {
				r := newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-api-key", u.APIKey)
				rep := do(t, r)
				require.Equal(t, http.StatusOK, rep.status)
				v.check(t, r, rep)
			}
		})
	}
}

// upstreamWorkflows is the reference's document of the operations around
// the two, beside the repository in CI.
const upstreamWorkflows = "../../../../shared/reference/upstream-workflows-openapi.json"

// TestEveryWorkflowResponseValidates sends a request for every kind of
// answer of the operations around the two and checks each against our
// document, and each success against the reference's, except where the
// reference's own answers break its document (a link's sanitized assets).
func TestEveryWorkflowResponseValidates(t *testing.T) {
	v := loadValidators(t)
	var upstream *spec.Validator
	if data, err := os.ReadFile(upstreamWorkflows); err == nil {
		// The reference's document gives its http bearer scheme an "in",
		// which OpenAPI forbids: drop it, the schemas are what is judged.
		var doc map[string]any
		require.NoError(t, json.Unmarshal(data, &doc))
		delete(doc["components"].(map[string]any)["securitySchemes"].(map[string]any)["bearer"].(map[string]any), "in")
		data, err = json.Marshal(doc)
		require.NoError(t, err)
		upstream, err = spec.LoadDocument(t.Context(), data)
		require.NoError(t, err)
	} else {
		t.Logf("../shared is absent (%v): responses are checked against openapi/openapi.yaml only", err)
	}
	srv := newTestServer(t, func(c *Config) { c.Dataset = pictureDataset })
	newAsset := uploadAsset(t, srv, keyAlice, "workflow")
	album := createAlbum(t, srv, keyAlice, `{"albumName":"Validated","assetIds":["`+aliceAssetID+`"]}`)
	hidden := createLink(t, srv, keyAlice, `{"type":"ALBUM","albumId":"`+album["id"].(string)+`","showMetadata":false,"password":"pw"}`)
	link := createLink(t, srv, keyAlice, `{"type":"INDIVIDUAL","assetIds":["`+aliceAssetID+`"]}`)
	emptyAlbum := createAlbum(t, srv, keyAlice, `{"albumName":"Empty"}`)
	emptyHidden := createLink(t, srv, keyAlice, `{"type":"ALBUM","albumId":"`+emptyAlbum["id"].(string)+`","showMetadata":false}`)
	token := store.LinkToken(&model.SharedLinkRecord{ID: hidden["id"].(string), Password: new("pw")})
	alice := []string{"x-api-key", keyAlice}
	for _, tt := range []struct {
		name, method, path, body string
		headers                  []string
		status                   int
		notUpstream              bool // the reference's own answer breaks its document (pictures: it declares application/octet-stream, and sends image/webp, image/jpeg and 206s)
	}{
		{"ping", "GET", "/api/server-info/ping", "", nil, 200, false},
		{"version", "GET", "/api/server-info/version", "", nil, 200, false},
		{"media types", "GET", "/api/server-info/media-types", "", nil, 200, false},
		{"login", "POST", "/api/auth/login", `{"email":"alice@example.com","password":"` + testPassword + `"}`, nil, 201, false},
		{"login refused", "POST", "/api/auth/login", `{"email":"alice@example.com","password":"x"}`, nil, 401, false},
		{"login invalid", "POST", "/api/auth/login", `{}`, nil, 400, false},
		{"me", "GET", "/api/users/me", "", alice, 200, false},
		{"me, a link", "GET", "/api/users/me?key=" + linkView, "", nil, 403, false},
		{"new user", "POST", "/api/admin/users", `{"email":"v@example.com","password":"x","name":"V","quotaSizeInBytes":5}`, alice, 201, false},
		{"new key", "POST", "/api/api-keys", `{"name":"v"}`, alice, 201, false},
		{"batch check", "POST", "/api/asset/bulk-upload-check", `{"assets":[{"id":"1","checksum":"` + sha1Base64([]byte(aliceAssetBody)) + `"},{"id":"2","checksum":"x"}]}`, alice, 200, false},
		{"statistics", "GET", "/api/asset/statistics", "", alice, 200, false},
		{"asset", "GET", "/api/asset/" + aliceAssetID, "", alice, 200, false},
		{"asset through a link", "GET", "/api/asset/" + aliceAssetID + "?key=" + linkView, "", nil, 200, true},
		{"asset not readable", "GET", "/api/asset/" + newAsset, "", []string{"x-api-key", keyBob}, 400, false},
		{"thumbnail", "GET", "/api/asset/thumbnail/" + aliceAssetID, "", alice, 200, true},
		{"preview", "GET", "/api/asset/thumbnail/" + aliceAssetID + "?format=JPEG", "", alice, 200, true},
		{"thumbnail, a part", "GET", "/api/asset/thumbnail/" + aliceAssetID, "", append([]string{"Range", "bytes=0-9"}, alice...), 206, true},
		{"file", "GET", "/api/asset/file/" + aliceAssetID, "", alice, 200, true},
		{"file, a part", "GET", "/api/asset/file/" + aliceAssetID, "", append([]string{"Range", "bytes=10-"}, alice...), 206, true},
		{"file as thumbnail", "GET", "/api/asset/file/" + aliceAssetID + "?isThumb=true&key=" + linkView, "", nil, 200, true},
		{"no thumbnail", "GET", "/api/asset/thumbnail/00000000-0000-4000-8000-000000b0a5e7", "", []string{"x-api-key", keyBob}, 404, false},
		{"no file", "GET", "/api/asset/file/00000000-0000-4000-8000-000000b0a5e7", "", []string{"x-api-key", keyBob}, 404, false},
		{"profile image", "GET", "/api/users/" + bobID + "/profile-image", "", alice, 200, true},
		{"no profile image", "GET", "/api/users/" + aliceID + "/profile-image", "", alice, 404, false},
		{"albums", "GET", "/api/albums", "", alice, 200, false},
		{"albums shared", "GET", "/api/albums?shared=true", "", []string{"x-api-key", keyBob}, 200, false},
		{"new album", "POST", "/api/albums", `{"albumName":"v","assetIds":["` + newAsset + `"],"albumUsers":[{"userId":"` + bobID + `","role":"viewer"}]}`, alice, 201, false},
		{"album", "GET", "/api/albums/" + album["id"].(string), "", alice, 200, false},
		{"album through a hiding link", "GET", "/api/albums/" + album["id"].(string) + "?key=" + hidden["key"].(string) + "&token=" + url.QueryEscape(token), "", nil, 200, true},
		{"empty album through a hiding link", "GET", "/api/albums/" + emptyAlbum["id"].(string) + "?key=" + emptyHidden["key"].(string), "", nil, 200, true},
		{"add to album", "PUT", "/api/albums/" + album["id"].(string) + "/assets", `{"ids":["` + newAsset + `","` + aliceAssetID + `"]}`, alice, 200, false},
		{"new link", "POST", "/api/shared-links", `{"type":"INDIVIDUAL","assetIds":["` + newAsset + `"],"albumId":"` + album["id"].(string) + `"}`, alice, 201, false},
		{"new link refused", "POST", "/api/shared-links", `{"type":"ALBUM"}`, alice, 400, false},
		{"link", "GET", "/api/shared-links/" + link["id"].(string), "", alice, 200, false},
		{"edit link", "PATCH", "/api/shared-links/" + link["id"].(string), `{"description":"v","expiresAt":"2030-01-01T00:00:00Z"}`, alice, 200, false},
		{"add to link", "PUT", "/api/shared-links/" + link["id"].(string) + "/assets", `{"assetIds":["` + newAsset + `"]}`, alice, 200, false},
		{"remove from link", "DELETE", "/api/shared-links/" + link["id"].(string) + "/assets", `{"assetIds":["` + newAsset + `","` + bobID + `"]}`, alice, 200, false},
		{"my link", "GET", "/api/shared-links/me?key=" + link["key"].(string), "", nil, 200, false},
		{"my hiding link", "GET", "/api/shared-links/me?key=" + hidden["key"].(string) + "&password=pw", "", nil, 200, true},
		{"my empty hiding link", "GET", "/api/shared-links/me?key=" + emptyHidden["key"].(string), "", nil, 200, true},
		{"my link, no password", "GET", "/api/shared-links/me?key=" + hidden["key"].(string), "", nil, 401, false},
		{"my link, not a link", "GET", "/api/shared-links/me", "", alice, 403, false},
		{"delete link", "DELETE", "/api/shared-links/" + link["id"].(string), "", alice, 200, false},
		{"link gone", "GET", "/api/shared-links/" + link["id"].(string), "", alice, 400, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRequest(t, tt.method, srv.URL+tt.path, strings.NewReader(tt.body), append([]string{"Content-Type", "application/json"}, tt.headers...)...)
			rep := do(t, r)
			require.Equal(t, tt.status, rep.status, "body: %s", rep.body)
			resp := spec.Response{Status: rep.status, Header: rep.header, Body: rep.body}
			requireValid(t, "openapi/openapi.yaml", v.ours.ValidateResponse(t.Context(), r, resp), r, rep)
			if upstream != nil && rep.status < 400 && !tt.notUpstream {
				requireValid(t, "the upstream document", upstream.ValidateResponse(t.Context(), r, resp), r, rep)
			}
		})
	}
}
