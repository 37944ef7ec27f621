package spec_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/openapi"
	"github.com/mediaspec/mediaspec/spec"
)

// upstreamPath is the upstream server's document, in the shared folder beside
// the repository.
const upstreamPath = "../../shared/reference/upstream-openapi.json"

const (
	uploadURL = "http://127.0.0.1:43211/api/asset/upload"
	linksURL  = "http://127.0.0.1:43211/api/shared-links"
)

var jsonHeader = http.Header{"Content-Type": {"application/json; charset=utf-8"}}

func load(t testing.TB) *spec.Validator {
	t.Helper()
	v, err := spec.Load(t.Context())
	require.NoError(t, err)
	return v
}

func loadUpstream(t testing.TB) *spec.Validator {
	t.Helper()
	if _, err := os.Stat(upstreamPath); errors.Is(err, os.ErrNotExist) {
		t.Skip("../shared is absent: " + upstreamPath + " is needed to check the upstream document")
	}
	v, err := spec.LoadFile(t.Context(), upstreamPath)
	require.NoError(t, err)
	return v
}

func request(t testing.TB, method, url string) *http.Request {
	t.Helper()
	r, err := http.NewRequestWithContext(t.Context(), method, url, nil)
	require.NoError(t, err)
	return r
}

// listing returns testdata/shared-links.json decoded: an ALBUM link whose
// album holds a rich asset (EXIF, people, tags, stack), and an INDIVIDUAL link.
func listing(t testing.TB) []any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "shared-links.json"))
	require.NoError(t, err)
	var links []any
	require.NoError(t, json.Unmarshal(b, &links))
	return links
}

