package api

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
)

// oneCity is a reverse geocoder that knows one city, with no state: it
// stands for a GeoNames folder (serve --geodata).
type oneCity struct{}

func (oneCity) PlaceAt(lat, lon float64) (city, state, country *string) {
	if lat > 38 && lat < 39 && lon > -10 && lon < -9 {
		c, co := "Alfama", "Portugal"
		return &c, nil, &co
	}
	return nil, nil, nil
}

func (oneCity) ImportState() (lastUpdate, fileName string) {
	return "2024-01-02T00:00:00+00:00", "cities500.txt"
}

// uploadFixture uploads a fixture file as Alice: the path of its asset.
func uploadFixture(t *testing.T, srv *httptest.Server, name string) string {
	t.Helper()
	content, err := fixtures.ReadFile(name)
	require.NoError(t, err)
	f := validForm(string(content))
	f.files[0].filename = name
	return "/api/asset/" + requireUpload(t, srv, f, keyAlice, http.StatusCreated).ID
}

// TestReverseGeocoderNamesUploads: with a reverse geocoder, an upload's
// position, and an asset's new one, are named by it rather than by the
// gazetteer, a state it does not name is null, a new position it does not
// name keeps the place (as the reference's metadata job, which then sets
// none); and the import's state is its own.
func TestReverseGeocoderNamesUploads(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.ReverseGeocoder = oneCity{} })
	path := uploadFixture(t, srv, fixtures.LisbonJPEG)
	exif := libRead(t, srv, path, keyAlice)["exifInfo"].(map[string]any)
	assert.Equal(t, "Alfama", exif["city"], "the geocoder's city, not the gazetteer's Lisbon")
	assert.Nil(t, exif["state"])
	assert.Equal(t, "Portugal", exif["country"])

	rep := libSend(t, srv, http.MethodPut, path, `{"latitude":35.6595,"longitude":139.7006}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	exif = libRead(t, srv, path, keyAlice)["exifInfo"].(map[string]any)
	assert.Equal(t, "Alfama", exif["city"], "Tokyo is not the geocoder's: as the reference, the place it had stays")
	assert.Equal(t, 35.6595, exif["latitude"])

	rep = jobsJSON(t, srv, http.MethodGet, "/api/system-metadata/reverse-geocoding-state", keyAlice, "")
	require.Equal(t, http.StatusOK, rep.status)
	assert.JSONEq(t, `{"lastUpdate":"2024-01-02T00:00:00+00:00","lastImportFileName":"cities500.txt"}`, string(rep.body))
}

// TestUploadsAreNamedAsTheReferenceByDefault: with no reverse geocoder
// given, the reference's own GeoNames cities, built in, name an upload's
// position (Motoyoyogichō, where the gazetteer's nearest city is Tokyo)
// and an asset's new one (the upstream's map spec's Palisade), and the
// import's state is theirs.
func TestUploadsAreNamedAsTheReferenceByDefault(t *testing.T) {
	srv := newTestServer(t)
	path := uploadFixture(t, srv, fixtures.TokyoJPEG)
	exif := libRead(t, srv, path, keyAlice)["exifInfo"].(map[string]any)
	assert.Equal(t, []any{"Motoyoyogichō", "Tokyo", "Japan"}, []any{exif["city"], exif["state"], exif["country"]})

	rep := libSend(t, srv, http.MethodPut, path, `{"latitude":39.115,"longitude":-108.400968333333}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	exif = libRead(t, srv, path, keyAlice)["exifInfo"].(map[string]any)
	assert.Equal(t, []any{"Palisade", "Colorado", "United States of America"}, []any{exif["city"], exif["state"], exif["country"]})

	rep = jobsJSON(t, srv, http.MethodGet, "/api/system-metadata/reverse-geocoding-state", keyAlice, "")
	require.Equal(t, http.StatusOK, rep.status)
	assert.JSONEq(t, `{"lastUpdate":"2023-03-05T00:00:00+00:00","lastImportFileName":"cities500.txt"}`, string(rep.body))
}
