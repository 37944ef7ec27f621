package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Searching a library, as the web app's explore, places and search pages
// do (the upstream's search controller). Smart search needs machine
// learning, which the mock has not: it answers as the reference does
// with machine learning off.

// Shorthands of the search DTOs.
var (
	optionalText = func(name string) dto.Property { return dto.Field(name, isString, isNotEmpty, optional) }
	optionalDate = dto.ValidateDate(dto.ValidateDateOptions{Optional: true})
)

// maxExactInteger is the largest whole number a JavaScript number holds
// exactly (Number.MAX_SAFE_INTEGER).
const maxExactInteger = 1<<53 - 1

// withinExactIntegers is a rule of the mock's, judged after the upstream's
// and only of a number: a page past the whole numbers JavaScript holds
// exactly is refused (the reference asks its database for an offset that
// is no number then, and fails), so that no page's offset overflows.
var withinExactIntegers = dto.As(dto.Check(func(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return true
	}
	f, err := n.Float64()
	return err != nil || f <= maxExactInteger
}, "$property must not be greater than "+strconv.Itoa(maxExactInteger)))

// baseSearchDTO is BaseSearchDto's members, which MetadataSearchDto and
// SmartSearchDto extend (their own members are judged first).
var baseSearchDTO = []dto.Property{
	dto.Field("libraryId", optionalUUID),
	optionalText("deviceId"),
	dto.Field("type", dto.As(dto.IsEnum(model.AssetImage, model.AssetVideo, model.AssetAudio, model.AssetOther)), optional),
	dto.Field("isArchived", optionalBool),
	dto.Field("withArchived", optionalBool),
	dto.Field("isEncoded", optionalBool),
	dto.Field("isFavorite", optionalBool),
	dto.Field("isMotion", optionalBool),
	dto.Field("isOffline", optionalBool),
	dto.Field("isVisible", optionalBool),
	dto.Field("withDeleted", optionalBool),
	dto.Field("withExif", optionalBool),
	dto.Field("createdBefore", optionalDate),
	dto.Field("createdAfter", optionalDate),
	dto.Field("updatedBefore", optionalDate),
	dto.Field("updatedAfter", optionalDate),
	dto.Field("trashedBefore", optionalDate),
	dto.Field("trashedAfter", optionalDate),
	dto.Field("takenBefore", optionalDate),
	dto.Field("takenAfter", optionalDate),
	optionalText("city"),
	optionalText("state"),
	optionalText("country"),
	optionalText("make"),
	optionalText("model"),
	optionalText("lensModel"),
	dto.Field("page", withinExactIntegers, isInt, minOf(1), toNumber, optional),
	dto.Field("size", isInt, minOf(1), maxOf(1000), toNumber, optional),
	dto.Field("isNotInAlbum", optionalBool),
	dto.Field("personIds", optionalUUIDs),
}

// MetadataSearchDto: POST /api/search/metadata.
var metadataSearchBody = dto.NewClass("MetadataSearchDto", append([]dto.Property{
	dto.Field("id", optionalUUID),
	optionalText("deviceAssetId"),
	optionalText("checksum"),
	dto.Field("withStacked", optionalBool),
	dto.Field("withPeople", optionalBool),
	optionalText("originalFileName"),
	optionalText("originalPath"),
	optionalText("previewPath"),
	optionalText("thumbnailPath"),
	optionalText("encodedVideoPath"),
	dto.Field("order", dto.As(dto.IsEnum("asc", "desc")), optional),
}, baseSearchDTO...)...)

// SmartSearchDto: POST /api/search/smart.
var smartSearchBody = dto.NewClass("SmartSearchDto", append([]dto.Property{
	dto.Field("query", isString, isNotEmpty),
}, baseSearchDTO...)...)

// SearchSuggestionRequestDto: GET /api/search/suggestions.
var suggestionQuery = dto.NewClass("SearchSuggestionRequestDto",
	dto.Field("type", dto.As(dto.IsEnum(store.SuggestCountry, store.SuggestState, store.SuggestCity, store.SuggestMake, store.SuggestModel)), isNotEmpty),
	dto.Field("country", isString, optional),
	dto.Field("state", isString, optional),
	dto.Field("make", isString, optional),
	dto.Field("model", isString, optional),
)

// SearchPeopleDto: GET /api/search/person.
var searchPeopleQuery = dto.NewClass("SearchPeopleDto",
	dto.Field("name", isString, isNotEmpty),
	dto.Field("withHidden", optionalBool),
)

