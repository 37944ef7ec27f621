package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// TestServeDefaults checks what `mediaspec serve` with no flags offers: the
// default key's 12 links, other users, and an anchor of today 00:00 UTC.
func TestServeDefaults(t *testing.T) {
	before := time.Now().UTC().Truncate(24 * time.Hour)
	base := startServe(t)
	after := time.Now().UTC().Truncate(24 * time.Hour)

	var links []json.RawMessage
	require.NoError(t, json.Unmarshal(get(t, base+"/shared-links", "mediaspec-dev-key"), &links))
	assert.Len(t, links, 12)

	var d struct {
		Anchor time.Time `json:"anchor"`
		Users  []struct {
			APIKey string `json:"apiKey"`
		} `json:"users"`
	}
	require.NoError(t, json.Unmarshal(get(t, strings.TrimSuffix(base, "/api")+"/__mock/dataset", ""), &d))
	assert.Contains(t, []time.Time{before, after}, d.Anchor.UTC(), "the anchor is today, 00:00 UTC")
	require.Greater(t, len(d.Users), 1, "other users beside the default one")
	assert.Equal(t, "mediaspec-dev-key", d.Users[0].APIKey)
}

// TestServeFlags checks that each of serve's flags reaches the server.
func TestServeFlags(t *testing.T) {
	t.Run("--api-key --links --users", func(t *testing.T) {
		base := startServe(t, "--api-key", "k-flags", "--links", "3", "--users", "1")
		var links []json.RawMessage
		require.NoError(t, json.Unmarshal(get(t, base+"/shared-links", "k-flags"), &links))
		assert.Len(t, links, 3)
		status, body := send(t, http.MethodGet, base+"/shared-links", "mediaspec-dev-key", nil, nil)
		assert.Equal(t, http.StatusUnauthorized, status, "the default key is not a key here: %s", body)
	})
	t.Run("--no-control", func(t *testing.T) {
		base := startServe(t, "--no-control")
		status, body := send(t, http.MethodGet, strings.TrimSuffix(base, "/api")+"/__mock/dataset", "", nil, nil)
		require.Equal(t, http.StatusNotFound, status, "the control API is off")
		var e struct {
			StatusCode int `json:"statusCode"`
		}
		require.NoError(t, json.Unmarshal(body, &e), "a JSON error: %s", body)
		assert.Equal(t, http.StatusNotFound, e.StatusCode)
	})
	t.Run("--max-upload-bytes", func(t *testing.T) {
		base := startServe(t, "--max-upload-bytes", "512")
		body, ct := uploadForm(t, bytes.Repeat([]byte("x"), 2048))
		status, answer := send(t, http.MethodPost, base+"/asset/upload", "mediaspec-dev-key", body, http.Header{"Content-Type": {ct}})
		assert.Equal(t, http.StatusRequestEntityTooLarge, status, "%s", answer)
	})
	t.Run("--media-dir", func(t *testing.T) {
		dir := t.TempDir()
		base := startServe(t, "--media-dir", dir)
		file := []byte("a photo kept in the media folder")
		body, ct := uploadForm(t, file)
		status, answer := send(t, http.MethodPost, base+"/asset/upload", "mediaspec-dev-key", body, http.Header{"Content-Type": {ct}})
		require.Equal(t, http.StatusCreated, status, "%s", answer)
		var res struct{ ID string }
		require.NoError(t, json.Unmarshal(answer, &res))
		index, err := os.ReadFile(filepath.Join(dir, "blobs.index"))
		require.NoError(t, err)
		assert.Contains(t, string(index), "o "+res.ID+" ", "the folder's index names the original")
		status, original := send(t, http.MethodGet, base+"/asset/file/"+res.ID, "mediaspec-dev-key", nil, nil)
		assert.Equal(t, http.StatusOK, status)
		assert.Equal(t, file, original)
	})
	t.Run("--fixtures reuses the dataset's media folder", func(t *testing.T) {
		dir := t.TempDir()
		base := startServe(t, "--media-dir", dir)
		file := []byte("a photo kept across restarts")
		body, ct := uploadForm(t, file)
		status, answer := send(t, http.MethodPost, base+"/asset/upload", "mediaspec-dev-key", body, http.Header{"Content-Type": {ct}})
		require.Equal(t, http.StatusCreated, status, "%s", answer)
		var res struct{ ID string }
		require.NoError(t, json.Unmarshal(answer, &res))
		dataset := get(t, strings.TrimSuffix(base, "/api")+"/__mock/dataset", "")
		var d struct {
			MediaDir string `json:"mediaDir"`
		}
		require.NoError(t, json.Unmarshal(dataset, &d))
		assert.Equal(t, dir, d.MediaDir, "the dataset names its media folder")
		path := filepath.Join(t.TempDir(), "kept.json")
		require.NoError(t, os.WriteFile(path, dataset, 0o600))

		again := startServe(t, "--fixtures", path)
		status, original := send(t, http.MethodGet, again+"/asset/file/"+res.ID, "mediaspec-dev-key", nil, nil)
		assert.Equal(t, http.StatusOK, status)
		assert.Equal(t, file, original, "the upload is there after the restart")
	})
	t.Run("--media-dir off", func(t *testing.T) {
		base := startServe(t, "--media-dir", "off")
		body, ct := uploadForm(t, []byte("a photo not kept"))
		status, answer := send(t, http.MethodPost, base+"/asset/upload", "mediaspec-dev-key", body, http.Header{"Content-Type": {ct}})
		require.Equal(t, http.StatusCreated, status, "%s", answer)
		var res struct{ ID string }
		require.NoError(t, json.Unmarshal(answer, &res))
		status, _ = send(t, http.MethodGet, base+"/asset/file/"+res.ID, "mediaspec-dev-key", nil, nil)
		assert.Equal(t, http.StatusNotFound, status, "not kept")
	})
	t.Run("--checksum-header", func(t *testing.T) {
		base := startServe(t, "--checksum-header", "x-immich-checksum")
		file := []byte("a photo sent once")
		body, ct := uploadForm(t, file)
		status, answer := send(t, http.MethodPost, base+"/asset/upload", "mediaspec-dev-key", body, http.Header{"Content-Type": {ct}})
		require.Equal(t, http.StatusCreated, status, "%s", answer)

		// The header alone finds it, under the configured name only.
		digest := sha1.Sum(file)
		sum := base64.StdEncoding.EncodeToString(digest[:])
		for _, tt := range []struct {
			header string
			status int
		}{
			{"X-Service-Checksum", http.StatusCreated}, // the default name is not read
			{"X-Immich-Checksum", http.StatusOK},
		} {
			other, ct := uploadForm(t, []byte("other bytes under "+tt.header))
			h := http.Header{"Content-Type": {ct}, tt.header: {sum}}
			status, answer = send(t, http.MethodPost, base+"/asset/upload", "mediaspec-dev-key", other, h)
			assert.Equal(t, tt.status, status, "%s: %s", tt.header, answer)
		}
	})
}

