package api

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// tableDeletes is what emptying each of the upstream's tables does to the
// mock's records, the rows that point to it following as the upstream's
// foreign keys say (ON DELETE CASCADE or SET NULL); each answers how many
// rows of the table went. The upstream's e2e harness empties tables this
// way between tests (utils.resetDatabase(tables), through POST
// /__mock/reset's "tables" or DELETE FROM over the SQL door): its
// activity spec empties `activity` before each test, keeping its users,
// their tokens, its album and its asset.
var tableDeletes = map[string]func(d *model.Dataset) int{
	"activity": func(d *model.Dataset) int {
		n := len(d.Activities)
		d.Activities = nil
		return n
	},
	"albums":       deleteAlbums,
	"assets":       func(d *model.Dataset) int { return dropAssets(d, func(*model.AssetRecord) bool { return true }) },
	"asset_faces":  deleteFaces,
	"asset_stack":  deleteStacks,
	"person":       deletePeople,
	"shared_links": func(d *model.Dataset) int { return emptied(&d.SharedLinks) },
	"api_keys":     func(d *model.Dataset) int { return emptied(&d.APIKeys) },
	"sessions":     func(d *model.Dataset) int { return emptied(&d.Sessions) },
	"partners":     func(d *model.Dataset) int { return emptied(&d.Partners) },
	"memories":     func(d *model.Dataset) int { return emptied(&d.Memories) },
	"tags":         deleteTags,
	"libraries":    deleteLibraries,
	"users":        deleteUsers,
	"system_metadata": func(d *model.Dataset) int {
		return deleteSystemMetadata(d, func(string) bool { return true })
	},
}

// resettable names the tables a reset may empty, in order.
func resettable() []string { return slices.Sorted(maps.Keys(tableDeletes)) }

// resetTables is POST /__mock/reset with "tables": the state without the
// records of those tables.
func (s *server) resetTables(c *call, tables []string) error {
	d := s.store.Records().Dataset()
	for _, t := range tables {
		if tableDeletes[t] == nil {
			return store.Fail(store.Invalid, "tables: %q is none of those a reset empties (%s)", t, strings.Join(resettable(), ", "))
		}
	}
	for _, t := range tables {
		tableDeletes[t](&d)
	}
	if err := s.replaceRecords(d, slices.Contains(tables, "users")); err != nil {
		return fmt.Errorf("resetting %s: %w", strings.Join(tables, ", "), err)
	}
	return c.json(http.StatusOK, map[string]any{"reset": true, "tables": tables})
}

// replaceRecords makes d the state. With noUsers (the users' table
// emptied) the board of jobs starts again too, as after an empty reset.
func (s *server) replaceRecords(d model.Dataset, noUsers bool) error {
	if err := s.store.Replace(d); err != nil {
		return err
	}
	if noUsers {
		s.jobs.Reset()
	}
	return nil
}

// emptied empties a table held in one slice.
func emptied[T any](rows *[]T) int {
	n := len(*rows)
	*rows = nil
	return n
}

// dropAssets removes the assets gone says, and what points to them: their
// places in albums (and album covers), links and memories, the comments
// and likes on them, their faces as people's pictures, their stacks.
func dropAssets(d *model.Dataset, gone func(*model.AssetRecord) bool) int {
	removed := map[string]bool{}
	faces := map[string]bool{}
	d.Assets = slices.DeleteFunc(d.Assets, func(a model.AssetRecord) bool {
		if !gone(&a) {
			return false
		}
		removed[a.ID] = true
		for _, f := range a.Faces {
			faces[f.ID] = true
		}
		return true
	})
	if len(removed) == 0 {
		return 0
	}
	kept := func(ids []string) []string {
		return slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return removed[id] })
	}
	for i := range d.Albums {
		al := &d.Albums[i]
		al.AssetIDs = kept(al.AssetIDs)
		if al.AlbumThumbnailAssetID != nil && removed[*al.AlbumThumbnailAssetID] {
			al.AlbumThumbnailAssetID = nil
		}
	}
	for i := range d.SharedLinks {
		d.SharedLinks[i].AssetIDs = kept(d.SharedLinks[i].AssetIDs)
	}
	for i := range d.Memories {
		d.Memories[i].AssetIDs = kept(d.Memories[i].AssetIDs)
	}
	d.Activities = slices.DeleteFunc(d.Activities, func(a model.ActivityRecord) bool { return a.AssetID != nil && removed[*a.AssetID] })
	for i := range d.Assets {
		if p := d.Assets[i].StackParentID; p != nil && removed[*p] {
			d.Assets[i].StackParentID = nil
		}
	}
	unpictured(d, faces)
	return len(removed)
}

