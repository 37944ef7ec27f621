package api

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawExchange writes raw to a new connection to srv and reads the answer.
func rawExchange(t *testing.T, srv *httptest.Server, raw []byte) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(10*time.Second)))
	_, err = conn.Write(raw)
	require.NoError(t, err)
	rep, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer rep.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(rep.Body)
	return rep, b.String()
}

// chunked is a request with a chunked body of the given chunks, ended.
func chunked(method, target string, headers []string, chunks ...[]byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n", method, target)
	for i := 0; i+1 < len(headers); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", headers[i], headers[i+1])
	}
	b.WriteString("\r\n")
	for _, c := range chunks {
		fmt.Fprintf(&b, "%x\r\n%s\r\n", len(c), c)
	}
	b.WriteString("0\r\n\r\n")
	return b.Bytes()
}

// emptyObjects is n empty objects in a JSON array's elements.
func emptyObjects(n int) string { return strings.TrimSuffix(strings.Repeat(`{},`, n), ",") }

// TestJSONBodiesAreBoundedForTheirOperation: a body is refused past its
// operation's bound, before it is read where its length says so, and past
// the values a body may make; what no member of the operation declares is
// stepped over, whatever it holds. Nothing of the memory set aside stays
// taken afterwards.
func TestJSONBodiesAreBoundedForTheirOperation(t *testing.T) {
	srv, s := newBudgetServer(t)
	jsonType := []string{"Content-Type", "application/json"}
	for _, tt := range []struct {
		name    string
		raw     []byte
		status  int
		message string
	}{
		{
			name: "a login that says it is 8 MiB, answered before it is sent",
			raw:  []byte("POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 8388608\r\n\r\n"),
			// Nothing of the body follows: the answer must not wait for it.
			status: 413, message: "The request body is larger than the limit of 65536 bytes",
		},
		{
			name:   "a chunked login past its bound",
			raw:    chunked("POST", "/api/auth/login", jsonType, []byte(`{"email":"`), bytes.Repeat([]byte("a"), 100<<10), []byte(`"}`)),
			status: 413, message: "The request body is larger than the limit of 65536 bytes",
		},
		{
			name:   "a login of many values under its bound",
			raw:    rawRequest("POST", "/api/auth/login", jsonType, []byte(`{"email":[`+emptyObjects(20_000)+`],"password":"x"}`)),
			status: 400, message: "email must be an email",
		},
		{
			name:   "a list past the values a body may make",
			raw:    rawRequest("POST", "/api/asset/bulk-upload-check", []string{"Content-Type", "application/json", "x-api-key", keyAlice}, []byte(`{"assets":[`+emptyObjects(300_000)+`]}`)),
			status: 413, message: "The request body holds more than 250000 values",
		},
		{
			name: "megabytes under a name no member declares, stepped over",
			raw: rawRequest("POST", "/api/asset/bulk-upload-check", []string{"Content-Type", "application/json", "x-api-key", keyAlice},
				[]byte(`{"junk":[`+emptyObjects(2_000_000)+`],"assets":[{"id":"a","checksum":"`+sha1Base64([]byte(aliceAssetBody))+`"}]}`)),
			status: 200, message: "",
		},
		{
			name:   "a control request of many values",
			raw:    rawRequest("POST", "/__mock/users", jsonType, []byte(`{"name":[`+emptyObjects(300_000)+`]}`)),
			status: 413, message: "The request body holds more than 250000 values",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep, body := rawExchange(t, srv, tt.raw)
			require.Equal(t, tt.status, rep.StatusCode, body)
			if tt.message != "" {
				assert.Contains(t, body, tt.message)
			}
		})
	}
	waitForBudget(t, s, func(free int64) bool { return free == DefaultRequestMemory }, "every body's memory given back")
}

// TestJSONBodiesShareABoundedMemory: bodies that arrive and never end hold
// at most the memory set aside for JSON bodies; one more finds no room and
// is answered 503 with Retry-After, unread; once they are gone, their
// memory is free again and a body is read as ever.
func TestJSONBodiesShareABoundedMemory(t *testing.T) {
	srv, s := newBudgetServer(t)
	head := "POST /api/asset/bulk-upload-check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-api-key: " + keyAlice + "\r\nTransfer-Encoding: chunked\r\n\r\n"
	// Each body has sent more than half its bound, and holds room for all
	// of it: DefaultRequestMemory / listBody of them hold every byte set aside.
	part := append([]byte(`{"junk":"`), bytes.Repeat([]byte("x"), 6<<20)...)
	var held []net.Conn
	t.Cleanup(func() {
		for _, c := range held {
			c.Close()
		}
	})
	for range DefaultRequestMemory / listBody {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		require.NoError(t, err)
		held = append(held, conn)
		_, err = fmt.Fprintf(conn, "%s%x\r\n%s\r\n", head, len(part), part)
		require.NoError(t, err)
	}
	waitForBudget(t, s, func(free int64) bool { return free < smallBody }, "the unended bodies to take the memory")

	rep, body := rawExchange(t, srv, rawRequest("POST", "/api/auth/login", []string{"Content-Type", "application/json"}, []byte(`{"email":"x@y.z","password":"x"}`)))
	require.Equal(t, http.StatusServiceUnavailable, rep.StatusCode, body)
	assert.Equal(t, "1", rep.Header.Get("Retry-After"))
	assert.Contains(t, body, "try again in a moment")

	for _, c := range held {
		c.Close()
	}
	held = nil
	waitForBudget(t, s, func(free int64) bool { return free == DefaultRequestMemory }, "the memory of bodies that went to be free again")
	rep, body = rawExchange(t, srv, rawRequest("POST", "/api/auth/login", []string{"Content-Type", "application/json"}, []byte(`{"email":"x@y.z","password":"x"}`)))
	assert.Equal(t, http.StatusUnauthorized, rep.StatusCode, body)
}