func encode(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// object walks v along path (keys and indexes) to a JSON object.
func object(v any, path ...any) map[string]any {
	for _, step := range path {
		switch s := step.(type) {
		case string:
			v = v.(map[string]any)[s]
		case int:
			v = v.([]any)[s]
		}
	}
	return v.(map[string]any)
}

// lines returns the lines of err, which must be *spec.Violations.
func lines(t *testing.T, err error) []string {
	t.Helper()
	var vs *spec.Violations
	require.ErrorAs(t, err, &vs)
	require.NotEmpty(t, vs.List)
	out := make([]string, 0, len(vs.List))
	for _, v := range vs.List {
		out = append(out, v.String())
	}
	assert.Equal(t, strings.Join(out, "\n"), err.Error())
	return out
}

func TestEmbeddedDocument(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(openapi.YAML())
	require.NoError(t, err)
	require.NoError(t, doc.Validate(t.Context()))

	assert.Equal(t, "3.0.3", doc.OpenAPI)
	require.Len(t, doc.Servers, 1)
	assert.Equal(t, "/api", doc.Servers[0].URL)

	upload := doc.Paths.Find("/asset/upload").Post
	require.NotNil(t, upload)
	assert.Equal(t, "uploadFile", upload.OperationID)
	for _, status := range []string{"200", "201", "400", "401", "403", "413", "default"} {
		assert.NotNil(t, upload.Responses.Value(status), "uploadFile response %s", status)
	}
	list := doc.Paths.Find("/shared-links").Get
	require.NotNil(t, list)
	assert.Equal(t, "getAllSharedLinks", list.OperationID)
	for _, status := range []string{"200", "401", "403", "default"} {
		assert.NotNil(t, list.Responses.Value(status), "getAllSharedLinks response %s", status)
	}

	for _, name := range []string{
		"SharedLinkResponseDto", "AlbumResponseDto", "AssetResponseDto", "ExifResponseDto",
		"UserResponseDto", "AlbumUserResponseDto", "PersonWithFacesResponseDto",
		"AssetFaceWithoutPersonResponseDto", "SmartInfoResponseDto", "TagResponseDto",
		"AssetFileUploadResponseDto", "CreateAssetDto", "Error",
		"AssetTypeEnum", "SharedLinkType", "AlbumUserRole", "AssetOrder", "UserAvatarColor", "TagTypeEnum",
	} {
		assert.Contains(t, doc.Components.Schemas, name)
	}

	errorSchema := doc.Components.Schemas["Error"].Value
	assert.ElementsMatch(t, []string{"message", "error", "statusCode"}, slices.Collect(maps.Keys(errorSchema.Properties)))
	assert.ElementsMatch(t, []string{"message", "statusCode"}, errorSchema.Required)
	require.NotNil(t, errorSchema.AdditionalProperties.Has)
	assert.False(t, *errorSchema.AdditionalProperties.Has)

	for _, name := range []string{"api_key", "bearer", "shared_link"} {
		assert.Contains(t, doc.Components.SecuritySchemes, name)
	}
	assert.Equal(t, "x-api-key", doc.Components.SecuritySchemes["api_key"].Value.Name)

	// The checksum header, optional, in its two formats: its pattern takes
	// both and its examples show both.
	checksum := upload.Parameters.GetByInAndName("header", "x-service-checksum")
	require.NotNil(t, checksum, "uploadFile documents the x-service-checksum header")
	assert.False(t, checksum.Required)
	pattern := regexp.MustCompile(checksum.Schema.Value.Pattern)
	for format, v := range map[string]string{"base64": "2jmj7l5rSw0yVb/vlWAYkK/YBwk=", "hex": "da39a3ee5e6b4b0d3255bfef95601890afd80709"} {
		assert.True(t, pattern.MatchString(v), "the pattern takes %s", format)
		require.Contains(t, checksum.Examples, format)
		assert.Equal(t, v, checksum.Examples[format].Value.Value)
	}
	for _, v := range []string{"2jmj7l5rSw0yVb/vlWAYkK/YBwk", "da39a3ee5e6b4b0d3255bfef95601890afd8070", "not a checksum"} {
		assert.False(t, pattern.MatchString(v), "the pattern refuses %q", v)
	}
}

// TestSchemasMatchUpstream checks that every schema the upstream document has
// exists here with the same properties, required lists and nullable flags.
func TestSchemasMatchUpstream(t *testing.T) {
	if _, err := os.Stat(upstreamPath); errors.Is(err, os.ErrNotExist) {
		t.Skip("../shared is absent: " + upstreamPath + " is needed to compare with the upstream document")
	}
	upstream, err := openapi3.NewLoader().LoadFromFile(upstreamPath)
	require.NoError(t, err)
	ours, err := openapi3.NewLoader().LoadFromData(openapi.YAML())
	require.NoError(t, err)

	for name, ref := range upstream.Components.Schemas {
		t.Run(name, func(t *testing.T) {
			require.Contains(t, ours.Components.Schemas, name)
			want, got := ref.Value, ours.Components.Schemas[name].Value
			assert.ElementsMatch(t, want.Required, got.Required, "required")
			assert.ElementsMatch(t, want.Enum, got.Enum, "enum")
			assert.ElementsMatch(t, slices.Collect(maps.Keys(want.Properties)), slices.Collect(maps.Keys(got.Properties)), "properties")
			for prop, w := range want.Properties {
				g := got.Properties[prop]
				if g == nil {
					continue
				}
				assert.Equal(t, w.Ref, g.Ref, "%s: $ref", prop)
				assert.Equal(t, w.Value.Nullable, g.Value.Nullable, "%s: nullable", prop)
				assert.Equal(t, w.Value.Format, g.Value.Format, "%s: format", prop)
				assert.Equal(t, w.Value.Type, g.Value.Type, "%s: type", prop)
			}
		})
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "openapi.json")
	require.NoError(t, os.WriteFile(jsonPath, openapi.JSON(), 0o600))
	invalidPath := filepath.Join(dir, "invalid.yaml")
	require.NoError(t, os.WriteFile(invalidPath, []byte("openapi: 3.0.3\ninfo: {title: x}\npaths: {}\n"), 0o600))

	tests := []struct {
		name    string
		path    string
		wantErr string
	}{
		{name: "yaml", path: "../openapi/openapi.yaml"},
		{name: "json", path: jsonPath},
		{name: "missing file", path: filepath.Join(dir, "nope.yaml"), wantErr: "nope.yaml"},
		{name: "invalid document", path: invalidPath, wantErr: "invalid document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := spec.LoadFile(t.Context(), tt.path)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			body := encode(t, listing(t))
			assert.NoError(t, v.ValidateResponse(t.Context(), request(t, http.MethodGet, linksURL), spec.Response{Status: 200, Header: jsonHeader, Body: body}))
		})
	}
}

