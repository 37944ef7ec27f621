package api

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// linkTokenCookieAge is how long the cookie that opens a protected link lasts.
const linkTokenCookieAge = 24 * time.Hour

// listingShows is what a user's listing shows: every kind of record but
// the assets that came since, which are in no link yet.
const listingShows = store.Everything &^ store.AssetsAdded &^ store.Keys

// sharedLinks is GET /api/shared-links: the caller's own links, newest
// first. It is encoded once and answered from memory until a write
// changes what it shows: frontends poll it.
func (s *server) sharedLinks(c *call) error {
	a, err := s.answers.encodedList(c.r.Context(), "links\x00"+c.p().User.ID+"\x00"+refKey(c.aud), listingShows, func(v *store.View, emit func(any) error) error {
		return eachListed(v, c.aud, emit)
	})
	if err != nil {
		return err
	}
	s.large.Write(c.w, http.StatusOK, a.parts, a.size, a.etag)
	return nil
}

// eachListed hands emit the listing's links one at a time, in its order.
func eachListed(v *store.View, aud audience, emit func(any) error) error {
	links := v.LinksOf(aud.viewer())
	slices.SortFunc(links, newestFirst)
	for _, l := range links {
		if err := emit(linkAnswer(v, l, aud.linkListed(l))); err != nil {
			return err
		}
	}
	return nil
}

// refKey tells apart the answers of the reference's shapes in the cache.
func refKey(a audience) string {
	if a.reference {
		return "reference"
	}
	return "full"
}

// newestFirst orders links by createdAt, newest first; ids break ties so the
// order is the same in every process.
func newestFirst(a, b *model.SharedLinkRecord) int {
	if c := b.CreatedAt.Compare(a.CreatedAt.Time); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// newLinkOf reads createSharedLink's body, with the reference's defaults.
func newLinkOf(b dto.Body) store.NewLink {
	nl := store.NewLink{AllowUpload: true, AllowDownload: true, ShowMetadata: true}
	nl.Type, _ = b.String("type")
	if b.Has("assetIds") {
		nl.AssetIDs = lower(b.Strings("assetIds"))
	}
	if id, ok := b.String("albumId"); ok {
		nl.AlbumID = new(strings.ToLower(id))
	}
	if v, ok := b.String("description"); ok {
		nl.Description = &v
	}
	if v, ok := b.String("password"); ok {
		nl.Password = &v
	}
	if t, ok := b.Time("expiresAt"); ok {
		nl.ExpiresAt = model.At(t).Ptr()
	}
	for _, f := range []struct {
		name string
		dst  *bool
	}{{"allowUpload", &nl.AllowUpload}, {"allowDownload", &nl.AllowDownload}, {"showMetadata", &nl.ShowMetadata}} {
		if v, ok := b.Bool(f.name); ok {
			*f.dst = v
		}
	}
	return nl
}

// lower is ids in lower case, as the store keeps them.
func lower(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strings.ToLower(id)
	}
	return out
}

// createSharedLink is POST /api/shared-links.
func (s *server) createSharedLink(c *call, b dto.Body) error {
	nl := newLinkOf(b)
	out, err := store.Update(s.store, func(tx *store.Tx) (model.SharedLink, error) {
		l, err := tx.CreateLink(c.p().User.ID, nl)
		if err != nil {
			return model.SharedLink{}, err
		}
		return linkAnswer(&tx.View, l, c.aud.linkMade()), nil
	})
	return answer(c, http.StatusCreated, out, err)
}

