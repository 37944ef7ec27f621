package mockserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// maxControlBody bounds the JSON body of a control request.
const maxControlBody = 1 << 20

// decodeBody reads a control request's JSON body into v. An empty body
// leaves v as it is when optional.
func decodeBody(r *http.Request, v any, optional bool) error {
	dec := json.NewDecoder(io.LimitReader(r.Body, maxControlBody))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if errors.Is(err, io.EOF) && optional {
		return nil
	}
	if err != nil {
		return errorf(http.StatusBadRequest, "Body is not the expected JSON: %v", err)
	}
	return nil
}

// handleCreateUser is POST /__mock/users.
func (s *server) handleCreateUser() http.Handler {
	type request struct {
		Name             string `json:"name"`
		Email            string `json:"email"`
		QuotaSizeInBytes *int64 `json:"quotaSizeInBytes"`
	}
	type response struct {
		User   model.User `json:"user"`
		APIKey string     `json:"apiKey"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req request
		if err := decodeBody(r, &req, false); err != nil {
			writeError(w, err)
			return
		}
		var problems []string
		if strings.TrimSpace(req.Name) == "" {
			problems = append(problems, "name should not be empty")
		}
		if utf8.RuneCountInString(req.Name) > maxNameChars {
			problems = append(problems, fmt.Sprintf("name must be shorter than or equal to %d characters", maxNameChars))
		}
		if !strings.Contains(req.Email, "@") || len(req.Email) > maxEmailChars {
			problems = append(problems, "email must be an email")
		}
		if req.QuotaSizeInBytes != nil && *req.QuotaSizeInBytes < 0 {
			problems = append(problems, "quotaSizeInBytes must not be less than 0")
		}
		if len(problems) > 0 {
			writeError(w, invalidFields(problems))
			return
		}
		u, err := s.store.addUser(req.Name, req.Email, req.QuotaSizeInBytes)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusCreated, response{User: u.User, APIKey: u.APIKey})
	})
}

// handleCreateLink is POST /__mock/shared-links.
func (s *server) handleCreateLink() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := s.authenticateUser(r)
		if err != nil {
			writeError(w, err)
			return
		}
		var req linkRequest
		if err := decodeBody(r, &req, false); err != nil {
			writeError(w, err)
			return
		}
		link, err := s.store.addLink(p.user.ID, req)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusCreated, link)
	})
}

// handleAssets is GET /__mock/assets.
func (s *server) handleAssets() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := s.authenticateUser(r)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, s.store.assets(p.user.ID))
	})
}

// handleReset is POST /__mock/reset: back to the start-up dataset, or with
// {"empty": true} to nothing but the default user.
func (s *server) handleReset() http.Handler {
	type request struct {
		Empty bool `json:"empty"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req request
		if err := decodeBody(r, &req, true); err != nil {
			writeError(w, err)
			return
		}
		d := s.cfg.Dataset()
		if req.Empty {
			d = emptyDataset(d)
		}
		if err := s.store.replace(d); err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"reset": true, "empty": req.Empty})
	})
}

// emptyDataset keeps only d's default user, its first.
func emptyDataset(d model.Dataset) model.Dataset {
	users := d.Users[:min(1, len(d.Users))]
	return model.Dataset{Seed: d.Seed, Anchor: d.Anchor, Users: users}
}

// handleDataset is GET /__mock/dataset: the whole state, which --fixtures loads.
func (s *server) handleDataset() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.store.dataset())
	})
}