func TestValidResponses(t *testing.T) {
	v := load(t)
	tests := []struct {
		name   string
		method string
		url    string
		status int
		header http.Header
		body   string
	}{
		{name: "upload created", method: http.MethodPost, url: uploadURL, status: 201, body: `{"id":"0d6f3a5e-7c2b-4b8f-a1d4-3e9c8b7a6f51","duplicate":false}`},
		{name: "upload duplicate", method: http.MethodPost, url: uploadURL, status: 200, body: `{"id":"0d6f3a5e-7c2b-4b8f-a1d4-3e9c8b7a6f51","duplicate":true}`},
		{name: "error with a message", method: http.MethodPost, url: uploadURL, status: 400, body: `{"message":"File is required","error":"Bad Request","statusCode":400}`},
		{name: "error with messages", method: http.MethodPost, url: uploadURL, status: 400, body: `{"message":["deviceId must be a string","deviceId should not be empty"],"error":"Bad Request","statusCode":400}`},
		{name: "error without error key", method: http.MethodPost, url: uploadURL, status: 401, body: `{"message":"Unauthorized","statusCode":401}`},
		{name: "payload too large", method: http.MethodPost, url: uploadURL, status: 413, body: `{"message":"Payload Too Large","error":"Payload Too Large","statusCode":413}`},
		{name: "undocumented error status falls to default", method: http.MethodPost, url: uploadURL, status: 503, body: `{"message":"Service Unavailable","error":"Service Unavailable","statusCode":503}`},
		{name: "listing", method: http.MethodGet, url: linksURL, status: 200, body: string(encode(t, listing(t)))},
		{name: "empty listing", method: http.MethodGet, url: linksURL, status: 200, body: `[]`},
		{name: "listing forbidden", method: http.MethodGet, url: linksURL + "?key=abc", status: 403, body: `{"message":"Forbidden resource","error":"Forbidden","statusCode":403}`},
		{name: "listing on another host", method: http.MethodGet, url: "https://photos.example.com/api/shared-links", status: 200, body: `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			header := tt.header
			if header == nil {
				header = jsonHeader
			}
			err := v.ValidateResponse(t.Context(), request(t, tt.method, tt.url), spec.Response{Status: tt.status, Header: header, Body: []byte(tt.body)})
			assert.NoError(t, err)
		})
	}
}

func TestServerSideRequest(t *testing.T) {
	// A request as a handler sees it: a path, no scheme or host in its URL.
	r := httptest.NewRequest(http.MethodGet, "/api/shared-links", nil)
	assert.NoError(t, load(t).ValidateResponse(t.Context(), r, spec.Response{Status: 200, Header: jsonHeader, Body: []byte(`[]`)}))
}

func TestBrokenListings(t *testing.T) {
	v := load(t)
	tests := []struct {
		name   string
		mutate func(links []any)
		want   []string
	}{
		{
			name:   "missing required field in a nested album",
			mutate: func(links []any) { delete(object(links, 0, "album"), "ownerId") },
			want:   []string{`$[0].album: property "ownerId" is missing`},
		},
		{
			name:   "wrong enum",
			mutate: func(links []any) { object(links, 1, "assets", 0)["type"] = "PHOTO" },
			want:   []string{`$[1].assets[0].type: value is not one of the allowed values ["IMAGE","VIDEO","AUDIO","OTHER"] (value: "PHOTO")`},
		},
		{
			name:   "wrong type",
			mutate: func(links []any) { object(links, 0, "album")["assetCount"] = "1" },
			want:   []string{`$[0].album.assetCount: value must be an integer (value: "1")`},
		},
		{
			name:   "null where not nullable",
			mutate: func(links []any) { object(links, 0, "album")["description"] = nil },
			want:   []string{`$[0].album.description: Value is not nullable (value: null)`},
		},
		{
			name:   "date-time format",
			mutate: func(links []any) { object(links, 1)["createdAt"] = "2024-05-28 21:04" },
			want:   []string{`$[1].createdAt: string doesn't match the format "date-time" (value: "2024-05-28 21:04")`},
		},
		{
			name:   "date format",
			mutate: func(links []any) { object(links, 0, "album", "assets", 0, "people", 0)["birthDate"] = "14/03/1991" },
			want:   []string{`$[0].album.assets[0].people[0].birthDate: string doesn't match the format "date" (value: "14/03/1991")`},
		},
		{
			name:   "uuid format",
			mutate: func(links []any) { object(links, 0, "album", "assets", 0, "people", 0, "faces", 0)["id"] = "face-1" },
			want:   []string{`$[0].album.assets[0].people[0].faces[0].id: string doesn't match the format "uuid" (value: "face-1")`},
		},
		{
			name:   "recursive stack",
			mutate: func(links []any) { delete(object(links, 0, "album", "assets", 0, "stack", 0), "checksum") },
			want:   []string{`$[0].album.assets[0].stack[0]: property "checksum" is missing`},
		},
		{
			name: "long values are cut",
			mutate: func(links []any) {
				object(links, 0, "album")["owner"] = strings.Repeat("Marta Lima ", 20)
			},
			want: []string{`$[0].album.owner: value must be an object (value: "` + strings.Repeat("Marta Lima ", 8)[:79] + `…)`},
		},
		{
			name: "every problem is reported",
			mutate: func(links []any) {
				delete(object(links, 1), "key")
				object(links, 0)["type"] = "album"
				object(links, 0, "album", "albumUsers", 0)["role"] = "owner"
			},
			want: []string{
				`$[0].album.albumUsers[0].role: value is not one of the allowed values ["editor","viewer"] (value: "owner")`,
				`$[0].type: value is not one of the allowed values ["ALBUM","INDIVIDUAL"] (value: "album")`,
				`$[1]: property "key" is missing`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			links := listing(t)
			tt.mutate(links)
			err := v.ValidateResponse(t.Context(), request(t, http.MethodGet, linksURL), spec.Response{Status: 200, Header: jsonHeader, Body: encode(t, links)})
			assert.ElementsMatch(t, tt.want, lines(t, err))
		})
	}
}

