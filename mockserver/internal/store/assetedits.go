package store

import (
	"cmp"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Assets as their owners change them: favourites, the archive, their
// description, date and place, stacks, the trash.

// Live says whether an asset is out of the trash: only its owner sees a
// trashed one (in their trash); albums, links, partners and timelines
// leave it out, as the reference does.
func Live(a *model.AssetRecord) bool { return !a.IsTrashed }

// AssetPatch is what an update changes of an asset: a nil field is kept.
type AssetPatch struct {
	IsFavorite, IsArchived *bool
	Description            *string
	// DateTimeOriginal is when the picture was taken, with the offset of
	// its wall clock; nil keeps it.
	DateTimeOriginal *time.Time
	// Latitude and Longitude come together.
	Latitude, Longitude *float64
	// Place is what a position names: its city, state and country.
	Place func(lat, lon float64) (city, state, country *string)
}

// ownAsset is the user's asset of that id, or the reference's 400.
func (v *View) ownAsset(userID, id, permission string) (*model.AssetRecord, error) {
	a := v.st.assetBy[id]
	if a == nil || a.OwnerID != userID {
		return nil, Fail(NoAccess, "Not found or no %s access", permission)
	}
	return a, nil
}

// UpdateAsset changes one of the owner's assets.
func (tx *Tx) UpdateAsset(userID, id string, p AssetPatch) (*model.AssetRecord, error) {
	old, err := tx.ownAsset(userID, id, "asset.update")
	if err != nil {
		return nil, err
	}
	a := patched(*old, p)
	a.UpdatedAt = tx.Tick()
	if err := tx.replaceAsset(old, &a); err != nil {
		return nil, internal(err)
	}
	return tx.Asset(id), nil
}

// patched is a with p applied.
func patched(a model.AssetRecord, p AssetPatch) model.AssetRecord {
	if p.IsFavorite != nil {
		a.IsFavorite = *p.IsFavorite
	}
	if p.IsArchived != nil {
		a.IsArchived = *p.IsArchived
	}
	if p.Description == nil && p.DateTimeOriginal == nil && p.Latitude == nil {
		return a
	}
	x := model.Exif{}
	if a.ExifInfo != nil {
		x = *a.ExifInfo
	}
	if p.Description != nil {
		x.Description = p.Description
	}
	if t := p.DateTimeOriginal; t != nil {
		at := model.At(*t)
		x.DateTimeOriginal = &at
		_, offset := t.Zone()
		x.TimeZone = new(utcOffset(offset))
		a.FileCreatedAt = at
		wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
		a.LocalDateTime = model.At(wall)
	}
	if p.Latitude != nil && p.Longitude != nil {
		x.Latitude, x.Longitude = p.Latitude, p.Longitude
		if p.Place != nil {
			// As the reference's metadata job: a position that names no
			// place leaves the place it had.
			if city, state, country := p.Place(*p.Latitude, *p.Longitude); city != nil {
				x.City, x.State, x.Country = city, state, country
			}
		}
	}
	a.ExifInfo = &x
	return a
}

// utcOffset writes an offset as the reference names a zone without a
// name: UTC+9, UTC-7, UTC+5:30.
func utcOffset(seconds int) string {
	sign := "+"
	if seconds < 0 {
		sign, seconds = "-", -seconds
	}
	h, m := seconds/3600, seconds%3600/60
	if m == 0 {
		return "UTC" + sign + itoa(h)
	}
	return "UTC" + sign + itoa(h) + ":" + pad2(m)
}

func itoa(n int) string { return strconv.Itoa(n) }

func pad2(n int) string {
	if n < 10 {
		return "0" + itoa(n)
	}
	return itoa(n)
}

// BulkAssetPatch is what PUT /api/asset changes of several assets.
type BulkAssetPatch struct {
	AssetPatch
	// StackParentID gathers the assets, and the stacks they are in, in
	// the stack of this asset, whose parent it becomes.
	StackParentID *string
	// RemoveParent takes the assets out of their stacks.
	RemoveParent bool
	// DuplicateID: nil keeps it; a pointer to nil takes the assets out of
	// their group of duplicates (the web app resolving it), a pointer to
	// an id puts them in that group.
	DuplicateID **string
}

// UpdateAssets changes several of the owner's assets at once; every one
// must be theirs.
func (tx *Tx) UpdateAssets(userID string, ids []string, p BulkAssetPatch) error {
	for _, id := range ids {
		if _, err := tx.ownAsset(userID, id, "asset.update"); err != nil {
			return err
		}
	}
	members := slices.Clone(ids)
	switch {
	case p.RemoveParent:
		for _, id := range ids {
			if err := tx.unstack(tx.Asset(id)); err != nil {
				return err
			}
		}
	case p.StackParentID != nil:
		parent, err := tx.ownAsset(userID, *p.StackParentID, "asset.update")
		if err != nil {
			return err
		}
		members, err = tx.stackUnder(parent, ids)
		if err != nil {
			return err
		}
	}
	now := tx.Tick()
	for _, id := range members {
		old := tx.Asset(id)
		a := patched(*old, p.AssetPatch)
		a.UpdatedAt = now
		if p.DuplicateID != nil {
			a.DuplicateID = *p.DuplicateID
		}
		if err := tx.replaceAsset(old, &a); err != nil {
			return internal(err)
		}
	}
	return nil
}

// stackUnder gathers parent's stack, the assets of ids and the stacks they
// are in into one stack under parent; it answers every asset changed.
func (tx *Tx) stackUnder(parent *model.AssetRecord, ids []string) ([]string, error) {
	join := map[string]bool{}
	add := func(a *model.AssetRecord) {
		for _, m := range tx.Stack(a) {
			join[m.ID] = true
		}
		join[a.ID] = true
	}
	add(parent)
	for _, id := range ids {
		add(tx.Asset(id))
	}
	now := tx.Tick()
	var changed []string
	for _, id := range slices.Sorted(maps.Keys(join)) {
		old := tx.Asset(id)
		a := *old
		if id == parent.ID {
			a.StackParentID = nil
		} else {
			a.StackParentID = &parent.ID
		}
		a.UpdatedAt = now
		if err := tx.restack(old, &a); err != nil {
			return nil, err
		}
		changed = append(changed, id)
	}
	return changed, nil
}

// unstack takes an asset out of its stack; a parent leaves its place to
// its first other asset, and a stack of one is no stack.
func (tx *Tx) unstack(a *model.AssetRecord) error {
	stack := tx.Stack(a)
	if stack == nil {
		return nil
	}
	rest := slices.DeleteFunc(slices.Clone(stack), func(m *model.AssetRecord) bool { return m.ID == a.ID })
	var parent *string
	if len(rest) > 1 {
		parent = &rest[0].ID
	}
	now := tx.Tick()
	for i, m := range rest {
		next := *tx.Asset(m.ID)
		next.StackParentID = parent
		if i == 0 {
			next.StackParentID = nil
		}
		if err := tx.restack(tx.Asset(m.ID), &next); err != nil {
			return err
		}
	}
	old := tx.Asset(a.ID)
	next := *old
	next.StackParentID, next.UpdatedAt = nil, now
	return tx.restack(old, &next)
}

// SetStackParent makes newParent the parent of the stack oldParent leads.
func (tx *Tx) SetStackParent(userID, oldParentID, newParentID string) error {
	oldParent := tx.Asset(oldParentID)
	if oldParent == nil || !tx.readableBy(userID, oldParent) {
		return Fail(NoAccess, "Not found or no asset.read access")
	}
	if _, err := tx.ownAsset(userID, newParentID, "asset.update"); err != nil {
		return err
	}
	stack := tx.Stack(oldParent)
	if stack == nil || !slices.ContainsFunc(stack, func(m *model.AssetRecord) bool { return m.ID == newParentID }) {
		return Fail(Invalid, "Asset not found or not in a stack")
	}
	now := tx.Tick()
	for _, m := range stack {
		old := tx.Asset(m.ID)
		a := *old
		a.StackParentID = &newParentID
		if m.ID == newParentID {
			a.StackParentID = nil
		}
		a.UpdatedAt = now
		if err := tx.restack(old, &a); err != nil {
			return err
		}
	}
	return nil
}

// restack puts a changed asset in the place of the stored one, moving it
// between the stacks' indexes.
func (tx *Tx) restack(old, a *model.AssetRecord) error {
	st := tx.st
	children := st.children
	next := make(map[string][]*model.AssetRecord, len(children))
	for k, v := range children {
		next[k] = v
	}
	if old.StackParentID != nil {
		p := *old.StackParentID
		next[p] = slices.DeleteFunc(slices.Clone(next[p]), func(m *model.AssetRecord) bool { return m.ID == old.ID })
		if len(next[p]) == 0 {
			delete(next, p)
		}
	}
	st.children = next
	// replaceAsset keeps the stack index of an asset that stays where it
	// was; here it moves, so the index is set after.
	if err := tx.replaceAssetAs(old, a); err != nil {
		st.children = children
		return internal(err)
	}
	if a.StackParentID != nil {
		st.children[*a.StackParentID] = append(slices.Clone(st.children[*a.StackParentID]), a)
	}
	tx.did(Assets, func() { st.children = children })
	return nil
}

// DeleteAssets puts the owner's assets in the trash, or with force deletes
// them for good (a live photo's video with its still): it answers the ids
// deleted for good.
func (tx *Tx) DeleteAssets(userID string, ids []string, force bool) ([]string, error) {
	for _, id := range ids {
		if _, err := tx.ownAsset(userID, id, "asset.delete"); err != nil {
			return nil, err
		}
	}
	if !force {
		now := tx.Tick()
		for _, id := range ids {
			old := tx.Asset(id)
			if old.IsTrashed {
				continue
			}
			a := *old
			a.IsTrashed, a.UpdatedAt = true, now
			if err := tx.replaceAsset(old, &a); err != nil {
				return nil, internal(err)
			}
		}
		return nil, nil
	}
	gone := map[string]bool{}
	for _, id := range ids {
		gone[id] = true
		if v := tx.Asset(id).LivePhotoVideoID; v != nil {
			gone[*v] = true
		}
	}
	if err := tx.removeAssets(gone); err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(gone)), nil
}

