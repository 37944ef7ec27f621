package httpx

import (
	"io"
	"net/http/httptest"
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
	g := NewGuardedBody(w, body, timeout)
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