func TestBrokenResponses(t *testing.T) {
	v := load(t)
	tests := []struct {
		name     string
		upstream bool // validate against the upstream document
		method   string
		url      string
		status   int
		header   http.Header
		body     string
		want     []string
	}{
		{
			name:   "undocumented success status",
			method: http.MethodPost, url: uploadURL, status: 202,
			body: `{"id":"x","duplicate":false}`,
			want: []string{`status: 202 is not documented for POST /api/asset/upload`},
		},
		{
			name:   "undocumented success status of the listing",
			method: http.MethodGet, url: linksURL, status: 201,
			body: `[]`,
			want: []string{`status: 201 is not documented for GET /api/shared-links`},
		},
		{
			name:     "undocumented error status without a default response",
			upstream: true,
			method:   http.MethodPost, url: uploadURL, status: 500,
			body: `{"message":"Internal Server Error","error":"Internal Server Error","statusCode":500}`,
			want: []string{`status: 500 is not documented for POST /api/asset/upload`},
		},
		{
			name:   "text/plain error",
			method: http.MethodGet, url: linksURL, status: 404,
			header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}},
			body:   "404 page not found\n",
			want:   []string{`header Content-Type: value is not one of the documented media types ["application/json"] for status 404 (value: "text/plain; charset=utf-8")`},
		},
		{
			name:   "no content type",
			method: http.MethodPost, url: uploadURL, status: 201,
			header: http.Header{},
			body:   `{"id":"x","duplicate":false}`,
			want:   []string{`header Content-Type: value is not one of the documented media types ["application/json"] for status 201 (value: "")`},
		},
		{
			name:   "body is not JSON",
			method: http.MethodPost, url: uploadURL, status: 201,
			body: `{"id":"x",`,
			want: []string{`$: cannot be decoded: unexpected EOF (value: "{\"id\":\"x\",")`},
		},
		{
			name:   "upload result without duplicate",
			method: http.MethodPost, url: uploadURL, status: 201,
			body: `{"id":"x"}`,
			want: []string{`$: property "duplicate" is missing`},
		},
		{
			name:   "error with an extra key",
			method: http.MethodPost, url: uploadURL, status: 400,
			body: `{"message":"File is required","error":"Bad Request","statusCode":400,"stack":"at upload.go:12"}`,
			want: []string{`$: property "stack" is unsupported`},
		},
		{
			name:   "error whose message is neither a string nor strings",
			method: http.MethodGet, url: linksURL, status: 401,
			body: `{"message":[1,2],"error":"Unauthorized","statusCode":401}`,
			want: []string{`$.message: value doesn't match any schema from "oneOf" (value: [1,2])`},
		},
		{
			name:   "error without statusCode",
			method: http.MethodGet, url: linksURL, status: 500,
			body: `{"message":"boom","error":"Internal Server Error"}`,
			want: []string{`$: property "statusCode" is missing`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			validator := v
			if tt.upstream {
				validator = loadUpstream(t)
			}
			header := tt.header
			if header == nil {
				header = jsonHeader
			}
			err := validator.ValidateResponse(t.Context(), request(t, tt.method, tt.url), spec.Response{Status: tt.status, Header: header, Body: []byte(tt.body)})
			assert.Equal(t, tt.want, lines(t, err))
		})
	}
}

