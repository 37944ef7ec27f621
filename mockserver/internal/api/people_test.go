package api

import (
	"bytes"
	"cmp"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// newRichServer starts a mock on richDataset.
func newRichServer(t *testing.T) *httptest.Server {
	t.Helper()
	return newTestServer(t, func(c *Config) { c.Dataset = richDataset })
}

// peopleNames is GET /api/people with query, as key: the names (or ids of
// the unnamed), total and hidden.
func peopleNames(t *testing.T, srv *httptest.Server, query, key string) (names []string, total, hidden int) {
	t.Helper()
	var out struct {
		People []struct{ ID, Name string }
		Total  int
		Hidden int
	}
	rep := getJSON(t, srv, "/api/people"+query, &out, "x-api-key", key)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, []string{"people", "total", "hidden"}, keyOrder(t, rep.body), "the reference's order")
	names = []string{}
	for _, p := range out.People {
		names = append(names, cmp.Or(p.Name, p.ID))
	}
	return names, out.Total, out.Hidden
}

func TestPeopleListing(t *testing.T) {
	srv := newRichServer(t)
	names, total, hidden := peopleNames(t, srv, "", keyAlice)
	assert.Equal(t, []string{"Maria Silva", unnamedID}, names, "named first; the unnamed only when seen three times; no hidden one, none without a picture or only in the archive")
	assert.Equal(t, 4, total)
	assert.Equal(t, 1, hidden)
	names, _, _ = peopleNames(t, srv, "?withHidden=true", keyAlice)
	assert.Equal(t, []string{"Maria Silva", unnamedID, "Zed"}, names, "the hidden last")
	names, total, hidden = peopleNames(t, srv, "", keyCarol)
	assert.Equal(t, []string{}, names)
	assert.Zero(t, total+hidden)

	requireError(t, getJSON(t, srv, "/api/people?withHidden=maybe", nil, "x-api-key", keyAlice), 400, []any{"withHidden must be a boolean value"})
	requireError(t, getJSON(t, srv, "/api/people", nil, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
	requireError(t, getJSON(t, srv, "/api/people", nil), 401, "Authentication required")
}

func TestPersonReads(t *testing.T) {
	srv := newRichServer(t)
	var p map[string]any
	rep := getJSON(t, srv, "/api/people/"+mariaID, &p, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, []string{"id", "name", "birthDate", "thumbnailPath", "isHidden"}, keyOrder(t, rep.body))
	assert.Equal(t, "Maria Silva", p["name"])

	var stats map[string]int
	getJSON(t, srv, "/api/people/"+mariaID+"/statistics", &stats, "x-api-key", keyAlice)
	assert.Equal(t, map[string]int{"assets": 2}, stats)
	getJSON(t, srv, "/api/people/"+archivedID+"/statistics", &stats, "x-api-key", keyAlice)
	assert.Equal(t, map[string]int{"assets": 0}, stats, "the archive does not count")

	var assets []model.Asset
	getJSON(t, srv, "/api/people/"+unnamedID+"/assets", &assets, "x-api-key", keyAlice)
	require.Len(t, assets, 3)
	assert.Equal(t, []string{richAsset(3), richAsset(2), richAsset(1)}, []string{assets[0].ID, assets[1].ID, assets[2].ID}, "the newest first")
	assert.NotNil(t, assets[0].ExifInfo)
	assert.Len(t, assets[1].People, 3, "with the people of their faces")
	assert.Nil(t, assets[0].Owner)

	for _, path := range []string{"", "/statistics", "/assets", "/thumbnail"} {
		requireError(t, getJSON(t, srv, "/api/people/"+bobsID+path, nil, "x-api-key", keyAlice), 400, "Not found or no person.read access")
		requireError(t, getJSON(t, srv, "/api/people/00000000-0000-4000-8000-00000000beef"+path, nil, "x-api-key", keyAlice), 400, "Not found or no person.read access")
		requireError(t, getJSON(t, srv, "/api/people/nope"+path, nil, "x-api-key", keyAlice), 400, []any{"id must be a UUID"})
		requireError(t, getJSON(t, srv, "/api/people/"+mariaID+path, nil, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
	}
}

func TestPersonThumbnail(t *testing.T) {
	srv := newRichServer(t)
	rep := getJSON(t, srv, "/api/people/"+mariaID+"/thumbnail", nil, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, "image/jpeg", rep.header.Get("Content-Type"))
	assert.Equal(t, "private, no-cache, no-transform", rep.header.Get("Cache-Control"))
	img, err := jpeg.Decode(bytes.NewReader(rep.body))
	require.NoError(t, err)
	assert.Equal(t, 256, img.Bounds().Dx())
	again := getJSON(t, srv, "/api/people/"+mariaID+"/thumbnail", nil, "x-api-key", keyAlice)
	assert.Equal(t, rep.body, again.body, "the same picture every time")
	other := getJSON(t, srv, "/api/people/"+unnamedID+"/thumbnail", nil, "x-api-key", keyAlice)
	assert.NotEqual(t, rep.body, other.body, "each person their own")

	// A person without a picture: the reference's bare 404.
	none := getJSON(t, srv, "/api/people/"+noThumbID+"/thumbnail", nil, "x-api-key", keyAlice)
	assert.Equal(t, http.StatusNotFound, none.status)
	assert.JSONEq(t, `{"message":"Not Found","statusCode":404}`, string(none.body))
	assert.Equal(t, "none", none.header.Get("Cache-Control"))
}

func TestPersonUpdate(t *testing.T) {
	srv := newRichServer(t)
	put := func(id, body, key string) reply {
		return sendJSON(t, srv, http.MethodPut, "/api/people/"+id, body, "x-api-key", key)
	}
	rep := put(mariaID, `{"name":"Maria S.","birthDate":"1990-05-06T10:00:00Z","isHidden":"true","featureFaceAssetId":"`+richAsset(2)+`"}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.JSONEq(t, `{"id":"`+mariaID+`","name":"Maria S.","birthDate":"1990-05-06","thumbnailPath":"upload/thumbs/`+mariaID+`.jpeg","isHidden":true}`, string(rep.body))
	rep = put(mariaID, `{"birthDate":null,"isHidden":false}`, keyAlice)
	assert.JSONEq(t, `{"id":"`+mariaID+`","name":"Maria S.","birthDate":null,"thumbnailPath":"upload/thumbs/`+mariaID+`.jpeg","isHidden":false}`, string(rep.body))
	var a model.Asset
	getJSON(t, srv, "/api/asset/"+richAsset(1), &a, "x-api-key", keyAlice)
	assert.Equal(t, "Maria S.", a.People[0].Name, "the assets show the new name")

	for _, tt := range []struct {
		name, id, body, key string
		message             any
	}{
		{"every field wrong", mariaID, `{"name":5,"birthDate":"2099-01-01","isHidden":"yes","featureFaceAssetId":5}`, keyAlice,
			[]any{"featureFaceAssetId must be a string", "name must be a string", "Birth date cannot be in the future", "isHidden must be a boolean value"}},
		{"a birth date no date", mariaID, `{"name":5,"birthDate":"x"}`, keyAlice, "birthDate must be a date string"},
		{"a name too long", mariaID, `{"name":"` + string(bytes.Repeat([]byte("n"), 1025)) + `"}`, keyAlice, []any{"name must be shorter than or equal to 1024 characters"}},
		{"an asset without the face", mariaID, `{"featureFaceAssetId":"` + richAsset(4) + `"}`, keyAlice, "Invalid assetId for feature face"},
		{"another's asset", mariaID, `{"featureFaceAssetId":"` + richAsset(9) + `"}`, keyCarol, "Not found or no person.write access"},
		{"an asset not a UUID", mariaID, `{"featureFaceAssetId":"abc"}`, keyAlice, "Not found or no asset.read access"},
		{"another's person", bobsID, `{"name":"x"}`, keyAlice, "Not found or no person.write access"},
		{"an unknown person", "00000000-0000-4000-8000-00000000beef", `{"name":"x"}`, keyAlice, "Not found or no person.write access"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, put(tt.id, tt.body, tt.key), 400, tt.message)
		})
	}
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/people/"+mariaID, `{}`, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
}

func TestPeopleUpdate(t *testing.T) {
	srv := newRichServer(t)
	put := func(body string) reply {
		return sendJSON(t, srv, http.MethodPut, "/api/people", body, "x-api-key", keyAlice)
	}
	rep := put(`{"people":[{"id":"x"},{"id":"` + bobsID + `","name":"n"},{"id":"` + mariaID + `","name":"Maria","isHidden":true},{"id":"` + unnamedID + `","featureFaceAssetId":"` + richAsset(4) + `"}]}`)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.JSONEq(t, `[{"id":"x","success":false,"error":"unknown"},{"id":"`+bobsID+`","success":false,"error":"unknown"},
		{"id":"`+mariaID+`","success":true},{"id":"`+unnamedID+`","success":false,"error":"unknown"}]`, string(rep.body))
	names, _, hidden := peopleNames(t, srv, "?withHidden=true", keyAlice)
	assert.Equal(t, []string{unnamedID, "Maria", "Zed"}, names)
	assert.Equal(t, 2, hidden)

	for _, tt := range []struct {
		name, body string
		message    any
	}{
		{"no people", `{}`, []any{"people must be an array"}},
		{"people no list", `{"people":{"id":"x"}}`, []any{"people must be an array"}},
		{"items wrong", `{"people":[5,{"name":5,"isHidden":"yes","featureFaceAssetId":5}]}`, []any{
			"people.each value in nested property people must be either object or array", "people.1.id should not be empty", "people.1.id must be a string",
			"people.1.name must be a string", "people.1.isHidden must be a boolean value", "people.1.featureFaceAssetId must be a string"}},
		{"a birth date to come", `{"people":[{"id":"x","birthDate":"2099-01-01"}]}`, []any{"people.0.Birth date cannot be in the future"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, put(tt.body), 400, tt.message)
		})
	}
}
