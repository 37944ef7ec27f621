package mockserver

import (
	"container/list"
	"sync"
)

// DefaultThumbnailCache is the default bound of the picture cache, in bytes.
const DefaultThumbnailCache = 64 << 20

// pictureCache keeps encoded pictures, the least recently used dropped
// first, within a bound in bytes. A picture larger than the whole bound is
// made for its request and not kept.
type pictureCache struct {
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

func newPictureCache(max int64) *pictureCache {
	return &pictureCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

func (c *pictureCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached).body, true
}

func (c *pictureCache) put(key string, body []byte) {
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