func TestNoOperation(t *testing.T) {
	v := load(t)
	tests := []struct {
		method, url, want string
	}{
		{http.MethodGet, "http://127.0.0.1:43211/api/nope", "no operation for GET /api/nope"},
		{http.MethodDelete, linksURL, "no operation for DELETE /api/shared-links"},
		{http.MethodGet, "http://127.0.0.1:43211/shared-links", "no operation for GET /shared-links"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			r := request(t, tt.method, tt.url)
			err := v.ValidateResponse(t.Context(), r, spec.Response{Status: 404, Header: jsonHeader, Body: []byte(`{"message":"Not Found","statusCode":404}`)})
			require.ErrorIs(t, err, spec.ErrNoOperation)
			assert.EqualError(t, err, tt.want)
			var vs *spec.Violations
			assert.False(t, errors.As(err, &vs), "not a violation")

			err = v.ValidateRequest(t.Context(), r)
			assert.ErrorIs(t, err, spec.ErrNoOperation)
		})
	}
}

func TestUpstreamDocument(t *testing.T) {
	v := loadUpstream(t)
	body := encode(t, listing(t))
	assert.NoError(t, v.ValidateResponse(t.Context(), request(t, http.MethodGet, linksURL), spec.Response{Status: 200, Header: jsonHeader, Body: body}))
	assert.NoError(t, v.ValidateResponse(t.Context(), request(t, http.MethodPost, uploadURL), spec.Response{Status: 201, Header: jsonHeader, Body: []byte(`{"id":"x","duplicate":false}`)}))
}

// part is one part of a multipart form: a file when filename is set.
type part struct {
	name, filename, value string
}

func uploadRequest(t testing.TB, header http.Header, parts ...part) (*http.Request, []byte) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for _, p := range parts {
		var err error
		if p.filename != "" {
			fw, ferr := w.CreateFormFile(p.name, p.filename)
			require.NoError(t, ferr)
			_, err = fw.Write([]byte(p.value))
		} else {
			err = w.WriteField(p.name, p.value)
		}
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	sent := bytes.Clone(body.Bytes())
	r, err := http.NewRequestWithContext(t.Context(), http.MethodPost, uploadURL, &body)
	require.NoError(t, err)
	r.Header.Set("Content-Type", w.FormDataContentType())
	for k, vs := range header {
		r.Header[k] = vs
	}
	return r, sent
}

func allParts() []part {
	return []part{
		{name: "assetData", filename: "IMG_0001.jpg", value: "\xff\xd8\xff\xe0 not really a jpeg"},
		{name: "deviceAssetId", value: "IMG_0001.jpg-1234"},
		{name: "deviceId", value: "Pixel-8"},
		{name: "fileCreatedAt", value: "2024-05-30T10:11:12.000Z"},
		{name: "fileModifiedAt", value: "2024-05-30T10:11:12.000Z"},
		{name: "duration", value: "0:00:00.00000"},
		{name: "isArchived", value: "false"},
		{name: "isFavorite", value: "true"},
		{name: "isOffline", value: "false"},
		{name: "isVisible", value: "true"},
		{name: "livePhotoData", filename: "IMG_0001.mov", value: "moov"},
		{name: "sidecarData", filename: "IMG_0001.xmp", value: "<x:xmpmeta/>"},
	}
}

func without(parts []part, name string) []part {
	return slices.DeleteFunc(slices.Clone(parts), func(p part) bool { return p.name == name })
}

func with(parts []part, name, value string) []part {
	out := slices.Clone(parts)
	for i := range out {
		if out[i].name == name {
			out[i].value = value
		}
	}
	return out
}

