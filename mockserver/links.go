package mockserver

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// linkTokenCookieAge is how long the cookie that opens a protected link lasts.
const linkTokenCookieAge = 24 * time.Hour

// readLinkFields reads the members createSharedLink and updateSharedLink
// share, in the reference's order of messages: description, password, then
// the three rights. A non-ISO expiresAt is the single message that hides
// all others, as on the reference. A member absent stays nil; one given as
// null points at nil.
func readLinkFields(b jsonBody, pr *problems) (linkPatch, error) {
	var f linkPatch
	text := func(name string, maxChars int) **string {
		switch {
		case b.isNull(name):
			return new((*string)(nil))
		case !b.has(name):
			return nil
		}
		v, ok := b.str(name)
		switch {
		case !ok:
			pr.add("%s must be a string", name)
		case utf8.RuneCountInString(v) > maxChars:
			pr.add("%s must be shorter than or equal to %d characters", name, maxChars)
		}
		return new(&v)
	}
	f.description = text("description", maxDescriptionChars)
	f.password = text("password", maxPasswordChars)
	for _, r := range []struct {
		name string
		dst  **bool
	}{{"allowUpload", &f.allowUpload}, {"allowDownload", &f.allowDownload}, {"showMetadata", &f.showMetadata}} {
		if !b.has(r.name) {
			continue
		}
		v, ok := b.boolean(r.name)
		if !ok {
			pr.add("%s must be a boolean value", r.name)
			continue
		}
		*r.dst = &v
	}
	switch {
	case b.isNull("expiresAt"):
		f.expiresAt = new((*model.Time)(nil))
	case b.has("expiresAt"):
		t, ok := b.date("expiresAt")
		if !ok {
			return f, fail(errInvalid, "expiresAt must be a date string")
		}
		f.expiresAt = new(model.At(t).Ptr())
	}
	return f, nil
}

// orDefault is *p, or def when p is nil.
func orDefault[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// handleCreateLink is POST /api/shared-links.
func (s *server) handleCreateSharedLink() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := s.read(r, s.authenticateUser, false, true)
		if err != nil {
			writeError(w, err)
			return
		}
		p, b := in.principal, in.body
		var nl newLink
		var pr problems
		typ, _ := b.str("type")
		if typ != model.LinkAlbum && typ != model.LinkIndividual {
			pr.add("type must be one of the following values: ALBUM, INDIVIDUAL")
		}
		nl.typ = typ
		if b.has("albumId") {
			id, ok := b.str("albumId")
			if !ok || !isUUID(id) {
				pr.add("albumId must be a UUID")
			}
			nl.albumID = &id
		}
		if b.has("assetIds") {
			ids, isArray, each := b.uuids("assetIds")
			if !each || !isArray {
				pr.add("each value in assetIds must be a UUID")
			}
			nl.assetIDs = ids
		}
		f, err := readLinkFields(b, &pr)
		if err != nil {
			writeError(w, err)
			return
		}
		if err := pr.err(); err != nil {
			writeError(w, err)
			return
		}
		nl.description = orDefault(f.description, nil)
		nl.password = orDefault(f.password, nil)
		nl.expiresAt = orDefault(f.expiresAt, nil)
		nl.allowUpload = orDefault(f.allowUpload, true)
		nl.allowDownload = orDefault(f.allowDownload, true)
		nl.showMetadata = orDefault(f.showMetadata, true)
		link, err := s.store.createLink(p.user.ID, nl)
		answer(w, http.StatusCreated, link, err)
	})
}

// handleSharedLink is GET /api/shared-links/{id}.
func (s *server) handleSharedLink() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := s.read(r, s.authenticateUser, true, false)
		if err != nil {
			writeError(w, err)
			return
		}
		p, id := in.principal, in.id
		link, err := s.store.link(p.user.ID, id)
		answer(w, http.StatusOK, link, err)
	})
}

// handleUpdateSharedLink is PATCH /api/shared-links/{id}. type, key and
// assetIds cannot be changed and are ignored.
func (s *server) handleUpdateSharedLink() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := s.read(r, s.authenticateUser, true, true)
		if err != nil {
			writeError(w, err)
			return
		}
		p, id, b := in.principal, in.id, in.body
		var pr problems
		f, err := readLinkFields(b, &pr)
		if err != nil {
			writeError(w, err)
			return
		}
		var changeExpiry bool
		if b.has("changeExpiryTime") {
			v, ok := b.boolean("changeExpiryTime")
			if !ok {
				pr.add("changeExpiryTime must be a boolean value")
			}
			changeExpiry = v
		}
		if err := pr.err(); err != nil {
			writeError(w, err)
			return
		}
		// changeExpiryTime without a date clears the expiry; a date wins.
		if changeExpiry && (f.expiresAt == nil || *f.expiresAt == nil) {
			f.expiresAt = new((*model.Time)(nil))
		}
		link, err := s.store.updateLink(p.user.ID, id, f)
		answer(w, http.StatusOK, link, err)
	})
}

// handleRemoveSharedLink is DELETE /api/shared-links/{id}: 200 with an
// empty body and no Content-Type, as the reference answers.
func (s *server) handleRemoveSharedLink() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := s.read(r, s.authenticateUser, true, false)
		if err != nil {
			writeError(w, err)
			return
		}
		p, id := in.principal, in.id
		if err := s.store.removeLink(p.user.ID, id); err != nil {
			writeError(w, err)
			return
		}
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
	})
}

// handleSharedLinkAssets is PUT (add) and DELETE (remove) of
// /api/shared-links/{id}/assets.
func (s *server) handleSharedLinkAssets(add bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := s.read(r, s.authenticate, true, true)
		if err != nil {
			writeError(w, err)
			return
		}
		p, id, b := in.principal, in.id, in.body
		ids, err := idList(b, "assetIds")
		if err != nil {
			writeError(w, err)
			return
		}
		res, err := s.store.changeLinkAssets(p, id, ids, add)
		answer(w, http.StatusOK, res, err)
	})
}

// handleMySharedLink is GET /api/shared-links/me?password&token: a link's
// holder opens it with its key, and its password if it has one.
func (s *server) handleMySharedLink() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := s.authenticateKeyOnly(r)
		if err != nil {
			writeError(w, err)
			return
		}
		if p.link == nil {
			// The reference's answer here has no error name.
			recordError(w, errMyLinkForbidden)
			writeRawJSON(w, http.StatusForbidden, []byte(`{"message":"Forbidden","statusCode":403}`))
			return
		}
		q := r.URL.Query()
		var password *string
		if vs, ok := q["password"]; ok {
			if len(vs) != 1 {
				writeError(w, invalidFields([]string{"password must be a string"}))
				return
			}
			password = &vs[0]
		}
		link, token, err := s.store.myLink(p, password, credentialsOf(r).linkTokens)
		if err != nil {
			writeError(w, err)
			return
		}
		if token != "" && password != nil && !strings.Contains(token, ",") && !slices.Contains(credentialsOf(r).linkTokens, token) {
			http.SetCookie(w, &http.Cookie{
				Name: "immich_shared_link_token", Value: url.QueryEscape(token), Path: "/",
				MaxAge: int(linkTokenCookieAge / time.Second), Expires: s.cfg.Now().Add(linkTokenCookieAge),
				HttpOnly: true, SameSite: http.SameSiteLaxMode,
			})
		}
		writeJSON(w, http.StatusOK, link)
	})
}
