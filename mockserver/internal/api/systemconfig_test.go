package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// referenceDefaults is GET /api/system-config/defaults as the reference
// answered it, with machine learning off.
const referenceDefaults = `{"ffmpeg":{"crf":23,"threads":0,"preset":"ultrafast","targetVideoCodec":"h264","acceptedVideoCodecs":["h264"],"targetAudioCodec":"aac","acceptedAudioCodecs":["aac","mp3","libopus"],"targetResolution":"720","maxBitrate":"0","bframes":-1,"refs":0,"gopSize":0,"npl":0,"temporalAQ":false,"cqMode":"auto","twoPass":false,"preferredHwDevice":"auto","transcode":"required","tonemap":"hable","accel":"disabled","accelDecode":false},"job":{"backgroundTask":{"concurrency":5},"smartSearch":{"concurrency":2},"metadataExtraction":{"concurrency":5},"faceDetection":{"concurrency":2},"search":{"concurrency":5},"sidecar":{"concurrency":5},"library":{"concurrency":5},"migration":{"concurrency":5},"thumbnailGeneration":{"concurrency":5},"videoConversion":{"concurrency":1},"notifications":{"concurrency":5}},"logging":{"enabled":true,"level":"log"},"machineLearning":{"enabled":false,"url":"http://immich-machine-learning:3003","clip":{"enabled":true,"modelName":"ViT-B-32__openai"},"duplicateDetection":{"enabled":true,"maxDistance":0.0155},"facialRecognition":{"enabled":true,"modelName":"buffalo_l","minScore":0.7,"maxDistance":0.5,"minFaces":3}},"map":{"enabled":true,"lightStyle":"","darkStyle":""},"reverseGeocoding":{"enabled":true},"oauth":{"autoLaunch":false,"autoRegister":true,"buttonText":"Login with OAuth","clientId":"","clientSecret":"","defaultStorageQuota":0,"enabled":false,"issuerUrl":"","mobileOverrideEnabled":false,"mobileRedirectUri":"","scope":"openid email profile","signingAlgorithm":"RS256","storageLabelClaim":"preferred_username","storageQuotaClaim":"immich_quota"},"passwordLogin":{"enabled":true},"storageTemplate":{"enabled":false,"hashVerificationEnabled":true,"template":"{{y}}/{{y}}-{{MM}}-{{dd}}/{{filename}}"},"image":{"thumbnailFormat":"webp","thumbnailSize":250,"previewFormat":"jpeg","previewSize":1440,"quality":80,"colorspace":"p3","extractEmbedded":false},"newVersionCheck":{"enabled":true},"trash":{"enabled":true,"days":30},"theme":{"customCss":""},"library":{"scan":{"enabled":true,"cronExpression":"0 0 * * *"},"watch":{"enabled":false}},"server":{"externalDomain":"","loginPageMessage":""},"notifications":{"smtp":{"enabled":false,"from":"","replyTo":"","transport":{"ignoreCert":false,"host":"","port":587,"username":"","password":""}}},"user":{"deleteDelay":7}}`

// configWith is the reference's defaults with values set by path
// ("trash.days"), a value of nil taking the member out.
func configWith(t *testing.T, set map[string]any) string {
	t.Helper()
	var c map[string]any
	require.NoError(t, json.Unmarshal([]byte(referenceDefaults), &c))
	for path, v := range set {
		parts := strings.Split(path, ".")
		o := c
		for _, p := range parts[:len(parts)-1] {
			o = o[p].(map[string]any)
		}
		if v == nil {
			delete(o, parts[len(parts)-1])
		} else {
			o[parts[len(parts)-1]] = v
		}
	}
	b, err := json.Marshal(c)
	require.NoError(t, err)
	return string(b)
}

// putConfig sends PUT /api/system-config as key.
func putConfig(t *testing.T, srv *httptest.Server, key, body string) reply {
	t.Helper()
	return sendJSON(t, srv, http.MethodPut, "/api/system-config", body, "x-api-key", key)
}

