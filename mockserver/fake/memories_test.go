package fake

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

func TestMemoriesAreOfPhotosOfThatDay(t *testing.T) {
	anchor := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	d := Generate(Options{Seed: 1, Anchor: anchor, Links: 12, APIKey: "k"})
	require.NotEmpty(t, d.Memories, "seed 1 has photos of days of the last month in earlier years")
	require.NoError(t, store.Check(d), "the store takes them")
	assets := map[string]model.AssetRecord{}
	for _, a := range d.Assets {
		assets[a.ID] = a
	}
	for _, m := range d.Memories {
		day := m.MemoryAt.UTC()
		assert.False(t, day.After(anchor), "shown from a day before the anchor")
		assert.True(t, day.After(anchor.AddDate(0, 0, -memoryDays)), "of the last %d days", memoryDays)
		assert.False(t, m.CreatedAt.After(anchor))
		assert.False(t, m.UpdatedAt.Before(m.CreatedAt.Time))
		require.NotEmpty(t, m.AssetIDs)
		for _, id := range m.AssetIDs {
			a := assets[id]
			taken := a.LocalDateTime.UTC()
			assert.Equal(t, m.OwnerID, a.OwnerID)
			assert.Equal(t, int64(taken.Year()), m.Data.Year)
			assert.Equal(t, []any{day.Month(), day.Day()}, []any{taken.Month(), taken.Day()}, "taken on that day of the year")
			assert.True(t, a.IsVisible && !a.IsTrashed && !a.IsArchived)
		}
	}
}

// TestEveryOwnerHasPhotosOfThisDay: whatever the day, every owner has
// photos of it in an earlier year (the web app's memory lane), and a
// memory of today, as a library in use has; on a day the events planned
// already fall on, nothing is added.
func TestEveryOwnerHasPhotosOfThisDay(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for day := 0; day < 366; day += 23 {
		anchor := start.AddDate(0, 0, day)
		d := Generate(Options{Seed: int64(day), Anchor: anchor, Links: 5, APIKey: "k"})
		for _, u := range d.Users {
			lane := 0
			for _, a := range d.Assets {
				taken := a.LocalDateTime.UTC()
				if a.OwnerID == u.ID && a.IsVisible && !a.IsTrashed && !a.IsArchived &&
					taken.Month() == anchor.Month() && taken.Day() == anchor.Day() && taken.Year() < anchor.Year() {
					lane++
				}
			}
			assert.Positive(t, lane, "%s, %s: photos of this day in an earlier year", anchor.Format(time.DateOnly), u.Email)
			today := 0
			for _, m := range d.Memories {
				if m.OwnerID == u.ID && m.MemoryAt.Equal(anchor) {
					today++
				}
			}
			assert.Positive(t, today, "%s, %s: a memory of today", anchor.Format(time.DateOnly), u.Email)
		}
	}
}
