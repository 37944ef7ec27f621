package api

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// albums is GET /api/albums?shared&assetId.
func (s *server) albums(c *call) error {
	q := c.r.URL.Query()
	var f store.AlbumFilter
	var pr problems
	f.Shared = queryBool(q, "shared", &pr)
	if q.Has("assetId") {
		id := q.Get("assetId")
		if !dto.IsUUIDString(id) {
			pr.add("assetId must be a UUID")
		}
		f.AssetID = new(strings.ToLower(id))
	}
	if err := pr.err(); err != nil {
		return err
	}
	key := fmt.Sprintf("albums\x00%s\x00%s\x00%v\x00%v", c.p().User.ID, refKey(c.aud), ptrKey(f.Shared), ptrKey(f.AssetID))
	a, err := s.answers.encodedList(c.r.Context(), key, store.Everything, func(v *store.View, emit func(any) error) error {
		look := c.aud.albumListed(f.AssetID != nil)
		for _, al := range v.Albums(c.p().User.ID, f) {
			if err := emit(albumAnswer(v, al, look)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.large.Write(c.w, http.StatusOK, a.parts, a.size, a.etag)
	return nil
}

// ptrKey is what p points to, or "none", for an answer's key.
func ptrKey[T any](p *T) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprint(*p)
}

// createAlbum is POST /api/albums.
func (s *server) createAlbum(c *call, b dto.Body) error {
	var na store.NewAlbum
	na.Name, _ = b.String("albumName")
	na.Description, _ = b.String("description")
	na.AssetIDs = lower(b.Strings("assetIds"))
	for _, u := range b.Objects("albumUsers") {
		id, _ := u.String("userId")
		role, _ := u.String("role")
		na.Users = append(na.Users, model.AlbumUserRecord{UserID: strings.ToLower(id), Role: role})
	}
	out, err := store.Update(s.store, func(tx *store.Tx) (model.Album, error) {
		al, err := tx.CreateAlbum(c.p().User.ID, na)
		if err != nil {
			return model.Album{}, err
		}
		return albumAnswer(&tx.View, al, albumMade()), nil
	})
	return answer(c, http.StatusCreated, out, err)
}

// albumShows is what an album shows: everything but the credentials, and
// the assets that came since, which are in no album yet.
const albumShows = store.Everything &^ store.AssetsAdded &^ store.Keys

// album is GET /api/albums/{id}?withoutAssets: encoded once per viewer
// until a write changes what it shows. Through a link that hides metadata
// its assets are sanitized.
func (s *server) album(c *call) error {
	var pr problems
	without := queryBool(c.r.URL.Query(), "withoutAssets", &pr)
	if err := pr.err(); err != nil {
		return err
	}
	withAssets := without == nil || !*without
	p := c.p()
	viewer := "user\x00" + p.User.ID
	if p.Link != nil {
		viewer = "link\x00" + p.Link.ID
	}
	key := "album\x00" + c.id + "\x00" + viewer + "\x00" + refKey(c.aud)
	if !withAssets {
		key += "\x00without"
	}
	a, err := s.answers.encoded(c.r.Context(), key, albumShows, func(v *store.View) (any, error) {
		al := v.ReadableAlbum(p, c.id)
		if al == nil {
			return nil, store.Fail(store.NoAccess, "Not found or no album.read access")
		}
		return c.aud.album(v, al, c.aud.albumRead(withAssets)), nil
	})
	if err != nil {
		return err
	}
	s.large.Write(c.w, http.StatusOK, a.parts, a.size, a.etag)
	return nil
}

// addAlbumAssets is PUT /api/albums/{id}/assets.
func (s *server) addAlbumAssets(c *call, b dto.Body) error {
	ids := lower(b.Strings("ids"))
	out, err := store.Update(s.store, func(tx *store.Tx) ([]model.BulkIDResult, error) {
		return tx.AddAlbumAssets(c.p(), c.id, ids)
	})
	return answer(c, http.StatusOK, out, err)
}
