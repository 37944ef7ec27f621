package httpx

import (
	"bufio"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConnectionsOverTheLimitAreRefusedFast: with every allowed connection
// held open by clients that send nothing, one more is answered 503 (JSON)
// at once instead of waiting; once a held one closes, its place serves again.
func TestConnectionsOverTheLimitAreRefusedFast(t *testing.T) {
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}) // 200
	srv := httptest.NewUnstartedServer(h)
	srv.Config = HTTPServer(h, slog.New(slog.DiscardHandler))
	srv.Listener = Listener(srv.Listener, 3)
	srv.Start()
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()

	var held []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		held = append(held, c)
	}
	// The listener counts a connection once it has accepted it.
	require.Eventually(t, func() bool { return srv.Listener.(*jsonErrorListener).open.Load() == 3 }, 5*time.Second, 10*time.Millisecond)

	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(5*time.Second)))
	_, err = io.WriteString(c, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err, "the connection over the limit gets an answer, not a wait")
	body, _ := io.ReadAll(resp.Body)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	assert.JSONEq(t, `{"message":"Too many connections: the mock serves at most 3 at once","error":"Service Unavailable","statusCode":503}`, string(body))

	held[0].Close()
	require.Eventually(t, func() bool {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/", nil)
		req.Close = true
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, 5*time.Second, 20*time.Millisecond, "a freed place serves again")
}

func TestDefaultMaxConnections(t *testing.T) {
	n := DefaultMaxConnections()
	assert.GreaterOrEqual(t, n, 64)
	if fl, ok := FileLimit(); ok {
		assert.Less(t, int64(n), fl, "a reserve of file descriptors is kept")
	}
}
