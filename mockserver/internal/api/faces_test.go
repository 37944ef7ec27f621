package api

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// richFace is the id of richDataset's face n: 1 Maria and 2 the unnamed
// in asset 1; 3 Maria, 4 the unnamed, 5 Zed in asset 2; 6 the unnamed, 7
// the stranger, 8 No Thumb in asset 3; 9 Archie in asset 6; 10 Bob's
// friend in Bob's asset 9.
func richFace(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-0000000f%04d", n) }

// facesOf is GET /api/faces?id=asset as key: each face as "face:person"
// (the person's name or id, "-" for null).
func facesOf(t *testing.T, srv *httptest.Server, asset, key string) []string {
	t.Helper()
	var out []struct {
		ID     string
		Person *struct{ ID, Name string }
	}
	rep := getJSON(t, srv, "/api/faces?id="+asset, &out, "x-api-key", key)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	list := []string{}
	for _, f := range out {
		who := "-"
		if f.Person != nil {
			who = f.Person.Name
			if who == "" {
				who = f.Person.ID
			}
		}
		list = append(list, strings.TrimPrefix(f.ID, "00000000-0000-4000-8000-0000000f")+":"+who)
	}
	return list
}

// personAssets is GET /api/people/{id}/statistics as Alice.
func personAssets(t *testing.T, srv *httptest.Server, id string) int {
	t.Helper()
	var out struct{ Assets int }
	rep := getJSON(t, srv, "/api/people/"+id+"/statistics", &out, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	return out.Assets
}

func TestFaces(t *testing.T) {
	srv := newRichServer(t)
	assert.Equal(t, []string{"0003:Maria Silva", "0004:" + unnamedID, "0005:Zed"}, facesOf(t, srv, richAsset(2), keyAlice))
	assert.Equal(t, []string{"0010:-"}, facesOf(t, srv, richAsset(9), keyAlice), "a partner's asset: its faces, not its owner's people")
	assert.Equal(t, []string{}, facesOf(t, srv, richAsset(4), keyAlice))
	assert.Equal(t, []string{"0003:Maria Silva", "0004:" + unnamedID, "0005:Zed"}, facesOf(t, srv, strings.ToUpper(richAsset(2)), keyAlice))

	requireError(t, getJSON(t, srv, "/api/faces?id="+richAsset(2), nil, "x-api-key", keyBob), 400, "Not found or no asset.read access")
	requireError(t, getJSON(t, srv, "/api/faces", nil, "x-api-key", keyAlice), 400, []any{"id must be a UUID", "id should not be empty", "id must be a string"})
	requireError(t, getJSON(t, srv, "/api/faces?id=abc", nil, "x-api-key", keyAlice), 400, []any{"id must be a UUID"})
	requireError(t, getJSON(t, srv, "/api/faces?id="+richAsset(2), nil), 401, "Authentication required")
	requireError(t, getJSON(t, srv, "/api/faces?id="+richAsset(2), nil, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
}

func TestReassignFace(t *testing.T) {
	srv := newRichServer(t)
	put := func(person, face, key string) reply {
		return sendJSON(t, srv, http.MethodPut, "/api/faces/"+person, `{"id":"`+face+`"}`, "x-api-key", key)
	}
	require.Equal(t, 2, personAssets(t, srv, mariaID))
	rep := put(mariaID, strings.ToUpper(richFace(2)), keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, []string{"id", "name", "birthDate", "thumbnailPath", "isHidden"}, keyOrder(t, rep.body))
	assert.Equal(t, []string{"0001:Maria Silva", "0002:Maria Silva"}, facesOf(t, srv, richAsset(1), keyAlice))
	assert.Equal(t, 2, personAssets(t, srv, mariaID), "still in two assets")
	assert.Equal(t, 2, personAssets(t, srv, unnamedID), "one face fewer")

	names, _, _ := peopleNames(t, srv, "", keyAlice)
	assert.NotContains(t, names, "No Thumb", "no picture, not listed")
	require.Equal(t, http.StatusOK, put(noThumbID, richFace(7), keyAlice).status)
	var p struct{ ThumbnailPath string }
	getJSON(t, srv, "/api/people/"+noThumbID, &p, "x-api-key", keyAlice)
	assert.Equal(t, "upload/thumbs/"+aliceID+"/00/00/"+noThumbID+".jpeg", p.ThumbnailPath, "a face of theirs became their picture")
	names, _, _ = peopleNames(t, srv, "", keyAlice)
	assert.Contains(t, names, "No Thumb")

	requireError(t, put(bobsID, richFace(2), keyAlice), 400, "Not found or no person.write access")
	requireError(t, put(mariaID, richFace(10), keyAlice), 400, "Not found or no person.create access")
	requireError(t, put(mariaID, "00000000-0000-4000-8000-00000000dead", keyAlice), 400, "Not found or no person.create access")
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/faces/"+mariaID, `{}`, "x-api-key", keyAlice), 400, []any{"id must be a UUID", "id should not be empty", "id must be a string"})
	requireError(t, put("abc", richFace(2), keyAlice), 400, []any{"id must be a UUID"})
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/faces/"+mariaID, `{"id":"`+richFace(2)+`"}`), 401, "Authentication required")
}

func TestMergePeople(t *testing.T) {
	srv := newRichServer(t)
	merge := func(into, body, key string) reply {
		return postJSON(t, srv, "/api/people/"+into+"/merge", body, "x-api-key", key)
	}
	// No Thumb has a name; give the unnamed one a birth date to pass on.
	require.Equal(t, http.StatusOK, sendJSON(t, srv, http.MethodPut, "/api/people/"+unnamedID, `{"birthDate":"1990-02-03"}`, "x-api-key", keyAlice).status)
	const unknown = "00000000-0000-4000-8000-00000000dead"
	rep := merge(mariaID, `{"ids":["`+strings.ToUpper(unnamedID)+`","`+bobsID+`","`+unknown+`","`+unnamedID+`"]}`, keyAlice)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var results []model.BulkIDResult
	rep.json(t, &results)
	assert.Equal(t, []model.BulkIDResult{
		{ID: unnamedID, Success: true},
		{ID: bobsID, Error: "no_permission"},
		{ID: unknown, Error: "no_permission"},
		{ID: unnamedID, Error: "not_found"},
	}, results)
	assert.Equal(t, 3, personAssets(t, srv, mariaID), "the merged person's faces are hers")
	assert.Equal(t, []string{"0001:Maria Silva", "0002:Maria Silva"}, facesOf(t, srv, richAsset(1), keyAlice))
	requireError(t, getJSON(t, srv, "/api/people/"+unnamedID, nil, "x-api-key", keyAlice), 400, "Not found or no person.read access")
	var maria struct{ BirthDate *string }
	getJSON(t, srv, "/api/people/"+mariaID, &maria, "x-api-key", keyAlice)
	require.NotNil(t, maria.BirthDate)
	assert.Equal(t, "1990-02-03", *maria.BirthDate, "she had none: the merged one's")

	// As on the reference, a person merged into itself is deleted.
	rep = merge(strangerID, `{"ids":["`+strangerID+`","`+zedID+`"]}`, keyAlice)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	rep.json(t, &results)
	assert.Equal(t, []model.BulkIDResult{{ID: strangerID, Success: true}, {ID: zedID, Error: "unknown"}}, results)
	requireError(t, getJSON(t, srv, "/api/people/"+strangerID, nil, "x-api-key", keyAlice), 400, "Not found or no person.read access")
	assert.Equal(t, 1, personAssets(t, srv, zedID), "Zed stays as he was")

	requireError(t, merge(bobsID, `{"ids":[]}`, keyAlice), 400, "Not found or no person.write access")
	requireError(t, merge(mariaID, `{}`, keyAlice), 400, []any{"each value in ids must be a UUID", "ids should not be empty", "ids must be an array"})
	requireError(t, merge(mariaID, `{"ids":["x"]}`, keyAlice), 400, []any{"each value in ids must be a UUID"})
	requireError(t, postJSON(t, srv, "/api/people/"+mariaID+"/merge", `{"ids":[]}`), 401, "Authentication required")
}

func TestReassignFaces(t *testing.T) {
	for _, reference := range []bool{false, true} {
		t.Run(fmt.Sprint("reference shapes ", reference), func(t *testing.T) {
			srv := newTestServer(t, func(c *Config) { c.Dataset, c.ReferenceShapes = richDataset, reference })
			reassign := func(into, body, key string) reply {
				return sendJSON(t, srv, http.MethodPut, "/api/people/"+into+"/reassign", body, "x-api-key", key)
			}
			item := func(person string, asset int) string {
				return `{"personId":"` + person + `","assetId":"` + richAsset(asset) + `"}`
			}
			rep := reassign(mariaID, `{"data":[`+item(unnamedID, 2)+`,`+item(zedID, 2)+`,`+item(zedID, 4)+`]}`, keyAlice)
			require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
			var people []map[string]any
			rep.json(t, &people)
			require.Len(t, people, 3, "the person once per item, found or not")
			keys := []string{"id", "name", "birthDate", "thumbnailPath", "isHidden"}
			if reference {
				keys = []string{"id", "createdAt", "updatedAt", "ownerId", "name", "birthDate", "thumbnailPath", "faceAssetId", "isHidden"}
			}
			assert.Equal(t, keys, keyOrder(t, rep.body[1:]), "the first of them")
			assert.Equal(t, mariaID, people[2]["id"])
			assert.Equal(t, []string{"0003:Maria Silva", "0004:Maria Silva", "0005:Maria Silva"}, facesOf(t, srv, richAsset(2), keyAlice))
			assert.Equal(t, 0, personAssets(t, srv, zedID))

			requireError(t, reassign(mariaID, `{"data":[`+item(bobsID, 9)+`]}`, keyAlice), 400, "Not found or no person.create access")
			requireError(t, reassign(bobsID, `{"data":[]}`, keyAlice), 400, "Not found or no person.write access")
			requireError(t, reassign(mariaID, `{}`, keyAlice), 400, []any{"data must be an array"})
			requireError(t, reassign(mariaID, `{"data":[{}]}`, keyAlice), 400, []any{
				"data.0.personId must be a UUID", "data.0.personId should not be empty", "data.0.personId must be a string",
				"data.0.assetId must be a UUID", "data.0.assetId should not be empty", "data.0.assetId must be a string"})
		})
	}
}

// TestFacesFollowTheirAssets: a face goes with its asset, to the trash
// and for good; a person whose picture went gets another when given a
// face.
func TestFacesFollowTheirAssets(t *testing.T) {
	srv := newRichServer(t)
	require.Equal(t, http.StatusOK, sendJSON(t, srv, http.MethodPut, "/api/faces/"+noThumbID, `{"id":"`+richFace(7)+`"}`, "x-api-key", keyAlice).status)
	del := func(force bool) {
		rep := sendJSON(t, srv, http.MethodDelete, "/api/asset", fmt.Sprintf(`{"ids":["%s"],"force":%t}`, richAsset(3), force), "x-api-key", keyAlice)
		require.Equal(t, http.StatusNoContent, rep.status, "%s", rep.body)
	}
	del(false)
	assert.Equal(t, []string{"0006:" + unnamedID, "0007:No Thumb", "0008:No Thumb"}, facesOf(t, srv, richAsset(3), keyAlice), "the owner reads a trashed asset's faces")
	assert.Equal(t, 0, personAssets(t, srv, noThumbID), "not counted in the trash")
	del(true)
	requireError(t, getJSON(t, srv, "/api/faces?id="+richAsset(3), nil, "x-api-key", keyAlice), 400, "Not found or no asset.read access")
	rep := sendJSON(t, srv, http.MethodPut, "/api/faces/"+noThumbID, `{"id":"`+richFace(1)+`"}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, 1, personAssets(t, srv, noThumbID))
}

func TestDuplicates(t *testing.T) {
	group := "00000000-0000-4000-8000-00000000d001"
	srv := newTestServer(t, func(c *Config) {
		c.Dataset = func() model.Dataset {
			d := richDataset()
			for i := range d.Assets {
				if slices.Contains([]string{richAsset(1), richAsset(5), richAsset(6), richAsset(7)}, d.Assets[i].ID) {
					d.Assets[i].DuplicateID = &group
				}
			}
			return d
		}
	})
	var groups []struct {
		DuplicateID string
		Assets      []model.Asset
	}
	rep := getJSON(t, srv, "/api/duplicates", &groups, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	require.Len(t, groups, 1)
	assert.Equal(t, group, groups[0].DuplicateID)
	var ids []string
	for _, a := range groups[0].Assets {
		ids = append(ids, a.ID)
		assert.NotNil(t, a.ExifInfo)
		assert.Nil(t, a.Owner)
	}
	assert.ElementsMatch(t, []string{richAsset(1), richAsset(5), richAsset(6)}, ids, "the archived in, the trashed out")
	assert.True(t, slices.ContainsFunc(groups[0].Assets, func(a model.Asset) bool { return a.IsFavorite }), "the owner's favourite")

	// The web app resolves a group: the kept ones leave it, the others go
	// to the trash; a group can be made the same way.
	rep = sendJSON(t, srv, http.MethodPut, "/api/asset", `{"ids":["`+richAsset(1)+`","`+richAsset(5)+`"],"duplicateId":null}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusNoContent, rep.status, "%s", rep.body)
	rep = getJSON(t, srv, "/api/duplicates", &groups, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status)
	require.Len(t, groups, 1, "the archived one is left alone in the group")
	require.Len(t, groups[0].Assets, 1)
	other := "00000000-0000-4000-8000-00000000D002"
	rep = sendJSON(t, srv, http.MethodPut, "/api/asset", `{"ids":["`+richAsset(2)+`","`+richAsset(3)+`"],"duplicateId":"`+other+`"}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusNoContent, rep.status, "%s", rep.body)
	rep = getJSON(t, srv, "/api/duplicates", &groups, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status)
	require.Len(t, groups, 2)
	assert.Equal(t, strings.ToLower(other), groups[1].DuplicateID, "by their id")
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/asset", `{"ids":["`+richAsset(2)+`"],"duplicateId":"x"}`, "x-api-key", keyAlice), 400, []any{"duplicateId must be a UUID"})

	rep = getJSON(t, srv, "/api/duplicates", &groups, "x-api-key", keyBob)
	require.Equal(t, http.StatusOK, rep.status)
	assert.Empty(t, groups)
	requireError(t, getJSON(t, srv, "/api/duplicates", nil), 401, "Authentication required")
	requireError(t, getJSON(t, srv, "/api/duplicates", nil, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
}

func TestSearchPlaces(t *testing.T) {
	for _, reference := range []bool{false, true} {
		t.Run(fmt.Sprint("reference shapes ", reference), func(t *testing.T) {
			srv := newTestServer(t, func(c *Config) { c.ReferenceShapes = reference })
			var places []map[string]any
			rep := getJSON(t, srv, "/api/search/places?name=lisb", &places, "x-api-key", keyAlice)
			require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
			require.NotEmpty(t, places)
			assert.Equal(t, "Lisbon", places[0]["name"])
			keys := []string{"name", "latitude", "longitude", "admin1name"}
			if reference {
				keys = append(keys, "admin2name")
			}
			assert.Equal(t, keys, keyOrder(t, rep.body[1:]))
		})
	}
	srv := newTestServer(t)
	names := func(name string) []string {
		var places []struct{ Name string }
		rep := getJSON(t, srv, "/api/search/places?name="+name, &places, "x-api-key", keyAlice)
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		out := []string{}
		for _, p := range places {
			out = append(out, p.Name)
		}
		return out
	}
	assert.Equal(t, "Zurich", names("z%C3%BCrich")[0], "accents ignored")
	assert.Contains(t, names("bavaria"), "Munich", "by the state too")
	assert.Equal(t, []string{}, names("qqqqzz"))
	assert.LessOrEqual(t, len(names("a")), maxPlaces)

	requireError(t, getJSON(t, srv, "/api/search/places", nil, "x-api-key", keyAlice), 400, []any{"name should not be empty", "name must be a string"})
	requireError(t, getJSON(t, srv, "/api/search/places?name=", nil, "x-api-key", keyAlice), 400, []any{"name should not be empty"})
	requireError(t, getJSON(t, srv, "/api/search/places?name=a&name=b", nil, "x-api-key", keyAlice), 400, []any{"name must be a string"})
	requireError(t, getJSON(t, srv, "/api/search/places?name=lisbon", nil), 401, "Authentication required")
}

func TestDeviceAssets(t *testing.T) {
	for _, reference := range []bool{false, true} {
		t.Run(fmt.Sprint("reference shapes ", reference), func(t *testing.T) {
			srv := newTestServer(t, func(c *Config) { c.Dataset, c.ReferenceShapes = richDataset, reference })
			rep := postJSON(t, srv, "/api/asset/exist", `{"deviceAssetIds":["IMG_0001.jpg","PXL_0007.jpg","nope","DSC_0009.jpg"],"deviceId":"pixel-8"}`, "x-api-key", keyAlice)
			require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
			var found struct{ ExistingIDs []*string }
			rep.json(t, &found)
			require.Len(t, found.ExistingIDs, 2, "hers, the trashed too; not Bob's")
			if reference {
				assert.Equal(t, []*string{nil, nil}, found.ExistingIDs, "the reference's nulls")
			} else {
				assert.ElementsMatch(t, []string{richAsset(1), richAsset(7)}, []string{*found.ExistingIDs[0], *found.ExistingIDs[1]})
			}
		})
	}
	srv := newRichServer(t)
	var ids []string
	rep := getJSON(t, srv, "/api/asset/device/pixel-8", &ids, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Subset(t, ids, []string{"IMG_0001.jpg", "PXL_0007.jpg", "MVI_0008.mp4"}, "the trashed too")
	assert.NotContains(t, ids, "DSC_0009.jpg")
	rep = getJSON(t, srv, "/api/asset/device/another", &ids, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status)
	assert.Equal(t, []string{}, ids)
	rep = postJSON(t, srv, "/api/asset/exist", `{"deviceAssetIds":["IMG_0001.jpg"],"deviceId":"another"}`, "x-api-key", keyAlice)
	assert.JSONEq(t, `{"existingIds":[]}`, string(rep.body))

	requireError(t, postJSON(t, srv, "/api/asset/exist", `{}`, "x-api-key", keyAlice), 400, []any{
		"each value in deviceAssetIds should not be empty", "each value in deviceAssetIds must be a string", "deviceAssetIds should not be empty", "deviceId should not be empty"})
	requireError(t, postJSON(t, srv, "/api/asset/exist", `{"deviceAssetIds":[],"deviceId":""}`, "x-api-key", keyAlice), 400, []any{"deviceAssetIds should not be empty", "deviceId should not be empty"})
	requireError(t, postJSON(t, srv, "/api/asset/exist", `{"deviceAssetIds":["",3],"deviceId":5}`, "x-api-key", keyAlice), 400, []any{"each value in deviceAssetIds should not be empty", "each value in deviceAssetIds must be a string"})
	requireError(t, getJSON(t, srv, "/api/asset/device/pixel-8", nil), 401, "Authentication required")
	requireError(t, getJSON(t, srv, "/api/asset/device/pixel-8", nil, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
}

func TestControlFaces(t *testing.T) {
	srv := newRichServer(t)
	rep := controlJSON(t, srv, http.MethodPost, "/__mock/faces", "", map[string]any{"assetId": richAsset(4), "personId": noThumbID, "boundingBoxX1": 5, "imageWidth": 100})
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	assert.Equal(t, []string{"id", "imageHeight", "imageWidth", "boundingBoxX1", "boundingBoxX2", "boundingBoxY1", "boundingBoxY2", "person"}, keyOrder(t, rep.body))
	var face struct {
		ID     string
		Person struct{ ThumbnailPath string }
	}
	rep.json(t, &face)
	assert.NotEmpty(t, face.Person.ThumbnailPath, "a person without a picture gets this face as theirs")
	assert.Equal(t, 2, personAssets(t, srv, noThumbID))
	assert.Equal(t, []string{strings.TrimPrefix(face.ID, "00000000-0000-4000-8000-0000000f") + ":No Thumb"}, facesOf(t, srv, richAsset(4), keyAlice))

	rep = controlJSON(t, srv, http.MethodPut, "/__mock/people/"+mariaID+"/thumbnail", "", map[string]any{"thumbnailPath": "/my/awesome/thumbnail.jpg"})
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var maria struct{ ThumbnailPath string }
	getJSON(t, srv, "/api/people/"+mariaID, &maria, "x-api-key", keyAlice)
	assert.Equal(t, "/my/awesome/thumbnail.jpg", maria.ThumbnailPath)
	assert.Equal(t, http.StatusBadRequest, controlJSON(t, srv, http.MethodPut, "/__mock/people/00000000-0000-4000-8000-00000000dead/thumbnail", "", map[string]any{"thumbnailPath": "x"}).status)

	for body, status := range map[string]int{
		`{"assetId":"` + richAsset(4) + `","personId":"` + bobsID + `"}`:                  400,
		`{"assetId":"00000000-0000-4000-8000-00000000dead","personId":"` + mariaID + `"}`: 400,
		`{"assetId":"x","personId":"` + mariaID + `"}`:                                    400,
		`{"assetId":5}`: 400,
	} {
		r := newRequest(t, http.MethodPost, srv.URL+"/__mock/faces", strings.NewReader(body), "Content-Type", "application/json")
		assert.Equal(t, status, do(t, r).status, body)
	}
}

// TestFeatureFace: a person's face chosen as their picture gives one to
// a person who had none, and keeps it through faces moved around them.
func TestFeatureFace(t *testing.T) {
	srv := newRichServer(t)
	rep := sendJSON(t, srv, http.MethodPut, "/api/people/"+noThumbID, `{"featureFaceAssetId":"`+richAsset(3)+`"}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var p struct{ ThumbnailPath string }
	rep.json(t, &p)
	assert.NotEmpty(t, p.ThumbnailPath, "a face of theirs became their picture")
	names, _, _ := peopleNames(t, srv, "", keyAlice)
	assert.Contains(t, names, "No Thumb")
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/people/"+noThumbID, `{"featureFaceAssetId":"`+richAsset(1)+`"}`, "x-api-key", keyAlice), 400, "Invalid assetId for feature face")
}
