package api

import (
	"net/http"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/gazetteer"
	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Faces and what is found in assets without looking at their pixels: the
// faces of an asset and the people they are of (the upstream's face
// controller, and its person controller's merge and reassign), the groups
// of duplicates, the gazetteer's places by name, and the assets a device
// already backed up.

var uuidField = dto.ValidateUUID(dto.ValidateUUIDOptions{})

// FaceDto: GET /api/faces?id, and PUT /api/faces/{id}'s body.
var faceDTO = dto.NewClass("FaceDto", dto.Field("id", uuidField))

// MergePersonDto: POST /api/people/{id}/merge.
var mergePersonBody = dto.NewClass("MergePersonDto", dto.Field("ids", uuids)).Within(listBody)

// AssetFaceUpdateDto, with its AssetFaceUpdateItem: PUT
// /api/people/{id}/reassign.
var faceUpdateBody = dto.NewClass("AssetFaceUpdateDto",
	dto.Field("data", isArray, dto.ValidateNested(dto.NewClass("AssetFaceUpdateItem",
		dto.Field("personId", uuidField),
		dto.Field("assetId", uuidField),
	), true)),
).Within(listBody)

// SearchPlacesDto: GET /api/search/places?name.
var searchPlacesQuery = dto.NewClass("SearchPlacesDto", dto.Field("name", isString, isNotEmpty))

// CheckExistingAssetsDto: POST /api/asset/exist.
var checkExistingBody = dto.NewClass("CheckExistingAssetsDto",
	dto.Field("deviceAssetIds", dto.As(dto.ArrayNotEmpty()), dto.As(dto.IsString().Each()), dto.As(dto.IsNotEmpty().Each())),
	dto.Field("deviceId", isNotEmpty),
).Within(listBody)

// faceRoutes are faces, merging people, duplicates, places, what a device
// backed up, and an asset's file replaced.
func (s *server) faceRoutes() []route {
	return []route{
		{pattern: "GET /api/duplicates", policy: user, op: s.duplicates},
		{pattern: "GET /api/faces", policy: user, op: s.faces},
		{pattern: "PUT /api/faces/{id}", policy: user, body: faceDTO, do: s.reassignFace},
		{pattern: "POST /api/people/{id}/merge", policy: user, body: mergePersonBody, do: s.mergePerson},
		{pattern: "PUT /api/people/{id}/reassign", policy: user, body: faceUpdateBody, do: s.reassignFaces},
		{pattern: "GET /api/search/places", policy: user, op: searchPlaces},
		{pattern: "POST /api/asset/exist", policy: user, body: checkExistingBody, do: s.existingAssets},
		{pattern: "GET /api/asset/device/{deviceId}", policy: user, op: s.deviceAssets},
		{pattern: "PUT /api/asset/{id}/file", policy: userOrLink, op: s.replaceAsset, order: bodyFirst},
	}
}

// duplicatesRead is GET /api/duplicates: as the caller's library, with
// the stack counted.
func (a audience) duplicatesRead() assetLook { return a.randomRead() }

// duplicates is GET /api/duplicates: the caller's groups of duplicates,
// by their id.
func (s *server) duplicates(c *call) error {
	type group struct {
		DuplicateID string        `json:"duplicateId"`
		Assets      []model.Asset `json:"assets"`
	}
	out := []group{}
	s.store.Read(func(v *store.View) {
		look := c.aud.duplicatesRead()
		for _, g := range v.Duplicates(c.p().User.ID) {
			out = append(out, group{DuplicateID: *g[0].DuplicateID, Assets: assetAnswers(v, g, look)})
		}
	})
	return c.json(http.StatusOK, out)
}

// faceAnswer is AssetFaceResponseDto, in the reference's order of keys.
type faceAnswer struct {
	ID            string `json:"id"`
	ImageHeight   int    `json:"imageHeight"`
	ImageWidth    int    `json:"imageWidth"`
	BoundingBoxX1 int    `json:"boundingBoxX1"`
	BoundingBoxX2 int    `json:"boundingBoxX2"`
	BoundingBoxY1 int    `json:"boundingBoxY1"`
	BoundingBoxY2 int    `json:"boundingBoxY2"`
	Person        any    `json:"person"`
}

// faceAnswerOf is f as AssetFaceResponseDto shows it, with its person if
// the caller may see them (nil: null).
func faceAnswerOf(f model.FaceRecord, person *model.PersonRecord) faceAnswer {
	fa := faceAnswer{ID: f.ID, ImageHeight: f.ImageHeight, ImageWidth: f.ImageWidth,
		BoundingBoxX1: f.BoundingBoxX1, BoundingBoxX2: f.BoundingBoxX2, BoundingBoxY1: f.BoundingBoxY1, BoundingBoxY2: f.BoundingBoxY2}
	if person != nil {
		fa.Person = personRecordAnswer(person)
	}
	return fa
}

// faces is GET /api/faces?id: the faces of an asset the caller may read,
// each with its person where the person is the caller's.
func (s *server) faces(c *call) error {
	b, err := readQuery(c.r.URL.Query(), faceDTO)
	if err != nil {
		return err
	}
	id, _ := b.String("id")
	out, err := store.Query(s.store, func(v *store.View) ([]faceAnswer, error) {
		faces, err := v.AssetFaces(c.p(), strings.ToLower(id))
		if err != nil {
			return nil, err
		}
		out := make([]faceAnswer, 0, len(faces))
		for _, af := range faces {
			out = append(out, faceAnswerOf(af.Face, af.Person))
		}
		return out, nil
	})
	return answer(c, http.StatusOK, out, err)
}

// reassignFace is PUT /api/faces/{id}: the face named in the body given
// to the person of the path.
func (s *server) reassignFace(c *call, b dto.Body) error {
	faceID, _ := b.String("id")
	out, err := store.Update(s.store, func(tx *store.Tx) (any, error) {
		p, err := tx.ReassignFace(c.p().User.ID, c.id, strings.ToLower(faceID))
		if err != nil {
			return nil, err
		}
		return personRecordAnswer(p), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// mergePerson is POST /api/people/{id}/merge: what became of each person
// merged in.
func (s *server) mergePerson(c *call, b dto.Body) error {
	ids := b.Strings("ids")
	for i, id := range ids {
		ids[i] = strings.ToLower(id)
	}
	out, err := store.Update(s.store, func(tx *store.Tx) ([]model.BulkIDResult, error) {
		return tx.MergePeople(c.p().User.ID, c.id, ids)
	})
	return answer(c, http.StatusCreated, out, err)
}

// reassignFaces is PUT /api/people/{id}/reassign: the faces of each
// item's person in its asset given to the person of the path; the person
// once for each item, as the reference answers (with --reference-shapes,
// as it answers it: the stored record, as it was before).
func (s *server) reassignFaces(c *call, b dto.Body) error {
	var items []store.FaceRef
	for _, o := range b.Objects("data") {
		personID, _ := o.String("personId")
		assetID, _ := o.String("assetId")
		items = append(items, store.FaceRef{PersonID: strings.ToLower(personID), AssetID: strings.ToLower(assetID)})
	}
	out, err := store.Update(s.store, func(tx *store.Tx) ([]any, error) {
		people, err := tx.ReassignFaces(c.p().User.ID, c.id, items)
		if err != nil {
			return nil, err
		}
		out := make([]any, 0, len(people))
		for _, p := range people {
			if c.aud.reference {
				out = append(out, personEntity(p, tx.Anchor()))
			} else {
				out = append(out, personRecordAnswer(p))
			}
		}
		return out, nil
	})
	return answer(c, http.StatusOK, out, err)
}

// personEntity is a person as the reference's record serializes: with its
// owner, times and face. The dataset's people, who have no times, have
// the dataset's anchor.
func personEntity(p *model.PersonRecord, anchor model.Time) any {
	created, updated := p.CreatedAt, p.UpdatedAt
	if created.IsZero() {
		created = anchor
	}
	if updated.IsZero() {
		updated = created
	}
	return struct {
		ID            string     `json:"id"`
		CreatedAt     model.Time `json:"createdAt"`
		UpdatedAt     model.Time `json:"updatedAt"`
		OwnerID       string     `json:"ownerId"`
		Name          string     `json:"name"`
		BirthDate     *string    `json:"birthDate"`
		ThumbnailPath string     `json:"thumbnailPath"`
		FaceAssetID   *string    `json:"faceAssetId"`
		IsHidden      bool       `json:"isHidden"`
	}{p.ID, created, updated, p.OwnerID, p.Name, p.BirthDate, p.ThumbnailPath, p.FaceAssetID, p.IsHidden}
}

// maxPlaces is how many places a search by name finds at most, as the
// reference's.
const maxPlaces = 20

// placeAnswer is PlacesResponseDto: a city of the gazetteer, which knows
// no second level of division (admin2name is left out).
type placeAnswer struct {
	Name       string  `json:"name"`
	Latitude   float64 `json:"latitude"`
	Longitude  float64 `json:"longitude"`
	Admin1Name string  `json:"admin1name"`
}

// referencePlace is a place as the reference shows one without a second
// level of division: admin2name null.
type referencePlace struct {
	placeAnswer
	Admin2Name *string `json:"admin2name"`
}

// searchPlaces is GET /api/search/places?name: the gazetteer's cities
// whose name or state is like name.
func searchPlaces(c *call) error {
	b, err := readQuery(c.r.URL.Query(), searchPlacesQuery)
	if err != nil {
		return err
	}
	name, _ := b.String("name")
	out := []any{}
	for _, p := range gazetteer.Search(name, maxPlaces) {
		place := placeAnswer{Name: p.City, Latitude: p.Lat, Longitude: p.Lon, Admin1Name: p.State}
		if c.aud.reference {
			out = append(out, referencePlace{placeAnswer: place})
			continue
		}
		out = append(out, place)
	}
	return c.json(http.StatusOK, out)
}

// existingAssets is POST /api/asset/exist: the ids of the caller's assets
// from the device with one of the device's asset ids. The reference
// answers null for each (its query does not select the id): so does
// --reference-shapes.
func (s *server) existingAssets(c *call, b dto.Body) error {
	deviceID, _ := b.String("deviceId")
	ids := b.Strings("deviceAssetIds")
	out := struct {
		ExistingIDs []*string `json:"existingIds"`
	}{ExistingIDs: []*string{}}
	s.store.Read(func(v *store.View) {
		for _, a := range v.ExistingAssets(c.p().User.ID, deviceID, ids) {
			if c.aud.reference {
				out.ExistingIDs = append(out.ExistingIDs, nil)
			} else {
				out.ExistingIDs = append(out.ExistingIDs, &a.ID)
			}
		}
	})
	return c.json(http.StatusOK, out)
}

// deviceAssets is GET /api/asset/device/{deviceId}: the device's ids of
// the caller's assets from it.
func (s *server) deviceAssets(c *call) error {
	var out []string
	s.store.Read(func(v *store.View) { out = v.DeviceAssetIDs(c.p().User.ID, c.r.PathValue("deviceId")) })
	return c.json(http.StatusOK, out)
}

// controlCreateFace is POST /__mock/faces: a face of a person in an asset
// of the same owner, as the reference's face detection and recognition
// would find it (they need machine learning, which the mock does not
// have); 201 with the face and its person. Like the upstream's test
// harness, which writes faces into the database, it needs no credentials.
func (s *server) controlCreateFace(c *call) error {
	var body struct {
		AssetID       string `json:"assetId"`
		PersonID      string `json:"personId"`
		BoundingBoxX1 int    `json:"boundingBoxX1"`
		BoundingBoxY1 int    `json:"boundingBoxY1"`
		BoundingBoxX2 int    `json:"boundingBoxX2"`
		BoundingBoxY2 int    `json:"boundingBoxY2"`
		ImageWidth    int    `json:"imageWidth"`
		ImageHeight   int    `json:"imageHeight"`
	}
	if err := s.decodeBody(c, &body, false); err != nil {
		return err
	}
	if !dto.IsUUIDString(body.AssetID) || !dto.IsUUIDString(body.PersonID) {
		return store.InvalidFields([]string{"assetId and personId must be UUIDs"})
	}
	nf := store.NewFace{
		AssetID: strings.ToLower(body.AssetID), PersonID: strings.ToLower(body.PersonID),
		X1: body.BoundingBoxX1, Y1: body.BoundingBoxY1, X2: body.BoundingBoxX2, Y2: body.BoundingBoxY2,
		ImageWidth: body.ImageWidth, ImageHeight: body.ImageHeight,
	}
	out, err := store.Update(s.store, func(tx *store.Tx) (faceAnswer, error) {
		f, err := tx.AddFace(nf)
		if err != nil {
			return faceAnswer{}, err
		}
		return faceAnswerOf(f, tx.Person(f.PersonID)), nil
	})
	return answer(c, http.StatusCreated, out, err)
}

// controlPersonThumbnail is PUT /__mock/people/{id}/thumbnail: the path of
// a person's thumbnail, as the upstream's test harness writes it into the
// database (its people are made through the API, which gives them none);
// 200 with the person. It needs no credentials either.
func (s *server) controlPersonThumbnail(c *call) error {
	var body struct {
		ThumbnailPath string `json:"thumbnailPath"`
	}
	if err := s.decodeBody(c, &body, false); err != nil {
		return err
	}
	out, err := store.Update(s.store, func(tx *store.Tx) (any, error) {
		p, err := tx.SetPersonThumbnail(c.id, body.ThumbnailPath)
		if err != nil {
			return nil, err
		}
		return personRecordAnswer(p), nil
	})
	return answer(c, http.StatusOK, out, err)
}

// duplicateIDOf reads what PUT /api/asset changes of the assets' group of
// duplicates: nil keeps it; null takes them out of it (the web app's
// duplicates page resolving a group), an id puts them in it. The reference
// declares no rule, and fails with a 500 where the value is no UUID: the
// mock refuses it.
func duplicateIDOf(b dto.Body) (**string, error) {
	if !b.Has("duplicateId") {
		return nil, nil
	}
	if b.IsNull("duplicateId") {
		var none *string
		return &none, nil
	}
	v, ok := b.String("duplicateId")
	if !ok || !dto.IsUUIDString(v) {
		return nil, store.InvalidFields([]string{"duplicateId must be a UUID"})
	}
	id := new(strings.ToLower(v))
	return &id, nil
}