func TestSystemConfigReads(t *testing.T) {
	srv := newTestServer(t)
	for _, path := range []string{"/api/system-config", "/api/system-config/defaults"} {
		rep := getJSON(t, srv, path, nil, "x-api-key", keyAlice)
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		assert.Equal(t, referenceDefaults, string(rep.body), "%s: the reference's bytes", path)
	}
	rep := getJSON(t, srv, "/api/system-config/storage-template-options", nil, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status)
	assert.Equal(t, []string{"yearOptions", "monthOptions", "weekOptions", "dayOptions", "hourOptions", "minuteOptions", "secondOptions", "presetOptions"}, keyOrder(t, rep.body))
	assert.Contains(t, string(rep.body), `"presetOptions":["{{y}}/{{y}}-{{MM}}-{{dd}}/{{filename}}",`)

	for _, path := range []string{"/api/system-config", "/api/system-config/defaults", "/api/system-config/storage-template-options"} {
		requireError(t, getJSON(t, srv, path, nil, "x-api-key", keyBob), 403, "Forbidden resource")
		requireError(t, getJSON(t, srv, path, nil), 401, "Authentication required")
		requireError(t, getJSON(t, srv, path, nil, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
	}
	requireError(t, putConfig(t, srv, keyBob, referenceDefaults), 403, "Forbidden resource")
}

func TestSystemConfigUpdate(t *testing.T) {
	srv := newTestServer(t)
	body := configWith(t, map[string]any{
		"server.loginPageMessage": "Welcome to the mock", "trash.days": "14", "user.deleteDelay": 3,
		"oauth.buttonText": "", "ffmpeg.targetVideoCodec": "hevc", "ffmpeg.acceptedVideoCodecs": []any{},
		"storageTemplate.enabled": "true", "storageTemplate.template": "{{y}}/{{MMMM}}/{{filename}}",
		"library.scan.cronExpression": "*/5 * * * *", "theme.customCss": "body { color: red }",
		"machineLearning.clip.mode": "text", "unknown": 1,
	})
	rep := putConfig(t, srv, keyAlice, body)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var c model.SystemConfig
	rep.json(t, &c)
	assert.Equal(t, "Welcome to the mock", c.Server.LoginPageMessage)
	assert.EqualValues(t, 14, c.Trash.Days, "a number in a string, as the reference's Type(() => Number)")
	assert.Equal(t, "Login with OAuth", c.OAuth.ButtonText, `"" keeps the default, as on the reference`)
	assert.Equal(t, []string{"hevc"}, c.FFmpeg.AcceptedVideoCodecs, "the target codec is always accepted")
	assert.True(t, c.StorageTemplate.Enabled)
	assert.NotContains(t, string(rep.body), "unknown")
	assert.NotContains(t, string(rep.body), `"mode"`, "what the defaults do not have is not kept")

	var got model.SystemConfig
	getJSON(t, srv, "/api/system-config", &got, "x-api-key", keyAlice)
	assert.Equal(t, c, got)
	var sc map[string]any
	getJSON(t, srv, "/api/server-info/config", &sc)
	assert.Equal(t, "Welcome to the mock", sc["loginPageMessage"])
	assert.EqualValues(t, 14, sc["trashDays"])
	assert.EqualValues(t, 3, sc["userDeleteDelay"])
	assert.Contains(t, datasetOf(t, srv), `"systemConfig":{`)

	// A reset brings back the defaults.
	require.Equal(t, http.StatusOK, controlJSON(t, srv, http.MethodPost, "/__mock/reset", "", map[string]any{}).status)
	rep = getJSON(t, srv, "/api/system-config", nil, "x-api-key", keyAlice)
	assert.Equal(t, referenceDefaults, string(rep.body))
	assert.NotContains(t, datasetOf(t, srv), `"systemConfig"`)

	// The defaults sent back are stored as none.
	rep = putConfig(t, srv, keyAlice, referenceDefaults)
	assert.Equal(t, referenceDefaults, string(rep.body))
}

func TestSystemConfigRefusals(t *testing.T) {
	srv := newTestServer(t)
	for _, tt := range []struct {
		name    string
		set     map[string]any
		message any
	}{
		{"a number no number", map[string]any{"ffmpeg.crf": "abc"}, []any{"ffmpeg.crf must not be greater than 51", "ffmpeg.crf must not be less than 0", "ffmpeg.crf must be an integer number"}},
		{"a number too small", map[string]any{"trash.days": "-1"}, []any{"trash.days must not be less than 0"}},
		{"a bad cron expression", map[string]any{"library.scan.cronExpression": "61 * * * *"}, []any{"library.scan.Invalid cron expression"}},
		{"a cron expression of a scan off", map[string]any{"library.scan.enabled": false, "library.scan.cronExpression": 5}, "Invalid cron expression 5"},
		{"a URL no URL", map[string]any{"machineLearning.enabled": true, "machineLearning.url": "not a url"}, []any{"machineLearning.url must be a URL address"}},
		{"mail without a server", map[string]any{"notifications.smtp.enabled": true, "notifications.smtp.transport": map[string]any{}}, []any{
			"notifications.smtp.from should not be empty", "notifications.smtp.transport.ignoreCert must be a boolean value",
			"notifications.smtp.transport.host must be a string", "notifications.smtp.transport.host should not be empty",
			"notifications.smtp.transport.port must not be greater than 65535", "notifications.smtp.transport.port must not be less than 0",
			"notifications.smtp.transport.port must be a number conforming to the specified constraints",
			"notifications.smtp.transport.username must be a string", "notifications.smtp.transport.password must be a string"}},
		{"values of the wrong kinds", map[string]any{"logging.level": "x", "server.loginPageMessage": 5, "theme.customCss": nil}, []any{
			"logging.level must be one of the following values: verbose, debug, log, warn, error, fatal", "theme.customCss must be a string", "server.loginPageMessage must be a string"}},
		{"a job of no one", map[string]any{"job.thumbnailGeneration.concurrency": 0}, []any{"job.thumbnailGeneration.concurrency must be a positive number"}},
		{"a job no object", map[string]any{"job.thumbnailGeneration": 5}, []any{"job.thumbnailGeneration must be an object", "job.nested property thumbnailGeneration must be either object or array"}},
		{"OAuth without its client", map[string]any{"oauth.enabled": true}, []any{"oauth.clientId should not be empty", "oauth.clientSecret should not be empty", "oauth.issuerUrl should not be empty"}},
		{"a model without a name", map[string]any{"machineLearning.clip": map[string]any{}}, []any{"machineLearning.clip.enabled must be a boolean value", "machineLearning.clip.modelName should not be empty", "machineLearning.clip.modelName must be a string"}},
		{"numbers out of bounds", map[string]any{"machineLearning.facialRecognition.minScore": 2, "machineLearning.duplicateDetection.maxDistance": 0}, []any{
			"machineLearning.duplicateDetection.maxDistance must not be less than 0.001", "machineLearning.facialRecognition.minScore must not be greater than 1"}},
		{"a template with an unknown name", map[string]any{"storageTemplate.template": "{{foo}}/{{filename}}"}, `Invalid storage template: Error: "foo" not defined in [object Object] - 1:2`},
		{"a template left open", map[string]any{"storageTemplate.template": "{{y"}, "Invalid storage template: Error: Parse error on line 1: an opening {{ is never closed"},
		// The mock's own rules, where the reference stores what it cannot read back.
		{"a codec list no list", map[string]any{"ffmpeg.acceptedVideoCodecs": "h264"}, []any{"ffmpeg.acceptedVideoCodecs must be an array"}},
		{"a value no rule judges, of another kind", map[string]any{"oauth.clientId": 5}, []any{"oauth.clientId must be a string"}},
		{"a port of a mail server off, no number", map[string]any{"notifications.smtp.transport.port": "587"}, []any{"notifications.smtp.transport.port must be a number"}},
		{"a text too long", map[string]any{"server.loginPageMessage": strings.Repeat("m", 4097)}, []any{"server.loginPageMessage must be shorter than or equal to 4096 characters"}},
		{"too many codecs", map[string]any{"ffmpeg.acceptedAudioCodecs": strings.Split(strings.Repeat("aac,", 65)+"aac", ",")}, "ffmpeg.acceptedAudioCodecs has 66 entries, over the limit of 64"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, putConfig(t, srv, keyAlice, configWith(t, tt.set)), 400, tt.message)
		})
	}
	requireError(t, putConfig(t, srv, keyAlice, `{}`), 400, []any{"ffmpeg must be an object", "logging must be an object", "machineLearning must be an object",
		"map must be an object", "newVersionCheck must be an object", "oauth must be an object", "passwordLogin must be an object",
		"reverseGeocoding must be an object", "storageTemplate must be an object", "job must be an object", "image must be an object",
		"trash must be an object", "theme must be an object", "library must be an object", "notifications must be an object",
		"server must be an object", "user must be an object"})
	requireError(t, putConfig(t, srv, keyAlice, `{"ffmpeg":`), 400, nil)
	rep := getJSON(t, srv, "/api/system-config", nil, "x-api-key", keyAlice)
	assert.Equal(t, referenceDefaults, string(rep.body), "nothing was stored")
}

