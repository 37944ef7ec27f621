package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSharePage: GET /share/{key} is a page whose meta tags say what the
// link shares, as the upstream's three e2e tests (shared-link.e2e-spec.ts,
// "GET /share/${key}") and getMetadataTags read it; a key that opens
// nothing gets the page without them.
func TestSharePage(t *testing.T) {
	srv := newTestServer(t)
	second := uploadAsset(t, srv, keyAlice, "second")
	album := func(body string) string {
		rep := postJSON(t, srv, "/api/albums", body, "x-api-key", keyAlice)
		require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
		var a struct{ ID string }
		require.NoError(t, json.Unmarshal(rep.body, &a))
		return a.ID
	}
	full := album(`{"albumName":"Summer \"24\" <b>","assetIds":["` + aliceAssetID + `","` + second + `"]}`)
	empty := album(`{"albumName":"Empty"}`)
	key := func(body string) string { return createLink(t, srv, keyAlice, body)["key"].(string) }
	past := "2001-01-01T00:00:00.000Z" // before any clock a test server runs on

	tests := []struct {
		name string
		key  string
		want []string // every one in the page
		not  []string // none of these
	}{
		{
			name: "an album with assets",
			key:  key(`{"type":"ALBUM","albumId":"` + full + `"}`),
			want: []string{
				`<meta name="description" content="2 shared photos & videos" />`,
				`<meta property="og:title" content="Summer &quot;24&quot; &lt;b&gt;" />`,
				`<meta property="og:description" content="2 shared photos & videos" />`,
				`<meta name="twitter:card" content="summary_large_image" />`,
				`<meta name="twitter:title" content="Summer &quot;24&quot; &lt;b&gt;" />`,
				`<meta name="twitter:image" content="/api/asset/thumbnail/` + aliceAssetID + `?key=`,
				`<title>Summer &quot;24&quot; &lt;b&gt;</title>`,
			},
		},
		{
			name: "an empty album",
			key:  key(`{"type":"ALBUM","albumId":"` + empty + `"}`),
			want: []string{
				`<meta name="description" content="0 shared photos & videos" />`,
				`<meta property="og:title" content="Empty" />`,
				`<meta property="og:image" content="/feature-panel.png" />`,
			},
		},
		{
			name: "one asset",
			key:  key(`{"type":"INDIVIDUAL","assetIds":["` + second + `"]}`),
			want: []string{
				`<meta name="description" content="1 shared photos & videos" />`,
				`<meta property="og:title" content="Public Share" />`,
				`<meta property="og:image" content="/api/asset/thumbnail/` + second + `?key=`,
			},
		},
		{
			name: "a description, escaped",
			key:  key(`{"type":"INDIVIDUAL","assetIds":["` + second + `"],"description":"Tom & Jerry's \"best\" <script>&amp;"}`),
			want: []string{`<meta name="description" content="Tom & Jerry&#39;s &quot;best&quot; &lt;script&gt;&amp;amp;" />`},
			not:  []string{"<script>"},
		},
		{name: "a password", key: key(`{"type":"INDIVIDUAL","assetIds":["` + second + `"],"password":"x"}`), not: []string{"<meta name=\"description\"", "og:"}},
		{name: "expired", key: key(`{"type":"INDIVIDUAL","assetIds":["` + second + `"],"expiresAt":"` + past + `"}`), not: []string{"og:"}},
		{name: "unknown", key: "no-such-key", not: []string{"og:", "twitter:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Credentials are not needed, and bad ones are ignored.
			rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/share/"+tt.key, nil, "x-api-key", "wrong"))
			require.Equal(t, http.StatusOK, rep.status)
			assert.Equal(t, "text/html; charset=utf-8", rep.header.Get("Content-Type"))
			assert.Equal(t, "no-store", rep.header.Get("Cache-Control"))
			page := string(rep.body)
			assert.True(t, strings.HasPrefix(page, "<!doctype html>"), page)
			for _, w := range tt.want {
				assert.Contains(t, page, w)
			}
			for _, n := range tt.not {
				assert.NotContains(t, page, n)
			}
		})
	}
}

func TestAttr(t *testing.T) {
	for in, want := range map[string]string{
		"3 shared photos & videos": "3 shared photos & videos",
		"a&b &#60; &amp;":          "a&amp;b &amp;#60; &amp;amp;",
		`"'<>`:                     "&quot;&#39;&lt;&gt;",
		"trailing &":               "trailing &",
	} {
		assert.Equal(t, want, attr(in), in)
	}
}
