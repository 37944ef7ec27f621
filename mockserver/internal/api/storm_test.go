package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// TestStormLeavesEverythingConsistent has 32 clients upload, fill albums,
// make, fill, empty and delete links all at once, then checks every
// invariant of the store: each reference resolves, every index agrees with
// the records (the state equals one rebuilt from its own dataset), and what
// each client was told stands.
func TestStormLeavesEverythingConsistent(t *testing.T) {
	const workers, rounds = 32, 12
	s, err := newServer(Config{Dataset: testDataset, Now: testNow})
	require.NoError(t, err)
	db := s.store
	h := s.dispatch()

	call := func(method, path, body string, headers ...string) (int, []byte) {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(headers); i += 2 {
			r.Header.Set(headers[i], headers[i+1])
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code, w.Body.Bytes()
	}
	// Bodies are encoded here: require may not run in the workers.
	uploads := make([][2]string, workers*rounds)
	for i := range uploads {
		body, ct := validForm(fmt.Sprintf("storm %d", i)).encode(t)
		uploads[i] = [2]string{string(body), ct}
	}

	type told struct {
		assets     []string    // uploaded, 201
		inAlbum    []string    // added to the shared album, success
		deletedKey []string    // keys of links deleted, 200
		liveLinks  [][2]string // links made and not deleted, with their upload
	}
	results := make([]told, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			me := &results[w]
			for i := range rounds {
				up := uploads[w*rounds+i]
				r := httptest.NewRequest(http.MethodPost, "/api/asset/upload", strings.NewReader(up[0]))
				r.Header.Set("Content-Type", up[1])
				r.Header.Set("x-api-key", keyAlice)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				var res model.UploadResult
				if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &res) != nil {
					t.Errorf("upload: %d %s", rec.Code, rec.Body)
					continue
				}
				me.assets = append(me.assets, res.ID)

				code, body := call(http.MethodPut, "/api/albums/"+testAlbumID+"/assets", `{"ids":["`+res.ID+`","`+aliceAssetID+`"]}`, "x-api-key", keyAlice)
				var added []model.BulkIDResult
				if code != http.StatusOK || json.Unmarshal(body, &added) != nil || len(added) != 2 {
					t.Errorf("add to album: %d %s", code, body)
					continue
				}
				if added[0].Success {
					me.inAlbum = append(me.inAlbum, res.ID)
				}

				// A link that names the album lists all of it, twice: only the
				// first two rounds' do, so the listing stays within its bound
				// (maxListedAssets) as the album grows.
				album := ""
				if i < 2 {
					album = `,"albumId":"` + testAlbumID + `"`
				}
				code, body = call(http.MethodPost, "/api/shared-links", `{"type":"INDIVIDUAL","assetIds":["`+res.ID+`"]`+album+`}`, "x-api-key", keyAlice)
				var link struct{ ID, Key string }
				if code != http.StatusCreated || json.Unmarshal(body, &link) != nil {
					t.Errorf("make link: %d %s", code, body)
					continue
				}
				call(http.MethodPut, "/api/shared-links/"+link.ID+"/assets", `{"assetIds":["`+aliceAssetID+`"]}`, "x-api-key", keyAlice)
				if i%2 == 0 {
					call(http.MethodDelete, "/api/shared-links/"+link.ID+"/assets", `{"assetIds":["`+res.ID+`"]}`, "x-api-key", keyAlice)
					if code, _ := call(http.MethodDelete, "/api/shared-links/"+link.ID, ""); code != http.StatusUnauthorized {
						t.Errorf("delete without credentials: %d", code)
					}
					if code, body := call(http.MethodDelete, "/api/shared-links/"+link.ID, "", "x-api-key", keyAlice); code != http.StatusOK {
						t.Errorf("delete link: %d %s", code, body)
						continue
					}
					me.deletedKey = append(me.deletedKey, link.Key)
				} else {
					me.liveLinks = append(me.liveLinks, [2]string{link.ID, res.ID})
				}
			}
		})
	}
	wg.Wait()

	// Every index agrees with the records: the state answers as one
	// rebuilt from its own records does.
	rebuilt, err := store.New(db.Records().Dataset(), testNow)
	require.NoError(t, err)
	answers := func(db *store.Store) (out []any) {
		db.Read(func(v *store.View) {
			alice := store.Principal{User: v.User(aliceID)}
			out = append(out, listing(v, audience{p: alice}), albumAnswer(v, v.Album(testAlbumID), albumLook{assets: true, order: model.OldestFirst}))
			for _, l := range v.LinksOf(aliceID) {
				p, err := v.Authenticate(store.Credentials{ShareKey: &l.Key})
				out = append(out, p.Link, err)
			}
		})
		return out
	}
	assert.Equal(t, answers(rebuilt), answers(db), "the indexes agree with the records")

	var album *model.AlbumRecord
	var hasLinks int
	db.Read(func(v *store.View) {
		album = v.Album(testAlbumID)
		for _, l := range v.LinksOf(aliceID) {
			if l.AlbumID != nil && *l.AlbumID == testAlbumID {
				hasLinks++
			}
		}
	})
	in := map[string]bool{}
	for _, id := range album.AssetIDs {
		assert.False(t, in[id], "asset %s is in the album twice", id)
		in[id] = true
	}
	var live, deleted int
	for _, r := range results {
		db.Read(func(v *store.View) {
			for _, id := range r.assets {
				assert.NotNil(t, v.Asset(id), "uploaded asset %s is stored", id)
			}
			for _, made := range r.liveLinks {
				l := v.Link(made[0])
				if assert.NotNil(t, l, "link %s is stored", made[0]) {
					assert.Equal(t, []string{made[1], aliceAssetID}, l.AssetIDs)
				}
				live++
			}
		})
		for _, id := range r.inAlbum {
			assert.True(t, in[id], "asset %s, added, is in the album", id)
		}
		for _, key := range r.deletedKey {
			_, err := db.Authenticate(store.Credentials{ShareKey: &key})
			assert.Error(t, err, "a deleted link's key is refused")
			deleted++
		}
	}
	assert.Equal(t, workers*rounds, len(in)-1, "every upload was added once, beside the album's first asset")
	assert.Equal(t, workers*rounds/2, deleted)
	assert.Equal(t, 1+workers, hasLinks, "the album's links: its own and the live ones that name it (one a worker)")
}
