package store

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Activities: the comments and likes of an album's users, on the album
// or on one of its assets.

// MaxCommentChars bounds a comment.
const MaxCommentChars = MaxDescriptionChars

// addActivity checks a against the state and adds it, recording in tx how
// to take it back.
func (tx *Tx) addActivity(a model.ActivityRecord) error {
	st := tx.st
	if err := tx.room(); err != nil {
		return err
	}
	switch {
	case a.ID == "" || st.activityByID[a.ID] != nil:
		return fmt.Errorf("id %q is empty or not unique", a.ID)
	case st.albumByID[a.AlbumID] == nil:
		return fmt.Errorf("albumId %q is not an album", a.AlbumID)
	case st.userByID[a.UserID] == nil:
		return fmt.Errorf("userId %q is not a user", a.UserID)
	case a.AssetID != nil && st.assetBy[*a.AssetID] == nil:
		return fmt.Errorf("assetId %q is not an asset", *a.AssetID)
	case a.IsLiked != (a.Comment == nil):
		return fmt.Errorf("a like has no comment, and a comment has one")
	case a.IsLiked && tx.like(a.UserID, a.AlbumID, a.AssetID) != nil:
		return fmt.Errorf("user %q likes the same thing twice", a.UserID)
	}
	if a.Comment != nil {
		if err := checkText("comment", *a.Comment, MaxCommentChars); err != nil {
			return err
		}
	}
	if err := inRange(timeField{"createdAt", &a.CreatedAt}); err != nil {
		return err
	}
	made := st.activityByID == nil
	if made {
		st.activityByID = map[string]*model.ActivityRecord{}
	}
	before := st.activities
	st.activities = append(before, &a)
	st.activityByID[a.ID] = &a
	tx.did(Albums, func() {
		st.activities = before
		delete(st.activityByID, a.ID)
		if made {
			st.activityByID = nil
		}
	})
	return nil
}

// like is the user's like of the album, or of one of its assets (nil:
// the album itself).
func (v *View) like(userID, albumID string, assetID *string) *model.ActivityRecord {
	for _, a := range v.st.activities {
		if a.IsLiked && a.UserID == userID && a.AlbumID == albumID && sameID(a.AssetID, assetID) {
			return a
		}
	}
	return nil
}

func sameID(a, b *string) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// ActivityFilter is what GET /api/activities asks for: the album's
// activities, of an asset (AssetID), of the album alone (AlbumOnly), of
// one user, likes or comments.
type ActivityFilter struct {
	AlbumID   string
	AssetID   *string
	AlbumOnly bool
	UserID    *string
	IsLiked   *bool
}

// readableAlbumFor is the album p may read, or the reference's 400.
func (v *View) readableAlbumFor(p Principal, id string) (*model.AlbumRecord, error) {
	al := v.ReadableAlbum(p, id)
	if al == nil || !v.AlbumVisible(al) {
		return nil, Fail(NoAccess, "Not found or no album.read access")
	}
	return al, nil
}