// sharedLink is GET /api/shared-links/{id}.
func (s *server) sharedLink(c *call) error {
	out, err := store.Query(s.store, func(v *store.View) (model.SharedLink, error) {
		l, err := v.OwnLink(c.p().User.ID, c.id)
		if err != nil {
			return model.SharedLink{}, err
		}
		return linkAnswer(v, l, c.aud.linkRead()), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// updateSharedLink is PATCH /api/shared-links/{id}. Absent members keep
// their value, null clears description, password and expiresAt; type, key
// and assetIds cannot be changed and are ignored.
func (s *server) updateSharedLink(c *call, b dto.Body) error {
	var lp store.LinkPatch
	for _, f := range []struct {
		name string
		dst  ***string
	}{{"description", &lp.Description}, {"password", &lp.Password}} {
		if b.Has(f.name) {
			v, ok := b.String(f.name)
			var p *string
			if ok {
				p = &v
			}
			*f.dst = &p
		}
	}
	if b.Has("expiresAt") {
		var p *model.Time
		if t, ok := b.Time("expiresAt"); ok {
			p = model.At(t).Ptr()
		}
		lp.ExpiresAt = &p
	}
	for _, f := range []struct {
		name string
		dst  **bool
	}{{"allowUpload", &lp.AllowUpload}, {"allowDownload", &lp.AllowDownload}, {"showMetadata", &lp.ShowMetadata}} {
		if v, ok := b.Bool(f.name); ok {
			*f.dst = &v
		}
	}
	// changeExpiryTime without a date clears the expiry; a date wins.
	if change, _ := b.Bool("changeExpiryTime"); change && (lp.ExpiresAt == nil || *lp.ExpiresAt == nil) {
		lp.ExpiresAt = new((*model.Time)(nil))
	}
	out, err := store.Update(s.store, func(tx *store.Tx) (model.SharedLink, error) {
		l, err := tx.UpdateLink(c.p().User.ID, c.id, lp)
		if err != nil {
			return model.SharedLink{}, err
		}
		return linkAnswer(&tx.View, l, c.aud.linkMade()), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// removeSharedLink is DELETE /api/shared-links/{id}: 200 with an empty
// body and no Content-Type, as the reference answers.
func (s *server) removeSharedLink(c *call) error {
	if err := s.store.Write(func(tx *store.Tx) error { return tx.RemoveLink(c.p().User.ID, c.id) }); err != nil {
		return err
	}
	c.w.Header().Set("Content-Length", "0")
	c.w.WriteHeader(http.StatusOK)
	return nil
}

// sharedLinkAssets is PUT (add) and DELETE (remove) of
// /api/shared-links/{id}/assets.
func (s *server) sharedLinkAssets(add bool) func(c *call, b dto.Body) error {
	return func(c *call, b dto.Body) error {
		ids := lower(b.Strings("assetIds"))
		out, err := store.Update(s.store, func(tx *store.Tx) ([]model.AssetIDResult, error) {
			return tx.ChangeLinkAssets(c.p(), c.id, ids, add)
		})
		return answer(c, http.StatusOK, out, err)
	}
}

// mySharedLink is GET /api/shared-links/me?password&token: a link's holder
// opens it with its key, and its password if it has one. The answer hides
// the password, sanitizes the assets when the link hides metadata, and
// carries the token for a protected link.
func (s *server) mySharedLink(c *call) error {
	q := c.r.URL.Query()
	var password *string
	if vs, ok := q["password"]; ok {
		if len(vs) != 1 {
			return store.InvalidFields([]string{"password must be a string"})
		}
		password = &vs[0]
	}
	tokens := credentialsOf(c.r).LinkTokens
	var token string
	out, err := store.Query(s.store, func(v *store.View) (any, error) {
		l, t, err := v.OpenLink(c.p(), password, tokens)
		if err != nil {
			return nil, err
		}
		token = t
		link := linkAnswer(v, l, c.aud.linkOpened())
		var tp *string
		if token != "" {
			tp = &token
		}
		switch {
		case !l.ShowMetadata:
			return model.SanitizedSharedLink{SharedLink: link, Assets: sanitizedAll(linkAssets(v, l, model.OldestFirst)), Token: tp}, nil
		case tp != nil:
			return model.SharedLinkWithToken{SharedLink: link, Token: token}, nil
		}
		return link, nil
	})
	if err != nil {
		return err
	}
	if token != "" && password != nil && !strings.Contains(token, ",") && !slices.Contains(tokens, token) {
		httpx.SetCookie(c.w, "immich_shared_link_token", url.QueryEscape(token), linkTokenCookieAge, true, s.cfg.Now())
	}
	return c.json(http.StatusOK, out)
}
