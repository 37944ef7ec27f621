package api

import (
	"net/http"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Tags: a user's labels of their own assets (the upstream's tag
// controller). Only their owner sees or changes a tag; another's is "Tag
// not found".

// CreateTagDto: POST /api/tags.
var createTagBody = dto.NewClass("CreateTagDto",
	dto.Field("name", isString, isNotEmpty).Limit(store.MaxTagNameChars),
	dto.Field("type", dto.As(dto.IsEnum(model.TagObject, model.TagFace, model.TagCustom)), isNotEmpty),
)

// UpdateTagDto: PATCH /api/tags/{id}.
var updateTagBody = dto.NewClass("UpdateTagDto",
	dto.Field("name", isString, optional).Limit(store.MaxTagNameChars),
)

// tagAssetsLook is how GET /api/tags/{id}/assets shows the assets: in the
// reference's shapes as it loads them (exifInfo, tags and people; no
// smartInfo, no owner, no favourite); else as their owner reads them.
func (a audience) tagAssetsLook() assetLook {
	look := assetLook{exif: true, detail: true, people: true}
	if !a.reference {
		look.owner, look.favoriteOf = true, a.viewer()
	}
	return look
}

// tags is GET /api/tags: the caller's, in the order they were made.
func (s *server) tags(c *call) error {
	out, err := store.Query(s.store, func(v *store.View) ([]model.Tag, error) {
		out := []model.Tag{}
		for _, t := range v.TagsOf(c.p().User.ID) {
			out = append(out, *t)
		}
		return out, nil
	})
	return answer(c, http.StatusOK, out, err)
}

// tag is GET /api/tags/{id}.
func (s *server) tag(c *call) error {
	out, err := store.Query(s.store, func(v *store.View) (model.Tag, error) {
		t, err := v.OwnTag(c.p().User.ID, c.id)
		if err != nil {
			return model.Tag{}, err
		}
		return *t, nil
	})
	return answer(c, http.StatusOK, out, err)
}

// createTag is POST /api/tags: 201 with the new tag.
func (s *server) createTag(c *call, b dto.Body) error {
	name, _ := b.String("name")
	kind, _ := b.String("type")
	out, err := store.Update(s.store, func(tx *store.Tx) (model.Tag, error) {
		t, err := tx.CreateTag(c.p().User.ID, name, kind)
		if err != nil {
			return model.Tag{}, err
		}
		return *t, nil
	})
	return answer(c, http.StatusCreated, out, err)
}

// updateTag is PATCH /api/tags/{id}: its name, where one is given.
func (s *server) updateTag(c *call, b dto.Body) error {
	var name *string
	if v, ok := b.String("name"); ok {
		name = &v
	}
	out, err := store.Update(s.store, func(tx *store.Tx) (model.Tag, error) {
		t, err := tx.RenameTag(c.p().User.ID, c.id, name)
		if err != nil {
			return model.Tag{}, err
		}
		return *t, nil
	})
	return answer(c, http.StatusOK, out, err)
}

// deleteTag is DELETE /api/tags/{id}: 200 with no body, as the reference
// answers.
func (s *server) deleteTag(c *call) error {
	if err := s.store.Write(func(tx *store.Tx) error { return tx.RemoveTag(c.p().User.ID, c.id) }); err != nil {
		return err
	}
	return emptyOK(c)
}

// tagAssets is GET /api/tags/{id}/assets: the caller's assets it labels,
// out of the trash, the oldest made first.
func (s *server) tagAssets(c *call) error {
	look := c.aud.tagAssetsLook()
	out, err := store.Query(s.store, func(v *store.View) ([]model.Asset, error) {
		found, err := v.TagAssets(c.p().User.ID, c.id)
		if err != nil {
			return nil, err
		}
		out := assetAnswers(v, found, look)
		if c.aud.reference {
			for i := range out {
				out[i].SmartInfo = nil // the reference loads tags, not smartInfo
			}
		}
		return out, nil
	})
	return answer(c, http.StatusOK, out, err)
}

// tagAssetsWith is PUT (tag) and DELETE (untag) /api/tags/{id}/assets:
// each asset's outcome.
func (s *server) tagAssetsWith(on bool) func(c *call, b dto.Body) error {
	return func(c *call, b dto.Body) error {
		ids := lower(b.Strings("assetIds"))
		out, err := store.Update(s.store, func(tx *store.Tx) ([]model.AssetIDResult, error) {
			return tx.TagAssetsWith(c.p().User.ID, c.id, ids, on)
		})
		return answer(c, http.StatusOK, out, err)
	}
}
