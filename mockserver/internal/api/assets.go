package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// bulkUploadCheck is POST /api/asset/bulk-upload-check: which files of an
// uploader's batch the server already has.
func (s *server) bulkUploadCheck(c *call) error {
	h, err := readJSON(s.held, c, listBody)
	if err != nil {
		return err
	}
	defer h.Release()
	if err := h.countedBody(c.w, bulkUploadCheckBody.Count); err != nil {
		return err
	}
	items, err := bulkCheckItems(h.data)
	if err != nil {
		return err
	}
	var out []model.BulkCheckResult
	s.store.Read(func(v *store.View) { out = v.BulkCheck(c.p().User.ID, items) })
	return c.json(http.StatusOK, struct {
		Results []model.BulkCheckResult `json:"results"`
	}{out})
}

// bulkCheckItems reads {assets: [{id, checksum}]}. A well-formed batch,
// the usual one, is decoded in one typed pass; any other is judged as its
// DTO declares it, for the reference's messages.
func bulkCheckItems(data []byte) ([]store.BulkCheckItem, error) {
	var typed struct {
		Assets []struct {
			ID       *string `json:"id"`
			Checksum *string `json:"checksum"`
		} `json:"assets"`
	}
	if json.Unmarshal(data, &typed) == nil && typed.Assets != nil {
		items := make([]store.BulkCheckItem, 0, len(typed.Assets))
		for _, it := range typed.Assets {
			if it.ID == nil || it.Checksum == nil || *it.ID == "" || *it.Checksum == "" {
				items = nil
				break
			}
			items = append(items, store.BulkCheckItem{ID: *it.ID, Checksum: *it.Checksum})
		}
		if items != nil {
			return items, nil
		}
	}
	b, err := bulkUploadCheckBody.Decode(data)
	if err != nil {
		return nil, bodyError(err)
	}
	var items []store.BulkCheckItem
	for _, o := range b.Objects("assets") {
		id, _ := o.String("id")
		sum, _ := o.String("checksum")
		items = append(items, store.BulkCheckItem{ID: id, Checksum: sum})
	}
	return items, nil
}

// asset is GET /api/asset/{id}: with its owner (not through a link), its
// tags, stack and smartInfo, the people of its faces for its owner, the
// real isFavorite for its owner; sanitized through a link that hides
// metadata.
func (s *server) asset(c *call) error {
	out, err := store.Query(s.store, func(v *store.View) (any, error) {
		a := v.ReadableAsset(c.p(), c.id)
		if a == nil {
			return nil, store.Fail(store.NoAccess, "Not found or no asset.read access")
		}
		return c.aud.asset(v, a, c.aud.assetRead(a)), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// assetStatistics is GET /api/asset/statistics: how many images and
// videos the caller has.
func (s *server) assetStatistics(c *call) error {
	q := c.r.URL.Query()
	var pr problems
	archived, favorite, trashed := queryBool(q, "isArchived", &pr), queryBool(q, "isFavorite", &pr), queryBool(q, "isTrashed", &pr)
	if err := pr.err(); err != nil {
		return err
	}
	var out model.AssetStats
	s.store.Read(func(v *store.View) { out = v.Statistics(c.p().User.ID, archived, favorite, trashed) })
	return c.json(http.StatusOK, out)
}

// picture is GET /api/asset/thumbnail/{id} and GET /api/asset/file/{id}:
// the readers of the asset are checked, then the query.
func (s *server) picture(file bool) operation {
	return func(c *call) error {
		q := c.r.URL.Query()
		var pr problems
		var isThumb, isWeb *bool
		if file {
			isThumb, isWeb = queryBool(q, "isThumb", &pr), queryBool(q, "isWeb", &pr)
		} else if q.Has("format") && q.Get("format") != "JPEG" && q.Get("format") != "WEBP" {
			pr.add("format must be one of the following values: JPEG, WEBP")
		}
		if err := pr.err(); err != nil {
			return err
		}
		src, err := s.pictureSource(c.p(), c.id)
		if err != nil {
			return err
		}
		kind := kindThumbnail
		switch {
		case !file && q.Get("format") == "JPEG":
			kind = kindPreview
		case !file:
		case isWeb != nil && *isWeb:
			kind = kindPreview
		case isThumb != nil && *isThumb:
		case src.download:
			kind = kindOriginal
		}
		if s.folder != nil && s.serveKept(c.w, c.r, src, kind) {
			return nil
		}
		if src.thumbhash == nil {
			return httpx.Errorf(http.StatusNotFound, "No thumbnail found for asset %s", c.id)
		}
		body, contentType, err := s.painted(c.r.Context(), src, kind, s.painters.waitFor(kind))
		if errors.Is(err, errPaintersBusy) {
			return s.painters.busy(c.w, kind)
		}
		if err != nil {
			return fmt.Errorf("making the picture of asset %s: %w", c.id, err)
		}
		servePicture(c.w, c.r, src, kind, contentType, src.updatedAt, bytes.NewReader(body), int64(len(body)))
		return nil
	}
}

// noCacheOnError gives the answers of the file routes Cache-Control: none
// unless they set their own, as the reference's errors there carry it.
func noCacheOnError(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "none")
		h.ServeHTTP(w, r)
	})
}
