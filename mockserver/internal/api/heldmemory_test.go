package api

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newBudgetServer starts a mock on testDataset, changed by opts, and hands
// back its server, whose memory set aside for requests the tests watch.
func newBudgetServer(t *testing.T, opts ...func(*Config)) (*httptest.Server, *server) {
	t.Helper()
	cfg := Config{Dataset: testDataset, Now: testNow}
	for _, o := range opts {
		o(&cfg)
	}
	h, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, h.s
}

// waitForBudget waits, within 10 s, until the free memory of s's budget for
// what requests hold satisfies ok.
func waitForBudget(t *testing.T, s *server, ok func(free int64) bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		free := s.held.Free()
		if ok(free) {
			return
		}
		require.True(t, time.Now().Before(deadline), "waited 10 s for %s: %d bytes free", what, free)
		time.Sleep(5 * time.Millisecond)
	}
}

// stalledUpload starts an upload whose file is a JPEG with EXIF, of which
// it sends size bytes and then nothing more; closing the connection ends it.
func stalledUpload(t *testing.T, srv *httptest.Server, size int) net.Conn {
	t.Helper()
	var b bytes.Buffer
	for _, f := range goodFields() {
		fmt.Fprintf(&b, "--XyZ\r\n%s\r\n\r\n%s\r\n", f[0], f[1])
	}
	b.WriteString("--XyZ\r\nContent-Disposition: form-data; name=\"assetData\"; filename=\"x.jpg\"\r\n\r\n")
	b.Write([]byte{0xff, 0xd8, 0xff, 0xe1})
	b.Write(bytes.Repeat([]byte{'a'}, size))
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	_, err = fmt.Fprintf(conn, "POST /api/asset/upload HTTP/1.1\r\nHost: x\r\nx-api-key: %s\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: %d\r\n\r\n%s", keyAlice, b.Len()+1<<20, b.Bytes())
	require.NoError(t, err)
	return conn
}

// TestUploadsKeepTheirPartsWithinTheRoomSetAside: what an upload keeps of
// its parts (the head of its file, for EXIF) is set aside before it is
// kept: uploads that stall with their heads kept hold the room, one more
// that needs a head finds none and is answered 503 with Retry-After, and
// once they are gone an upload is kept as ever. Text fields no upload
// reads are bounded but not kept: ninety of 60 KiB need no room.
func TestUploadsKeepTheirPartsWithinTheRoomSetAside(t *testing.T) {
	const room = 600 << 10
	srv, s := newBudgetServer(t, func(c *Config) { c.RequestMemory = room })
	first, second := stalledUpload(t, srv, 300<<10), stalledUpload(t, srv, 300<<10)
	waitForBudget(t, s, func(free int64) bool { return free < room-2*(256<<10) }, "two stalled uploads to keep their heads")

	third := stalledUpload(t, srv, 300<<10)
	require.NoError(t, third.SetReadDeadline(time.Now().Add(10*time.Second)))
	rep, err := http.ReadResponse(bufio.NewReader(third), nil)
	require.NoError(t, err)
	body := readAll(t, rep)
	assert.Equal(t, http.StatusServiceUnavailable, rep.StatusCode, body)
	assert.Equal(t, "1", rep.Header.Get("Retry-After"))
	assert.Contains(t, body, "try again in a moment")

	first.Close()
	second.Close()
	third.Close()
	waitForBudget(t, s, func(free int64) bool { return free == room }, "the room of the uploads that went to be free again")

	f := validForm("\xff\xd8\xff\xe1" + strings.Repeat("b", 300<<10))
	for i := range 90 {
		f = f.withField(fmt.Sprintf("note%d", i), strings.Repeat("n", 60<<10))
	}
	resp, err := http.DefaultClient.Do(uploadRequest(t, srv, f, keyAlice))
	require.NoError(t, err)
	body = readAll(t, resp)
	assert.Equal(t, http.StatusCreated, resp.StatusCode, body)
	waitForBudget(t, s, func(free int64) bool { return free == room }, "the upload's room given back")
}

// readAll is the rest of an answer's body, which it closes.
func readAll(t *testing.T, rep *http.Response) string {
	t.Helper()
	defer rep.Body.Close()
	b, err := io.ReadAll(rep.Body)
	require.NoError(t, err)
	return string(b)
}
