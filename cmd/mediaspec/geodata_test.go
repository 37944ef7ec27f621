package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
)

// TestServeGeodataRefusesABadFolder: serve --geodata stops at start on a
// GeoNames file it cannot read, naming the file and the line.
func TestServeGeodataRefusesABadFolder(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"geodata-date.txt":     "2023-03-05T00:00:00+00:00",
		"admin1CodesASCII.txt": "PT.14\tLisbon\tLisbon\t2267056\n",
		"admin2Codes.txt":      "",
		"cities500.txt":        "2267057\tLisbon\tshort\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	err := run(t.Context(), []string{"serve", "--quiet", "--addr", "127.0.0.1:0", "--users", "0", "--links", "0", "--geodata", dir}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--geodata: "+filepath.Join(dir, "cities500.txt")+":1: 3 columns, not 19")

	err = run(t.Context(), []string{"serve", "--quiet", "--addr", "127.0.0.1:0", "--geodata", filepath.Join(dir, "nowhere")}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "geodata-date.txt: no such file or directory")
}

// TestServeNamesPlacesAsTheReference: without --geodata, an upload's place
// is the reference's own GeoNames cities' (built in), and the import's
// state their date; --geodata's folder overrides both.
func TestServeNamesPlacesAsTheReference(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"geodata-date.txt":     "2024-01-02T00:00:00+00:00",
		"admin1CodesASCII.txt": "JP.40\tTōkyō-to\tTokyo\t1850144\n",
		"admin2Codes.txt":      "",
		"cities500.txt": strings.Join([]string{"1", "Shibuya", "Shibuya", "", "35.66", "139.70", "P", "PPL", "JP", "", "40",
			"", "", "", "500", "", "40", "Asia/Tokyo", "2020-01-01"}, "\t") + "\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	photo, err := fixtures.ReadFile(fixtures.TokyoJPEG)
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		args  []string
		place []any
		date  string
	}{
		{"built in", nil, []any{"Motoyoyogichō", "Tokyo", "Japan"}, "2023-03-05T00:00:00+00:00"},
		{"--geodata", []string{"--geodata", dir}, []any{"Shibuya", "Tōkyō-to", "Japan"}, "2024-01-02T00:00:00+00:00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := startServe(t, tc.args...)
			body, ct := uploadForm(t, photo)
			status, answer := send(t, http.MethodPost, base+"/asset/upload", "mediaspec-dev-key", body, http.Header{"Content-Type": {ct}})
			require.Equal(t, http.StatusCreated, status, "%s", answer)
			var res struct{ ID string }
			require.NoError(t, json.Unmarshal(answer, &res))
			var asset struct {
				ExifInfo map[string]any `json:"exifInfo"`
			}
			require.NoError(t, json.Unmarshal(get(t, base+"/asset/"+res.ID, "mediaspec-dev-key"), &asset))
			assert.Equal(t, tc.place, []any{asset.ExifInfo["city"], asset.ExifInfo["state"], asset.ExifInfo["country"]})
			var state struct{ LastUpdate string }
			require.NoError(t, json.Unmarshal(get(t, base+"/system-metadata/reverse-geocoding-state", "mediaspec-dev-key"), &state))
			assert.Equal(t, tc.date, state.LastUpdate)
		})
	}
}
