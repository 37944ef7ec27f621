package mockserver

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPictureCacheStaysWithinItsBound: however many pictures pass through
// it, the cache holds at most its bound in bytes, drops the least recently
// used first, and keeps nothing larger than the bound.
func TestPictureCacheStaysWithinItsBound(t *testing.T) {
	c := newPictureCache(10_000)
	for i := range 100 {
		c.put(fmt.Sprint(i), make([]byte, 1000+i*37))
		assert.LessOrEqual(t, c.bytes(), int64(10_000), "after %d pictures", i+1)
	}
	_, ok := c.get("99")
	assert.True(t, ok, "the newest is kept")
	_, ok = c.get("0")
	assert.False(t, ok, "the oldest is gone")

	c = newPictureCache(3000)
	c.put("a", make([]byte, 1000))
	c.put("b", make([]byte, 1000))
	c.get("a") // a is now the most recently used
	c.put("c", make([]byte, 1500))
	_, okA := c.get("a")
	_, okB := c.get("b")
	assert.True(t, okA, "a was used last")
	assert.False(t, okB, "b was the least recently used")
	c.put("a", make([]byte, 500)) // replaced, not counted twice
	assert.Equal(t, int64(2000), c.bytes())

	c.put("huge", make([]byte, 3001))
	_, ok = c.get("huge")
	assert.False(t, ok, "larger than the bound: not kept")
	assert.Equal(t, int64(2000), c.bytes())
}

// bytes is what the cache holds.
func (c *pictureCache) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}
