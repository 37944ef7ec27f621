package api

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/ingest"
	"github.com/mediaspec/mediaspec/mockserver/internal/live"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The library as its owner changes it: albums, assets, the trash,
// partners and people.

// albumCount is GET /api/albums/count.
func (s *server) albumCount(c *call) error {
	var owned, shared, notShared int
	s.store.Read(func(v *store.View) { owned, shared, notShared = v.AlbumCount(c.p().User.ID) })
	return c.json(http.StatusOK, map[string]int{"owned": owned, "shared": shared, "notShared": notShared})
}

// updateAlbum is PATCH /api/albums/{id}: its owner changes it; the answer
// is the album without its assets.
func (s *server) updateAlbum(c *call, b dto.Body) error {
	var p store.AlbumPatch
	for _, f := range []struct {
		name string
		dst  **string
	}{{"albumName", &p.Name}, {"description", &p.Description}, {"albumThumbnailAssetId", &p.ThumbnailAssetID}, {"order", &p.Order}} {
		if v, ok := b.String(f.name); ok {
			if f.name == "albumThumbnailAssetId" {
				v = strings.ToLower(v)
			}
			*f.dst = &v
		}
	}
	if v, ok := b.Bool("isActivityEnabled"); ok {
		p.IsActivityEnabled = &v
	}
	return s.writeAlbum(c, func(tx *store.Tx) (*model.AlbumRecord, error) { return tx.UpdateAlbum(c.p(), c.id, p) })
}

