package mockserver

import (
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
// store.
type encodedAnswer struct {
	stamp uint64
	body  []byte
	etag  string
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
	a := encodedAnswer{stamp: stamp, body: body, etag: etagOf(body)}
	c.put(key, a)
	return a, nil
}

// put keeps an answer, within the bounds: past them, every answer kept is
// dropped, and one over the whole budget is not kept.
func (c *answerCache) put(key string, a encodedAnswer) {
	if len(a.body) > c.budget {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.answers) >= maxEncoded || c.bytes+len(a.body) > c.budget {
		clear(c.answers)
		c.bytes = 0
	}
	c.bytes += len(a.body) - len(c.answers[key].body)
	c.answers[key] = a
}
