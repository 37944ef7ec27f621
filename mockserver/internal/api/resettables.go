package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// resettable are the upstream tables a reset may empty alone, as the
// upstream's e2e harness empties them (utils.resetDatabase(tables)): its
// activity spec empties `activity` before each test, keeping its users,
// their tokens, its album and its asset.
var resettable = []string{"activity", "albums", "assets"}

// resetTables is POST /__mock/reset with "tables": the state without the
// records of those tables.
func (s *server) resetTables(c *call, tables []string) error {
	d, err := withoutTables(s.store.Records().Dataset(), tables)
	if err != nil {
		return err
	}
	if err := s.store.Replace(d); err != nil {
		return fmt.Errorf("resetting %s: %w", strings.Join(tables, ", "), err)
	}
	return c.json(http.StatusOK, map[string]any{"reset": true, "tables": tables})
}

// withoutTables is d without the records of the upstream's tables,
// the rows that point to them gone too, as its foreign keys cascade.
func withoutTables(d model.Dataset, tables []string) (model.Dataset, error) {
	for _, t := range tables {
		if !slices.Contains(resettable, t) {
			return d, store.Fail(store.Invalid, "tables: %q is none of those a reset empties alone (%s)", t, strings.Join(resettable, ", "))
		}
	}
	if slices.Contains(tables, "assets") {
		d.Assets = nil
		for i := range d.Albums {
			d.Albums[i].AssetIDs, d.Albums[i].AlbumThumbnailAssetID = nil, nil
		}
		for i := range d.SharedLinks {
			d.SharedLinks[i].AssetIDs = nil
		}
		d.Activities = slices.DeleteFunc(d.Activities, func(a model.ActivityRecord) bool { return a.AssetID != nil })
		for i := range d.Memories {
			d.Memories[i].AssetIDs = nil
		}
	}
	if slices.Contains(tables, "albums") {
		d.Albums = nil
		d.SharedLinks = slices.DeleteFunc(d.SharedLinks, func(l model.SharedLinkRecord) bool { return l.AlbumID != nil })
		d.Activities = nil
	}
	if slices.Contains(tables, "activity") {
		d.Activities = nil
	}
	return d, nil
}
