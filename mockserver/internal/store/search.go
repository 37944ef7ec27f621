package store

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Searching a library: by its metadata, by place, on the map, and the
// values its search form suggests.

// collate orders texts as people read them: by letters whatever their
// case, then by the texts themselves.
func collate(a, b string) int {
	return cmp.Or(cmp.Compare(strings.ToLower(a), strings.ToLower(b)), cmp.Compare(a, b))
}

// SearchOwners is the users whose assets a user's search finds: theirs,
// and those of partners who share with them and show in their timeline.
func (v *View) SearchOwners(userID string) []string {
	owners := []string{userID}
	for _, p := range v.PartnersOf(userID, false) {
		if p.InTimeline {
			owners = append(owners, p.SharedByID)
		}
	}
	return owners
}

// MetadataQuery is what POST /api/search/metadata asks for: a nil field
// does not filter.
type MetadataQuery struct {
	Owners []string
	// Exact matches.
	ID, DeviceAssetID, DeviceID, LibraryID, OriginalPath, Type *string
	City, State, Country, Make, Model, LensModel               *string
	// Checksum is a SHA-1 in base64 or hex.
	Checksum *string
	// OriginalFileName matches a part of the name, whatever its case.
	OriginalFileName *string
	// Words are found, each, in what the asset's metadata says of it
	// (Text), whatever their case: the mock's stand-in for smart search.
	Words []string
	// NoSuchPath: the query names a preview, thumbnail or encoded video
	// path, which the mock's assets have none of.
	NoSuchPath                        bool
	IsFavorite, IsOffline, IsVisible  *bool
	IsArchived                        *bool
	WithArchived, IsEncoded, IsMotion bool
	IsNotInAlbum                      bool
	PersonIDs                         []string
	WithDeleted                       *bool
	CreatedAfter, CreatedBefore       *time.Time
	UpdatedAfter, UpdatedBefore       *time.Time
	TrashedAfter, TrashedBefore       *time.Time
	TakenAfter, TakenBefore           *time.Time
	Ascending                         bool
	Page, Size                        int
}

// between is the reference's OptionalBetween: within the bounds given,
// both included.
func between(t time.Time, after, before *time.Time) bool {
	return (after == nil || !t.Before(*after)) && (before == nil || !t.After(*before))
}

// exifIs says whether a's exif holds want in the field got reads.
func exifIs(a *model.AssetRecord, want *string, got func(e *model.Exif) *string) bool {
	if want == nil {
		return true
	}
	if a.ExifInfo == nil {
		return false
	}
	g := got(a.ExifInfo)
	return g != nil && *g == *want
}

// SearchMetadata is the page of assets q finds, by when they were taken
// (the newest first, or the oldest with Ascending), and whether another
// page follows.
func (v *View) SearchMetadata(q MetadataQuery) (items []*model.AssetRecord, hasNext bool) {
	if q.NoSuchPath {
		return nil, false
	}
	var sum [20]byte
	if q.Checksum != nil {
		var ok bool
		if sum, ok = decodeChecksum(*q.Checksum); !ok {
			return nil, false
		}
	}
	inAlbum := map[string]bool{}
	if q.IsNotInAlbum {
		for _, al := range v.st.albums {
			for _, id := range al.AssetIDs {
				inAlbum[id] = true
			}
		}
	}
	withDeleted := q.TrashedAfter != nil || q.TrashedBefore != nil
	if q.WithDeleted != nil {
		withDeleted = *q.WithDeleted
	}
	isArchived := q.IsArchived
	if isArchived == nil && !q.WithArchived {
		isArchived = new(false)
	}
	eq := func(want *string, got string) bool { return want == nil || *want == got }
	keep := func(want *bool, got bool) bool { return want == nil || *want == got }
	name := ""
	if q.OriginalFileName != nil {
		name = strings.ToLower(*q.OriginalFileName)
	}
	var found []*model.AssetRecord
	for _, owner := range q.Owners {
		for _, a := range v.st.byOwner[owner] {
			switch {
			case !withDeleted && !Live(a):
			case !between(a.CreatedAt.Time, q.CreatedAfter, q.CreatedBefore):
			case !between(a.UpdatedAt.Time, q.UpdatedAfter, q.UpdatedBefore):
			case (q.TrashedAfter != nil || q.TrashedBefore != nil) && (Live(a) || !between(a.UpdatedAt.Time, q.TrashedAfter, q.TrashedBefore)):
			case !between(a.FileCreatedAt.Time, q.TakenAfter, q.TakenBefore):
			case !exifIs(a, q.City, func(e *model.Exif) *string { return e.City }),
				!exifIs(a, q.State, func(e *model.Exif) *string { return e.State }),
				!exifIs(a, q.Country, func(e *model.Exif) *string { return e.Country }),
				!exifIs(a, q.Make, func(e *model.Exif) *string { return e.Make }),
				!exifIs(a, q.Model, func(e *model.Exif) *string { return e.Model }),
				!exifIs(a, q.LensModel, func(e *model.Exif) *string { return e.LensModel }):
			case !eq(q.ID, a.ID), !eq(q.DeviceAssetID, a.DeviceAssetID), !eq(q.DeviceID, a.DeviceID),
				!eq(q.OriginalPath, a.OriginalPath), !eq(q.Type, a.Type):
			case q.LibraryID != nil && (a.LibraryID == nil || *a.LibraryID != *q.LibraryID):
			case q.Checksum != nil && !sameChecksum(a, sum):
			case q.OriginalFileName != nil && !strings.Contains(strings.ToLower(a.OriginalFileName), name):
			case len(q.Words) > 0 && !hasWords(v.Text(a), q.Words):
			case !keep(q.IsFavorite, a.IsFavorite), !keep(q.IsOffline, a.IsOffline), !keep(q.IsVisible, a.IsVisible),
				!keep(isArchived, a.IsArchived):
			case q.IsEncoded && a.Type != model.AssetVideo, q.IsMotion && a.LivePhotoVideoID == nil:
			case q.IsNotInAlbum && (inAlbum[a.ID] || !a.IsVisible):
			case slices.ContainsFunc(q.PersonIDs, func(id string) bool { return !hasFaceOf(a, id) }):
			default:
				found = append(found, a)
			}
		}
	}
	slices.SortFunc(found, model.ByFileCreated(q.Ascending))
	// A page past the last is empty: judged before the offset is
	// reckoned, which could overflow for a page far enough.
	if q.Page < 1 || q.Size < 1 || q.Page-1 >= (len(found)+q.Size-1)/q.Size {
		return nil, false
	}
	start := (q.Page - 1) * q.Size
	end := min(start+q.Size, len(found))
	return found[start:end], end < len(found)
}

