package api

import (
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// bobAssetID is Bob's asset of the tests' dataset.
const bobAssetID = "00000000-0000-4000-8000-000000b0a5e7"

// searchIDs is POST /api/search/metadata of body as key: the numbers of
// richDataset's assets found (0: Alice's first, -1: Bob's first), and the
// next page.
func searchIDs(t *testing.T, srv *httptest.Server, key, body string) (found []int, next *string) {
	t.Helper()
	rep := postJSON(t, srv, "/api/search/metadata", body, "x-api-key", key)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var out struct {
		Albums struct {
			Total, Count int
			Items        []any
		}
		Assets struct {
			Total, Count int
			Items        []model.Asset
			NextPage     *string
		}
	}
	rep.json(t, &out)
	assert.Zero(t, out.Albums.Total)
	assert.Len(t, out.Assets.Items, out.Assets.Count)
	found = []int{}
	for _, a := range out.Assets.Items {
		n := map[string]int{aliceAssetID: 0, bobAssetID: -1}[a.ID]
		for i := 1; i <= 9; i++ {
			if a.ID == richAsset(i) {
				n = i
			}
		}
		found = append(found, n)
	}
	return found, out.Assets.NextPage
}

func TestSearchMetadata(t *testing.T) {
	srv := newRichServer(t)
	checksum := sha1Base64([]byte("IMG_0002.jpg"))
	raw, err := base64.StdEncoding.DecodeString(checksum)
	require.NoError(t, err)
	for _, tt := range []struct {
		name, body string
		want       []int
	}{
		{"everything", `{}`, []int{9, 8, 0, -1, 5, 4, 3, 2, 1}},
		{"the oldest first", `{"order":"asc"}`, []int{1, 2, 3, 4, 5, 8, 0, -1, 9}},
		{"by a part of the file name", `{"originalFileName":"img_"}`, []int{-1, 3, 2, 1}},
		{"by city", `{"city":"Lisbon"}`, []int{0, 4, 3, 2, 1}},
		{"by country and camera", `{"country":"Portugal","make":"Apple","model":"iPhone 15 Pro"}`, []int{0, 5, 4, 3, 2, 1}},
		{"favourites", `{"isFavorite":true}`, []int{5}},
		{"the archive too", `{"withArchived":true,"city":"Porto"}`, []int{6, 5}},
		{"the archive only", `{"isArchived":"true"}`, []int{6}},
		{"the trash too", `{"withDeleted":true,"city":"Lisbon"}`, []int{0, 7, 4, 3, 2, 1}},
		{"videos", `{"type":"VIDEO"}`, []int{8}},
		{"taken between", `{"takenAfter":"2026-07-25","takenBefore":"2026-08-23T00:00:00.000Z"}`, []int{4, 3, 2}},
		{"with people", `{"personIds":["` + mariaID + `","` + unnamedID + `"]}`, []int{2, 1}},
		{"in no album", `{"isNotInAlbum":true,"city":"Lisbon"}`, []int{4, 3, 2, 1}},
		{"by checksum in base64", `{"checksum":"` + checksum + `"}`, []int{2}},
		{"by checksum in hex", `{"checksum":"` + hex.EncodeToString(raw) + `"}`, []int{2}},
		{"by a thumbnail path", `{"thumbnailPath":"x"}`, []int{}},
		{"a partner's in the timeline", `{"city":"Berlin"}`, []int{9}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			found, next := searchIDs(t, srv, keyAlice, tt.body)
			assert.Equal(t, tt.want, found)
			assert.Nil(t, next)
		})
	}
	found, next := searchIDs(t, srv, keyAlice, `{"size":3}`)
	assert.Equal(t, []int{9, 8, 0}, found)
	assert.Equal(t, "2", *next)
	found, next = searchIDs(t, srv, keyAlice, `{"size":3,"page":"3"}`)
	assert.Equal(t, []int{3, 2, 1}, found)
	assert.Nil(t, next)
	for _, page := range []string{"4", "9007199254740991"} {
		found, next = searchIDs(t, srv, keyAlice, `{"size":1000,"page":`+page+`}`)
		assert.Empty(t, found, "page %s lies past the last", page)
		assert.Nil(t, next)
	}
	// 2^61 + 1 pages of 1000 once wrapped around to an offset of 0: page 1.
	requireError(t, postJSON(t, srv, "/api/search/metadata", `{"size":1000,"page":2305843009213693953}`, "x-api-key", keyAlice),
		400, []any{"page must not be greater than 9007199254740991"})
	found, _ = searchIDs(t, srv, keyBob, `{}`)
	assert.Equal(t, []int{9, -1}, found, "Bob does not see Alice's: she shares nothing with him")

	// What an asset shows: exif and people only when asked for.
	rep := postJSON(t, srv, "/api/search/metadata", `{"id":"`+richAsset(2)+`"}`, "x-api-key", keyAlice)
	assert.NotContains(t, string(rep.body), `"exifInfo"`)
	assert.Contains(t, string(rep.body), `"people":[]`)
	assert.NotContains(t, string(rep.body), `"owner"`)
	rep = postJSON(t, srv, "/api/search/metadata", `{"id":"`+richAsset(2)+`","withExif":true,"withPeople":true}`, "x-api-key", keyAlice)
	assert.Contains(t, string(rep.body), `"exifInfo":{`)
	assert.Contains(t, string(rep.body), `"name":"Maria Silva"`)

	for _, tt := range []struct {
		name, body string
		message    any
	}{
		{"bad values", `{"page":0,"size":5000,"type":"PHOTO","isFavorite":"maybe","city":"","personIds":["x"],"order":"up"}`, []any{
			"order must be one of the following values: asc, desc", "type must be one of the following values: IMAGE, VIDEO, AUDIO, OTHER",
			"isFavorite must be a boolean value", "city should not be empty", "page must not be less than 1",
			"size must not be greater than 1000", "each value in personIds must be a UUID"}},
		{"a date no date", `{"takenAfter":"x","page":0}`, "takenAfter must be a date string"},
		{"ids no UUIDs", `{"id":"x","checksum":5,"withPeople":"no"}`, []any{"id must be a UUID", "checksum must be a string", "withPeople must be a boolean value"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, postJSON(t, srv, "/api/search/metadata", tt.body, "x-api-key", keyAlice), 400, tt.message)
		})
	}
	requireError(t, postJSON(t, srv, "/api/search/metadata", `{}`, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
	requireError(t, postJSON(t, srv, "/api/search/metadata", `{}`), 401, "Authentication required")
}

func TestSearchSmart(t *testing.T) {
	srv := newRichServer(t)
	requireError(t, postJSON(t, srv, "/api/search/smart", `{"query":"cat"}`, "x-api-key", keyAlice), 400, "Smart search is not enabled")
	requireError(t, postJSON(t, srv, "/api/search/smart", `{}`, "x-api-key", keyAlice), 400, []any{"query should not be empty", "query must be a string"})

	// With machine learning on, the query's words are found in the metadata.
	rep := putConfig(t, srv, keyAlice, configWith(t, map[string]any{"machineLearning.enabled": true}))
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	smart := func(body string) []int {
		t.Helper()
		rep := postJSON(t, srv, "/api/search/smart", body, "x-api-key", keyAlice)
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		var out searchAnswer
		rep.json(t, &out)
		ids := []int{}
		for _, a := range out.Assets.Items {
			for i := 1; i <= 9; i++ {
				if a.ID == richAsset(i) {
					ids = append(ids, i)
				}
			}
		}
		return ids
	}
	assert.Equal(t, []int{2, 1}, smart(`{"query":"Maria lisbon"}`), "every word, in any case, in places and people's names")
	assert.Equal(t, []int{5}, smart(`{"query":"beach","city":"Porto"}`), "with the filters of every search")
	assert.Equal(t, []int{}, smart(`{"query":"penguin"}`))
	rep = putConfig(t, srv, keyAlice, configWith(t, map[string]any{"machineLearning.enabled": true, "machineLearning.clip.enabled": false}))
	require.Equal(t, http.StatusOK, rep.status)
	requireError(t, postJSON(t, srv, "/api/search/smart", `{"query":"cat"}`, "x-api-key", keyAlice), 400, "Smart search is not enabled")
}

func TestSearchExploreAndCities(t *testing.T) {
	srv := newRichServer(t)
	var explore []struct {
		FieldName string
		Items     []struct {
			Value string
			Data  model.Asset
		}
	}
	rep := getJSON(t, srv, "/api/search/explore", &explore, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	require.Len(t, explore, 2)
	assert.Equal(t, "exifInfo.city", explore[0].FieldName)
	require.Len(t, explore[0].Items, 1, "only Lisbon has five pictures out of the archive and the trash")
	assert.Equal(t, "Lisbon", explore[0].Items[0].Value)
	assert.Equal(t, aliceAssetID, explore[0].Items[0].Data.ID, "the newest")
	assert.NotNil(t, explore[0].Items[0].Data.ExifInfo)
	assert.Equal(t, "smartInfo.tags", explore[1].FieldName)
	require.Len(t, explore[1].Items, 1)
	assert.Equal(t, "beach", explore[1].Items[0].Value)
	getJSON(t, srv, "/api/search/explore", &explore, "x-api-key", keyCarol)
	assert.Empty(t, explore[0].Items)
	assert.Empty(t, explore[1].Items)

	var cities []model.Asset
	getJSON(t, srv, "/api/search/cities", &cities, "x-api-key", keyAlice)
	var names []string
	for _, a := range cities {
		names = append(names, *a.ExifInfo.City)
	}
	assert.Equal(t, []string{"Berlin", "Lisbon", "Porto"}, names, "one picture a city, a partner's too, by city")
	assert.Equal(t, richAsset(5), cities[2].ID, "not the archived one")

	for _, path := range []string{"/api/search/explore", "/api/search/cities"} {
		requireError(t, getJSON(t, srv, path, nil, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
	}
}

func TestSearchSuggestions(t *testing.T) {
	srv := newRichServer(t)
	for query, want := range map[string][]string{
		"type=country":                           {"Portugal"},
		"type=state&country=Portugal":            {"Lisbon", "Porto"},
		"type=city&country=Portugal&state=Porto": {"Porto"},
		"type=city&country=Germany":              {},
		"type=camera-make":                       {"Apple"},
		"type=camera-model&make=Apple":           {"iPhone 15 Pro"},
		"type=camera-model&make=Canon":           {},
	} {
		var got []string
		rep := getJSON(t, srv, "/api/search/suggestions?"+query, &got, "x-api-key", keyAlice)
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		assert.Equal(t, want, got, query)
	}
	requireError(t, getJSON(t, srv, "/api/search/suggestions", nil, "x-api-key", keyAlice), 400,
		[]any{"type should not be empty", "type must be one of the following values: country, state, city, camera-make, camera-model"})

	var people []map[string]any
	getJSON(t, srv, "/api/search/person?name=mar", &people, "x-api-key", keyAlice)
	require.Len(t, people, 1)
	assert.Equal(t, "Maria Silva", people[0]["name"])
	getJSON(t, srv, "/api/search/person?name=sil", &people, "x-api-key", keyAlice)
	assert.Len(t, people, 1, "a word of the name")
	getJSON(t, srv, "/api/search/person?name=zed", &people, "x-api-key", keyAlice)
	assert.Empty(t, people, "hidden")
	getJSON(t, srv, "/api/search/person?name=zed&withHidden=true", &people, "x-api-key", keyAlice)
	assert.Len(t, people, 1)
	requireError(t, getJSON(t, srv, "/api/search/person", nil, "x-api-key", keyAlice), 400, []any{"name should not be empty", "name must be a string"})
}

func TestMap(t *testing.T) {
	srv := newRichServer(t)
	markers := func(key, query string) []string {
		t.Helper()
		var out []struct {
			ID                   string
			Lat, Lon             float64
			City, State, Country *string
		}
		rep := getJSON(t, srv, "/api/map/markers"+query, &out, "x-api-key", key)
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		ids := []string{}
		for _, m := range out {
			ids = append(ids, m.ID)
			assert.NotZero(t, m.Lat)
		}
		return ids
	}
	first := aliceAssetID
	assert.Equal(t, []string{first, richAsset(6), richAsset(5), richAsset(4), richAsset(3), richAsset(2), richAsset(1)}, markers(keyAlice, ""), "the newest first, the archive too")
	assert.Equal(t, []string{first, richAsset(5), richAsset(4), richAsset(3), richAsset(2), richAsset(1)}, markers(keyAlice, "?isArchived=false"))
	assert.Equal(t, []string{richAsset(5)}, markers(keyAlice, "?isFavorite=true"))
	assert.Equal(t, []string{first, richAsset(6), richAsset(5), richAsset(4)}, markers(keyAlice, "?fileCreatedAfter=2026-08-20&fileCreatedBefore=2026-10-31"))
	assert.Equal(t, []string{richAsset(9), first, richAsset(6), richAsset(5)}, markers(keyAlice, "?withPartners=true&fileCreatedAfter=2026-09-01"))
	assert.Equal(t, []string{richAsset(9)}, markers(keyBob, ""))
	assert.Equal(t, []string{richAsset(9), first}, markers(keyBob, "?withSharedAlbums=true"), "an album shared with him")
	requireError(t, getJSON(t, srv, "/api/map/markers?isArchived=maybe&fileCreatedAfter=2020-01-01", nil, "x-api-key", keyAlice), 400, []any{"isArchived must be a boolean value"})
	requireError(t, getJSON(t, srv, "/api/map/markers?fileCreatedAfter=x", nil, "x-api-key", keyAlice), 400, "fileCreatedAfter must be a date string")
	requireError(t, getJSON(t, srv, "/api/map/markers", nil, "x-immich-share-key", linkUpload), 403, "Forbidden resource")

	for _, theme := range []string{"light", "dark"} {
		var style struct {
			ID      string
			Version int
			Sources map[string]struct{ Type string }
			Layers  []struct{ ID, Type string }
		}
		rep := getJSON(t, srv, "/api/map/style.json?theme="+theme, &style, "x-immich-share-key", linkUpload)
		require.Equal(t, http.StatusOK, rep.status, "a link's holder draws the map too: %s", rep.body)
		assert.Equal(t, 8, style.Version)
		assert.Equal(t, "immich-map-"+theme, style.ID, "the style is named by its theme, as the reference's")
		assert.Equal(t, "background", style.Layers[0].Type)
		for name, src := range style.Sources {
			assert.Equal(t, "geojson", src.Type, "%s: no tiles from anywhere", name)
		}
		assert.NotContains(t, string(rep.body), "http", "nothing leaves the machine")
	}
	requireError(t, getJSON(t, srv, "/api/map/style.json", nil, "x-api-key", keyAlice), 400, []any{"theme must be one of the following values: light, dark"})
	requireError(t, getJSON(t, srv, "/api/map/style.json?theme=light", nil), 401, "Authentication required")
}