// Activities lists the activities of an album p may read that f selects,
// the oldest first. A deleted user's are out of sight.
func (v *View) Activities(p Principal, f ActivityFilter) ([]*model.ActivityRecord, error) {
	if _, err := v.readableAlbumFor(p, f.AlbumID); err != nil {
		return nil, err
	}
	var out []*model.ActivityRecord
	for _, a := range v.st.activities {
		switch {
		case a.AlbumID != f.AlbumID, v.ActiveUser(a.UserID) == nil:
		case f.UserID != nil && a.UserID != *f.UserID:
		case f.AlbumOnly && a.AssetID != nil:
		case !f.AlbumOnly && f.AssetID != nil && !sameID(a.AssetID, f.AssetID):
		case f.IsLiked != nil && a.IsLiked != *f.IsLiked:
		default:
			out = append(out, a)
		}
	}
	slices.SortStableFunc(out, func(a, b *model.ActivityRecord) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt.Time), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// ActivityComments counts the comments of an album p may read (of one of
// its assets, with assetID), as the reference counts them: not those of
// an asset in the trash, nor of a deleted user.
func (v *View) ActivityComments(p Principal, albumID string, assetID *string) (int, error) {
	if _, err := v.readableAlbumFor(p, albumID); err != nil {
		return 0, err
	}
	n := 0
	for _, a := range v.st.activities {
		switch {
		case a.AlbumID != albumID, a.IsLiked, v.ActiveUser(a.UserID) == nil:
		case assetID != nil && !sameID(a.AssetID, assetID):
		case a.AssetID != nil && !Live(v.st.assetBy[*a.AssetID]):
		default:
			n++
		}
	}
	return n, nil
}

// NewActivity is what POST /api/activities asks for: a like, or a
// comment with its text.
type NewActivity struct {
	AlbumID string
	AssetID *string
	Like    bool
	Comment string
}

// AddActivity makes an activity of the user's in an album they own or
// are a user of, whose activity is on. A like is made once: the second
// time, the first is answered, with duplicate true.
func (tx *Tx) AddActivity(userID string, na NewActivity) (a *model.ActivityRecord, duplicate bool, err error) {
	st := tx.st
	al := st.albumByID[na.AlbumID]
	if al == nil || !tx.AlbumVisible(al) || !al.IsActivityEnabled || RoleOf(al, userID) == "" {
		return nil, false, Fail(NoAccess, "Not found or no activity.create access")
	}
	if na.AssetID != nil && st.assetBy[*na.AssetID] == nil {
		return nil, false, Fail(Invalid, "Asset not found")
	}
	if na.Like {
		if old := tx.like(userID, na.AlbumID, na.AssetID); old != nil {
			return old, true, nil
		}
	}
	rec := model.ActivityRecord{ID: tx.db.newID(), AlbumID: na.AlbumID, UserID: userID, AssetID: na.AssetID, IsLiked: na.Like, CreatedAt: tx.Tick()}
	if !na.Like {
		rec.Comment = &na.Comment
	}
	if err := tx.addActivity(rec); err != nil {
		return nil, false, internal(err)
	}
	return st.activityByID[rec.ID], false, nil
}

// RemoveActivity deletes an activity, as its author or the album's owner.
func (tx *Tx) RemoveActivity(userID, id string) error {
	st := tx.st
	a := st.activityByID[id]
	if a == nil || (a.UserID != userID && st.albumByID[a.AlbumID].OwnerID != userID) {
		return Fail(NoAccess, "Not found or no activity.delete access")
	}
	tx.dropActivities(func(o *model.ActivityRecord) bool { return o == a })
	return nil
}

// dropActivities takes out the activities gone says, in one step.
func (tx *Tx) dropActivities(gone func(a *model.ActivityRecord) bool) {
	st := tx.st
	if !slices.ContainsFunc(st.activities, gone) {
		return
	}
	before := st.activities
	var dropped []*model.ActivityRecord
	st.activities = slices.DeleteFunc(slices.Clone(before), func(a *model.ActivityRecord) bool {
		if gone(a) {
			dropped = append(dropped, a)
			return true
		}
		return false
	})
	for _, a := range dropped {
		delete(st.activityByID, a.ID)
	}
	tx.did(Albums, func() {
		st.activities = before
		for _, a := range dropped {
			st.activityByID[a.ID] = a
		}
	})
}

// pruneActivities drops from d the activities whose album, user or asset
// d no longer holds, as the reference's foreign keys cascade.
func pruneActivities(d *model.Dataset) {
	if len(d.Activities) == 0 {
		return
	}
	albums, users, assets := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, al := range d.Albums {
		albums[al.ID] = true
	}
	for _, u := range d.Users {
		users[u.ID] = true
	}
	for _, a := range d.Assets {
		assets[a.ID] = true
	}
	d.Activities = slices.DeleteFunc(slices.Clone(d.Activities), func(a model.ActivityRecord) bool {
		return !albums[a.AlbumID] || !users[a.UserID] || (a.AssetID != nil && !assets[*a.AssetID])
	})
}
