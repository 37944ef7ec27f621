package mockserver

import (
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Shared links: the store's side of a link's life (made, read, edited,
// deleted, its assets changed) and of opening one as its holder.

// sharedLinkToken is what a holder of a password-protected link gets for
// the right password: base64 of a SHA-256, fixed per link and password.
func sharedLinkToken(l *model.SharedLinkRecord) string {
	pw := ""
	if l.Password != nil {
		pw = *l.Password
	}
	sum := sha256.Sum256([]byte(l.ID + "\x00" + pw))
	return base64.StdEncoding.EncodeToString(sum[:])
}

// protected says whether opening the link needs its password.
func protected(l *model.SharedLinkRecord) bool {
	return l.Password != nil && *l.Password != ""
}

// linkDetail is a link as the link operations show it: its own assets,
// then its album's, each by fileCreatedAt ascending, without repeats and
// with their exifInfo (none with look.exif false); its album without
// assets but with its counts, dates and flags.
func (st *state) linkDetail(l *model.SharedLinkRecord) model.SharedLink {
	v := model.SharedLink{
		ID: l.ID, Description: l.Description, Password: l.Password, UserID: l.UserID, Key: l.Key,
		Type: l.Type, CreatedAt: l.CreatedAt, ExpiresAt: l.ExpiresAt, AllowUpload: l.AllowUpload,
		AllowDownload: l.AllowDownload, ShowMetadata: l.ShowMetadata, Assets: []model.Asset{},
	}
	own := make([]*model.AssetRecord, 0, len(l.AssetIDs))
	for _, id := range l.AssetIDs {
		own = append(own, st.assetBy[id])
	}
	slices.SortStableFunc(own, byFileCreatedAsc)
	seen := make(map[string]bool, len(own))
	look := assetLook{exif: true}
	for _, a := range own {
		seen[a.ID] = true
		v.Assets = append(v.Assets, st.assetShown(a, look))
	}
	if l.AlbumID != nil {
		al := st.albumByID[*l.AlbumID]
		album := st.albumShown(al, "", false, byFileCreatedAsc, assetLook{})
		v.Album = &album
		theirs := make([]*model.AssetRecord, 0, len(al.AssetIDs))
		for _, id := range al.AssetIDs {
			if !seen[id] {
				theirs = append(theirs, st.assetBy[id])
			}
		}
		slices.SortStableFunc(theirs, byFileCreatedAsc)
		for _, a := range theirs {
			v.Assets = append(v.Assets, st.assetShown(a, look))
		}
	}
	return v
}

// newLink is what POST /api/shared-links asks for.
type newLink struct {
	typ                                      string
	assetIDs                                 []string
	albumID, description, password           *string
	expiresAt                                *model.Time
	allowUpload, allowDownload, showMetadata bool
}

// createLink makes a link of the user. Every asset and the album must be
// the user's; nothing is made otherwise. Repeated asset ids collapse.
func (db *store) createLink(userID string, nl newLink) (model.SharedLink, error) {
	var out model.SharedLink
	err := db.write(func(st *state, tx *undo) error {
		if st.userByID[userID] == nil {
			return fail(errUnauthenticated, "Invalid user token")
		}
		switch {
		case nl.typ == model.LinkAlbum && nl.albumID == nil:
			return fail(errInvalid, "Invalid albumId")
		case nl.typ == model.LinkIndividual && len(nl.assetIDs) == 0:
			return fail(errInvalid, "Invalid assetIds")
		}
		var ids []string
		seen := make(map[string]bool, len(nl.assetIDs))
		for _, id := range nl.assetIDs {
			if a := st.assetBy[id]; a == nil || a.OwnerID != userID {
				return fail(errNoAccess, "Not found or no asset.share access")
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		if nl.albumID != nil {
			if al := st.albumByID[*nl.albumID]; al == nil || al.OwnerID != userID {
				return fail(errNoAccess, "Not found or no album.share access")
			}
		}
		if nl.description != nil && *nl.description == "" {
			nl.description = nil
		}
		l := model.SharedLinkRecord{
			ID: db.newID(), Key: db.newSecret(50), Type: nl.typ, UserID: userID, AlbumID: nl.albumID,
			AssetIDs: ids, AllowUpload: nl.allowUpload, AllowDownload: nl.allowDownload, ShowMetadata: nl.showMetadata,
			Password: nl.password, Description: nl.description, ExpiresAt: nl.expiresAt, CreatedAt: db.tick(),
		}
		if err := st.addLink(l, tx); err != nil {
			return internal(err)
		}
		db.changed()
		out = st.linkDetail(st.linkByID[l.ID])
		if db.referenceShapes {
			referenceMade(&out)
		}
		return nil
	})
	return out, err
}

// ownLink is the user's link of that id, expired ones too.
func (st *state) ownLink(userID, id string) (*model.SharedLinkRecord, error) {
	l := st.linkByID[id]
	if l == nil || l.UserID != userID {
		return nil, fail(errNotFound, "Shared link not found")
	}
	return l, nil
}

// link is the user's link as GET /api/shared-links/{id} shows it.
func (db *store) link(userID, id string) (model.SharedLink, error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	l, err := db.state.ownLink(userID, id)
	if err != nil {
		return model.SharedLink{}, err
	}
	v := db.state.linkDetail(l)
	if db.referenceShapes {
		referenceRead(&v)
	}
	return v, nil
}

// linkPatch is what PATCH /api/shared-links/{id} changes: a nil field is
// kept; a field pointing at nil is cleared.
type linkPatch struct {
	description, password                    **string
	expiresAt                                **model.Time
	allowUpload, allowDownload, showMetadata *bool
}

// updateLink changes the user's link.
func (db *store) updateLink(userID, id string, lp linkPatch) (model.SharedLink, error) {
	var out model.SharedLink
	err := db.write(func(st *state, tx *undo) error {
		old, err := st.ownLink(userID, id)
		if err != nil {
			return err
		}
		l := *old
		if lp.description != nil {
			l.Description = *lp.description
		}
		if lp.password != nil {
			l.Password = *lp.password
		}
		if lp.expiresAt != nil {
			l.ExpiresAt = *lp.expiresAt
		}
		for _, f := range []struct {
			dst *bool
			v   *bool
		}{{&l.AllowUpload, lp.allowUpload}, {&l.AllowDownload, lp.allowDownload}, {&l.ShowMetadata, lp.showMetadata}} {
			if f.v != nil {
				*f.dst = *f.v
			}
		}
		if err := st.replaceLink(old, &l, tx); err != nil {
			return internal(err)
		}
		db.changed()
		out = st.linkDetail(&l)
		if db.referenceShapes {
			referenceMade(&out)
		}
		return nil
	})
	return out, err
}

// replaceLink puts a changed link (same id, key and owner) in the place of
// the stored one, in every index.
func (st *state) replaceLink(old, l *model.SharedLinkRecord, tx *undo) error {
	i := slices.Index(st.links, old)
	mine := st.linksByUser[old.UserID]
	j := slices.Index(mine, old)
	if i < 0 || j < 0 || l.ID != old.ID || l.Key != old.Key || l.UserID != old.UserID {
		return errLinkGone(old.ID)
	}
	if err := tooManyListed(st.listed(l.UserID) - st.linkListed(old) + st.linkListed(l)); err != nil && st.linkListed(l) > st.linkListed(old) {
		return err
	}
	next := slices.Clone(mine)
	next[j] = l
	st.links[i] = l
	st.linkByID[l.ID] = l
	st.linkByKey[l.Key] = l
	st.linksByUser[l.UserID] = next
	tx.push(func() {
		st.links[i] = old
		st.linkByID[l.ID] = old
		st.linkByKey[l.Key] = old
		st.linksByUser[l.UserID] = mine
	})
	return nil
}

type errLinkGone string

func (e errLinkGone) Error() string { return "link " + string(e) + " is not stored" }

// removeLink deletes the user's link: its key stops working at once.
func (db *store) removeLink(userID, id string) error {
	return db.write(func(st *state, tx *undo) error {
		l, err := st.ownLink(userID, id)
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
		tx.push(func() {
			st.links = links
			st.linksByUser[l.UserID] = mine
			st.linkByID[l.ID] = l
			st.linkByKey[l.Key] = l
			if l.AlbumID != nil {
				st.albumLinks[*l.AlbumID]++
			}
		})
		db.changed()
		return nil
	})
}

// changeLinkAssets adds (add) or removes assets of an INDIVIDUAL link, for
// its owner or, with the link's own key, for a holder it lets upload.
func (db *store) changeLinkAssets(p principal, id string, ids []string, add bool) ([]model.AssetIDResult, error) {
	var out []model.AssetIDResult
	err := db.write(func(st *state, tx *undo) error {
		if p.link != nil && (p.link.ID != id || !p.link.AllowUpload) {
			return fail(errForbidden, "Forbidden resource")
		}
		old, err := st.ownLink(p.user.ID, id)
		if err != nil {
			return err
		}
		if old.Type != model.LinkIndividual {
			return fail(errInvalid, "Invalid shared link type")
		}
		in := make(map[string]bool, len(old.AssetIDs))
		for _, a := range old.AssetIDs {
			in[a] = true
		}
		out = make([]model.AssetIDResult, 0, len(ids))
		var added []string
		removed := map[string]bool{}
		for _, aid := range ids {
			r := model.AssetIDResult{AssetID: aid}
			switch a := st.assetBy[aid]; {
			case add && in[aid]:
				r.Error = bulkDuplicate
			case add && (a == nil || a.OwnerID != old.UserID):
				r.Error = bulkNoPermission
			case add:
				in[aid], r.Success = true, true
				added = append(added, aid)
			case !in[aid]:
				r.Error = bulkNotFound
			default:
				delete(in, aid)
				r.Success, removed[aid] = true, true
			}
			out = append(out, r)
		}
		if len(added) == 0 && len(removed) == 0 {
			return nil
		}
		l := *old
		l.AssetIDs = slices.Concat(slices.DeleteFunc(slices.Clone(old.AssetIDs), func(x string) bool { return removed[x] }), added)
		if err := st.replaceLink(old, &l, tx); err != nil {
			return internal(err)
		}
		db.changed()
		return nil
	})
	return out, err
}

// myLink is the link of p's key as its holder opens it: the password is
// checked (or the token the right password gave); the answer hides the
// password, sanitizes the assets when the link hides metadata, and
// carries the token for a protected link.
func (db *store) myLink(p principal, password *string, tokens []string) (any, string, error) {
	if p.link == nil {
		return nil, "", errMyLinkForbidden
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	st := db.state
	l := st.linkByID[p.link.ID]
	if l == nil {
		return nil, "", fail(errUnauthenticated, "Invalid share key")
	}
	token := ""
	if protected(l) {
		want := sharedLinkToken(l)
		switch {
		case slices.Contains(tokens, want):
			token = strings.Join(tokens, ",") // the reference echoes the list it was given
		case password != nil && *password == *l.Password:
			token = want
		default:
			return nil, "", fail(errUnauthenticated, "Invalid password")
		}
	}
	v := st.linkDetail(l)
	if db.referenceShapes {
		referenceRead(&v) // and the password shown to its holder, as the reference does
	} else {
		v.Password = nil
	}
	if !l.ShowMetadata {
		sl := model.SanitizedSharedLink{SharedLink: v, Assets: sanitizedAll(v.Assets)}
		if token != "" {
			sl.Token = &token
		}
		return sl, token, nil
	}
	if token != "" {
		return model.SharedLinkWithToken{SharedLink: v, Token: token}, token, nil
	}
	return v, "", nil
}

// errMyLinkForbidden is getMySharedLink's answer to anything but a link's
// key: the reference's 403 without an error name.
var errMyLinkForbidden = fail(errForbidden, "Forbidden")
