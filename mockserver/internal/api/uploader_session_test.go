package api

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
)

// uploaderFile is a file of a folder the uploader sends.
type uploaderFile struct {
	name string
	data []byte
}

func (f uploaderFile) sha1Hex() string {
	s := sha1.Sum(f.data)
	return hex.EncodeToString(s[:])
}

// TestUploaderSession plays the session a command-line uploader makes, in
// its order: it discovers the API, checks who it is and what the server
// takes, asks in batches of 4 which files the server already has, uploads
// the others 4 at a time, then does it all again (every file a duplicate,
// nothing uploaded), and files each folder into an album of its own.
func TestUploaderSession(t *testing.T) {
	srv := newTestServer(t)
	call := func(method, p string, body any, out any) int {
		t.Helper()
		var rd *bytes.Reader
		if body != nil {
			b, err := json.Marshal(body)
			require.NoError(t, err)
			rd = bytes.NewReader(b)
		} else {
			rd = bytes.NewReader(nil)
		}
		rep := do(t, newRequest(t, method, srv.URL+p, rd, "x-api-key", keyBob, "Content-Type", "application/json"))
		if out != nil && rep.status < 300 {
			rep.json(t, out)
		}
		return rep.status
	}

	var wk struct{ API struct{ Endpoint string } }
	require.Equal(t, 200, call(http.MethodGet, "/.well-known/immich", nil, &wk))
	api := wk.API.Endpoint
	require.Equal(t, "/api", api)
	var me struct{ ID, Email string }
	require.Equal(t, 200, call(http.MethodGet, api+"/users/me", nil, &me))
	require.Equal(t, bobID, me.ID)
	var version struct{ Major, Minor int }
	require.Equal(t, 200, call(http.MethodGet, api+"/server-info/version", nil, &version))
	assert.Equal(t, 1, version.Major)
	var types struct{ Image, Video, Sidecar []string }
	require.Equal(t, 200, call(http.MethodGet, api+"/server-info/media-types", nil, &types))
	takes := func(name string) bool {
		ext := strings.ToLower(path.Ext(name))
		return slices.Contains(types.Image, ext) || slices.Contains(types.Video, ext)
	}

	folders := map[string][]uploaderFile{}
	for _, name := range fixtures.Names() {
		data, err := fixtures.ReadFile(name)
		require.NoError(t, err)
		if takes(name) { // the sidecar is not an asset of its own
			folders["Fixtures"] = append(folders["Fixtures"], uploaderFile{name, data})
		}
	}
	for i := range 6 {
		folders["Holiday"] = append(folders["Holiday"], uploaderFile{fmt.Sprintf("IMG_%04d.JPG", 9000+i), fmt.Appendf(nil, "holiday photo %d", i)})
	}
	// Bob already has one of them: the server says so and it is not sent.
	bobsOwn := uploaderFile{"IMG_0001.HEIC", []byte("bob's photo")}
	folders["Holiday"] = append(folders["Holiday"], bobsOwn)

	// check asks in batches of 4 which files of a folder are new.
	check := func(files []uploaderFile) (accept []uploaderFile, rejected map[string]string) {
		rejected = map[string]string{}
		for start := 0; start < len(files); start += 4 {
			batch := files[start:min(start+4, len(files))]
			var items []map[string]string
			for _, f := range batch {
				items = append(items, map[string]string{"id": f.name, "checksum": f.sha1Hex()})
			}
			var res struct {
				Results []struct{ ID, AssetID, Action, Reason string }
			}
			require.Equal(t, 200, call(http.MethodPost, api+"/asset/bulk-upload-check", map[string]any{"assets": items}, &res))
			require.Len(t, res.Results, len(batch))
			for i, r := range res.Results {
				require.Equal(t, batch[i].name, r.ID, "answers come in request order")
				if r.Action == "accept" {
					accept = append(accept, batch[i])
				} else {
					require.Equal(t, "reject", r.Action)
					require.Equal(t, "duplicate", r.Reason)
					rejected[r.ID] = r.AssetID
				}
			}
		}
		return accept, rejected
	}
	// upload sends files 4 at a time and returns each file's asset id.
	upload := func(files []uploaderFile) map[string]string {
		ids := map[string]string{}
		var mu sync.Mutex
		sem := make(chan struct{}, 4)
		var wg sync.WaitGroup
		bodies := make([][2]string, len(files))
		for i, f := range files {
			var b bytes.Buffer
			mw := multipart.NewWriter(&b)
			for _, kv := range [][2]string{{"deviceAssetId", f.name}, {"deviceId", "uploader-test"}, {"fileCreatedAt", "2026-10-01T10:00:00Z"}, {"fileModifiedAt", "2026-10-01T10:00:00Z"}} {
				require.NoError(t, mw.WriteField(kv[0], kv[1]))
			}
			fw, err := mw.CreateFormFile("assetData", f.name)
			require.NoError(t, err)
			_, err = fw.Write(f.data)
			require.NoError(t, err)
			require.NoError(t, mw.Close())
			bodies[i] = [2]string{b.String(), mw.FormDataContentType()}
		}
		for i, f := range files {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				r := httptest.NewRequest(http.MethodPost, srv.URL+api+"/asset/upload", strings.NewReader(bodies[i][0]))
				r.RequestURI = ""
				r.Header.Set("Content-Type", bodies[i][1])
				r.Header.Set("x-api-key", keyBob)
				resp, err := http.DefaultClient.Do(r)
				if !assert.NoError(t, err) {
					return
				}
				defer resp.Body.Close()
				var res struct {
					ID        string
					Duplicate bool
				}
				if assert.Equal(t, http.StatusCreated, resp.StatusCode, f.name) && assert.NoError(t, json.NewDecoder(resp.Body).Decode(&res)) {
					mu.Lock()
					ids[f.name] = res.ID
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		return ids
	}

	ids := map[string]map[string]string{}
	for folder, files := range folders {
		accept, rejected := check(files)
		if folder == "Holiday" {
			assert.Equal(t, map[string]string{bobsOwn.name: "00000000-0000-4000-8000-000000b0a5e7"}, rejected)
		} else {
			assert.Empty(t, rejected)
		}
		ids[folder] = upload(accept)
		require.Len(t, ids[folder], len(accept))
		for name, id := range rejected {
			ids[folder][name] = id
		}
	}

	// The same folders again: everything is there, nothing is sent.
	var before []map[string]any
	require.Equal(t, 200, getJSON(t, srv, "/__mock/assets", &before, "x-api-key", keyBob).status)
	for _, files := range folders {
		accept, rejected := check(files)
		assert.Empty(t, accept)
		assert.Len(t, rejected, len(files))
	}
	var after []map[string]any
	getJSON(t, srv, "/__mock/assets", &after, "x-api-key", keyBob)
	assert.Len(t, after, len(before), "nothing was uploaded the second time")

	// Each folder becomes an album holding exactly its files.
	var albums []struct{ ID, AlbumName string }
	require.Equal(t, 200, call(http.MethodGet, api+"/albums", nil, &albums))
	for folder := range folders {
		var al struct{ ID string }
		require.Equal(t, 201, call(http.MethodPost, api+"/albums", map[string]any{"albumName": folder}, &al))
		var want []string
		for _, id := range ids[folder] {
			want = append(want, id)
		}
		var added []struct {
			ID      string
			Success bool
		}
		require.Equal(t, 200, call(http.MethodPut, api+"/albums/"+al.ID+"/assets", map[string]any{"ids": want}, &added))
		for _, a := range added {
			assert.True(t, a.Success, a.ID)
		}
		var got struct {
			AlbumName  string
			AssetCount int
			Assets     []struct{ ID string }
		}
		require.Equal(t, 200, call(http.MethodGet, api+"/albums/"+al.ID, nil, &got))
		assert.Equal(t, folder, got.AlbumName)
		var gotIDs []string
		for _, a := range got.Assets {
			gotIDs = append(gotIDs, a.ID)
		}
		assert.ElementsMatch(t, want, gotIDs, "the album %s holds exactly its folder's files", folder)
		assert.Equal(t, len(folders[folder]), got.AssetCount)
	}
}
