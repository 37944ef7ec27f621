package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/spec"
)

// TestGeneratedWebPagesValidate reads generated libraries as the web
// app's album, people, explore, places, search and map pages do, as each
// user, and checks every answer against our document and the reference's.
func TestGeneratedWebPagesValidate(t *testing.T) {
	v := loadValidators(t)
	upstream := loadUpstreamLibrary(t)
	for seed := int64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			d, srv := newGeneratedServer(t, seed)
			send := func(t *testing.T, method, path, body, key string) []byte {
				t.Helper()
				r := newRequest(t, method, srv.URL+path, nil, "x-api-key", key)
				if body != "" {
					r = newRequest(t, method, srv.URL+path, strings.NewReader(body), "x-api-key", key, "Content-Type", "application/json")
				}
				rep := do(t, r)
				require.Less(t, rep.status, 300, "%s %s: %s", method, path, rep.body)
				resp := spec.Response{Status: rep.status, Header: rep.header, Body: rep.body}
				requireValid(t, "openapi/openapi.yaml", v.ours.ValidateResponse(t.Context(), r, resp), r, rep)
				// A like given before is answered 200, which the reference's
				// document does not name.
				if upstream != nil && !(method == http.MethodPost && rep.status == http.StatusOK) {
					requireValid(t, "the upstream document", upstream.ValidateResponse(t.Context(), r, resp), r, rep)
				}
				return rep.body
			}
			seen := 0
			for _, u := range d.Users {
				var people struct{ People []struct{ ID string } }
				require.NoError(t, json.Unmarshal(send(t, "GET", "/api/people?withHidden=true", "", u.APIKey), &people))
				for i, p := range people.People {
					if i < 3 {
						send(t, "GET", "/api/people/"+p.ID, "", u.APIKey)
						send(t, "GET", "/api/people/"+p.ID+"/statistics", "", u.APIKey)
						send(t, "GET", "/api/people/"+p.ID+"/assets", "", u.APIKey)
						seen++
					}
				}
				for _, path := range []string{"/api/search/explore", "/api/search/cities", "/api/map/markers?isArchived=false&withPartners=true&withSharedAlbums=true",
					"/api/search/suggestions?type=country", "/api/search/suggestions?type=camera-model", "/api/map/style.json?theme=light"} {
					send(t, "GET", path, "", u.APIKey)
				}
				send(t, "POST", "/api/search/metadata", `{"withExif":true,"withPeople":true,"withStacked":true,"isVisible":true,"size":100}`, u.APIKey)
				var albums []struct {
					ID                string
					IsActivityEnabled bool
				}
				require.NoError(t, json.Unmarshal(send(t, "GET", "/api/albums?shared=true", "", u.APIKey), &albums))
				for _, al := range albums {
					if al.IsActivityEnabled {
						send(t, "POST", "/api/activities", `{"albumId":"`+al.ID+`","type":"like"}`, u.APIKey)
					}
					send(t, "GET", "/api/activities?albumId="+al.ID, "", u.APIKey)
					send(t, "GET", "/api/activities/statistics?albumId="+al.ID, "", u.APIKey)
				}
			}
			require.NotZero(t, seen, "the generated people are listed")
		})
	}
}
