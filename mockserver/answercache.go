package mockserver

import (
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"sync"

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

	mu      sync.RWMutex
	answers map[string]encodedAnswer
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
	return encodedAnswer{stamp: stamp, parts: [][]byte{body}, size: len(body), etag: etagOf(body)}
}

func newAnswerCache(db *store.Store) *answerCache {
	return &answerCache{db: db, answers: map[string]encodedAnswer{}, budget: maxEncodedBytes}
}

// encoded is the answer build makes, encoded, from memory when nothing it
// shows (shows) has changed since it was encoded. build runs under the
// store's read lock and returns views of the records, which are encoded
// after it is released; records never change once stored, so the views
// stay true.
func (c *answerCache) encoded(key string, shows store.Change, build func(v *store.View) (any, error)) (encodedAnswer, error) {
	c.mu.RLock()
	cached, ok := c.answers[key]
	c.mu.RUnlock()
	if ok && cached.stamp == c.db.Stamp(shows) {
		return cached, nil
	}
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
	a := one(stamp, body)
	c.put(key, a)
	return a, nil
}

// listPiece is the size of the pieces a list is encoded into.
const listPiece = 256 << 10

// encodedList is encoded for an answer that is a JSON array whose elements
// each makes and hands to emit, in order: each is encoded as it comes,
// under the store's read lock, so that the views of all the elements are
// never held at once, only their bytes; and the bytes are kept in the
// pieces they were written in, never copied into one.
func (c *answerCache) encodedList(key string, shows store.Change, each func(v *store.View, emit func(any) error) error) (encodedAnswer, error) {
	c.mu.RLock()
	cached, ok := c.answers[key]
	c.mu.RUnlock()
	if ok && cached.stamp == c.db.Stamp(shows) {
		return cached, nil
	}
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
	a := encodedAnswer{stamp: stamp, parts: w.parts, size: w.size, etag: etagOfSum(w.size, h.Sum(nil))}
	c.put(key, a)
	return a, nil
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

// put keeps an answer, within the bounds: past them, every answer kept is
// dropped, and one over the whole budget is not kept.
func (c *answerCache) put(key string, a encodedAnswer) {
	if a.size > c.budget {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.answers) >= maxEncoded || c.bytes+a.size > c.budget {
		clear(c.answers)
		c.bytes = 0
	}
	c.bytes += a.size - c.answers[key].size
	c.answers[key] = a
}
