package media

import (
	"container/list"
	"sync"
)

// DefaultPictureCache is the default bound of the picture cache, in bytes.
const DefaultPictureCache = 64 << 20

// PictureCache keeps encoded pictures, the least recently used dropped
// first, within a bound in bytes. A picture larger than the whole bound is
// made for its request and not kept.
type PictureCache struct {
	mu    sync.Mutex
	max   int64
	size  int64
	order *list.List // of *cached, the most recently used first
	byKey map[string]*list.Element
}

type cached struct {
	key  string
	body []byte
}

// NewPictureCache is an empty cache bound to max bytes.
func NewPictureCache(max int64) *PictureCache {
	return &PictureCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

// Get is the picture kept under key, now the most recently used.
func (c *PictureCache) Get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached).body, true
}

// Put keeps body under key, in place of any picture kept there, dropping
// the least recently used until it fits; a body larger than the bound is
// not kept.
func (c *PictureCache) Put(key string, body []byte) {
	n := int64(len(body))
	if n > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.size -= int64(len(e.Value.(*cached).body))
		c.order.Remove(e)
		delete(c.byKey, key)
	}
	for c.size+n > c.max {
		last := c.order.Back()
		old := last.Value.(*cached)
		c.order.Remove(last)
		delete(c.byKey, old.key)
		c.size -= int64(len(old.body))
	}
	c.byKey[key] = c.order.PushFront(&cached{key: key, body: body})
	c.size += n
}

// Bytes is what the cache holds, in bytes.
func (c *PictureCache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}
