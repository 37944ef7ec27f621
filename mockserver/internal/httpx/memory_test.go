package httpx

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWorthTrimming(t *testing.T) {
	assert.True(t, worthTrimming(100<<20, 0), "the first round, after start-up")
	assert.False(t, worthTrimming(120<<20, 100<<20), "little more than after the last trim")
	assert.True(t, worthTrimming(500<<20, 100<<20), "after a crowd of stalled clients")
	assert.Positive(t, heapHeld())
}
