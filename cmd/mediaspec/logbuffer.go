package main

import (
	"io"
	"sync"
	"time"
)

// The request log's lines are written in batches: a write to the log's
// file or terminal for every line cost a tenth of the CPU of a cached
// listing (slog holds its lock around that write, too). A line waits at
// most logFlushDelay, or less once logBufferSize bytes wait; Close writes
// what is left.
const (
	logFlushDelay = 50 * time.Millisecond
	logBufferSize = 32 << 10
)

// logBuffer gathers what is written to it and writes it on to w within
// logFlushDelay.
type logBuffer struct {
	mu     sync.Mutex
	w      io.Writer
	buf    []byte
	timer  *time.Timer
	armed  bool // the timer will write what waits
	closed bool // lines go straight to w
}

func newLogBuffer(w io.Writer) *logBuffer {
	b := &logBuffer{w: w}
	b.timer = time.AfterFunc(time.Hour, b.flush)
	b.timer.Stop()
	return b
}

// Write keeps p to be written within logFlushDelay. It never fails: what
// w says of a write is what a log line's writer is told by slog too,
// nothing.
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		_, _ = b.w.Write(p)
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	switch {
	case len(b.buf) >= logBufferSize:
		b.writeLocked()
	case !b.armed:
		b.armed = true
		b.timer.Reset(logFlushDelay)
	}
	return len(p), nil
}

func (b *logBuffer) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writeLocked()
}

func (b *logBuffer) writeLocked() {
	if len(b.buf) > 0 {
		_, _ = b.w.Write(b.buf)
	}
	b.buf = b.buf[:0]
	if cap(b.buf) > 2*logBufferSize { // one very long line: not kept
		b.buf = nil
	}
	b.armed = false
	b.timer.Stop()
}

// Close writes what waits; later lines are written at once.
func (b *logBuffer) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writeLocked()
	b.closed = true
	return nil
}
