package api

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServerFeaturesAndThemeFollowTheSettings: what the web app reads
// before a page is what the settings say, as the reference derives it
// from them, and follows a change of them.
func TestServerFeaturesAndThemeFollowTheSettings(t *testing.T) {
	srv := newTestServer(t)
	features := func() map[string]bool {
		var f map[string]bool
		rep := getJSON(t, srv, "/api/server-info/features", &f)
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		return f
	}
	theme := func() string {
		var th map[string]string
		getJSON(t, srv, "/api/server-info/theme", &th)
		return th["customCss"]
	}
	css := func() string {
		rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/custom.css", nil))
		require.Equal(t, http.StatusOK, rep.status)
		return string(rep.body)
	}

	assert.Equal(t, map[string]bool{
		"smartSearch": false, "facialRecognition": false, "duplicateDetection": false, "map": true,
		"reverseGeocoding": true, "sidecar": true, "search": true, "trash": true, "oauth": false,
		"oauthAutoLaunch": false, "passwordLogin": true, "configFile": false, "email": false,
	}, features(), "the reference's flags with its defaults, machine learning off")
	assert.Empty(t, theme())
	assert.Empty(t, css())

	rep := putConfig(t, srv, keyAlice, configWith(t, map[string]any{
		"machineLearning.enabled": true, "machineLearning.facialRecognition.enabled": false,
		"map.enabled": false, "trash.enabled": false, "passwordLogin.enabled": false,
		"theme.customCss": "body { color: teal }",
	}))
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	f := features()
	assert.True(t, f["smartSearch"], "machine learning and CLIP on")
	assert.True(t, f["duplicateDetection"], "smart search and duplicate detection on")
	assert.False(t, f["facialRecognition"], "facial recognition off")
	assert.False(t, f["map"])
	assert.False(t, f["trash"])
	assert.False(t, f["passwordLogin"])
	assert.Equal(t, "body { color: teal }", theme())
	assert.Equal(t, "body { color: teal }", css(), "/custom.css serves the theme's CSS")

	rep = putConfig(t, srv, keyAlice, configWith(t, map[string]any{"machineLearning.enabled": true, "machineLearning.clip.enabled": false}))
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	f = features()
	assert.False(t, f["smartSearch"], "CLIP off")
	assert.False(t, f["duplicateDetection"], "no duplicates without smart search")
	assert.True(t, f["facialRecognition"])
}
