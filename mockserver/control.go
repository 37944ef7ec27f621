package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// maxControlBody bounds the JSON body of a control request.
const maxControlBody = 1 << 20

// decodeBody reads a control request's JSON body into v: one JSON object,
// no member twice, each of the type v's field takes, and nothing after it.
// An empty body leaves v as it is when optional. Every problem is told in
// the API's words (typeProblems), never in Go's.
func decodeBody(r *http.Request, v any, optional bool) error {
	data, err := io.ReadAll(io.LimitReader(r.Body, maxControlBody+1))
	switch {
	case err != nil:
		return bodyReadError(err)
	case len(data) > maxControlBody:
		return errorf(http.StatusRequestEntityTooLarge, "The request body is larger than the limit of %d bytes", maxControlBody)
	case len(bytes.TrimSpace(data)) == 0 && optional:
		return nil
	}
	if err := json.Unmarshal(data, new(json.RawMessage)); err != nil {
		return errorf(http.StatusBadRequest, "%s", parseErrorText(data, err))
	}
	if key, ok := repeatedKey(data); ok {
		return errorf(http.StatusBadRequest, "Body is not the expected JSON: %q is given twice", key)
	}
	if problems := typeProblems(data, reflect.TypeOf(v)); len(problems) > 0 {
		return invalidFields(problems)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		// typeProblems has found what the decoder could refuse; if it
		// missed something, the client still gets no Go in its answer.
		return errorf(http.StatusBadRequest, "Body is not the JSON this operation takes")
	}
	return nil
}

// repeatedKey finds a member given twice in one object of a JSON document,
// which a decoder would quietly resolve to the last one.
func repeatedKey(data []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &frame{object: true, keys: map[string]bool{}, key: true})
				continue
			case '[':
				stack = append(stack, &frame{})
				continue
			default:
				stack = stack[:len(stack)-1]
			}
		case string:
			if top != nil && top.object && top.key {
				if top.keys[t] {
					return t, true
				}
				top.keys[t] = true
				top.key = false
				continue
			}
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true
		}
	}
}

// handleUsers is GET /__mock/users: every user, the default one first, with
// the API key to act as them. Like /__mock/dataset, which holds the same
// keys, it needs no credentials.
func (s *server) handleUsers() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.store.userKeys())
	})
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

// handleDataset is GET /__mock/dataset: the whole state, which --fixtures
// loads, encoded as it is written (streamDataset). While maxDatasetAnswers
// are being written, one more is answered 503.
func (s *server) handleDataset() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.datasets.take(w) {
			return
		}
		defer s.datasets.release()
		if err := streamDataset(w, s.store.datasetView()); err != nil {
			// The status is sent; the client, gone or too slow, was cut off.
			clientGone(w)
		}
	})
}
