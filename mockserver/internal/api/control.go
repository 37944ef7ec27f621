package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// maxControlBody bounds the JSON body of a control request.
const maxControlBody = 1 << 20

// decodeBody reads a control request's JSON body into v: one JSON object,
// no member twice, each of the type v's field takes, and nothing after it.
// An empty body leaves v as it is when optional. Every problem is told in
// the API's words (httpx.TypeProblems), never in Go's. The body and
// everything read of it whole (its values, httpx.TypeProblems's,
// repeatedKey's) are held within memory set aside first, as an API body's
// are.
func (s *server) decodeBody(c *call, v any, optional bool) error {
	h, err := readRaw(s.held, c, maxControlBody)
	if err != nil {
		return err
	}
	defer h.Release()
	data := h.data
	if len(bytes.TrimSpace(data)) == 0 && optional {
		return nil
	}
	if err := h.countedBody(c.w, dto.CountValues); err != nil {
		return err
	}
	if key, ok := repeatedKey(data); ok {
		return httpx.Errorf(http.StatusBadRequest, "Body is not the expected JSON: %q is given twice", key)
	}
	if problems := httpx.TypeProblems(data, reflect.TypeOf(v)); len(problems) > 0 {
		return store.InvalidFields(problems)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		// httpx.TypeProblems has found what the decoder could refuse; if it
		// missed something, the client still gets no Go in its answer.
		return httpx.Errorf(http.StatusBadRequest, "Body is not the JSON this operation takes")
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

// controlUsers is GET /__mock/users: every user, the default one first,
// with the API key to act as them. Like /__mock/dataset, which holds the
// same keys, it needs no credentials.
func (s *server) controlUsers(c *call) error {
	type userKey struct {
		ID      string `json:"id"`
		Email   string `json:"email"`
		Name    string `json:"name"`
		IsAdmin bool   `json:"isAdmin"`
		APIKey  string `json:"apiKey"`
	}
	var out []userKey
	s.store.Read(func(v *store.View) {
		users := v.Users()
		out = make([]userKey, 0, len(users))
		for _, u := range users {
			out = append(out, userKey{ID: u.ID, Email: u.Email, Name: u.Name, IsAdmin: u.IsAdmin, APIKey: u.APIKey})
		}
	})
	return c.json(http.StatusOK, out)
}

// controlCreateUser is POST /__mock/users.
func (s *server) controlCreateUser(c *call) error {
	type request struct {
		Name             string `json:"name"`
		Email            string `json:"email"`
		QuotaSizeInBytes *int64 `json:"quotaSizeInBytes"`
	}
	type response struct {
		User   model.User `json:"user"`
		APIKey string     `json:"apiKey"`
	}
	var req request
	if err := s.decodeBody(c, &req, false); err != nil {
		return err
	}
	var pr problems
	if strings.TrimSpace(req.Name) == "" {
		pr.add("name should not be empty")
	}
	if utf8.RuneCountInString(req.Name) > store.MaxNameChars {
		pr.add("name must be shorter than or equal to %d characters", store.MaxNameChars)
	}
	if !strings.Contains(req.Email, "@") || len(req.Email) > store.MaxEmailChars {
		pr.add("email must be an email")
	}
	if req.QuotaSizeInBytes != nil && *req.QuotaSizeInBytes < 0 {
		pr.add("quotaSizeInBytes must not be less than 0")
	}
	if err := pr.err(); err != nil {
		return err
	}
	out, err := store.Update(s.store, func(tx *store.Tx) (response, error) {
		u, err := tx.AddUser(req.Name, req.Email, req.QuotaSizeInBytes)
		if err != nil {
			return response{}, err
		}
		return response{User: userAnswer(u), APIKey: u.APIKey}, nil
	})
	return answer(c, http.StatusCreated, out, err)
}

// linkRequest is what POST /__mock/shared-links asks for.
type linkRequest struct {
	Type          string      `json:"type"`
	AssetIDs      []string    `json:"assetIds"`
	AlbumName     *string     `json:"albumName"`
	AllowUpload   *bool       `json:"allowUpload"`
	AllowDownload *bool       `json:"allowDownload"`
	ShowMetadata  *bool       `json:"showMetadata"`
	Password      *string     `json:"password"`
	Description   *string     `json:"description"`
	ExpiresAt     *model.Time `json:"expiresAt"`
}

// controlCreateLink is POST /__mock/shared-links: a link of the caller
// made as the API makes one (POST /api/albums for an ALBUM link's album,
// then POST /api/shared-links), with the API's defaults, in one write;
// answered as the listing shows it.
func (s *server) controlCreateLink(c *call) error {
	var req linkRequest
	if err := s.decodeBody(c, &req, false); err != nil {
		return err
	}
	if req.Type != model.LinkAlbum && req.Type != model.LinkIndividual {
		return store.Fail(store.Invalid, "type must be one of the following values: ALBUM, INDIVIDUAL")
	}
	for _, f := range []struct {
		name string
		v    *string
		max  int
	}{{"albumName", req.AlbumName, store.MaxNameChars}, {"description", req.Description, store.MaxDescriptionChars}, {"password", req.Password, store.MaxPasswordChars}} {
		if f.v != nil && utf8.RuneCountInString(*f.v) > f.max {
			return store.Fail(store.Invalid, "%s must be shorter than or equal to %d characters", f.name, f.max)
		}
	}
	owner := c.p().User.ID
	nl := store.NewLink{
		Type:          req.Type,
		AllowUpload:   orDefault(req.AllowUpload, true),
		AllowDownload: orDefault(req.AllowDownload, true),
		ShowMetadata:  orDefault(req.ShowMetadata, true),
		Password:      req.Password,
		Description:   req.Description,
		ExpiresAt:     req.ExpiresAt,
	}
	out, err := store.Update(s.store, func(tx *store.Tx) (model.SharedLink, error) {
		ids := lower(req.AssetIDs)
		if req.Type == model.LinkIndividual {
			nl.AssetIDs = ids
		} else {
			for _, id := range ids {
				if a := tx.Asset(id); a == nil || a.OwnerID != owner {
					return model.SharedLink{}, store.Fail(store.NoAccess, "Not found or no asset.share access")
				}
			}
			al, err := tx.CreateAlbum(owner, store.NewAlbum{Name: orDefault(req.AlbumName, "Untitled"), AssetIDs: ids})
			if err != nil {
				return model.SharedLink{}, err
			}
			nl.AlbumID = &al.ID
		}
		l, err := tx.CreateLink(owner, nl)
		if err != nil {
			return model.SharedLink{}, err
		}
		return linkAnswer(&tx.View, l, c.aud.linkListed(l)), nil
	})
	return answer(c, http.StatusCreated, out, err)
}

// orDefault is *p, or def when p is nil.
func orDefault[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// controlAssets is GET /__mock/assets: every asset of the caller, hidden
// ones too, as its owner reads it, the most recently added first.
func (s *server) controlAssets(c *call) error {
	owner := c.p().User.ID
	a, err := s.answers.encodedList(c.r.Context(), "control-assets\x00"+owner, store.Everything, func(v *store.View, emit func(any) error) error {
		for _, a := range v.AssetsOf(owner) {
			if err := emit(assetAnswer(v, a, assetControl(owner))); err != nil {
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

// controlReset is POST /__mock/reset: back to the start-up dataset, or with
// {"empty": true} to nothing but the default user, and with
// "keepDefaultUser": false to no user at all, as a server freshly
// installed, whose first admin signs up. With "tables", only the records
// of those upstream tables go (tableDeletes), whatever else it says.
func (s *server) controlReset(c *call) error {
	type request struct {
		Empty           bool     `json:"empty"`
		KeepDefaultUser *bool    `json:"keepDefaultUser"`
		Tables          []string `json:"tables"`
	}
	var req request
	if err := s.decodeBody(c, &req, true); err != nil {
		return err
	}
	if req.Tables != nil {
		return s.resetTables(c, req.Tables)
	}
	if req.KeepDefaultUser != nil && !req.Empty {
		return store.Fail(store.Invalid, "keepDefaultUser is for an empty reset: send it with \"empty\": true")
	}
	d := s.cfg.Dataset()
	if req.Empty {
		d = EmptyDataset(d, orDefault(req.KeepDefaultUser, true))
	}
	if err := s.store.Replace(d); err != nil {
		return fmt.Errorf("resetting: %w", err)
	}
	s.jobs.Reset()
	s.scanAtStart()
	return c.json(http.StatusOK, map[string]any{"reset": true, "empty": req.Empty})
}

// EmptyDataset is d without its data: with keepDefaultUser, its default
// user (its first) alone; else no user at all, as a server freshly
// installed.
func EmptyDataset(d model.Dataset, keepDefaultUser bool) model.Dataset {
	var users []model.UserRecord
	if keepDefaultUser {
		users = d.Users[:min(1, len(d.Users))]
	}
	return model.Dataset{Seed: d.Seed, Anchor: d.Anchor, Users: users, AdminOnboarded: keepDefaultUser && d.AdminOnboarded}
}

// controlDataset is GET /__mock/dataset: the whole state, which --fixtures
// loads, encoded as it is written (streamDataset). While
// httpx.MaxDatasetAnswers are being written, one more is answered 503.
func (s *server) controlDataset(c *call) error {
	if !s.datasets.Take(c.w) {
		return nil
	}
	defer s.datasets.Release()
	if err := streamDataset(c.w, s.store.Records()); err != nil {
		// The status is sent; the client, gone or too slow, was cut off.
		httpx.ClientGone(c.w)
	}
	return nil
}