// sameChecksum says whether a's content has that SHA-1.
func sameChecksum(a *model.AssetRecord, sum [20]byte) bool {
	key, err := checksumKeyOf(a)
	return err == nil && key.sum == sum
}

// ExploreItem is one value of a field the explore page shows, with an
// asset that has it.
type ExploreItem struct {
	Value string
	Asset *model.AssetRecord
}

// exploreAssets is the user's assets the explore page draws on: visible
// pictures out of the archive and the trash.
func (v *View) exploreAssets(owners []string) []*model.AssetRecord {
	var out []*model.AssetRecord
	for _, owner := range owners {
		for _, a := range v.st.byOwner[owner] {
			if a.IsVisible && a.Type == model.AssetImage && !a.IsArchived && Live(a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// byValue groups assets by the values of values (each asset may have
// several), keeps the values at least minAssets have (0: any), each with
// its newest asset, in the order of the values, at most maxFields (0:
// all).
func byValue(assets []*model.AssetRecord, values func(a *model.AssetRecord) []string, minAssets, maxFields int) []ExploreItem {
	count := map[string]int{}
	pick := map[string]*model.AssetRecord{}
	for _, a := range assets {
		for _, val := range values(a) {
			if val == "" {
				continue
			}
			count[val]++
			if p := pick[val]; p == nil || a.FileCreatedAt.After(p.FileCreatedAt.Time) || (a.FileCreatedAt.Equal(p.FileCreatedAt.Time) && a.ID < p.ID) {
				pick[val] = a
			}
		}
	}
	var out []ExploreItem
	for val, n := range count {
		if n >= minAssets {
			out = append(out, ExploreItem{Value: val, Asset: pick[val]})
		}
	}
	slices.SortFunc(out, func(a, b ExploreItem) int { return collate(a.Value, b.Value) })
	if maxFields > 0 && len(out) > maxFields {
		out = out[:maxFields]
	}
	return out
}

func cityOf(a *model.AssetRecord) []string {
	if a.ExifInfo == nil || a.ExifInfo.City == nil {
		return nil
	}
	return []string{*a.ExifInfo.City}
}

// ExploreCities is the user's cities with at least minAssets of their
// pictures, each with one, at most maxFields.
func (v *View) ExploreCities(userID string, minAssets, maxFields int) []ExploreItem {
	return byValue(v.exploreAssets([]string{userID}), cityOf, minAssets, maxFields)
}

// ExploreTags is the tags of the user's pictures that at least minAssets
// of them have, each with one, at most maxFields.
func (v *View) ExploreTags(userID string, minAssets, maxFields int) []ExploreItem {
	return byValue(v.exploreAssets([]string{userID}), func(a *model.AssetRecord) []string {
		if a.SmartInfo == nil {
			return nil
		}
		return slices.Compact(slices.Sorted(slices.Values(a.SmartInfo.Tags)))
	}, minAssets, maxFields)
}

// AssetsByCity is one picture of each city of the user's library (and of
// partners in their timeline), by city.
func (v *View) AssetsByCity(userID string) []*model.AssetRecord {
	items := byValue(v.exploreAssets(v.SearchOwners(userID)), cityOf, 0, 0)
	out := make([]*model.AssetRecord, len(items))
	for i, it := range items {
		out[i] = it.Asset
	}
	return out
}

// The kinds of suggestion GET /api/search/suggestions makes.
const (
	SuggestCountry = "country"
	SuggestState   = "state"
	SuggestCity    = "city"
	SuggestMake    = "camera-make"
	SuggestModel   = "camera-model"
)

// SuggestionQuery narrows suggestions: states of a country, cities of a
// country and state, makes of a model, models of a make ("": any).
type SuggestionQuery struct {
	Kind                        string
	Country, State, Make, Model string
}

// Suggestions is the values of the user's assets' metadata of a kind, as
// the search form suggests them, in order, each once.
func (v *View) Suggestions(userID string, q SuggestionQuery) []string {
	field := func(e *model.Exif) (value *string, ok bool) {
		is := func(want string, got *string) bool { return want == "" || (got != nil && *got == want) }
		switch q.Kind {
		case SuggestCountry:
			return e.Country, true
		case SuggestState:
			return e.State, is(q.Country, e.Country)
		case SuggestCity:
			return e.City, is(q.Country, e.Country) && is(q.State, e.State)
		case SuggestMake:
			return e.Make, is(q.Model, e.Model)
		case SuggestModel:
			return e.Model, is(q.Make, e.Make)
		}
		return nil, false
	}
	seen := map[string]bool{}
	var out []string
	for _, a := range v.st.byOwner[userID] {
		if a.ExifInfo == nil || !Live(a) {
			continue
		}
		if val, ok := field(a.ExifInfo); ok && val != nil && *val != "" && !seen[*val] {
			seen[*val] = true
			out = append(out, *val)
		}
	}
	slices.SortFunc(out, collate)
	return out
}

// MarkerQuery is what GET /api/map/markers asks for.
type MarkerQuery struct {
	UserID                         string
	WithPartners, WithSharedAlbums bool
	IsArchived, IsFavorite         *bool
	After, Before                  *time.Time
}

// MapMarkers is the assets with a position that q shows on the map: the
// user's (and their partners', and those of their albums, as asked), the
// newest first.
func (v *View) MapMarkers(q MarkerQuery) []*model.AssetRecord {
	owners := map[string]bool{q.UserID: true}
	if q.WithPartners {
		for _, p := range v.PartnersOf(q.UserID, false) {
			owners[p.SharedByID] = true
		}
	}
	inAlbums := map[string]bool{}
	if q.WithSharedAlbums {
		for _, al := range v.st.albums {
			if RoleOf(al, q.UserID) != "" && v.AlbumVisible(al) {
				for _, id := range al.AssetIDs {
					inAlbums[id] = true
				}
			}
		}
	}
	keep := func(want *bool, got bool) bool { return want == nil || *want == got }
	var out []*model.AssetRecord
	for _, a := range v.st.assets {
		e := a.ExifInfo
		switch {
		case !owners[a.OwnerID] && !inAlbums[a.ID]:
		case !a.IsVisible || !Live(a), e == nil || e.Latitude == nil || e.Longitude == nil:
		case !keep(q.IsArchived, a.IsArchived), !keep(q.IsFavorite, a.IsFavorite):
		case !between(a.FileCreatedAt.Time, q.After, q.Before):
		default:
			out = append(out, a)
		}
	}
	slices.SortStableFunc(out, model.NewestFirst)
	return out
}

// Text is what an asset's metadata says of it, in lower case: its file
// name, description, place, camera, tags, objects and people's names.
func (v *View) Text(a *model.AssetRecord) string {
	parts := []string{a.OriginalFileName}
	if e := a.ExifInfo; e != nil {
		for _, p := range []*string{e.Description, e.City, e.State, e.Country, e.Make, e.Model, e.LensModel} {
			if p != nil {
				parts = append(parts, *p)
			}
		}
	}
	if a.SmartInfo != nil {
		parts = append(parts, a.SmartInfo.Tags...)
		parts = append(parts, a.SmartInfo.Objects...)
	}
	for _, f := range a.Faces {
		if p := v.st.personByID[f.PersonID]; p != nil {
			parts = append(parts, p.Name)
		}
	}
	return strings.ToLower(strings.Join(parts, "\n"))
}

// hasWords says whether text holds every word (lower case).
func hasWords(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}
