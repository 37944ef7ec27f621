package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/pictures"
)

// handleBulkUploadCheck is POST /api/asset/bulk-upload-check: which files of
// an uploader's batch the server already has.
func (s *server) handleBulkUploadCheck() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := s.read(r, s.authenticateUser, false, true)
		if err != nil {
			writeError(w, err)
			return
		}
		p, b := in.principal, in.body
		items, err := bulkCheckItems(b)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, struct {
			Results []model.BulkCheckResult `json:"results"`
		}{s.store.bulkCheck(p.user.ID, items)})
	})
}

// bulkCheckItems reads {assets: [{id, checksum}]} with the reference's
// messages. A well-formed batch, the usual one, is decoded in one typed
// pass; only a batch with a problem is read member by member, to name it.
func bulkCheckItems(b jsonBody) ([]bulkCheckItem, error) {
	var typed []struct {
		ID       *string `json:"id"`
		Checksum *string `json:"checksum"`
	}
	if raw := b["assets"]; len(raw) > 0 && raw[0] == '[' && json.Unmarshal(raw, &typed) == nil {
		items := make([]bulkCheckItem, 0, len(typed))
		for _, it := range typed {
			if it.ID == nil || it.Checksum == nil || *it.ID == "" || *it.Checksum == "" {
				items = nil
				break
			}
			items = append(items, bulkCheckItem{id: *it.ID, checksum: *it.Checksum})
		}
		if items != nil {
			return items, nil
		}
	}
	elems, ok := b.array("assets")
	if !ok {
		pr := problems{"assets must be an array"}
		if b.has("assets") {
			pr.add("each value in nested property assets must be either object or array")
		}
		return nil, pr.err()
	}
	items := make([]bulkCheckItem, 0, len(elems))
	var pr problems
	for i, e := range elems {
		var m jsonBody
		if len(e) == 0 || e[0] != '{' || json.Unmarshal(e, &m) != nil {
			pr.add("each value in nested property assets must be either object or array")
			continue
		}
		var it bulkCheckItem
		for _, f := range []struct {
			name string
			dst  *string
		}{{"id", &it.id}, {"checksum", &it.checksum}} {
			v, isStr := m.str(f.name)
			if !m.has(f.name) || (isStr && v == "") {
				pr.add("assets.%d.%s should not be empty", i, f.name)
			}
			if !isStr {
				pr.add("assets.%d.%s must be a string", i, f.name)
			}
			*f.dst = v
		}
		items = append(items, it)
	}
	if err := pr.err(); err != nil {
		return nil, err
	}
	return items, nil
}

// handleAsset is GET /api/asset/{id}.
func (s *server) handleAsset() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := s.read(r, s.authenticate, true, false)
		if err != nil {
			writeError(w, err)
			return
		}
		p, id := in.principal, in.id
		a, err := s.store.asset(p, id)
		answer(w, http.StatusOK, a, err)
	})
}

// handleAssetStatistics is GET /api/asset/statistics: how many images and
// videos the caller has.
func (s *server) handleAssetStatistics() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := s.authenticateUser(r)
		if err != nil {
			writeError(w, err)
			return
		}
		q := r.URL.Query()
		var flags [3]*bool
		var pr problems
		for i, name := range []string{"isArchived", "isFavorite", "isTrashed"} {
			if flags[i], err = queryBool(q, name); err != nil {
				pr.add("%s must be a boolean value", name)
			}
		}
		if err := pr.err(); err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, s.store.statistics(p.user.ID, flags[0], flags[1], flags[2]))
	})
}

// handlePicture is GET /api/asset/thumbnail/{id} and GET /api/asset/file/{id}:
// the readers of the asset are checked, then the query. The mock keeps no
// picture yet: every asset answers the reference's 404 for a thumbnail that
// is not made. Errors of these routes carry Cache-Control: none, as on the
// reference.
func (s *server) handlePicture(file bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "none")
		in, err := s.read(r, s.authenticate, true, false)
		if err != nil {
			writeError(w, err)
			return
		}
		p, id := in.principal, in.id
		q := r.URL.Query()
		var pr problems
		var isThumb, isWeb *bool
		if file {
			var err error
			if isThumb, err = queryBool(q, "isThumb"); err != nil {
				pr.add("isThumb must be a boolean value")
			}
			if isWeb, err = queryBool(q, "isWeb"); err != nil {
				pr.add("isWeb must be a boolean value")
			}
		} else if q.Has("format") && q.Get("format") != "JPEG" && q.Get("format") != "WEBP" {
			pr.add("format must be one of the following values: JPEG, WEBP")
		}
		if err := pr.err(); err != nil {
			writeError(w, err)
			return
		}
		src, err := s.store.pictureSource(p, id)
		if err != nil {
			writeError(w, err)
			return
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
		if s.media != nil && s.serveKept(w, r, src, kind) {
			return
		}
		if src.thumbhash == nil {
			writeError(w, errorf(http.StatusNotFound, "No thumbnail found for asset %s", id))
			return
		}
		body, contentType, err := s.picture(src, kind)
		if err != nil {
			writeError(w, fmt.Errorf("making the picture of asset %s: %w", id, err))
			return
		}
		servePicture(w, r, src, kind, contentType, src.updatedAt, bytes.NewReader(body), int64(len(body)))
	})
}

// handleProfileImage is GET /api/users/{id}/profile-image: a portrait the
// mock paints for a user whose profileImagePath is set (the same for the
// same user), as image/jpeg like the reference; the reference's 404 for the
// others.
func (s *server) handleProfileImage() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "none")
		if _, err := s.authenticateUser(r); err != nil {
			writeError(w, err)
			return
		}
		id, err := pathID(r)
		if err != nil {
			writeError(w, err)
			return
		}
		u, ok := s.store.user(strings.ToLower(id))
		if !ok {
			writeError(w, fail(errInvalid, "User not found"))
			return
		}
		if u.ProfileImagePath == "" {
			writeError(w, errorf(http.StatusNotFound, "User does not have a profile image"))
			return
		}
		key := "profile/" + u.ID + "/" + u.AvatarColor
		body, ok := s.pictures.get(key)
		if !ok {
			if body, err = pictures.JPEG(pictures.Portrait(u.ID, u.AvatarColor)); err != nil {
				writeError(w, fmt.Errorf("painting the profile image of %s: %w", u.ID, err))
				return
			}
			s.pictures.put(key, body)
		}
		h := w.Header()
		h.Set("Cache-Control", "public, max-age=0")
		h.Set("Content-Type", "image/jpeg")
		_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(writeDeadline(len(body))))
		changed := u.UpdatedAt
		if changed.IsZero() {
			changed = u.CreatedAt
		}
		http.ServeContent(w, r, "", changed.Time, bytes.NewReader(body))
	})
}
