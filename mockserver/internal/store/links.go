package store

import (
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Shared links: the store's side of a link's life (made, read, edited,
// deleted, its assets changed) and of opening one as its holder.

// LinkToken is what a holder of a password-protected link gets for the
// right password: base64 of a SHA-256, fixed per link and password.
func LinkToken(l *model.SharedLinkRecord) string {
	pw := ""
	if l.Password != nil {
		pw = *l.Password
	}
	sum := sha256.Sum256([]byte(l.ID + "\x00" + pw))
	return base64.StdEncoding.EncodeToString(sum[:])
}

// Protected says whether opening the link needs its password.
func Protected(l *model.SharedLinkRecord) bool {
	return l.Password != nil && *l.Password != ""
}

// NewLink is what POST /api/shared-links asks for.
type NewLink struct {
	Type                                     string
	AssetIDs                                 []string
	AlbumID, Description, Password           *string
	ExpiresAt                                *model.Time
	AllowUpload, AllowDownload, ShowMetadata bool
}

// CreateLink makes a link of the user. Every asset and the album must be
// the user's; nothing is made otherwise. Repeated asset ids collapse.
func (tx *Tx) CreateLink(userID string, nl NewLink) (*model.SharedLinkRecord, error) {
	st := tx.st
	if st.userByID[userID] == nil {
		return nil, Fail(Unauthenticated, "Invalid user token")
	}
	switch {
	case nl.Type == model.LinkAlbum && nl.AlbumID == nil:
		return nil, Fail(Invalid, "Invalid albumId")
	case nl.Type == model.LinkIndividual && len(nl.AssetIDs) == 0:
		return nil, Fail(Invalid, "Invalid assetIds")
	}
	var ids []string
	seen := make(map[string]bool, len(nl.AssetIDs))
	for _, id := range nl.AssetIDs {
		if a := st.assetBy[id]; a == nil || a.OwnerID != userID {
			return nil, Fail(NoAccess, "Not found or no asset.share access")
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if nl.AlbumID != nil {
		if al := st.albumByID[*nl.AlbumID]; al == nil || al.OwnerID != userID {
			return nil, Fail(NoAccess, "Not found or no album.share access")
		}
	}
	if nl.Description != nil && *nl.Description == "" {
		nl.Description = nil
	}
	l := model.SharedLinkRecord{
		ID: tx.db.newID(), Key: tx.db.newSecret(50), Type: nl.Type, UserID: userID, AlbumID: nl.AlbumID,
		AssetIDs: ids, AllowUpload: nl.AllowUpload, AllowDownload: nl.AllowDownload, ShowMetadata: nl.ShowMetadata,
		Password: nl.Password, Description: nl.Description, ExpiresAt: nl.ExpiresAt, CreatedAt: tx.Tick(),
	}
	if err := tx.addLink(l); err != nil {
		return nil, internal(err)
	}
	return st.linkByID[l.ID], nil
}

// OwnLink is the user's link of that id, expired ones too.
func (v *View) OwnLink(userID, id string) (*model.SharedLinkRecord, error) {
	l := v.st.linkByID[id]
	if l == nil || l.UserID != userID {
		return nil, Fail(NotFound, "Shared link not found")
	}
	return l, nil
}

// LinkPatch is what PATCH /api/shared-links/{id} changes: a nil field is
// kept; a field pointing at nil is cleared.
type LinkPatch struct {
	Description, Password                    **string
	ExpiresAt                                **model.Time
	AllowUpload, AllowDownload, ShowMetadata *bool
}

// UpdateLink changes the user's link.
func (tx *Tx) UpdateLink(userID, id string, lp LinkPatch) (*model.SharedLinkRecord, error) {
	old, err := tx.OwnLink(userID, id)
	if err != nil {
		return nil, err
	}
	l := *old
	if lp.Description != nil {
		l.Description = *lp.Description
	}
	if lp.Password != nil {
		l.Password = *lp.Password
	}
	if lp.ExpiresAt != nil {
		l.ExpiresAt = *lp.ExpiresAt
	}
	for _, f := range []struct {
		dst *bool
		v   *bool
	}{{&l.AllowUpload, lp.AllowUpload}, {&l.AllowDownload, lp.AllowDownload}, {&l.ShowMetadata, lp.ShowMetadata}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	if err := tx.replaceLink(old, &l); err != nil {
		return nil, internal(err)
	}
	return &l, nil
}

// replaceLink puts a changed link (same id, key and owner) in the place of
// the stored one, in every index.
func (tx *Tx) replaceLink(old, l *model.SharedLinkRecord) error {
	st := tx.st
	i := slices.Index(st.links, old)
	mine := st.linksByUser[old.UserID]
	j := slices.Index(mine, old)
	if i < 0 || j < 0 || l.ID != old.ID || l.Key != old.Key || l.UserID != old.UserID {
		return errLinkGone(old.ID)
	}
	if err := st.tooManyListed(st.listed(l.UserID) - st.linkListed(old) + st.linkListed(l)); err != nil && st.linkListed(l) > st.linkListed(old) {
		return err
	}
	next := slices.Clone(mine)
	next[j] = l
	st.links[i] = l
	st.linkByID[l.ID] = l
	st.linkByKey[l.Key] = l
	st.linksByUser[l.UserID] = next
	tx.did(Links, func() {
		st.links[i] = old
		st.linkByID[l.ID] = old
		st.linkByKey[l.Key] = old
		st.linksByUser[l.UserID] = mine
	})
	return nil
}

type errLinkGone string

func (e errLinkGone) Error() string { return "link " + string(e) + " is not stored" }

// RemoveLink deletes the user's link: its key stops working at once.
func (tx *Tx) RemoveLink(userID, id string) error {
	st := tx.st
	l, err := tx.OwnLink(userID, id)
	if err != nil {
		return err
	}
	i := slices.Index(st.links, l)
	mine := st.linksByUser[l.UserID]
	j := slices.Index(mine, l)
	if i < 0 || j < 0 {
		return internal(errLinkGone(id))
	}
	links := st.links
	st.links = slices.Delete(slices.Clone(links), i, i+1)
	st.linksByUser[l.UserID] = slices.Delete(slices.Clone(mine), j, j+1)
	delete(st.linkByID, l.ID)
	delete(st.linkByKey, l.Key)
	if l.AlbumID != nil {
		if st.albumLinks[*l.AlbumID]--; st.albumLinks[*l.AlbumID] == 0 {
			delete(st.albumLinks, *l.AlbumID)
		}
	}
	tx.did(Links, func() {
		st.links = links
		st.linksByUser[l.UserID] = mine
		st.linkByID[l.ID] = l
		st.linkByKey[l.Key] = l
		if l.AlbumID != nil {
			st.albumLinks[*l.AlbumID]++
		}
	})
	return nil
}

// ChangeLinkAssets adds (add) or removes assets of an INDIVIDUAL link, for
// its owner or, with the link's own key, for a holder it lets upload.
func (tx *Tx) ChangeLinkAssets(p Principal, id string, ids []string, add bool) ([]model.AssetIDResult, error) {
	if p.Link != nil && (p.Link.ID != id || !p.Link.AllowUpload) {
		return nil, Fail(Forbidden, "Forbidden resource")
	}
	old, err := tx.OwnLink(p.User.ID, id)
	if err != nil {
		return nil, err
	}
	if old.Type != model.LinkIndividual {
		return nil, Fail(Invalid, "Invalid shared link type")
	}
	in := make(map[string]bool, len(old.AssetIDs))
	for _, a := range old.AssetIDs {
		in[a] = true
	}
	out := make([]model.AssetIDResult, 0, len(ids))
	var added []string
	removed := map[string]bool{}
	for _, aid := range ids {
		r := model.AssetIDResult{AssetID: aid}
		switch a := tx.st.assetBy[aid]; {
		case add && in[aid]:
			r.Error = BulkDuplicate
		case add && (a == nil || a.OwnerID != old.UserID):
			r.Error = BulkNoPermission
		case add:
			in[aid], r.Success = true, true
			added = append(added, aid)
		case !in[aid]:
			r.Error = BulkNotFound
		default:
			delete(in, aid)
			r.Success, removed[aid] = true, true
		}
		out = append(out, r)
	}
	if len(added) == 0 && len(removed) == 0 {
		return out, nil
	}
	l := *old
	l.AssetIDs = slices.Concat(slices.DeleteFunc(slices.Clone(old.AssetIDs), func(x string) bool { return removed[x] }), added)
	if err := tx.replaceLink(old, &l); err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// ErrMyLinkForbidden is getMySharedLink's answer to anything but a link's
// key: the reference's 403 without an error name.
var ErrMyLinkForbidden = Fail(Forbidden, "Forbidden")

// OpenLink is the link of p's key as its holder opens it: the password is
// checked (or a token the right password gave), and the answer carries
// the token for a protected link: the one the password gave, or the list
// of tokens the holder sent, as the reference echoes it.
func (v *View) OpenLink(p Principal, password *string, tokens []string) (*model.SharedLinkRecord, string, error) {
	if p.Link == nil {
		return nil, "", ErrMyLinkForbidden
	}
	l := v.st.linkByID[p.Link.ID]
	if l == nil {
		return nil, "", Fail(Unauthenticated, "Invalid share key")
	}
	if !Protected(l) {
		return l, "", nil
	}
	want := LinkToken(l)
	switch {
	case slices.Contains(tokens, want):
		return l, strings.Join(tokens, ","), nil
	case password != nil && *password == *l.Password:
		return l, want, nil
	}
	return nil, "", Fail(Unauthenticated, "Invalid password")
}