// unpictured lets go of people's pictures that were the faces gone.
func unpictured(d *model.Dataset, faces map[string]bool) {
	for i := range d.People {
		if f := d.People[i].FaceAssetID; f != nil && faces[*f] {
			d.People[i].FaceAssetID = nil
		}
	}
}

// deleteAlbums empties albums: their links and their comments and likes
// go with them.
func deleteAlbums(d *model.Dataset) int {
	n := len(d.Albums)
	d.Albums = nil
	d.SharedLinks = slices.DeleteFunc(d.SharedLinks, func(l model.SharedLinkRecord) bool { return l.AlbumID != nil })
	d.Activities = nil
	return n
}

// deleteFaces empties asset_faces: people keep their names, not their
// pictures.
func deleteFaces(d *model.Dataset) int {
	n := 0
	faces := map[string]bool{}
	for i := range d.Assets {
		for _, f := range d.Assets[i].Faces {
			faces[f.ID] = true
		}
		n += len(d.Assets[i].Faces)
		d.Assets[i].Faces = nil
	}
	unpictured(d, faces)
	return n
}

// deletePeople empties person. The upstream keeps their faces, with no
// person; the mock holds no face without a person, so they go too.
func deletePeople(d *model.Dataset) int {
	deleteFaces(d)
	return emptied(&d.People)
}

// deleteStacks empties asset_stack: every asset stands alone.
func deleteStacks(d *model.Dataset) int {
	n := 0
	for i := range d.Assets {
		if d.Assets[i].StackParentID != nil {
			n++
			d.Assets[i].StackParentID = nil
		}
	}
	return n
}

// deleteTags empties tags, and so their assets' tags.
func deleteTags(d *model.Dataset) int {
	for i := range d.Assets {
		d.Assets[i].TagIDs = nil
	}
	return emptied(&d.Tags)
}

// deleteLibraries empties libraries, and their assets with them.
func deleteLibraries(d *model.Dataset) int {
	dropAssets(d, func(a *model.AssetRecord) bool { return a.LibraryID != nil })
	return emptied(&d.Libraries)
}

// deleteUsers empties users: all that users own goes with them. What is
// the server's own stays (its settings, onboarding, audit of deletions).
func deleteUsers(d *model.Dataset) int {
	n := len(d.Users)
	*d = model.Dataset{
		Seed: d.Seed, Anchor: d.Anchor, SystemConfig: d.SystemConfig, AdminOnboarded: d.AdminOnboarded,
		Audit: d.Audit, MediaDir: d.MediaDir,
	}
	return n
}

// The keys of system_metadata rows the mock holds.
const (
	metadataOnboarding = "admin-onboarding"
	metadataConfig     = "system-config"
)

// deleteSystemMetadata removes the rows of system_metadata whose key
// matches: the admin's onboarding and the settings changed from the
// defaults. The reverse geocoding's state is the mock's data's own, not a
// row it forgets.
func deleteSystemMetadata(d *model.Dataset, matches func(key string) bool) int {
	n := 0
	if d.AdminOnboarded && matches(metadataOnboarding) {
		d.AdminOnboarded = false
		n++
	}
	if d.SystemConfig != nil && matches(metadataConfig) {
		d.SystemConfig = nil
		n++
	}
	return n
}