func TestValidateRequest(t *testing.T) {
	v := load(t)
	tests := []struct {
		name   string
		header http.Header
		parts  []part
		want   []string
	}{
		{name: "every field, no credentials", parts: allParts()},
		{name: "api key and base64 checksum", header: http.Header{"X-Api-Key": {"nope"}, "X-Service-Checksum": {"2jmj7l5rSw0yVb/vlWAYkK/YBwk="}}, parts: allParts()},
		{name: "hex checksum", header: http.Header{"X-Service-Checksum": {"da39a3ee5e6b4b0d3255bfef95601890afd80709"}}, parts: allParts()},
		{name: "required fields only", parts: allParts()[:5]},
		{
			name:  "missing deviceId",
			parts: without(allParts(), "deviceId"),
			want:  []string{`$: property "deviceId" is missing`},
		},
		{
			name:  "missing file",
			parts: without(allParts(), "assetData"),
			want:  []string{`$: property "assetData" is missing`},
		},
		{
			name:  "wrong date",
			parts: with(allParts(), "fileCreatedAt", "yesterday"),
			want:  []string{`$.fileCreatedAt: string doesn't match the format "date-time" (value: "yesterday")`},
		},
		{
			name:  "not a boolean",
			parts: with(allParts(), "isFavorite", "yes"),
			want:  []string{`$.isFavorite: cannot be decoded: an invalid boolean: invalid syntax (value: "yes")`},
		},
		{
			name:   "checksum in neither format",
			header: http.Header{"X-Service-Checksum": {"abc"}},
			parts:  allParts(),
			want:   []string{`header x-service-checksum: string doesn't match the regular expression "^(?:[A-Za-z0-9+/]{27}=|[0-9A-Fa-f]{40})$" (value: "abc")`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, sent := uploadRequest(t, tt.header, tt.parts...)
			err := v.ValidateRequest(t.Context(), r)
			if tt.want == nil {
				assert.NoError(t, err)
			} else {
				assert.Equal(t, tt.want, lines(t, err))
			}

			// The body is put back whole.
			got := new(bytes.Buffer)
			_, readErr := got.ReadFrom(r.Body)
			require.NoError(t, readErr)
			assert.Equal(t, sent, got.Bytes())
		})
	}
}

func TestValidateRequestListing(t *testing.T) {
	r := request(t, http.MethodGet, linksURL)
	assert.NoError(t, load(t).ValidateRequest(t.Context(), r))
}

func TestViolationsError(t *testing.T) {
	vs := &spec.Violations{}
	for i := range 60 {
		vs.List = append(vs.List, spec.Violation{Path: fmt.Sprintf("$[%d]", i), Rule: `property "id" is missing`})
	}
	got := strings.Split(vs.Error(), "\n")
	require.Len(t, got, 51)
	assert.Equal(t, `$[0]: property "id" is missing`, got[0])
	assert.Equal(t, "... and 10 more violations", got[50])

	one := spec.Violation{Path: "$.type", Rule: "value is not one of the allowed values", Value: `"PHOTO"`}
	assert.Equal(t, `$.type: value is not one of the allowed values (value: "PHOTO")`, one.String())
}

// TestConcurrentUse validates from many goroutines at once: run with -race.
func TestConcurrentUse(t *testing.T) {
	v := load(t)
	good := encode(t, listing(t))
	broken := listing(t)
	delete(object(broken, 0, "album"), "ownerId")
	bad := encode(t, broken)

	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			body, wantErr := good, false
			if i%2 == 1 {
				body, wantErr = bad, true
			}
			for range 5 {
				err := v.ValidateResponse(t.Context(), request(t, http.MethodGet, linksURL), spec.Response{Status: 200, Header: jsonHeader, Body: body})
				assert.Equal(t, wantErr, err != nil, "%v", err)
				r, _ := uploadRequest(t, nil, allParts()...)
				assert.NoError(t, v.ValidateRequest(t.Context(), r))
			}
		})
	}
	wg.Wait()
}

func BenchmarkValidateUploadRequest(b *testing.B) {
	v := load(b)
	b.ReportAllocs()
	for b.Loop() {
		r, _ := uploadRequest(b, nil, allParts()...)
		if err := v.ValidateRequest(b.Context(), r); err != nil {
			b.Fatal(err)
		}
	}
}

func TestViolationGeneralised(t *testing.T) {
	v := spec.Violation{Path: "$[3].album.assets[12].exifInfo.iso", Rule: "must be a number", Value: `"800"`}
	assert.Equal(t, spec.Violation{Path: "$[*].album.assets[*].exifInfo.iso", Rule: "must be a number", Value: `"800"`}, v.Generalised())
	assert.Equal(t, "$[3].album.assets[12].exifInfo.iso", v.Path, "v itself is left as it was")
}
