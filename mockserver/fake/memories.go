package fake

import (
	"slices"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// memoryDays is how many days before the anchor (the anchor's own
// included) have their memories made.
const memoryDays = 30

// dayOfYear is an owner's day of the year, which photos of any year share.
type dayOfYear struct {
	owner string
	month time.Month
	day   int
}

// makeMemories gives each owner the memories "on this day" of the last
// memoryDays days, as a server that makes one a day would have made them,
// the night before: for each day, one a year of the photos taken on that
// day of the year in earlier years (visible, out of the archive and the
// trash), shown from that day on (memoryAt), seen that evening but for
// today's. It runs last, so that the faker's stream before it, and so
// every other record, stays as it was.
func (g *gen) makeMemories() {
	photos := map[dayOfYear][]*model.AssetRecord{}
	for i := range g.ds.Assets {
		a := &g.ds.Assets[i]
		if a.IsVisible && !a.IsTrashed && !a.IsArchived {
			t := a.LocalDateTime.UTC()
			k := dayOfYear{a.OwnerID, t.Month(), t.Day()}
			photos[k] = append(photos[k], a)
		}
	}
	today := time.Date(g.anchor.Year(), g.anchor.Month(), g.anchor.Day(), 0, 0, 0, 0, time.UTC)
	for _, ow := range g.owners {
		for ago := range memoryDays {
			day := today.AddDate(0, 0, -ago)
			byYear := map[int][]string{}
			for _, a := range photos[dayOfYear{ow.rec.ID, day.Month(), day.Day()}] {
				if y := a.LocalDateTime.UTC().Year(); y < day.Year() {
					byYear[y] = append(byYear[y], a.ID)
				}
			}
			years := make([]int, 0, len(byYear))
			for y := range byYear {
				years = append(years, y)
			}
			slices.Sort(years)
			for _, y := range slices.Backward(years) {
				made := model.At(day.Add(-time.Duration(day.Year()-y) * time.Second))
				m := model.MemoryRecord{
					ID: g.f.UUID(), OwnerID: ow.rec.ID, Type: model.MemoryOnThisDay, Data: model.MemoryData{Year: int64(y)},
					MemoryAt: model.At(day), CreatedAt: made, UpdatedAt: made, AssetIDs: byYear[y],
				}
				if seen := day.Add(20 * time.Hour); seen.Before(g.anchor) {
					m.SeenAt, m.UpdatedAt = model.At(seen).Ptr(), model.At(seen)
				}
				g.ds.Memories = append(g.ds.Memories, m)
			}
		}
	}
}