// TestSystemConfigNeverFails: whatever a setting is sent as, the answer
// is 200 or a 400, and what is stored reads back.
func TestSystemConfigNeverFails(t *testing.T) {
	srv := newTestServer(t)
	var c map[string]any
	require.NoError(t, json.Unmarshal([]byte(referenceDefaults), &c))
	var leaves []string
	var walk func(prefix string, o map[string]any)
	walk = func(prefix string, o map[string]any) {
		for k, v := range o {
			if sub, ok := v.(map[string]any); ok {
				walk(prefix+k+".", sub)
				continue
			}
			leaves = append(leaves, prefix+k)
		}
	}
	walk("", c)
	odd := []any{"", "x", " 12 ", -1, 0.5, 1e308, "1e400", true, "false", []any{}, []any{1}, []any{"h264", "x"}, map[string]any{}}
	for _, leaf := range leaves {
		for _, v := range append(odd, nil) {
			rep := putConfig(t, srv, keyAlice, configWith(t, map[string]any{leaf: v}))
			require.Contains(t, []int{200, 400}, rep.status, "%s = %#v: %s", leaf, v, rep.body)
			if rep.status == http.StatusOK {
				got := getJSON(t, srv, "/api/system-config", nil, "x-api-key", keyAlice)
				require.JSONEq(t, string(rep.body), string(got.body))
			}
		}
	}
	// Big numbers the JSON parser keeps as text.
	rep := putConfig(t, srv, keyAlice, strings.Replace(referenceDefaults, `"port":587`, `"port":1e400`, 1))
	requireError(t, rep, 400, []any{"notifications.smtp.transport.port must be a finite number"})
}
