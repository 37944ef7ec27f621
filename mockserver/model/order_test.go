package model

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestAssetOrder: assets are ordered by when their file was made, and
// those made at the same moment by their ids, whichever order they were
// found in.
func TestAssetOrder(t *testing.T) {
	day := time.Date(2024, 5, 30, 10, 0, 0, 0, time.UTC)
	a := &AssetRecord{ID: "a", FileCreatedAt: At(day)}
	b := &AssetRecord{ID: "b", FileCreatedAt: At(day)}
	c := &AssetRecord{ID: "c", FileCreatedAt: At(day.Add(time.Hour))}
	ids := func(list []*AssetRecord) (out []string) {
		for _, x := range list {
			out = append(out, x.ID)
		}
		return out
	}
	for _, found := range [][]*AssetRecord{{a, b, c}, {c, b, a}, {b, c, a}} {
		list := slices.Clone(found)
		slices.SortFunc(list, ByFileCreated(true))
		assert.Equal(t, []string{"a", "b", "c"}, ids(list), "oldest first")
		slices.SortFunc(list, ByFileCreated(false))
		assert.Equal(t, []string{"c", "a", "b"}, ids(list), "newest first: the ids still break ties")
	}
}