// searchAnswer is SearchResponseDto: no albums (the reference finds none
// either), and a page of assets.
type searchAnswer struct {
	Albums struct {
		Total  int   `json:"total"`
		Count  int   `json:"count"`
		Items  []any `json:"items"`
		Facets []any `json:"facets"`
	} `json:"albums"`
	Assets struct {
		Total    int           `json:"total"`
		Count    int           `json:"count"`
		Items    []model.Asset `json:"items"`
		Facets   []any         `json:"facets"`
		NextPage *string       `json:"nextPage"`
	} `json:"assets"`
}

func newSearchAnswer(items []model.Asset, nextPage *string) searchAnswer {
	var out searchAnswer
	out.Albums.Items, out.Albums.Facets = []any{}, []any{}
	out.Assets.Total, out.Assets.Count, out.Assets.Items, out.Assets.Facets = len(items), len(items), items, []any{}
	out.Assets.NextPage = nextPage
	return out
}

// timeOf is a member of b that a rule read as a date, or nil.
func timeOf(b dto.Body, name string) *time.Time {
	if t, ok := b.Time(name); ok {
		return &t
	}
	return nil
}

// textOf is a member of b that a rule checked for a string, or nil.
func textOf(b dto.Body, name string) *string {
	if v, ok := b.String(name); ok {
		return &v
	}
	return nil
}

// searchMetadata is POST /api/search/metadata: 200, a page of the assets
// the body's filters find, the newest taken first.
func (s *server) searchMetadata(c *call, b dto.Body) error {
	return s.search(c, metadataQueryOf(b), b)
}

// metadataQueryOf reads what a search body's filters ask for.
func metadataQueryOf(b dto.Body) store.MetadataQuery {
	q := store.MetadataQuery{
		ID: optionalID(b, "id"), LibraryID: optionalID(b, "libraryId"),
		DeviceAssetID: textOf(b, "deviceAssetId"), DeviceID: textOf(b, "deviceId"), Type: textOf(b, "type"),
		OriginalPath: textOf(b, "originalPath"), OriginalFileName: textOf(b, "originalFileName"),
		Checksum: textOf(b, "checksum"),
		City:     textOf(b, "city"), State: textOf(b, "state"), Country: textOf(b, "country"),
		Make: textOf(b, "make"), Model: textOf(b, "model"), LensModel: textOf(b, "lensModel"),
		NoSuchPath: b.Has("previewPath") || b.Has("thumbnailPath") || b.Has("encodedVideoPath"),
		IsFavorite: boolOf(b, "isFavorite"), IsOffline: boolOf(b, "isOffline"), IsVisible: boolOf(b, "isVisible"),
		IsArchived: boolOf(b, "isArchived"), WithDeleted: boolOf(b, "withDeleted"),
		PersonIDs:    lower(b.Strings("personIds")),
		CreatedAfter: timeOf(b, "createdAfter"), CreatedBefore: timeOf(b, "createdBefore"),
		UpdatedAfter: timeOf(b, "updatedAfter"), UpdatedBefore: timeOf(b, "updatedBefore"),
		TrashedAfter: timeOf(b, "trashedAfter"), TrashedBefore: timeOf(b, "trashedBefore"),
		TakenAfter: timeOf(b, "takenAfter"), TakenBefore: timeOf(b, "takenBefore"),
		Page: 1, Size: 250,
	}
	q.WithArchived, _ = b.Bool("withArchived")
	q.IsEncoded, _ = b.Bool("isEncoded")
	q.IsMotion, _ = b.Bool("isMotion")
	q.IsNotInAlbum, _ = b.Bool("isNotInAlbum")
	if order, _ := b.String("order"); order == "asc" {
		q.Ascending = true
	}
	if n, ok := b.Int64("page"); ok {
		q.Page = int(n)
	}
	if n, ok := b.Int64("size"); ok {
		q.Size = int(n)
	}
	return q
}

// search answers the page of assets q finds, as b asks to show them.
func (s *server) search(c *call, q store.MetadataQuery, b dto.Body) error {
	look := assetLook{favoriteOf: c.p().User.ID}
	look.exif, _ = b.Bool("withExif")
	look.people, _ = b.Bool("withPeople")
	look.stack, _ = b.Bool("withStacked")
	var out searchAnswer
	s.store.Read(func(v *store.View) {
		q.Owners = v.SearchOwners(c.p().User.ID)
		found, more := v.SearchMetadata(q)
		items := assetAnswers(v, found, look)
		var next *string
		if more {
			next = new(strconv.Itoa(q.Page + 1))
		}
		out = newSearchAnswer(items, next)
	})
	return c.json(http.StatusOK, out)
}

