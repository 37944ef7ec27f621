package api

import (
	"encoding/json"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/openapi"
)

// The ids of answersDataset beyond testDataset's.
const (
	stackedID  = "00000000-0000-4000-8000-00000000a5e2" // Alice's, in the stack of her first asset
	tagID      = "00000000-0000-4000-8000-0000000000f1"
	personID   = "00000000-0000-4000-8000-0000000000f2"
	hiddenLink = "link-hidden" // an INDIVIDUAL link of Alice's that hides metadata
	albumLink  = linkUpload    // Alice's ALBUM link
)

// answersDataset is testDataset with every relation an asset answer can
// show: Alice's first asset has a tag, a face of a person, smartInfo, and
// a second asset stacked on it, both in her album, which Bob views.
func answersDataset() model.Dataset {
	d := testDataset()
	d.People = []model.PersonRecord{{ID: personID, OwnerID: aliceID, Name: "Grandma", ThumbnailPath: "/thumbs/grandma.jpeg"}}
	d.Tags = []model.Tag{{ID: tagID, Name: "beach", Type: model.TagObject, UserID: aliceID}}
	first := &d.Assets[0]
	first.TagIDs = []string{tagID}
	first.Faces = []model.FaceRecord{{ID: "00000000-0000-4000-8000-0000000000f3", PersonID: personID, BoundingBoxX2: 10, BoundingBoxY2: 10, ImageWidth: 100, ImageHeight: 100}}
	first.SmartInfo = &model.SmartInfo{Objects: []string{"sand"}, Tags: []string{"beach"}}
	stacked := *first
	stacked.ID, stacked.Checksum, stacked.TagIDs, stacked.Faces, stacked.SmartInfo = stackedID, sha1Base64([]byte("stacked")), nil, nil, nil
	stacked.StackParentID = &first.ID
	d.Assets = append(d.Assets, stacked)
	d.Albums[0].AssetIDs = append(d.Albums[0].AssetIDs, stackedID)
	d.SharedLinks = append(d.SharedLinks, model.SharedLinkRecord{
		ID: "00000000-0000-4000-8000-00000000005a", Key: hiddenLink, Type: model.LinkIndividual, UserID: aliceID,
		AssetIDs: []string{aliceAssetID}, AllowDownload: true, CreatedAt: first.CreatedAt,
	})
	return d
}

// keysOf is every key of the assets at path in an answer (a list of keys
// down to a list of assets, or an asset), sorted.
func keysOf(t *testing.T, body []byte, path ...string) []string {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(body, &v), "%s", body)
	for _, p := range path {
		m, ok := v.(map[string]any)
		require.True(t, ok, "no object at %s in %s", p, body)
		v = m[p]
	}
	keys := map[string]bool{}
	var assets []any
	switch a := v.(type) {
	case []any:
		assets = a
	default:
		assets = []any{a}
	}
	require.NotEmpty(t, assets, "no asset at %v in %s", path, body)
	for _, a := range assets {
		for k := range a.(map[string]any) {
			keys[k] = true
		}
	}
	return slices.Sorted(maps.Keys(keys))
}