// send makes one request and reads its answer.
func send(t *testing.T, method, url, key string, body []byte, h http.Header) (int, []byte) {
	t.Helper()
	r, err := http.NewRequestWithContext(t.Context(), method, url, bytes.NewReader(body))
	require.NoError(t, err)
	for k, v := range h {
		r.Header[k] = v
	}
	if key != "" {
		r.Header.Set("x-api-key", key)
	}
	resp, err := http.DefaultClient.Do(r)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, b
}

// uploadForm is a valid upload of file as a JPEG.
func uploadForm(t *testing.T, file []byte) (body []byte, contentType string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range [][2]string{
		{"deviceAssetId", "flags-1"}, {"deviceId", "serve-test"},
		{"fileCreatedAt", "2026-11-01T09:30:00.000Z"}, {"fileModifiedAt", "2026-11-01T09:30:00.000Z"},
	} {
		require.NoError(t, mw.WriteField(f[0], f[1]))
	}
	w, err := mw.CreateFormFile("assetData", "IMG_0001.JPG")
	require.NoError(t, err)
	_, err = w.Write(file)
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	return buf.Bytes(), mw.FormDataContentType()
}

// TestFixturesUsersCount: --users N gives exactly N users besides the
// default one, none for 0.
func TestFixturesUsersCount(t *testing.T) {
	for _, n := range []int{0, 1, 3} {
		path := t.TempDir() + "/d.json"
		require.NoError(t, run(t.Context(), []string{"fixtures", "--users", strconv.Itoa(n), "--links", "2", "--out", path}, io.Discard, io.Discard))
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		var d struct {
			Users []json.RawMessage `json:"users"`
		}
		require.NoError(t, json.Unmarshal(b, &d))
		assert.Len(t, d.Users, n+1, "--users %d", n)
	}
}