// searchSmart is POST /api/search/smart: the body judged, then the
// reference's answer with machine learning off, as it is by default. With
// machine learning and CLIP on in the settings, the mock finds the
// query's words in what the assets' metadata says of them (file name,
// description, place, camera, tags, objects, people), a stand-in for a
// search by meaning, 100 to a page.
func (s *server) searchSmart(c *call, b dto.Body) error {
	var on bool
	s.store.Read(func(v *store.View) {
		ml := v.SystemConfig().MachineLearning
		on = ml.Enabled && ml.CLIP.Enabled
	})
	if !on {
		return store.Fail(store.Invalid, "Smart search is not enabled")
	}
	q := metadataQueryOf(b)
	query, _ := b.String("query")
	q.Words = strings.Fields(strings.ToLower(query))
	if _, ok := b.Int64("size"); !ok {
		q.Size = 100
	}
	return s.search(c, q, b)
}

// exploreLook is an asset as the explore page gets it: with every
// relation the reference loads.
func exploreLook(viewer string) assetLook {
	return assetLook{exif: true, detail: true, stack: true, people: true, favoriteOf: viewer}
}

// searchExplore is GET /api/search/explore: the caller's cities and tags
// that five or more of their pictures have, twelve of each at most, each
// with one of the pictures.
func (s *server) searchExplore(c *call) error {
	type item struct {
		Value string      `json:"value"`
		Data  model.Asset `json:"data"`
	}
	type field struct {
		FieldName string `json:"fieldName"`
		Items     []item `json:"items"`
	}
	const minAssets, maxFields = 5, 12
	var out []field
	s.store.Read(func(v *store.View) {
		userID := c.p().User.ID
		look := exploreLook(userID)
		for _, f := range []struct {
			name  string
			items []store.ExploreItem
		}{
			{"exifInfo.city", v.ExploreCities(userID, minAssets, maxFields)},
			{"smartInfo.tags", v.ExploreTags(userID, minAssets, maxFields)},
		} {
			fl := field{FieldName: f.name, Items: make([]item, 0, len(f.items))}
			for _, it := range f.items {
				fl.Items = append(fl.Items, item{Value: it.Value, Data: assetAnswer(v, it.Asset, look)})
			}
			out = append(out, fl)
		}
	})
	return c.json(http.StatusOK, out)
}

// searchCities is GET /api/search/cities: one picture of each city of
// the caller's library (and of partners in their timeline), by city.
func (s *server) searchCities(c *call) error {
	var out []model.Asset
	s.store.Read(func(v *store.View) { out = assetAnswers(v, v.AssetsByCity(c.p().User.ID), c.aud.libraryRead()) })
	return c.json(http.StatusOK, out)
}

// searchSuggestions is GET /api/search/suggestions?type&country&state&make&model.
func (s *server) searchSuggestions(c *call) error {
	b, err := readQuery(c.r.URL.Query(), suggestionQuery)
	if err != nil {
		return err
	}
	q := store.SuggestionQuery{}
	q.Kind, _ = b.String("type")
	q.Country, _ = b.String("country")
	q.State, _ = b.String("state")
	q.Make, _ = b.String("make")
	q.Model, _ = b.String("model")
	out := []string{}
	s.store.Read(func(v *store.View) {
		if found := v.Suggestions(c.p().User.ID, q); found != nil {
			out = found
		}
	})
	return c.json(http.StatusOK, out)
}

// searchPerson is GET /api/search/person?name&withHidden: the caller's
// people whose name, or a word of it, begins so, the most seen first.
func (s *server) searchPerson(c *call) error {
	b, err := readQuery(c.r.URL.Query(), searchPeopleQuery)
	if err != nil {
		return err
	}
	name, _ := b.String("name")
	withHidden, _ := b.Bool("withHidden")
	out := []any{}
	s.store.Read(func(v *store.View) {
		for _, p := range v.PeopleNamed(c.p().User.ID, strings.ToLower(name), withHidden) {
			out = append(out, personRecordAnswer(p))
		}
	})
	return c.json(http.StatusOK, out)
}
