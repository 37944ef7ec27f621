package store

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Tags: a user's labels of their own assets (the upstream's tag service).
// A tag is stored once; the assets it labels name it (TagIDs), so every
// answer that shows an asset's tags shows the tag as it is now.

// MaxTagNameChars bounds a tag's name.
const MaxTagNameChars = MaxNameChars

// errTagNotFound is the reference's answer for a tag that is not the
// caller's, or none.
func errTagNotFound() *Error { return Fail(Invalid, "Tag not found") }

// errTagNameTaken is the reference's answer for a second tag of a name.
func errTagNameTaken() *Error { return Fail(Invalid, "A tag with that name already exists") }

// TagsOf is the user's tags, in the order they were made.
func (v *View) TagsOf(userID string) []*model.Tag {
	var out []*model.Tag
	for _, t := range v.st.tags {
		if t.UserID == userID {
			out = append(out, t)
		}
	}
	return out
}

// OwnTag is the user's tag of that id.
func (v *View) OwnTag(userID, id string) (*model.Tag, error) {
	t := v.st.tagByID[id]
	if t == nil || t.UserID != userID {
		return nil, errTagNotFound()
	}
	return t, nil
}

// tagNamed is the user's tag of that name, exactly (names differ by case).
func (v *View) tagNamed(userID, name string) *model.Tag {
	for _, t := range v.st.tags {
		if t.UserID == userID && t.Name == name {
			return t
		}
	}
	return nil
}

// CreateTag makes a tag of the user's; its name is theirs alone.
func (tx *Tx) CreateTag(userID, name, kind string) (*model.Tag, error) {
	if tx.tagNamed(userID, name) != nil {
		return nil, errTagNameTaken()
	}
	if err := tx.room(); err != nil {
		return nil, err
	}
	if err := checkText("name", name, MaxTagNameChars); err != nil {
		return nil, internal(err)
	}
	st := tx.st
	t := &model.Tag{ID: tx.db.newID(), Name: name, Type: kind, UserID: userID}
	n := len(st.tags)
	st.tags = append(st.tags, t)
	st.tagByID[t.ID] = t
	tx.did(Assets, func() {
		st.tags = st.tags[:n]
		delete(st.tagByID, t.ID)
	})
	return t, nil
}

// RenameTag names the user's tag anew (nil: as it is). A name another
// of their tags has is refused (the reference fails with a 500).
func (tx *Tx) RenameTag(userID, id string, name *string) (*model.Tag, error) {
	old, err := tx.OwnTag(userID, id)
	if err != nil || name == nil || *name == old.Name {
		return old, err
	}
	if tx.tagNamed(userID, *name) != nil {
		return nil, errTagNameTaken()
	}
	if err := checkText("name", *name, MaxTagNameChars); err != nil {
		return nil, internal(err)
	}
	st := tx.st
	t := *old
	t.Name = *name
	i := slices.Index(st.tags, old)
	st.tags[i], st.tagByID[id] = &t, &t
	tx.did(Assets, func() { st.tags[i], st.tagByID[id] = old, old })
	return &t, nil
}

// RemoveTag deletes the user's tag, and takes it off every asset.
func (tx *Tx) RemoveTag(userID, id string) error {
	old, err := tx.OwnTag(userID, id)
	if err != nil {
		return err
	}
	for _, a := range slices.Clone(tx.st.byOwner[userID]) {
		if slices.Contains(a.TagIDs, id) {
			if err := tx.setTagged(a, id, false); err != nil {
				return err
			}
		}
	}
	forget(tx, Assets, &tx.st.tags, tx.st.tagByID, id, old)
	return nil
}

// setTagged puts a changed copy of a in its place, labelled with the tag
// or not.
func (tx *Tx) setTagged(old *model.AssetRecord, tagID string, on bool) error {
	a := *old
	if on {
		a.TagIDs = append(slices.Clone(old.TagIDs), tagID)
	} else {
		a.TagIDs = slices.DeleteFunc(slices.Clone(old.TagIDs), func(id string) bool { return id == tagID })
		if len(a.TagIDs) == 0 {
			a.TagIDs = nil
		}
	}
	if err := tx.replaceAsset(old, &a); err != nil {
		return internal(err)
	}
	return nil
}

// TagAssets is the user's assets the tag labels, out of the trash, the
// oldest made first, as the reference lists them.
func (v *View) TagAssets(userID, id string) ([]*model.AssetRecord, error) {
	if _, err := v.OwnTag(userID, id); err != nil {
		return nil, err
	}
	var out []*model.AssetRecord
	for _, a := range v.st.byOwner[userID] {
		if Live(a) && slices.Contains(a.TagIDs, id) {
			out = append(out, a)
		}
	}
	slices.SortStableFunc(out, func(a, b *model.AssetRecord) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt.Time), strings.Compare(a.ID, b.ID))
	})
	return out, nil
}

// TagAssetsWith labels assets with the user's tag (on), or takes the tag
// off (not on), in request order, each with its outcome, each judged
// against the assets as they were before the request, as the reference
// judges them (an id given twice is a success twice). Labelling:
// duplicate where the asset has the tag, not_found for the user's asset
// in the trash, no_permission for another's or none (the reference fails
// with a 500 for those three kinds). Taking off: not_found where the
// user's asset out of the trash does not have it.
func (tx *Tx) TagAssetsWith(userID, id string, ids []string, on bool) ([]model.AssetIDResult, error) {
	if _, err := tx.OwnTag(userID, id); err != nil {
		return nil, err
	}
	out := make([]model.AssetIDResult, 0, len(ids))
	var change []string
	changing := map[string]bool{}
	for _, aid := range ids {
		a := tx.st.assetBy[aid]
		mine := a != nil && a.OwnerID == userID
		has := mine && Live(a) && slices.Contains(a.TagIDs, id)
		switch {
		case on && has:
			out = append(out, model.AssetIDResult{AssetID: aid, Error: BulkDuplicate})
		case on && !mine:
			out = append(out, model.AssetIDResult{AssetID: aid, Error: BulkNoPermission})
		case on && !Live(a), !on && !has:
			out = append(out, model.AssetIDResult{AssetID: aid, Error: BulkNotFound})
		default:
			out = append(out, model.AssetIDResult{AssetID: aid, Success: true})
			if !changing[aid] {
				changing[aid] = true
				change = append(change, aid)
			}
		}
	}
	for _, aid := range change {
		if err := tx.setTagged(tx.st.assetBy[aid], id, on); err != nil {
			return nil, err
		}
	}
	return out, nil
}