// TestServeStopsWithARequestInFlight: SIGINT stops serve cleanly (exit 0)
// even while a request waits out an x-mock-delay of a minute: after a short
// grace the request is cut off, and serve says so in its log.
func TestServeStopsWithARequestInFlight(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "serve.log")
	logFile, err := os.Create(logPath)
	require.NoError(t, err)
	defer logFile.Close()
	cmd := command(context.Background(), "serve", "--addr", "127.0.0.1:0")
	cmd.Stderr = logFile
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	var base string
	for sc := bufio.NewScanner(out); base == "" && sc.Scan(); {
		_, base, _ = strings.Cut(sc.Text(), "listening on ")
	}
	require.NotEmpty(t, base, "serve printed its address")
	go func() { _, _ = io.Copy(io.Discard, out) }()

	r, err := http.NewRequestWithContext(context.Background(), http.MethodGet, base+"/shared-links", nil)
	require.NoError(t, err)
	r.Header.Set("x-api-key", "mediaspec-dev-key")
	r.Header.Set("x-mock-delay", "1m")
	conn, wrote := make(chan net.Conn, 1), make(chan struct{})
	r = r.WithContext(httptrace.WithClientTrace(r.Context(), &httptrace.ClientTrace{
		GotConn:      func(info httptrace.GotConnInfo) { conn <- info.Conn },
		WroteRequest: func(httptrace.WroteRequestInfo) { close(wrote) },
	}))
	answered := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(r)
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("answered %s", resp.Status)
		}
		answered <- err
	}()
	// The request has arrived once the client wrote all of it and the
	// server read all of it; the log below proves it was in flight.
	c := <-conn
	<-wrote
	waitRead(t, portOf(t, base), c)

	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	select {
	case err := <-exited:
		require.NoError(t, err, "serve exits 0 on SIGINT")
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop on SIGINT")
	}
	select {
	case err := <-answered:
		assert.Error(t, err, "the delayed request was cut off, not answered")
	case <-time.After(5 * time.Second):
		t.Fatal("the delayed request is still waiting after serve stopped")
	}
	log, err := os.ReadFile(logPath)
	require.NoError(t, err)
	assert.Contains(t, string(log), "requests still in flight were cut off", "the request was in flight when serve stopped")
}

// TestFixturesCheck: --check passes a generated dataset, and lists every
// broken invariant of a hand-broken one, exiting 1.
func TestFixturesCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	require.NoError(t, run(t.Context(), []string{"fixtures", "--seed", "3", "--anchor", "2026-11-01", "--links", "3", "--users", "1", "--out", good}, io.Discard, io.Discard))
	var out strings.Builder
	require.NoError(t, run(t.Context(), []string{"fixtures", "--check", good}, &out, io.Discard))
	assert.Regexp(t, `good.json: 2 users, \d+ assets, \d+ albums, \d+ shared links: every invariant holds`, out.String())

	b, err := os.ReadFile(good)
	require.NoError(t, err)
	var d map[string]any
	require.NoError(t, json.Unmarshal(b, &d))
	albums := d["albums"].([]any)
	require.NotEmpty(t, albums)
	album := albums[0].(map[string]any)
	album["albumThumbnailAssetId"] = "00000000-0000-4000-8000-00000000beef"
	users := d["users"].([]any)
	users[1].(map[string]any)["avatarColor"] = "teal"
	broken := filepath.Join(dir, "broken.json")
	b, err = json.Marshal(d)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(broken, b, 0o644))
	out.Reset()
	err = run(t.Context(), []string{"fixtures", "--check", broken}, &out, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "broken invariants")
	assert.Contains(t, out.String(), "thumbnail 00000000-0000-4000-8000-00000000beef is not one of its assets")
	assert.Contains(t, out.String(), `avatarColor "teal"`)
	assert.GreaterOrEqual(t, strings.Count(out.String(), "broken.json: "), 2, "every problem is listed:\n%s", out.String())

	err = run(t.Context(), []string{"fixtures", "--check", good, "--seed", "7"}, io.Discard, io.Discard)
	assert.ErrorIs(t, err, errUsage)
	assert.Error(t, run(t.Context(), []string{"fixtures", "--check", filepath.Join(dir, "none.json")}, io.Discard, io.Discard))
}

