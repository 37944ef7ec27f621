package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/mediaspec/mediaspec/openapi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests compare the compiled validation of JSON bodies (body.go) with
// kin-openapi's, which ValidateResponse used for every body before.

const (
	testLinksURL  = "http://127.0.0.1:43211/api/shared-links"
	testUploadURL = "http://127.0.0.1:43211/api/asset/upload"
)

var testJSONHeader = http.Header{"Content-Type": {"application/json; charset=utf-8"}}

// exchange is a response to validate, with the request it answers.
type exchange struct {
	method, url string
	status      int
}

var (
	listingOK   = exchange{http.MethodGet, testLinksURL, 200}
	uploadOK    = exchange{http.MethodPost, testUploadURL, 201}
	uploadError = exchange{http.MethodPost, testUploadURL, 400}
	listingDeny = exchange{http.MethodGet, testLinksURL, 403}
)

// outcome validates body both ways and returns the violations as lines: from
// the compiled schema (fast) and from kin-openapi (slow).
func outcome(t testing.TB, v *Validator, x exchange, body []byte) (fast, slow []string) {
	t.Helper()
	r, err := http.NewRequestWithContext(t.Context(), x.method, x.url, nil)
	require.NoError(t, err)
	resp := Response{Status: x.status, Header: testJSONHeader, Body: body}
	return violationLines(t, v.validateResponse(t.Context(), r, resp, true)),
		violationLines(t, v.validateResponse(t.Context(), r, resp, false))
}

func violationLines(t testing.TB, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var vs *Violations
	require.True(t, errors.As(err, &vs), "%v", err)
	out := make([]string, 0, len(vs.List))
	for _, v := range vs.List {
		out = append(out, v.String())
	}
	return out
}

func testListing(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "shared-links.json"))
	require.NoError(t, err)
	return b
}

func TestCompiledBodies(t *testing.T) {
	v, err := Load(t.Context())
	require.NoError(t, err)
	// Every response body of the document that is not a file is
	// compiled, oneOf and all.
	doc, err := openapi3.NewLoader().LoadFromData(openapi.YAML())
	require.NoError(t, err)
	bodies := map[*openapi3.MediaType]bool{}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, resp := range op.Responses.Map() {
				for _, mt := range resp.Value.Content {
					if s := mt.Schema.Value; !s.Type.Is(openapi3.TypeString) || s.Format != "binary" {
						bodies[mt] = true
					}
				}
			}
		}
	}
	require.Greater(t, len(bodies), 30)
	assert.Len(t, v.bodies, len(bodies))

	r, err := http.NewRequestWithContext(t.Context(), http.MethodGet, testLinksURL, nil)
	require.NoError(t, err)
	op, _, err := v.route(r)
	require.NoError(t, err)
	mt := op.Operation.Responses.Status(200).Value.Content.Get("application/json")
	assert.NotNil(t, v.bodies[mt], "the listing is compiled")
}

// mutations returns the listing body broken in many ways, one at a time.
func mutations(t testing.TB, body []byte) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	var root any
	require.NoError(t, json.Unmarshal(body, &root))
	replacements := []any{nil, "x", "", "PHOTO", "2024-05-28 21:04", "2024-05-28T21:04:00Z", "2024-02-31", "14/03/1991",
		1.5, 12, -1, 1e300, true, false, []any{}, []any{"a", 1}, map[string]any{}, map[string]any{"k": "v"}}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			v["zzzExtra"] = "x"
			out[path+" extra key"] = encodeJSON(t, root)
			delete(v, "zzzExtra")
			for _, k := range slices.Sorted(mapsKeys(v)) {
				old := v[k]
				delete(v, k)
				out[path+"."+k+" dropped"] = encodeJSON(t, root)
				for i, r := range replacements {
					v[k] = r
					out[fmt.Sprintf("%s.%s = #%d", path, k, i)] = encodeJSON(t, root)
				}
				v[k] = old
				walk(path+"."+k, old)
			}
		case []any:
			for i, e := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	walk("$", root)
	for i := 0; i < len(body); i += 97 {
		out[fmt.Sprintf("truncated at %d", i)] = body[:i]
	}
	textual := map[string][2]string{
		"repeated key":         {`"type": "ALBUM",`, `"type": "ALBUM", "type": "PHOTO",`},
		"repeated key, escape": {`"type": "ALBUM",`, `"type": "ALBUM", "typ\u0065": "ALBUM",`},
		"escaped key":          {`"type": "ALBUM",`, `"t\u0079pe": "ALBUM",`},
		"escaped value":        {`"type": "ALBUM",`, `"type": "\u0041LBUM",`},
		"escaped bad value":    {`"type": "ALBUM",`, `"type": "\u00c1LBUM",`},
		"invalid utf-8":        {`"type": "ALBUM",`, "\"type\": \"ALBUM\xff\","},
		"trailing garbage":     {"", ""},
		"control character":    {`"Summer in Lisbon"`, "\"Summer\tin Lisbon\""},
		"bad escape":           {`"Summer in Lisbon"`, `"Summer\x in Lisbon"`},
		"leading zero":         {`"assets": []`, `"assets": [01]`},
		"trailing comma":       {`"assets": []`, `"assets": [{},]`},
	}
	for name, r := range textual {
		if r[0] == "" {
			out[name] = append(bytes.Clone(body), "]]} nope"...)
			continue
		}
		require.Contains(t, string(body), r[0])
		out[name] = []byte(strings.Replace(string(body), r[0], r[1], 1))
	}
	return out
}

func mapsKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func encodeJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// TestCompiledMatchesKinOpenAPI validates the listing and thousands of broken
// versions of it both ways: the violations must be the same, line for line.
func TestCompiledMatchesKinOpenAPI(t *testing.T) {
	validators := map[string]*Validator{}
	v, err := Load(t.Context())
	require.NoError(t, err)
	validators["ours"] = v
	if _, err := os.Stat("../../shared/reference/upstream-openapi.json"); err == nil {
		up, err := LoadFile(t.Context(), "../../shared/reference/upstream-openapi.json")
		require.NoError(t, err)
		validators["upstream"] = up
	}
	body := testListing(t)
	cases := mutations(t, body)
	require.Greater(t, len(cases), 1000)
	invalid := 0
	for docName, v := range validators {
		fast, slow := outcome(t, v, listingOK, body)
		require.Empty(t, slow, "the testdata listing is valid")
		require.Empty(t, fast)
		for name, b := range cases {
			fast, slow := outcome(t, v, listingOK, b)
			if !assert.Equal(t, slow, fast, "%s: %s", docName, name) {
				continue
			}
			if len(slow) > 0 {
				invalid++
			}
		}
	}
	assert.Greater(t, invalid, 1000, "most mutations break the listing")

	// A big listing, whose objects list their keys in one order (the hints
	// of the compiled schema guess them), broken here and there.
	big := string(bigListing(t, 20, 10))
	for name, b := range map[string]string{
		"big":               big,
		"big, bad enums":    strings.Replace(big, `"type":"IMAGE"`, `"type":"PHOTO"`, 7),
		"big, keys dropped": strings.Replace(big, `"checksum":`, `"checksumX":`, 5),
		"big, keys moved":   strings.Replace(big, `{"checksum":`, `{"zz":1,"checksum":`, 5),
		"big, repeated key": strings.Replace(big, `"type":"IMAGE"`, `"type":"IMAGE","type":"PHOTO"`, 1),
		"big, wrong types":  strings.Replace(big, `"iso":50`, `"iso":"50"`, 3),
	} {
		fast, slow := outcome(t, v, listingOK, []byte(b))
		assert.Equal(t, slow, fast, name)
		if name != "big" && name != "big, keys moved" {
			assert.NotEmpty(t, slow, name)
		}
	}

	errorBodies := []string{
		`{"message":"File is required","error":"Bad Request","statusCode":400}`,
		`{"message":["a","b"],"error":"Bad Request","statusCode":400}`,
		`{"message":[1,2],"statusCode":400}`,
		`{"message":null,"statusCode":400}`,
		`{"message":{},"statusCode":400}`,
		`{"message":"x","statusCode":399.5,"stack":1,"b":2}`,
		`{"message":"x","statusCode":600}`,
		`{"message":"x","statusCode":1e400}`,
		`{"message":"x","statusCode":"400"}`,
		`{"statusCode":400,"zz":1,"aa":2,"message":["a",null]}`,
		`[]`, `null`, `"x"`, `12`, `{}`, ``, ` `, `{"message":"x","statusCode":400}garbage`,
	}
	for _, b := range errorBodies {
		for _, x := range []exchange{uploadError, listingDeny, uploadOK, listingOK} {
			fast, slow := outcome(t, v, x, []byte(b))
			assert.Equal(t, slow, fast, "%d %s: %s", x.status, x.url, b)
		}
	}
}

func FuzzValidateResponse(f *testing.F) {
	v, err := Load(f.Context())
	require.NoError(f, err)
	exchanges := []exchange{listingOK, uploadOK, uploadError, listingDeny}
	f.Add(uint8(0), testListing(f))
	f.Add(uint8(0), []byte(`[{"id":"x","assets":[{"type":"PHOTO"}]}]`))
	f.Add(uint8(1), []byte(`{"id":"x","duplicate":false}`))
	f.Add(uint8(2), []byte(`{"message":["a"],"error":"Bad Request","statusCode":400}`))
	f.Add(uint8(3), []byte(`{"message":[1,2],"statusCode":4e2}`))
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		x := exchanges[int(which)%len(exchanges)]
		fast, slow := outcome(t, v, x, body)
		if (fast == nil) != (slow == nil) {
			t.Fatalf("valid by one path only:\nfast: %q\nkin-openapi: %q", fast, slow)
		}
		if !slices.Equal(fast, slow) {
			t.Fatalf("different violations:\nfast: %q\nkin-openapi: %q", fast, slow)
		}
	})
}

// bigListing returns a listing of links shared links of assets assets each,
// made from the testdata's links and their richest asset.
func bigListing(t testing.TB, links, assets int) []byte {
	t.Helper()
	var sample []map[string]any
	require.NoError(t, json.Unmarshal(testListing(t), &sample))
	asset := sample[0]["album"].(map[string]any)["assets"].([]any)[0]
	out := make([]any, 0, links)
	for i := range links {
		link := map[string]any{}
		for k, val := range sample[1] {
			link[k] = val
		}
		link["id"] = fmt.Sprintf("link-%d", i)
		list := make([]any, 0, assets)
		for range assets {
			list = append(list, asset)
		}
		link["assets"] = list
		out = append(out, link)
	}
	return encodeJSON(t, out)
}

// BenchmarkValidateListing validates a listing of 100 links of 20 assets
// each, with kin-openapi alone and with the compiled schema.
func BenchmarkValidateListing(b *testing.B) {
	v, err := Load(b.Context())
	require.NoError(b, err)
	body := bigListing(b, 100, 20)
	r, err := http.NewRequestWithContext(b.Context(), http.MethodGet, testLinksURL, nil)
	require.NoError(b, err)
	for _, bm := range []struct {
		name string
		fast bool
	}{{"kin-openapi", false}, {"fast", true}} {
		b.Run(bm.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				err := v.validateResponse(b.Context(), r, Response{Status: 200, Header: testJSONHeader, Body: body}, bm.fast)
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
