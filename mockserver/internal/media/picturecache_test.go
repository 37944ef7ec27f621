package media

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPictureCacheStaysWithinItsBound: however many pictures pass through
// it, the cache holds at most its bound in bytes, drops the least recently
// used first, and keeps nothing larger than the bound.
func TestPictureCacheStaysWithinItsBound(t *testing.T) {
	c := NewPictureCache(10_000)
	for i := range 100 {
		c.Put(fmt.Sprint(i), make([]byte, 1000+i*37))
		assert.LessOrEqual(t, c.Bytes(), int64(10_000), "after %d pictures", i+1)
	}
	_, ok := c.Get("99")
	assert.True(t, ok, "the newest is kept")
	_, ok = c.Get("0")
	assert.False(t, ok, "the oldest is gone")

	c = NewPictureCache(3000)
	c.Put("a", make([]byte, 1000))
	c.Put("b", make([]byte, 1000))
	c.Get("a") // a is now the most recently used
	c.Put("c", make([]byte, 1500))
	_, okA := c.Get("a")
	_, okB := c.Get("b")
	assert.True(t, okA, "a was used last")
	assert.False(t, okB, "b was the least recently used")
	c.Put("a", make([]byte, 500)) // replaced, not counted twice
	assert.Equal(t, int64(2000), c.Bytes())

	c.Put("huge", make([]byte, 3001))
	_, ok = c.Get("huge")
	assert.False(t, ok, "larger than the bound: not kept")
	assert.Equal(t, int64(2000), c.Bytes())
}
