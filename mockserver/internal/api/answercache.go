package api

import (
	"context"
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
)

// maxEncoded and maxEncodedBytes bound how many encoded answers the mock
// keeps, and their bytes in all: room for the largest listing the store
// allows, which its readers then share.
const (
	maxEncoded      = 256
	maxEncodedBytes = 256 << 20
)

// answerCache keeps answers encoded (a user's listing, an album as one
// viewer sees it), each with the stamp of the kinds of record it shows:
// frontends poll them, and one stays true until a write changes what it
// shows.
type answerCache struct {
	db *store.Store

	mu      sync.Mutex
	answers map[string]encodedAnswer
	making  map[string]*making // the answers being made, by key
	makers  chan struct{}      // a place for each answer being made
	// bytes is the size of the answers kept, at most budget.
	bytes, budget int
}

// encodedAnswer is an answer as JSON, with its ETag, at a stamp of the
// store: its bytes in one piece or, for a list encoded an element at a
// time, in the pieces they were written in.
type encodedAnswer struct {
	stamp uint64
	parts [][]byte
	size  int
	etag  string
}

// one is an answer of one piece.
func one(stamp uint64, body []byte) encodedAnswer {
	return encodedAnswer{stamp: stamp, parts: [][]byte{body}, size: len(body), etag: httpx.ETagOf(body)}
}

// answerMakers is how many answers are made at once: as many as Go has
// cores, from 2 to 8.
func answerMakers() int { return min(max(runtime.GOMAXPROCS(0), 2), 8) }

func newAnswerCache(db *store.Store) *answerCache {
	return &answerCache{db: db, answers: map[string]encodedAnswer{}, making: map[string]*making{}, makers: make(chan struct{}, answerMakers()), budget: maxEncodedBytes}
}

// encoded is the answer build makes, encoded, from memory when nothing it
// shows (shows) has changed since it was encoded. build runs under the
// store's read lock and returns views of the records, which are encoded
// after it is released; records never change once stored, so the views
// stay true.
func (c *answerCache) encoded(ctx context.Context, key string, shows store.Change, build func(v *store.View) (any, error)) (encodedAnswer, error) {
	return c.answer(ctx, key, shows, func() (encodedAnswer, error) {
		var stamp uint64
		var v any
		var err error
		c.db.Read(func(view *store.View) {
			stamp = view.Stamp(shows)
			v, err = build(view)
		})
		if err != nil {
			return encodedAnswer{}, err
		}
		body, err := json.Marshal(v)
		if err != nil {
			return encodedAnswer{}, fmt.Errorf("encoding an answer: %w", err)
		}
		return one(stamp, body), nil
	})
}

// answer is the answer build makes for key, from memory when nothing it
// shows has changed since. An answer is made once however many ask for it
// at once: those who come while it is being made wait for it, and take it
// if it is at least as new as the state they came to (else one of them
// makes it anew), so that a crowd asking for a listing just changed holds
// one copy of it, not one each. At most cap(c.makers) answers are made at
// once, whatever their keys: making one is work for a core, and its
// memory grows with the data.
func (c *answerCache) answer(ctx context.Context, key string, shows store.Change, build func() (encodedAnswer, error)) (encodedAnswer, error) {
	for {
		want := c.db.Stamp(shows)
		c.mu.Lock()
		cached, ok := c.answers[key]
		if ok && cached.stamp == want {
			c.mu.Unlock()
			return cached, nil
		}
		if f := c.making[key]; f != nil {
			c.mu.Unlock()
			select {
			case <-f.done:
			case <-ctx.Done():
				return encodedAnswer{}, ctx.Err()
			}
			if f.err == nil && f.a.stamp >= want {
				return f.a, nil
			}
			continue // made from an older state than this caller came to, or failed: make it anew
		}
		f := &making{done: make(chan struct{})}
		c.making[key] = f
		c.mu.Unlock()
		f.a, f.err = c.makeOne(ctx, build)
		c.mu.Lock()
		delete(c.making, key)
		if f.err == nil {
			c.putLocked(key, f.a)
		}
		c.mu.Unlock()
		close(f.done)
		return f.a, f.err
	}
}

// making is an answer being made, which others may wait for.
type making struct {
	done chan struct{} // closed once a and err are set
	a    encodedAnswer
	err  error
}

// makeOne makes an answer with build, in one of the makers' places, waiting for one
// while ctx lasts.
func (c *answerCache) makeOne(ctx context.Context, build func() (encodedAnswer, error)) (encodedAnswer, error) {
	select {
	case c.makers <- struct{}{}:
	case <-ctx.Done():
		return encodedAnswer{}, ctx.Err()
	}
	defer func() { <-c.makers }()
	return build()
}

// listPiece is the size of the pieces a list is encoded into.
const listPiece = 256 << 10

// encodedList is encoded for an answer that is a JSON array whose elements
// each makes and hands to emit, in order: each is encoded as it comes,
// under the store's read lock, so that the views of all the elements are
// never held at once, only their bytes; and the bytes are kept in the
// pieces they were written in, never copied into one.
func (c *answerCache) encodedList(ctx context.Context, key string, shows store.Change, each func(v *store.View, emit func(any) error) error) (encodedAnswer, error) {
	return c.answer(ctx, key, shows, func() (encodedAnswer, error) { return c.makeList(shows, each) })
}

// makeList makes the answer of encodedList.
func (c *answerCache) makeList(shows store.Change, each func(v *store.View, emit func(any) error) error) (encodedAnswer, error) {
	var (
		stamp uint64
		err   error
		w     pieceWriter
	)
	c.db.Read(func(view *store.View) {
		stamp = view.Stamp(shows)
		w.write([]byte{'['})
		first := true
		err = each(view, func(e any) error {
			b, err := json.Marshal(e)
			if err != nil {
				return fmt.Errorf("encoding an answer: %w", err)
			}
			if !first {
				w.write([]byte{','})
			}
			first = false
			w.write(b)
			return nil
		})
		w.write([]byte{']'})
	})
	if err != nil {
		return encodedAnswer{}, err
	}
	h := sha1.New()
	for _, p := range w.parts {
		h.Write(p)
	}
	return encodedAnswer{stamp: stamp, parts: w.parts, size: w.size, etag: httpx.ETagOfSum(w.size, h.Sum(nil))}, nil
}

// pieceWriter gathers bytes in pieces of listPiece (or one larger write).
type pieceWriter struct {
	parts [][]byte
	size  int
}

func (w *pieceWriter) write(b []byte) {
	w.size += len(b)
	if n := len(w.parts); n > 0 {
		last := w.parts[n-1]
		if len(last)+len(b) <= cap(last) {
			w.parts[n-1] = append(last, b...)
			return
		}
	}
	w.parts = append(w.parts, append(make([]byte, 0, max(listPiece, len(b))), b...))
}

// putLocked keeps an answer, within the bounds: past them, every answer
// kept is dropped, and one over the whole budget is not kept. c.mu is
// held.
func (c *answerCache) putLocked(key string, a encodedAnswer) {
	if a.size > c.budget {
		return
	}
	if len(c.answers) >= maxEncoded || c.bytes+a.size > c.budget {
		clear(c.answers)
		c.bytes = 0
	}
	c.bytes += a.size - c.answers[key].size
	c.answers[key] = a
}
