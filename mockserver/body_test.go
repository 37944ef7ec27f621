package mockserver

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readDeadlines records the read deadlines set on a connection, and when.
type readDeadlines struct {
	*httptest.ResponseRecorder
	set, at []time.Time
}

func (d *readDeadlines) SetReadDeadline(t time.Time) error {
	d.set, d.at = append(d.set, t), append(d.at, time.Now())
	return nil
}

// A body that arrives fast pushes its read deadline on now and then, not
// at every read; and each deadline leaves the client at least the whole
// timeout to send more.
func TestBodyDeadlineIsPushedOnNowAndThen(t *testing.T) {
	const timeout = 10 * time.Second
	w := &readDeadlines{ResponseRecorder: httptest.NewRecorder()}
	body := iotest.OneByteReader(io.LimitReader(neverEnding('x'), 100_000))
	g := newGuardedBody(w, body, timeout)
	n, err := io.Copy(io.Discard, struct{ io.Reader }{g})
	require.NoError(t, err)
	assert.EqualValues(t, 100_000, n)
	require.NotEmpty(t, w.set, "the first read sets a deadline")
	assert.Less(t, len(w.set), 100, "100,000 reads set %d deadlines", len(w.set))
	for i := range w.set {
		assert.GreaterOrEqual(t, w.set[i].Sub(w.at[i]), timeout)
	}
}

type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
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
