package model

import (
	"cmp"
	"strings"
)

// NewestFirst and OldestFirst are the order of assets wherever a list of
// them is shown (an album, the timeline, search, a person's photos): by
// when their file was made, ids breaking ties, so that the order is the
// same in every process.
func NewestFirst(a, b *AssetRecord) int {
	return cmp.Or(b.FileCreatedAt.Compare(a.FileCreatedAt.Time), strings.Compare(a.ID, b.ID))
}

// OldestFirst: see NewestFirst.
func OldestFirst(a, b *AssetRecord) int {
	return cmp.Or(a.FileCreatedAt.Compare(b.FileCreatedAt.Time), strings.Compare(a.ID, b.ID))
}

// ByFileCreated is OldestFirst, or NewestFirst unless ascending.
func ByFileCreated(ascending bool) func(a, b *AssetRecord) int {
	if ascending {
		return OldestFirst
	}
	return NewestFirst
}
