package api

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newHardenedServer starts a mock inside the http.Server that `serve` uses,
// so the HTTP layer's limits are part of what is tested.
func newHardenedServer(t *testing.T, cfg Config) *httptest.Server {
	t.Helper()
	h, err := New(cfg)
	require.NoError(t, err)
	srv := httptest.NewUnstartedServer(h)
	srv.Config = httpx.HTTPServer(h, slog.New(slog.DiscardHandler))
	srv.Listener = httpx.Listener(srv.Listener, 0)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// rawRequest writes an HTTP/1.1 request by hand, so that it can be as
// broken as a hostile client makes it.
func rawRequest(method, target string, headers []string, body []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n", method, target)
	for i := 0; i+1 < len(headers); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", headers[i], headers[i+1])
	}
	if body != nil {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

// multipartBody builds a multipart body by hand from raw part headers and contents.
func multipartBody(boundary string, parts ...[2]string) []byte {
	var b bytes.Buffer
	for _, p := range parts {
		fmt.Fprintf(&b, "--%s\r\n%s\r\n\r\n%s\r\n", boundary, p[0], p[1])
	}
	fmt.Fprintf(&b, "--%s--\r\n", boundary)
	return b.Bytes()
}

func field(name, value string) [2]string {
	return [2]string{fmt.Sprintf("Content-Disposition: form-data; name=%q", name), value}
}

func file(name, filename, content string) [2]string {
	return [2]string{fmt.Sprintf("Content-Disposition: form-data; name=%q; filename=\"%s\"", name, filename), content}
}

// goodFields are the text parts of a valid upload.
func goodFields() [][2]string {
	return [][2]string{
		field("deviceAssetId", "a-1"), field("deviceId", "d"),
		field("fileCreatedAt", "2024-05-30T10:00:00Z"), field("fileModifiedAt", "2024-05-30T10:00:00Z"),
	}
}

// uploadWith is a raw upload of the good fields plus parts, with Alice's key.
func uploadWith(parts ...[2]string) []byte {
	body := multipartBody("XyZ", append(goodFields(), parts...)...)
	return rawRequest("POST", "/api/asset/upload", []string{"Content-Type", "multipart/form-data; boundary=XyZ", "x-api-key", keyAlice}, body)
}

// TestHostileRequests sends a catalogue of hostile requests: each gets a 4xx
// JSON error, and the server answers the next request as if nothing happened.
func TestHostileRequests(t *testing.T) {
	srv := newHardenedServer(t, Config{Dataset: testDataset, Now: testNow, BodyTimeout: 300 * time.Millisecond})
	addr := srv.Listener.Addr().String()
	upload := func(ct string, body []byte) []byte {
		return rawRequest("POST", "/api/asset/upload", []string{"Content-Type", ct, "x-api-key", keyAlice}, body)
	}
	good := uploadWith(file("assetData", "a.jpg", "hostile-test"))
	manyParts := make([][2]string, 10_000)
	for i := range manyParts {
		manyParts[i] = field(fmt.Sprintf("f%d", i), "v")
	}
	tests := []struct {
		name   string
		raw    []byte
		drip   bool // send the body a byte at a time, forever
		status int
	}{
		{name: "no boundary", raw: upload("multipart/form-data", good[bytes.Index(good, []byte("\r\n\r\n"))+4:]), status: 400},
		{name: "a boundary parameter without value", raw: upload("multipart/form-data; boundary=", []byte("--\r\n")), status: 400},
		{name: "truncated inside assetData", raw: upload("multipart/form-data; boundary=XyZ", multipartBody("XyZ", append(goodFields(), file("assetData", "a.jpg", strings.Repeat("j", 5000)))...)[:700]), status: 400},
		{name: "truncated after the headers", raw: upload("multipart/form-data; boundary=XyZ", []byte("--XyZ\r\nContent-Disposition: form-data; name=\"deviceId\"\r\n")), status: 400},
		{name: "only garbage", raw: upload("multipart/form-data; boundary=XyZ", bytes.Repeat([]byte{0xff, 0x00, '-'}, 3000)), status: 400},
		{name: "an empty body", raw: upload("multipart/form-data; boundary=XyZ", []byte{}), status: 400},
		{name: "10,000 parts", raw: upload("multipart/form-data; boundary=XyZ", multipartBody("XyZ", manyParts...)), status: 400},
		{name: "10,000 empty parts", raw: upload("multipart/form-data; boundary=XyZ", bytes.Repeat([]byte("--XyZ\r\n\r\n\r\n"), 10_000)), status: 400},
		{name: "a 2 MiB header, over net/http's own limit", raw: rawRequest("GET", "/api/shared-links", []string{"x-api-key", keyAlice, "x-padding", strings.Repeat("p", 2<<20)}, nil), status: 431},
		{name: "a request line net/http cannot read", raw: []byte("GET /api/shared-links HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), status: 400},
		{name: "a 1 MiB header", raw: rawRequest("GET", "/api/shared-links", []string{"x-api-key", keyAlice, "x-padding", strings.Repeat("p", 1<<20)}, nil), status: 431},
		{name: "a 100 KiB query", raw: rawRequest("GET", "/api/shared-links?key="+strings.Repeat("k", 100<<10), nil, nil), status: 431},
		{name: "a path with an empty segment", raw: rawRequest("GET", "//api/shared-links", []string{"x-api-key", keyAlice}, nil), status: 404},
		{name: "a path with ..", raw: rawRequest("POST", "/api/shared-links/../asset/upload", []string{"x-api-key", keyAlice}, nil), status: 404},
		{name: "a filename with ../", raw: uploadWith(file("assetData", "../../etc/passwd.jpg", "x")), status: 400},
		{name: "a filename with a backslash path", raw: uploadWith(file("assetData", `..\\..\\boot.jpg`, "x")), status: 400},
		{name: "a filename with control characters", raw: uploadWith(file("assetData", "a\x07b\x1b[31m.jpg", "x")), status: 400},
		{name: "a filename of invalid UTF-8", raw: uploadWith(file("assetData", "caf\xe9.jpg", "x")), status: 400},
		{name: "a field of invalid UTF-8", raw: uploadWith(field("deviceId", "\xff\xfe"), file("assetData", "a.jpg", "utf8")), status: 400},
		{name: "a JSON body", raw: upload("application/json", []byte(`{"assetData":"aGVsbG8=","deviceId":"x"}`)), status: 400},
		{name: "a wrong Content-Type", raw: upload("text/plain", []byte("hello")), status: 400},
		{name: "multipart/mixed", raw: upload("multipart/mixed; boundary=XyZ", multipartBody("XyZ", file("assetData", "a.jpg", "x"))), status: 400},
		{name: "a file part with no name", raw: uploadWith([2]string{`Content-Disposition: form-data; filename="a.jpg"`, "x"}), status: 400},
		{name: "a part with no Content-Disposition", raw: uploadWith([2]string{"Content-Type: image/jpeg", "x"}), status: 400},
		{name: "an unreadable Content-Disposition", raw: uploadWith([2]string{`Content-Disposition: form-data; name="assetData"; filename="a.jpg`, "x"}), status: 400},
		{name: "a huge field value", raw: uploadWith(field("deviceId", strings.Repeat("d", 1<<20)), file("assetData", "a.jpg", "x")), status: 400},
		{name: "a huge boolean", raw: uploadWith(field("isFavorite", strings.Repeat("true", 10_000)), file("assetData", "a.jpg", "bool")), status: 400},
		{name: "a date in the year 99999", raw: uploadWith(field("fileCreatedAt", "99999-01-01T00:00:00Z"), file("assetData", "a.jpg", "y")), status: 400},
		{name: "February 30th", raw: uploadWith(field("fileModifiedAt", "2024-02-30"), file("assetData", "a.jpg", "y")), status: 400},
		{name: "assetData as a text field", raw: upload("multipart/form-data; boundary=XyZ", multipartBody("XyZ", append(goodFields(), field("assetData", "not a file"))...)), status: 400},
		{name: "a file under an unknown name", raw: uploadWith(file("../../assetData", "a.jpg", "x")), status: 400},
		{name: "an executable", raw: uploadWith(file("assetData", "photo.jpg.exe", "MZ")), status: 400},
		{name: "a chunked body with a broken chunk", raw: []byte("POST /api/asset/upload HTTP/1.1\r\nHost: mock\r\nx-api-key: " + keyAlice + "\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"), status: 400},
		{name: "an endless slow body", raw: bytes.TrimSuffix(upload("multipart/form-data; boundary=XyZ", nil), []byte("\r\n")), drip: true, status: 408},
		{name: "an unknown x-mock-status", raw: rawRequest("GET", "/api/shared-links", []string{"x-mock-status", "999"}, nil), status: 400},
		{name: "an absurd x-mock-delay", raw: rawRequest("GET", "/api/shared-links", []string{"x-mock-delay", "1000h"}, nil), status: 400},
		{name: "a control request of broken JSON", raw: rawRequest("POST", "/__mock/shared-links", []string{"x-api-key", keyAlice, "Content-Type", "application/json"}, []byte(`{"type": "ALBUM",`)), status: 400},
		{name: "a control request of 2 MiB", raw: rawRequest("POST", "/__mock/users", []string{"Content-Type", "application/json"}, append([]byte(`{"name":"`), bytes.Repeat([]byte("n"), 2<<20)...)), status: 413},
		{name: "a path that climbs", raw: rawRequest("GET", "/api/../../etc/passwd", nil, nil), status: 404},
	}
	require.GreaterOrEqual(t, len(tests), 30)
	require.Equal(t, http.StatusCreated, sendRaw(t, addr, good, false).status)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := sendRaw(t, addr, tt.raw, tt.drip)
			assert.Equal(t, tt.status, rep.status, "body: %.300s", rep.body)
			assert.Equal(t, "application/json", rep.header.Get("Content-Type"))
			if !strings.Contains(tt.name, "control") {
				assert.Equal(t, "*", rep.header.Get("Access-Control-Allow-Origin"), "CORS on every API answer, errors too")
			}
			var e map[string]any
			require.NoError(t, json.Unmarshal(rep.body, &e), "a JSON error body: %.300s", rep.body)
			assert.Len(t, e, 3)
			assert.EqualValues(t, rep.status, e["statusCode"])

			// And the server answers the next request.
			next := sendRaw(t, addr, uploadWith(file("assetData", "after.jpg", tt.name)), false)
			assert.Equal(t, http.StatusCreated, next.status, "body: %s", next.body)
		})
	}
	assert.Equal(t, http.StatusOK, sendRaw(t, addr, good, false).status, "the upload before the catalogue is still there")
}

// sendRaw writes raw on a new connection and reads the response. With drip
// it then writes one byte every 20 ms until the server answers.
func sendRaw(t *testing.T, addr string, raw []byte, drip bool) reply {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(20*time.Second)))
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		// A server may answer before reading it all; an error writing the
		// rest is expected then.
		if _, err := conn.Write(raw); err != nil || !drip {
			return
		}
		_, _ = io.WriteString(conn, "Content-Length: 100000000\r\n\r\n--XyZ\r\nContent-Disposition: form-data; name=\"assetData\"; filename=\"slow.jpg\"\r\n\r\n")
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				if _, err := conn.Write([]byte("x")); err != nil {
					return
				}
			}
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return reply{status: resp.StatusCode, header: resp.Header, body: body}
}