// TestServeLogFormat: serve's request log, as text (the default) or as
// JSON, carries the same fields: the error's message, the masked query,
// the credential's kind and last four characters, the forced status, and
// the level by status.
func TestServeLogFormat(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			logger, err := newLogger(&buf, format, false)
			require.NoError(t, err)
			d, err := (&datasetFlags{seed: 1, apiKey: defaultAPIKey, links: 1, users: 1}).generate(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			require.NoError(t, err)
			h, err := mockserver.New(mockserver.Config{Dataset: func() model.Dataset { return d }, MediaDir: "", Logger: logger})
			require.NoError(t, err)
			t.Cleanup(func() { _ = h.Close() })
			r := httptest.NewRequest(http.MethodGet, "/api/shared-links?apiKey="+defaultAPIKey+"&size=preview", nil)
			r.Header.Set("x-mock-status", "503")
			h.ServeHTTP(httptest.NewRecorder(), r)

			line := strings.TrimSpace(buf.String())
			require.NotEmpty(t, line)
			assert.NotContains(t, line, defaultAPIKey, "never the secret")
			fields := map[string]any{}
			if format == "json" {
				require.NoError(t, json.Unmarshal([]byte(line), &fields), line)
				if c, ok := fields["credential"].(map[string]any); ok {
					fields["credential.kind"], fields["credential.last4"] = c["kind"], c["last4"]
				}
				fields["status"] = fmt.Sprint(fields["status"])
			} else {
				for _, kv := range regexp.MustCompile(`([a-z.0-9]+)=("(?:[^"\\]|\\.)*"|\S+)`).FindAllStringSubmatch(line, -1) {
					v, err := strconv.Unquote(kv[2])
					if err != nil {
						v = kv[2]
					}
					fields[kv[1]] = v
				}
			}
			assert.Equal(t, "ERROR", fields["level"], line)
			assert.Equal(t, "503", fields["status"], line)
			assert.Equal(t, "Service Unavailable (asked for by x-mock-status)", fields["message"], line)
			assert.Equal(t, "apiKey=****&size=preview", fields["query"], line)
			assert.Equal(t, "api-key", fields["credential.kind"], line)
			assert.Equal(t, "-key", fields["credential.last4"], line)
			assert.Equal(t, "x-mock-status", fields["forced"], line)
		})
	}
}

// BenchmarkServeStop measures how long serve takes to stop once asked (as
// on Ctrl-C), with a keep-alive connection idle after a request and a
// connection opened ahead that never sent one, as a browser leaves them.
func BenchmarkServeStop(b *testing.B) {
	logger := slog.New(slog.DiscardHandler)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	for b.Loop() {
		b.StopTimer()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(b, err)
		ctx, cancel := context.WithCancel(b.Context())
		done := make(chan error, 1)
		go func() { done <- serveUntilDone(ctx, ln, h, logger) }()
		client := &http.Client{Transport: &http.Transport{}}
		resp, err := client.Get("http://" + ln.Addr().String() + "/")
		require.NoError(b, err)
		resp.Body.Close()
		ahead, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(b, err)
		waitAccepted(b, ln.Addr().(*net.TCPAddr).Port) // accepted, and idle
		b.StartTimer()
		cancel()
		require.NoError(b, <-done)
		b.StopTimer()
		ahead.Close()
		client.CloseIdleConnections()
		b.StartTimer()
	}
}
