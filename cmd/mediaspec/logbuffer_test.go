package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lockedBuffer is a bytes.Buffer safe for the timer's writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A line reaches the log within the flush delay, unasked; Close writes
// what waits at once, and what comes after it goes straight through.
func TestLogBufferWritesWithinItsDelay(t *testing.T) {
	var out lockedBuffer
	b := newLogBuffer(&out)
	_, _ = b.Write([]byte("one\n"))
	require.Eventually(t, func() bool { return out.String() == "one\n" }, 5*time.Second, time.Millisecond)

	_, _ = b.Write([]byte("two\n"))
	require.NoError(t, b.Close())
	assert.Equal(t, "one\ntwo\n", out.String(), "Close writes what waits")
	_, _ = b.Write([]byte("three\n"))
	assert.Equal(t, "one\ntwo\nthree\n", out.String(), "after Close, at once")
}

// Lines past the buffer's size are written without waiting for the timer,
// whole and in order, whoever writes them.
func TestLogBufferWritesFullBatchesInOrder(t *testing.T) {
	var out lockedBuffer
	b := newLogBuffer(&out)
	line := strings.Repeat("x", 99) + "\n"
	for range logBufferSize/len(line) + 1 {
		_, _ = b.Write([]byte(line))
	}
	assert.GreaterOrEqual(t, len(out.String()), logBufferSize, "a full buffer is written at once")

	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for range 1000 {
				_, _ = b.Write([]byte(strings.Repeat(string(rune('a'+w)), 10) + "\n"))
			}
		})
	}
	wg.Wait()
	require.NoError(t, b.Close())
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	assert.Len(t, lines, logBufferSize/len(line)+1+8000)
	for _, l := range lines {
		assert.True(t, l == line[:99] || (len(l) == 10 && strings.Count(l, l[:1]) == 10), "a line whole: %q", l)
	}
}