// RestoreAssets takes the owner's assets out of the trash; with no ids,
// every asset in their trash. It answers the ids restored.
func (tx *Tx) RestoreAssets(userID string, ids []string, all bool) ([]string, error) {
	if all {
		ids = nil
		for _, a := range tx.st.assets {
			if a.OwnerID == userID && a.IsTrashed {
				ids = append(ids, a.ID)
			}
		}
	}
	for _, id := range ids {
		if _, err := tx.ownAsset(userID, id, "asset.restore"); err != nil {
			return nil, err
		}
	}
	now := tx.Tick()
	var restored []string
	for _, id := range ids {
		old := tx.Asset(id)
		if !old.IsTrashed {
			continue
		}
		a := *old
		a.IsTrashed, a.UpdatedAt = false, now
		if err := tx.replaceAsset(old, &a); err != nil {
			return nil, internal(err)
		}
		restored = append(restored, id)
	}
	return restored, nil
}

// EmptyTrash deletes for good every asset in the owner's trash; it answers
// their ids.
func (tx *Tx) EmptyTrash(userID string) ([]string, error) {
	var ids []string
	for _, a := range tx.st.assets {
		if a.OwnerID == userID && a.IsTrashed {
			ids = append(ids, a.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return tx.DeleteAssets(userID, ids, true)
}

// removeAssets deletes assets for good, and every reference to them: in
// albums, links, stacks and live photos. The state is built anew from
// what is left, as for a user removed.
func (tx *Tx) removeAssets(gone map[string]bool) error { return tx.removeAssetsAnd(gone, nil) }

// removeAssetsAnd is removeAssets, with edit (if any) made to the records
// before the state is built anew from them.
func (tx *Tx) removeAssetsAnd(gone map[string]bool, edit func(d *model.Dataset)) error {
	owners := map[string]string{}
	for id := range gone {
		owners[id] = tx.Asset(id).OwnerID
	}
	tx.audit(model.AuditAsset, owners)
	d := tx.db.recordsLocked().Dataset()
	if edit != nil {
		edit(&d)
	}
	loaded := tx.st.loaded
	for i, a := range d.Assets {
		if gone[a.ID] && i < tx.st.loaded {
			loaded--
		}
	}
	d.Assets = slices.DeleteFunc(d.Assets, func(a model.AssetRecord) bool { return gone[a.ID] })
	// A stack loses its parent: the first other asset leads it.
	newParent := map[string]*string{}
	for i := range d.Assets {
		a := &d.Assets[i]
		if a.StackParentID == nil || !gone[*a.StackParentID] {
			continue
		}
		p := *a.StackParentID
		if np, ok := newParent[p]; ok {
			a.StackParentID = np
		} else {
			newParent[p] = &a.ID
			a.StackParentID = nil
		}
	}
	for i := range d.Assets {
		a := &d.Assets[i]
		if a.LivePhotoVideoID != nil && gone[*a.LivePhotoVideoID] {
			a.LivePhotoVideoID = nil
		}
	}
	for i := range d.Albums {
		al := &d.Albums[i]
		al.AssetIDs = slices.DeleteFunc(slices.Clone(al.AssetIDs), func(id string) bool { return gone[id] })
		if t := al.AlbumThumbnailAssetID; t != nil && gone[*t] {
			al.AlbumThumbnailAssetID = tx.newestOf(al.AssetIDs)
		}
	}
	for i := range d.SharedLinks {
		l := &d.SharedLinks[i]
		l.AssetIDs = slices.DeleteFunc(slices.Clone(l.AssetIDs), func(id string) bool { return gone[id] })
	}
	pruneActivities(&d)
	pruneMemories(&d)
	next, err := newState(d, tx.st.maxListed)
	if err != nil {
		return internal(err)
	}
	next.loaded = loaded
	next.base, next.maxMade = tx.st.base, tx.st.maxMade
	prev := tx.st
	tx.db.state, tx.st = next, next
	tx.did(Everything, func() { tx.db.state, tx.st = prev, prev })
	return nil
}

// readableBy says whether a user (not through a link) may read an asset:
// theirs, one of an album they are in (not trashed), or a partner's (not
// archived, not trashed).
func (v *View) readableBy(userID string, a *model.AssetRecord) bool {
	return v.ReadableAsset(Principal{User: &model.UserRecord{User: model.User{ID: userID}}}, a.ID) != nil
}

// RandomAssets is up to n of the user's assets (visible, out of the
// trash; archived ones too, as the upstream picks them), in no order.
func (v *View) RandomAssets(userID string, n int, r *rand.Rand) []*model.AssetRecord {
	var pool []*model.AssetRecord
	for _, a := range v.st.byOwner[userID] {
		if a.IsVisible && Live(a) {
			pool = append(pool, a)
		}
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	return pool[:min(n, len(pool))]
}

// MemoryLane is the assets of the user (and of partners who show in their
// timeline) taken on a day of the year in years before now's, by year.
func (v *View) MemoryLane(userID string, month time.Month, day int, now time.Time) map[int][]*model.AssetRecord {
	owners := map[string]bool{userID: true}
	for _, p := range v.PartnersOf(userID, false) {
		if p.InTimeline {
			owners[p.SharedByID] = true
		}
	}
	out := map[int][]*model.AssetRecord{}
	for owner := range owners {
		for _, a := range v.st.byOwner[owner] {
			// Only those with pictures: a memory shows its previews.
			if !a.IsVisible || !Live(a) || a.IsArchived || !a.Resized {
				continue
			}
			t := a.LocalDateTime.UTC()
			if t.Month() == month && t.Day() == day && t.Year() < now.Year() {
				out[now.Year()-t.Year()] = append(out[now.Year()-t.Year()], a)
			}
		}
	}
	for _, as := range out {
		slices.SortFunc(as, func(a, b *model.AssetRecord) int {
			return cmp.Or(a.LocalDateTime.Compare(b.LocalDateTime.Time), strings.Compare(a.ID, b.ID))
		})
	}
	return out
}
