package mockserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// maxDescriptionChars bounds every description the mock stores.
const maxDescriptionChars = 4096

// queryBool reads an optional boolean query parameter: "true" or "false".
func queryBool(q url.Values, name string) (*bool, error) {
	if !q.Has(name) {
		return nil, nil
	}
	switch q.Get(name) {
	case "true":
		return new(true), nil
	case "false":
		return new(false), nil
	}
	return nil, invalidFields([]string{name + " must be a boolean value"})
}

// handleAlbums is GET /api/albums?shared&assetId.
func (s *server) handleAlbums() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := s.authenticateUser(r)
		if err != nil {
			writeError(w, err)
			return
		}
		q := r.URL.Query()
		var f albumFilter
		var pr problems
		if f.shared, err = queryBool(q, "shared"); err != nil {
			pr.add("shared must be a boolean value")
		}
		if q.Has("assetId") {
			id := q.Get("assetId")
			if !isUUID(id) {
				pr.add("assetId must be a UUID")
			}
			f.assetID = new(strings.ToLower(id))
		}
		if err := pr.err(); err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, s.store.albums(p.user.ID, f))
	})
}

// handleCreateAlbum is POST /api/albums.
func (s *server) handleCreateAlbum() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := s.read(r, s.authenticateUser, false, true)
		if err != nil {
			writeError(w, err)
			return
		}
		p, b := in.principal, in.body
		var na newAlbum
		var pr problems
		name, ok := b.str("albumName")
		switch {
		case !ok:
			pr.add("albumName must be a string")
		case utf8.RuneCountInString(name) > maxNameChars:
			pr.add("albumName must be shorter than or equal to %d characters", maxNameChars)
		}
		na.name = name
		na.description = optionalText(b, &pr, "description", maxDescriptionChars)
		if b.has("assetIds") {
			ids, _, each := b.uuids("assetIds")
			if !each {
				pr.add("each value in assetIds must be a UUID")
			}
			na.assetIDs = ids
		}
		if b.has("albumUsers") {
			na.users = albumUsers(b, &pr)
		}
		if err := pr.err(); err != nil {
			writeError(w, err)
			return
		}
		al, err := s.store.createAlbum(p.user.ID, na)
		answer(w, http.StatusCreated, al, err)
	})
}

// optionalText reads an optional string member ("" when absent).
func optionalText(b jsonBody, pr *problems, name string, maxChars int) string {
	if !b.has(name) {
		return ""
	}
	v, ok := b.str(name)
	switch {
	case !ok:
		pr.add("%s must be a string", name)
	case utf8.RuneCountInString(v) > maxChars:
		pr.add("%s must be shorter than or equal to %d characters", name, maxChars)
	}
	return v
}

// albumUsers reads createAlbum's albumUsers: [{userId, role}].
func albumUsers(b jsonBody, pr *problems) []model.AlbumUserRecord {
	elems, ok := b.array("albumUsers")
	if !ok {
		pr.add("albumUsers must be an array")
		return nil
	}
	out := make([]model.AlbumUserRecord, 0, len(elems))
	for i, e := range elems {
		var m jsonBody
		if json.Unmarshal(e, &m) != nil || m == nil {
			pr.add("nested property albumUsers must be either object or array")
			continue
		}
		id, _ := m.str("userId")
		if !isUUID(id) {
			pr.add("albumUsers.%d.userId must be a UUID", i)
		}
		role, _ := m.str("role")
		if role != model.RoleEditor && role != model.RoleViewer {
			pr.add("albumUsers.%d.role must be one of the following values: editor, viewer", i)
		}
		out = append(out, model.AlbumUserRecord{UserID: strings.ToLower(id), Role: role})
	}
	return out
}

// handleAlbum is GET /api/albums/{id}?withoutAssets.
func (s *server) handleAlbum() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := s.read(r, s.authenticate, true, false)
		if err != nil {
			writeError(w, err)
			return
		}
		p, id := in.principal, in.id
		without, err := queryBool(r.URL.Query(), "withoutAssets")
		if err != nil {
			writeError(w, err)
			return
		}
		body, err := s.store.albumJSON(p, id, without != nil && *without)
		if err != nil {
			writeError(w, err)
			return
		}
		s.large.write(w, http.StatusOK, body)
	})
}

// handleAddAlbumAssets is PUT /api/albums/{id}/assets.
func (s *server) handleAddAlbumAssets() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := s.read(r, s.authenticate, true, true)
		if err != nil {
			writeError(w, err)
			return
		}
		p, id, b := in.principal, in.id, in.body
		ids, err := idList(b, "ids")
		if err != nil {
			writeError(w, err)
			return
		}
		res, err := s.store.addAlbumAssets(p, id, ids)
		answer(w, http.StatusOK, res, err)
	})
}

// idList reads a required array of UUIDs, with the reference's messages.
func idList(b jsonBody, name string) ([]string, error) {
	ids, isArray, each := b.uuids(name)
	var pr problems
	if !each {
		pr.add("each value in %s must be a UUID", name)
	}
	if !b.has(name) {
		pr.add("%s should not be empty", name)
	}
	if !isArray {
		pr.add("%s must be an array", name)
	}
	if err := pr.err(); err != nil {
		return nil, err
	}
	return ids, nil
}
