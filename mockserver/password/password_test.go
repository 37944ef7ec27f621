package password

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHashAndCheck(t *testing.T) {
	h := Hash("mediaspec-dev-password")
	assert.True(t, strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$"), h)
	assert.NotContains(t, h, "mediaspec-dev-password")

	ok, err := Check(h, "mediaspec-dev-password")
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = Check(h, "mediaspec-dev-passwor")
	require.NoError(t, err)
	assert.False(t, ok)

	assert.NotEqual(t, h, Hash("mediaspec-dev-password"), "a new salt each time")
	salt := []byte("0123456789abcdef")
	assert.Equal(t, HashWithSalt("x", salt), HashWithSalt("x", salt), "the same salt, the same hash")
}

// TestHashesRunOnePerCPU: many logins at once hash at most one per CPU at
// a time, each holding its 19 MiB only while it runs.
func TestHashesRunOnePerCPU(t *testing.T) {
	var (
		mu            sync.Mutex
		running, most int
		entered       = make(chan struct{}, 64)
		release       = make(chan struct{})
	)
	real := derive
	t.Cleanup(func() { derive = real })
	derive = func(pw, salt []byte, passes, memory uint32, lanes uint8, n uint32) []byte {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		entered <- struct{}{}
		<-release
		mu.Lock()
		running--
		mu.Unlock()
		return make([]byte, n)
	}
	const logins = 12
	var wg sync.WaitGroup
	for range logins {
		wg.Go(func() { _ = HashWithSalt("pw", []byte("0123456789abcdef")) })
	}
	// As many as there are slots get in; no other does while they run.
	for range cap(slots) {
		<-entered
	}
	select {
	case <-entered:
		t.Errorf("a hash started while %d were running", cap(slots))
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	wg.Wait()
	assert.LessOrEqual(t, most, cap(slots))
	assert.Positive(t, most)
}

func TestMalformedHashes(t *testing.T) {
	good := HashWithSalt("x", []byte("0123456789abcdef"))
	parts := strings.Split(good, "$")
	for name, h := range map[string]string{
		"empty":          "",
		"plain text":     "hunter2",
		"bcrypt":         "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
		"argon2i":        strings.Replace(good, "argon2id", "argon2i", 1),
		"old version":    strings.Replace(good, "v=19", "v=16", 1),
		"4 GiB of RAM":   strings.Replace(good, "m=19456", "m=4194304", 1),
		"a million runs": strings.Replace(good, "t=2", "t=1000000", 1),
		"no lanes":       strings.Replace(good, "p=1", "p=0", 1),
		"bad salt":       strings.Replace(good, parts[4], "!!!", 1),
		"short key":      strings.Replace(good, parts[5], "AAAA", 1),
	} {
		t.Run(name, func(t *testing.T) {
			assert.ErrorIs(t, Valid(h), ErrMalformed)
			_, err := Check(h, "x")
			assert.ErrorIs(t, err, ErrMalformed)
		})
	}
	assert.NoError(t, Valid(good))
}

func BenchmarkCheck(b *testing.B) {
	h := Hash("mediaspec-dev-password")
	for b.Loop() {
		if ok, _ := Check(h, "mediaspec-dev-password"); !ok {
			b.Fatal("no match")
		}
	}
}
