package api

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/pictures"
)

// People as their owner reads and changes them (the upstream's person
// controller). A person's picture is a portrait the mock paints, the same
// for the same person.

// PersonSearchDto: GET /api/people.
var personSearchQuery = dto.NewClass("PersonSearchDto", dto.Field("withHidden", optionalBool))

// personDTO is PersonCreateDto's members, as PersonUpdateDto and
// PeopleUpdateItem inherit them; birthDate may not lie after now().
func personDTO(now func() time.Time) []dto.Property {
	return []dto.Property{
		dto.Field("name", optional, isString).Limit(store.MaxNameChars),
		dto.Field("birthDate", dto.As(dto.MaxDate(now, "Birth date cannot be in the future")),
			dto.ValidateDate(dto.ValidateDateOptions{Optional: true, Nullable: true})),
		dto.Field("isHidden", optionalBool),
	}
}

// featureFace is PersonUpdateDto's own member.
var featureFace = dto.Field("featureFaceAssetId", optional, isString).Limit(store.MaxNameChars)

// personUpdateBody is PersonUpdateDto: PUT /api/people/{id}.
func (s *server) personUpdateBody() *dto.Class {
	return dto.NewClass("PersonUpdateDto", append([]dto.Property{featureFace}, personDTO(s.cfg.Now)...)...)
}

// peopleUpdateBody is PeopleUpdateDto, with its PeopleUpdateItem: PUT
// /api/people.
func (s *server) peopleUpdateBody() *dto.Class {
	item := dto.NewClass("PeopleUpdateItem", slices.Concat(
		[]dto.Property{dto.Field("id", isString, isNotEmpty).Limit(store.MaxNameChars)},
		personDTO(s.cfg.Now),
		[]dto.Property{featureFace},
	)...)
	return dto.NewClass("PeopleUpdateDto", dto.Field("people", isArray, dto.ValidateNested(item, true))).Within(listBody)
}

// personRecordAnswer is p as PersonResponseDto shows it.
func personRecordAnswer(p *model.PersonRecord) any {
	return personAnswer(model.Person{ID: p.ID, Name: p.Name, BirthDate: p.BirthDate, ThumbnailPath: p.ThumbnailPath, IsHidden: p.IsHidden})
}

// people is GET /api/people?withHidden: the caller's people, with how
// many there are and how many of them are hidden.
func (s *server) people(c *call) error {
	b, err := readQuery(c.r.URL.Query(), personSearchQuery)
	if err != nil {
		return err
	}
	withHidden, _ := b.Bool("withHidden")
	type answer struct {
		People []any `json:"people"`
		Total  int   `json:"total"`
		Hidden int   `json:"hidden"`
	}
	out := answer{People: []any{}}
	s.store.Read(func(v *store.View) {
		minFaces := int(v.SystemConfig().MachineLearning.FacialRecognition.MinFaces)
		people, total, hidden := v.People(c.p().User.ID, withHidden, minFaces)
		for _, p := range people {
			out.People = append(out.People, personRecordAnswer(p))
		}
		out.Total, out.Hidden = total, hidden
	})
	return c.json(http.StatusOK, out)
}