// writeAlbum runs a write that answers an album, and answers it without
// its assets.
func (s *server) writeAlbum(c *call, f func(tx *store.Tx) (*model.AlbumRecord, error)) error {
	out, err := store.Update(s.store, func(tx *store.Tx) (model.Album, error) {
		al, err := f(tx)
		if err != nil {
			return model.Album{}, err
		}
		return albumAnswer(&tx.View, al, albumLook{}), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// deleteAlbum is DELETE /api/albums/{id}: 200 with no body, as the
// reference answers.
func (s *server) deleteAlbum(c *call) error {
	if err := s.store.Write(func(tx *store.Tx) error { return tx.DeleteAlbum(c.p(), c.id) }); err != nil {
		return err
	}
	return emptyOK(c)
}

// emptyOK answers 200 with no body and no Content-Type, as the reference
// answers an operation that returns nothing.
func emptyOK(c *call) error {
	c.w.Header().Set("Content-Length", "0")
	c.w.WriteHeader(http.StatusOK)
	return nil
}

// removeAlbumAssets is DELETE /api/albums/{id}/assets.
func (s *server) removeAlbumAssets(c *call, b dto.Body) error {
	ids := lower(b.Strings("ids"))
	out, err := store.Update(s.store, func(tx *store.Tx) ([]model.BulkIDResult, error) {
		return tx.RemoveAlbumAssets(c.p(), c.id, ids)
	})
	return answer(c, http.StatusOK, out, err)
}

// addAlbumUsers is PUT /api/albums/{id}/users.
func (s *server) addAlbumUsers(c *call, b dto.Body) error {
	var users []model.AlbumUserRecord
	for _, u := range b.Objects("albumUsers") {
		id, _ := u.String("userId")
		role, _ := u.String("role")
		users = append(users, model.AlbumUserRecord{UserID: strings.ToLower(id), Role: role})
	}
	return s.writeAlbum(c, func(tx *store.Tx) (*model.AlbumRecord, error) { return tx.AddAlbumUsers(c.p(), c.id, users) })
}

// albumUserID reads the path's {userId}: a UUID, or "me" for the caller,
// with the reference's message.
func albumUserID(c *call) (string, error) {
	id := c.r.PathValue("userId")
	if id == "me" {
		return c.p().User.ID, nil
	}
	if !dto.IsUUIDString(id) {
		return "", store.Fail(store.Invalid, "Validation failed (uuid v 4 is expected)")
	}
	return strings.ToLower(id), nil
}

// updateAlbumUser is PUT /api/albums/{id}/user/{userId}: the role of one
// of the album's users.
func (s *server) updateAlbumUser(c *call, b dto.Body) error {
	userID, err := albumUserID(c)
	if err != nil {
		return err
	}
	role, _ := b.String("role")
	if err := s.store.Write(func(tx *store.Tx) error { return tx.SetAlbumUserRole(c.p(), c.id, userID, role) }); err != nil {
		return err
	}
	return emptyOK(c)
}

// removeAlbumUser is DELETE /api/albums/{id}/user/{userId}.
func (s *server) removeAlbumUser(c *call) error {
	userID, err := albumUserID(c)
	if err != nil {
		return err
	}
	if err := s.store.Write(func(tx *store.Tx) error { return tx.RemoveAlbumUser(c.p(), c.id, userID) }); err != nil {
		return err
	}
	return emptyOK(c)
}

// assetPatchOf reads what an update changes of assets.
func assetPatchOf(b dto.Body, places ingest.Places) store.AssetPatch {
	var p store.AssetPatch
	if v, ok := b.Bool("isFavorite"); ok {
		p.IsFavorite = &v
	}
	if v, ok := b.Bool("isArchived"); ok {
		p.IsArchived = &v
	}
	if v, ok := b.String("description"); ok {
		p.Description = &v
	}
	if v, ok := b.String("dateTimeOriginal"); ok {
		if t, ok := dto.ParseDate(v); ok {
			p.DateTimeOriginal = &t
		}
	}
	lat, okLat := coordinate(b["latitude"])
	lon, okLon := coordinate(b["longitude"])
	if okLat && okLon {
		p.Latitude, p.Longitude = &lat, &lon
		p.Place = places
	}
	return p
}

// coordinate is a latitude or longitude as a number, given as one or as a
// string of one.
func coordinate(v any) (float64, bool) {
	switch t := v.(type) {
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		return f, err == nil
	case interface{ Float64() (float64, error) }:
		f, err := t.Float64()
		return f, err == nil
	}
	return 0, false
}

// updateAsset is PUT /api/asset/{id}: the answer is the asset as its
// owner reads it, without its stack.
func (s *server) updateAsset(c *call, b dto.Body) error {
	p := assetPatchOf(b, s.places)
	out, err := store.Update(s.store, func(tx *store.Tx) (model.Asset, error) {
		a, err := tx.UpdateAsset(c.p().User.ID, c.id, p)
		if err != nil {
			return model.Asset{}, err
		}
		look := c.aud.assetRead(a)
		look.stack = false
		return assetAnswer(&tx.View, a, look), nil
	})
	if err != nil {
		return err
	}
	s.live.Publish(c.p().User.ID, live.AssetUpdate, out)
	return c.json(http.StatusOK, out)
}

// updateAssets is PUT /api/asset: 204.
func (s *server) updateAssets(c *call, b dto.Body) error {
	ids := lower(b.Strings("ids"))
	p := store.BulkAssetPatch{AssetPatch: assetPatchOf(b, s.places)}
	if v, ok := b.String("stackParentId"); ok {
		p.StackParentID = new(strings.ToLower(v))
	}
	p.RemoveParent, _ = b.Bool("removeParent")
	var err error
	if p.DuplicateID, err = duplicateIDOf(b); err != nil {
		return err
	}
	if err := s.store.Write(func(tx *store.Tx) error { return tx.UpdateAssets(c.p().User.ID, ids, p) }); err != nil {
		return err
	}
	return noContent(c)
}

// updateStackParent is PUT /api/asset/stack/parent: 200 with no body.
func (s *server) updateStackParent(c *call, b dto.Body) error {
	oldParent, _ := b.String("oldParentId")
	newParent, _ := b.String("newParentId")
	err := s.store.Write(func(tx *store.Tx) error {
		return tx.SetStackParent(c.p().User.ID, strings.ToLower(oldParent), strings.ToLower(newParent))
	})
	if err != nil {
		return err
	}
	return emptyOK(c)
}

// deleteAssets is DELETE /api/asset: to the trash, or with force for good;
// 204. The owner's live connections hear of it.
func (s *server) deleteAssets(c *call, b dto.Body) error {
	ids := lower(b.Strings("ids"))
	force, _ := b.Bool("force")
	gone, err := store.Update(s.store, func(tx *store.Tx) ([]string, error) {
		return tx.DeleteAssets(c.p().User.ID, ids, force)
	})
	if err != nil {
		return err
	}
	if force {
		s.assetsGone(c.p().User.ID, gone)
	} else {
		s.live.Publish(c.p().User.ID, live.AssetTrash, ids)
	}
	return noContent(c)
}

// restoreTrash is POST /api/trash/restore/assets {ids}, and with all POST
// /api/trash/restore: out of the trash; 204.
func (s *server) restoreTrash(all bool) operation {
	return func(c *call) error {
		var ids []string
		if !all {
			b, done, err := s.readBody(c, bulkIDsBody)
			if err != nil {
				return err
			}
			ids = lower(b.Strings("ids"))
			done()
		}
		restored, err := store.Update(s.store, func(tx *store.Tx) ([]string, error) {
			return tx.RestoreAssets(c.p().User.ID, ids, all)
		})
		if err != nil {
			return err
		}
		if len(restored) > 0 {
			s.live.Publish(c.p().User.ID, live.AssetRestore, restored)
		}
		return noContent(c)
	}
}

// emptyTrash is POST /api/trash/empty: everything in the trash, deleted
// for good; 204.
func (s *server) emptyTrash(c *call) error {
	gone, err := store.Update(s.store, func(tx *store.Tx) ([]string, error) {
		return tx.EmptyTrash(c.p().User.ID)
	})
	if err != nil {
		return err
	}
	s.assetsGone(c.p().User.ID, gone)
	return noContent(c)
}

// randomAssets is GET /api/asset/random?count: up to count (1 by default)
// of the caller's assets, in no order.
func (s *server) randomAssets(c *call) error {
	b, err := randomQuery.Validate(queryObject(c.r.URL.Query()))
	if err != nil {
		return bodyError(err)
	}
	n := 1
	if v, ok := b.Int64("count"); ok {
		n = int(min(v, 1000))
	}
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	var out []model.Asset
	s.store.Read(func(v *store.View) {
		out = assetAnswers(v, v.RandomAssets(c.p().User.ID, n, r), c.aud.randomRead())
	})
	return c.json(http.StatusOK, out)
}

// memoryLane is GET /api/asset/memory-lane?day&month: the caller's assets
// of that day in years before this one, by how many years ago.
func (s *server) memoryLane(c *call) error {
	b, err := memoryLaneQuery.Validate(queryObject(c.r.URL.Query()))
	if err != nil {
		return bodyError(err)
	}
	day64, _ := b.Int64("day")
	month64, _ := b.Int64("month")
	day, month := int(day64), int(month64)
	type memory struct {
		YearsAgo int           `json:"yearsAgo"`
		Title    string        `json:"title"`
		Assets   []model.Asset `json:"assets"`
	}
	out := []memory{}
	s.store.Read(func(v *store.View) {
		lanes := v.MemoryLane(c.p().User.ID, time.Month(month), day, s.cfg.Now())
		for years := 1; years <= 200; years++ {
			assets, ok := lanes[years]
			if !ok {
				continue
			}
			title := strconv.Itoa(years) + " year ago"
			if years > 1 {
				title = strconv.Itoa(years) + " years ago"
			}
			out = append(out, memory{YearsAgo: years, Title: title, Assets: assetAnswers(v, assets, c.aud.libraryRead())})
		}
	})
	return c.json(http.StatusOK, out)
}

// partners is GET /api/partners?direction=shared-by|shared-with.
func (s *server) partners(c *call) error {
	// As the reference: shared-by, and anything else is shared-with.
	sharedBy := c.r.URL.Query().Get("direction") == "shared-by"
	var out []model.Partner
	s.store.Read(func(v *store.View) {
		partners := v.PartnersOf(c.p().User.ID, sharedBy)
		out = make([]model.Partner, 0, len(partners))
		for _, p := range partners {
			other := p.SharedByID
			if sharedBy {
				other = p.SharedWithID
			}
			out = append(out, model.Partner{User: userAnswer(v.User(other)), InTimeline: p.InTimeline})
		}
	})
	return c.json(http.StatusOK, out)
}

// createPartner is POST /api/partners/{id}: the caller shares their
// library with the user of that id.
func (s *server) createPartner(c *call) error {
	out, err := store.Update(s.store, func(tx *store.Tx) (model.Partner, error) {
		p, err := tx.AddPartner(c.p().User.ID, c.id)
		if err != nil {
			return model.Partner{}, err
		}
		return model.Partner{User: userAnswer(tx.User(p.SharedWithID)), InTimeline: p.InTimeline}, nil
	})
	return answer(c, http.StatusCreated, out, err)
}

// updatePartner is PUT /api/partners/{id}: whether the library the user of
// that id shares with the caller shows in the caller's timeline.
func (s *server) updatePartner(c *call, b dto.Body) error {
	in, _ := b.Bool("inTimeline")
	out, err := store.Update(s.store, func(tx *store.Tx) (model.Partner, error) {
		p, err := tx.SetPartnerInTimeline(c.id, c.p().User.ID, in)
		if err != nil {
			return model.Partner{}, err
		}
		return model.Partner{User: userAnswer(tx.User(p.SharedByID)), InTimeline: p.InTimeline}, nil
	})
	return answer(c, http.StatusOK, out, err)
}

// removePartner is DELETE /api/partners/{id}: the caller stops sharing.
func (s *server) removePartner(c *call) error {
	if err := s.store.Write(func(tx *store.Tx) error { return tx.RemovePartner(c.p().User.ID, c.id) }); err != nil {
		return err
	}
	return emptyOK(c)
}

// createPerson is POST /api/people.
func (s *server) createPerson(c *call, b dto.Body) error {
	np := store.NewPerson{}
	np.Name, _ = b.String("name")
	np.IsHidden, _ = b.Bool("isHidden")
	var born *model.Time
	if t, ok := b.Time("birthDate"); ok {
		if t.After(s.cfg.Now()) {
			return store.InvalidFields([]string{"Birth date cannot be in the future"})
		}
		np.BirthDate = new(t.UTC().Format(model.DateLayout))
		born = new(model.At(t))
	}
	// The upstream answers the record it saved, as it saved it: the owner,
	// the birth date as it was sent (the day alone is stored), the face
	// and the record's times.
	type saved struct {
		OwnerID       string      `json:"ownerId"`
		Name          string      `json:"name"`
		BirthDate     *model.Time `json:"birthDate"`
		IsHidden      bool        `json:"isHidden"`
		FaceAssetID   *string     `json:"faceAssetId"`
		ID            string      `json:"id"`
		CreatedAt     model.Time  `json:"createdAt"`
		UpdatedAt     model.Time  `json:"updatedAt"`
		ThumbnailPath string      `json:"thumbnailPath"`
	}
	out, err := store.Update(s.store, func(tx *store.Tx) (saved, error) {
		p, err := tx.AddPerson(c.p().User.ID, np)
		if err != nil {
			return saved{}, err
		}
		return saved{
			OwnerID: p.OwnerID, Name: p.Name, BirthDate: born, IsHidden: p.IsHidden,
			ID: p.ID, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt, ThumbnailPath: p.ThumbnailPath,
		}, nil
	})
	return answer(c, http.StatusCreated, out, err)
}

// personAnswer is a person without faces, as PersonResponseDto shows one.
func personAnswer(p model.Person) any {
	return struct {
		ID            string  `json:"id"`
		Name          string  `json:"name"`
		BirthDate     *string `json:"birthDate"`
		ThumbnailPath string  `json:"thumbnailPath"`
		IsHidden      bool    `json:"isHidden"`
	}{p.ID, p.Name, p.BirthDate, p.ThumbnailPath, p.IsHidden}
}