// TestUnreadBodiesDoNotHoldConnections: a request announcing a body it
// never sends, to a handler that answers without reading it (a wrong key,
// an unknown route, a GET), gets its answer at once; one read by its
// handler (a control request) is cut off after BodyTimeout; either way the
// connection is closed: it cannot hold the server.
func TestUnreadBodiesDoNotHoldConnections(t *testing.T) {
	srv := newHardenedServer(t, Config{Dataset: testDataset, Now: testNow, BodyTimeout: 300 * time.Millisecond})
	addr := srv.Listener.Addr().String()
	for name, head := range map[string]string{
		"a wrong key":       "POST /api/asset/upload HTTP/1.1\r\nHost: mock\r\nx-api-key: wrong\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 1000\r\n\r\n",
		"an unknown route":  "POST /api/nope HTTP/1.1\r\nHost: mock\r\nContent-Length: 1000\r\n\r\n",
		"a GET with a body": "GET /api/shared-links HTTP/1.1\r\nHost: mock\r\nx-api-key: " + keyAlice + "\r\nContent-Length: 1000\r\n\r\n",
		"a chunked body":    "POST /__mock/users HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"nam",
	} {
		t.Run(name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			defer conn.Close()
			require.NoError(t, conn.SetDeadline(time.Now().Add(5*time.Second)))
			_, err = io.WriteString(conn, head)
			require.NoError(t, err)
			br := bufio.NewReader(conn)
			resp, err := http.ReadResponse(br, nil)
			require.NoError(t, err, "an answer before the body comes")
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			_, err = br.ReadByte()
			assert.ErrorIs(t, err, io.EOF, "the connection is closed after the answer")
		})
	}
}

// An upload whose client stops sending is answered 408 once nothing has
// arrived for the body timeout, and never sooner: the deadline is pushed
// on now and then, with a slack that only ever adds to the wait.
func TestStalledUploadIsCutOffAfterTheTimeout(t *testing.T) {
	const timeout = 300 * time.Millisecond
	srv := newHardenedServer(t, Config{Dataset: testDataset, Now: testNow, BodyTimeout: timeout})
	raw := uploadWith(file("assetData", "stalled.jpg", strings.Repeat("x", 64<<10)))
	conn, err := net.DialTimeout("tcp", srv.Listener.Addr().String(), 5*time.Second)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(20*time.Second)))
	_, err = conn.Write(raw[:len(raw)-100]) // the rest never comes
	require.NoError(t, err)
	sent := time.Now()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	waited := time.Since(sent)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode, "%s", body)
	assert.Contains(t, string(body), "nothing arrived for 300ms")
	assert.GreaterOrEqual(t, waited, timeout, "cut off before the timeout")
}