// person is GET /api/people/{id}.
func (s *server) person(c *call) error {
	out, err := store.Query(s.store, func(v *store.View) (any, error) {
		p, err := v.OwnPerson(c.p().User.ID, c.id, "read")
		if err != nil {
			return nil, err
		}
		return personRecordAnswer(p), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// personPatchOf reads what an update changes of a person.
func personPatchOf(b dto.Body) store.PersonPatch {
	var p store.PersonPatch
	if v, ok := b.String("name"); ok {
		p.Name = &v
	}
	if t, ok := b.Time("birthDate"); ok {
		d := new(t.UTC().Format(model.DateLayout))
		p.BirthDate = &d
	} else if b.IsNull("birthDate") {
		var none *string
		p.BirthDate = &none
	}
	p.IsHidden = boolOf(b, "isHidden")
	if v, ok := b.String("featureFaceAssetId"); ok {
		p.FeatureFaceAssetID = new(strings.ToLower(v))
	}
	return p
}

// updatePerson is PUT /api/people/{id}.
func (s *server) updatePerson(c *call, b dto.Body) error {
	out, err := store.Update(s.store, func(tx *store.Tx) (any, error) {
		p, err := tx.UpdatePerson(c.p().User.ID, c.id, personPatchOf(b))
		if err != nil {
			return nil, err
		}
		return personRecordAnswer(p), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// updatePeople is PUT /api/people: each person changed on its own, with
// its outcome; one that cannot be changed is "unknown", as the reference
// says of any failure.
func (s *server) updatePeople(c *call, b dto.Body) error {
	items := b.Objects("people")
	out := make([]model.BulkIDResult, 0, len(items))
	for _, item := range items {
		id, _ := item.String("id")
		patch := personPatchOf(item)
		err := s.store.Write(func(tx *store.Tx) error {
			_, err := tx.UpdatePerson(c.p().User.ID, strings.ToLower(id), patch)
			return err
		})
		if err != nil {
			if store.CodeOf(err) == store.Internal || store.CodeOf(err) == 0 {
				return err
			}
			out = append(out, model.BulkIDResult{ID: id, Error: "unknown"})
			continue
		}
		out = append(out, model.BulkIDResult{ID: id, Success: true})
	}
	return c.json(http.StatusOK, out)
}

// personStatistics is GET /api/people/{id}/statistics: how many assets
// the person is seen in.
func (s *server) personStatistics(c *call) error {
	n, err := store.Query(s.store, func(v *store.View) (int, error) {
		p, err := v.OwnPerson(c.p().User.ID, c.id, "read")
		if err != nil {
			return 0, err
		}
		return v.PersonAssetCount(p), nil
	})
	if err != nil {
		return err
	}
	return c.json(http.StatusOK, map[string]int{"assets": n})
}

// personAssets is GET /api/people/{id}/assets: the assets the person is
// seen in, the newest first, with their metadata and people.
func (s *server) personAssets(c *call) error {
	out, err := store.Query(s.store, func(v *store.View) ([]model.Asset, error) {
		p, err := v.OwnPerson(c.p().User.ID, c.id, "read")
		if err != nil {
			return nil, err
		}
		return assetAnswers(v, v.PersonAssets(p), c.aud.personAssetsRead()), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// errNoThumbnail is the reference's answer for a person without a
// picture: a bare 404.
var errNoThumbnail = &httpx.Error{Status: http.StatusNotFound, Message: "Not Found", Bare: true}

// personThumbnail is GET /api/people/{id}/thumbnail: a portrait of the
// person, painted from their id, as image/jpeg; a person without a
// thumbnail (one made through the API) has none.
func (s *server) personThumbnail(c *call) error {
	p, err := store.Query(s.store, func(v *store.View) (model.PersonRecord, error) {
		found, err := v.OwnPerson(c.p().User.ID, c.id, "read")
		if err != nil {
			return model.PersonRecord{}, err
		}
		return *found, nil
	})
	if err != nil {
		return err
	}
	if p.ThumbnailPath == "" {
		return errNoThumbnail
	}
	key := "person/" + p.ID
	body, ok := s.pictures.Get(key)
	if !ok {
		if body, err = pictures.JPEG(pictures.Portrait(p.ID, personColor(p.ID))); err != nil {
			return fmt.Errorf("painting the picture of person %s: %w", p.ID, err)
		}
		s.pictures.Put(key, body)
	}
	h := c.w.Header()
	h.Set("Cache-Control", "private, no-cache, no-transform")
	h.Set("Content-Type", "image/jpeg")
	_ = http.NewResponseController(c.w).SetWriteDeadline(time.Now().Add(httpx.WriteDeadline(len(body))))
	http.ServeContent(c.w, c.r, "", time.Time{}, bytes.NewReader(body))
	return nil
}

// personColor is the background of a person's portrait, by their id.
func personColor(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	colors := model.AvatarColors()
	return colors[h.Sum32()%uint32(len(colors))]
}
