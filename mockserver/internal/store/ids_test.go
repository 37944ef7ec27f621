package store

import (
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// A new id is a version 4 UUID, written as the reference writes them.
func TestNewUUID(t *testing.T) {
	v4 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := NewUUID()
		assert.Regexp(t, v4, id)
		assert.False(t, seen[id], "%s twice", id)
		seen[id] = true
	}
}

// The first time out of range, in the order given, is named.
func TestInRange(t *testing.T) {
	ok := model.At(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	far := model.At(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))
	assert.NoError(t, inRange(timeField{"createdAt", &ok}, timeField{"expiresAt", nil}, timeField{"updatedAt", &model.Time{}}))
	err := inRange(timeField{"createdAt", &ok}, timeField{"fileCreatedAt", &far}, timeField{"updatedAt", &far})
	assert.EqualError(t, err, "fileCreatedAt 10000-01-01T00:00:00Z is not in the years 0001 to 9999")
}