// keys is a list of keys, sorted.
func keys(list ...string) []string {
	var out []string
	for _, l := range list {
		out = append(out, strings.Fields(l)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// The keys of an asset answer: what only some answers load (the owner,
// exifInfo, and what reading the asset itself loads), and all that a link
// that hides metadata shows. Every other key of the document's
// AssetResponseDto is in every full answer.
const (
	relationKeys  = `owner exifInfo`
	detailKeys    = `tags smartInfo stackParentId stack`
	sanitizedKeys = `id type thumbhash localDateTime resized duration livePhotoVideoId hasMetadata`
)

// documentedAssetKeys is every property of AssetResponseDto in the
// project's OpenAPI document.
func documentedAssetKeys(t *testing.T) []string {
	t.Helper()
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]any `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(openapi.JSON(), &doc))
	props := doc.Components.Schemas["AssetResponseDto"].Properties
	require.NotEmpty(t, props)
	return slices.Sorted(maps.Keys(props))
}

// without is list less the keys named.
func without(list []string, names ...string) []string {
	drop := keys(names...)
	return slices.DeleteFunc(slices.Clone(list), func(k string) bool { return slices.Contains(drop, k) })
}

// TestAssetAnswersShowWhatTheirAudienceMay lists, for every place an asset
// is shown and every audience, every key the answer has: the allowlists,
// proven against the answers themselves.
func TestAssetAnswersShowWhatTheirAudienceMay(t *testing.T) {
	full := documentedAssetKeys(t)
	base := without(full, relationKeys, detailKeys)
	for _, reference := range []bool{false, true} {
		srv := newTestServer(t, func(c *Config) { c.Dataset = answersDataset; c.ReferenceShapes = reference })
		get := func(path string, headers ...string) []byte {
			rep := do(t, newRequest(t, http.MethodGet, srv.URL+path, nil, headers...))
			require.Equal(t, http.StatusOK, rep.status, "%s: %s", path, rep.body)
			return rep.body
		}
		asset, album := "/api/asset/"+aliceAssetID, "/api/albums/"+testAlbumID
		alice, bob := []string{"x-api-key", keyAlice}, []string{"x-api-key", keyBob}
		listed := without(full, detailKeys)
		if reference {
			listed = base
		}
		for _, tt := range []struct {
			name string
			body []byte
			path []string
			want []string
		}{
			{"an asset, to its owner", get(asset, alice...), nil, full},
			{"an asset, to an album's viewer", get(asset, bob...), nil, full},
			{"an asset, to a link's holder", get(asset, "x-immich-share-key", albumLink), nil, without(full, "owner")},
			{"an asset, through a link that hides metadata", get(asset, "x-immich-share-key", hiddenLink), nil, keys(sanitizedKeys)},
			{"an album's assets, to its owner", get(album, alice...), []string{"assets"}, without(full, "owner", detailKeys)},
			{"an album's assets, to its viewer", get(album, bob...), []string{"assets"}, without(full, "owner", detailKeys)},
			{"an album's assets, to a link's holder", get(album, "x-immich-share-key", albumLink), []string{"assets"}, without(full, "owner", detailKeys)},
			{"a link's assets, to its owner", get("/api/shared-links/00000000-0000-4000-8000-00000000001a", alice...), []string{"assets"}, without(full, "owner", detailKeys)},
			{"a link's assets, to its holder", get("/api/shared-links/me", "x-immich-share-key", albumLink), []string{"assets"}, without(full, "owner", detailKeys)},
			{"a link's assets, to its holder, hiding metadata", get("/api/shared-links/me", "x-immich-share-key", hiddenLink), []string{"assets"}, keys(sanitizedKeys)},
			{"a listed link's assets", get("/api/shared-links", alice...), nil, listed},
			{"the control API's assets", get("/__mock/assets", alice...), nil, full},
		} {
			t.Run(map[bool]string{false: "full/", true: "reference/"}[reference]+tt.name, func(t *testing.T) {
				if tt.name == "a listed link's assets" {
					// The INDIVIDUAL links' assets, in the listing's order.
					var links []struct {
						Album  json.RawMessage   `json:"album"`
						Assets []json.RawMessage `json:"assets"`
					}
					require.NoError(t, json.Unmarshal(tt.body, &links))
					var assets []json.RawMessage
					for _, l := range links {
						if l.Album == nil {
							assets = append(assets, l.Assets...)
						}
					}
					tt.body, _ = json.Marshal(assets)
				}
				assert.Equal(t, tt.want, keysOf(t, tt.body, tt.path...))
			})
		}
	}
}

// TestPeopleAreTheOwnersAlone: the people of an asset's faces are shown to
// its owner reading it, and to nobody else: an empty list everywhere.
func TestPeopleAreTheOwnersAlone(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.Dataset = answersDataset })
	people := func(headers ...string) []any {
		rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/"+aliceAssetID, nil, headers...))
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		var a struct {
			People []any `json:"people"`
		}
		rep.json(t, &a)
		require.NotNil(t, a.People, "people is always a list")
		return a.People
	}
	assert.Len(t, people("x-api-key", keyAlice), 1, "her grandma, to Alice")
	assert.Empty(t, people("x-api-key", keyBob), "to an album's viewer")
	assert.Empty(t, people("x-immich-share-key", albumLink), "to a link's holder")
}

// TestStacksAreShownAsTheUpstreamShowsThem: reading an asset of a stack
// shows the parent's id on each, the others than the parent as its stack,
// and the count with the parent; an asset in no stack has neither key.
func TestStacksAreShownAsTheUpstreamShowsThem(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.Dataset = answersDataset })
	read := func(id string) map[string]any {
		rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/"+id, nil, "x-api-key", keyAlice))
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		var a map[string]any
		rep.json(t, &a)
		return a
	}
	for _, id := range []string{aliceAssetID, stackedID} {
		a := read(id)
		assert.Equal(t, aliceAssetID, a["stackParentId"], "%s: the parent's id", id)
		assert.EqualValues(t, 2, a["stackCount"], id)
		require.Len(t, a["stack"], 1, id)
		assert.Equal(t, stackedID, a["stack"].([]any)[0].(map[string]any)["id"], "%s: the others than the parent", id)
	}
	// Bob's asset is in no stack.
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/00000000-0000-4000-8000-000000b0a5e7", nil, "x-api-key", keyBob))
	var a map[string]any
	rep.json(t, &a)
	assert.NotContains(t, a, "stackParentId")
	assert.NotContains(t, a, "stack")
	assert.Nil(t, a["stackCount"])
}

// TestANewFieldReachesNoLinkThatHidesMetadata: an asset stored with every
// field of its record set, the fields added after this test too, shows a
// link that hides metadata only the keys of its projection, wherever the
// link's holder reads it: the answers of the server, not a struct of the
// test's. Only the fields that name other records keep the asset's own
// (a record naming none that exist is refused when the data is read).
func TestANewFieldReachesNoLinkThatHidesMetadata(t *testing.T) {
	srv := newTestServer(t, func(c *Config) {
		c.Dataset = func() model.Dataset {
			d := answersDataset()
			i := slices.IndexFunc(d.Assets, func(a model.AssetRecord) bool { return a.ID == aliceAssetID })
			own := d.Assets[i]
			filled := own
			fill(reflect.ValueOf(&filled).Elem())
			filled.ID, filled.OwnerID, filled.Type, filled.Checksum = own.ID, own.OwnerID, own.Type, own.Checksum
			filled.DeviceAssetID, filled.DeviceID, filled.OriginalFileName = own.DeviceAssetID, own.DeviceID, own.OriginalFileName
			filled.LivePhotoVideoID, filled.StackParentID, filled.LibraryID, filled.DuplicateID = nil, nil, nil, nil
			filled.TagIDs, filled.Faces, filled.Duration, filled.Thumbhash = own.TagIDs, own.Faces, own.Duration, own.Thumbhash
			filled.IsTrashed, filled.IsOffline, filled.IsVisible, filled.IsArchived = false, false, true, false
			d.Assets[i] = filled
			return d
		}
	})
	hidden := []string{"x-immich-share-key", hiddenLink}
	for _, tt := range []struct {
		path string
		at   []string
	}{
		{"/api/asset/" + aliceAssetID, nil},
		{"/api/shared-links/me", []string{"assets"}},
	} {
		rep := do(t, newRequest(t, http.MethodGet, srv.URL+tt.path, nil, hidden...))
		require.Equal(t, http.StatusOK, rep.status, "%s: %s", tt.path, rep.body)
		assert.Equal(t, keys(sanitizedKeys), keysOf(t, rep.body, tt.at...), tt.path)
	}
}

// fill sets every field of v, deeply, to a value that is not zero.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Float64:
		v.SetFloat(1)
	}
}

// TestNoLinkRouteShowsWhatItsLinkHides calls every route of the table that
// a link's holder may read (GET, policy userOrLink, userOrLinkKey or
// linkKey) with a link that hides metadata, an INDIVIDUAL one and an ALBUM
// one: every asset of every answer shows only the keys of its projection,
// and no answer carries exifInfo anywhere. The table says which routes, so
// a route added to it is judged too.
func TestNoLinkRouteShowsWhatItsLinkHides(t *testing.T) {
	const hiddenAlbumLink = "link-hidden-album"
	srv := newTestServer(t, func(c *Config) {
		c.Dataset = func() model.Dataset {
			d := answersDataset()
			album := testAlbumID
			d.SharedLinks = append(d.SharedLinks, model.SharedLinkRecord{
				ID: "00000000-0000-4000-8000-00000000006a", Key: hiddenAlbumLink, Type: model.LinkAlbum, UserID: aliceID,
				AlbumID: &album, CreatedAt: d.Assets[0].CreatedAt,
			})
			return d
		}
	})
	get := func(path, key string) reply {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		return do(t, newRequest(t, http.MethodGet, srv.URL+path+sep+"key="+key, nil))
	}
	var buckets []struct {
		TimeBucket string `json:"timeBucket"`
	}
	get("/api/timeline/buckets?size=MONTH&albumId="+testAlbumID, hiddenAlbumLink).json(t, &buckets)
	require.NotEmpty(t, buckets, "the link's photo has a month")
	ids := strings.NewReplacer("{id}", aliceAssetID)
	answered := map[string]bool{}
	for _, r := range registeredRoutes(t) {
		if r.method != http.MethodGet || (r.policy != userOrLink && r.policy != userOrLinkKey && r.policy != linkKey) {
			continue
		}
		for _, key := range []string{hiddenLink, hiddenAlbumLink} {
			path := ids.Replace(r.path)
			if strings.HasPrefix(path, "/api/albums/") {
				path = "/api/albums/" + testAlbumID
			}
			rep := get(path+"?size=MONTH&albumId="+testAlbumID+"&timeBucket="+buckets[0].TimeBucket, key)
			if rep.status != http.StatusOK || !strings.HasPrefix(rep.header.Get("Content-Type"), "application/json") {
				continue
			}
			answered[r.at] = true
			var body any
			require.NoError(t, json.Unmarshal(rep.body, &body), "%s", r.at)
			judgeHidden(t, r.at+" with "+key, body)
		}
	}
	for _, must := range []string{"GET /api/asset/{id}", "GET /api/shared-links/me", "GET /api/timeline/buckets", "GET /api/timeline/bucket", "GET /api/albums/{id}"} {
		assert.True(t, answered[must], "%s answered a link that hides metadata", must)
	}
}

// judgeHidden walks an answer: an asset in it (an object with a type and
// a thumbhash) shows only the projection's keys, and no object has
// exifInfo.
func judgeHidden(t *testing.T, at string, v any) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		assert.NotContains(t, v, "exifInfo", at)
		_, typed := v["type"]
		_, hashed := v["thumbhash"]
		if typed && hashed {
			assert.Subset(t, keys(sanitizedKeys), slices.Collect(maps.Keys(v)), "%s: an asset shows more than its projection", at)
		}
		for _, x := range v {
			judgeHidden(t, at, x)
		}
	case []any:
		for _, x := range v {
			judgeHidden(t, at, x)
		}
	}
}
