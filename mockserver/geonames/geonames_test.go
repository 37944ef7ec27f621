package geonames

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cityLine is a row of cities500.txt: its 19 columns, tab apart.
func cityLine(id, name, lat, lon, feature, country, admin1 string) string {
	return strings.Join([]string{id, name, name, "", lat, lon, "P", feature, country, "", admin1, "", "", "", "500", "", "1000", "Europe/Lisbon", "2020-01-01"}, "\t")
}

// writeFolder writes a GeoNames folder of the files given (name → text),
// beside a geodata-date.txt and admin files of their own unless given.
func writeFolder(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	all := map[string]string{
		DateFile:   "2023-03-05T00:00:00+00:00",
		Admin1File: "PT.14\tLisbon\tLisbon\t2267056\nUS.CO\tColorado\tColorado\t5417618\n",
		Admin2File: "PT.14.1106\tLisboa\tLisboa\t8010543\n",
	}
	for name, text := range files {
		all[name] = text
	}
	for name, text := range all {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	return dir
}

func TestPlaceNamesTheNearestCityInItsBox(t *testing.T) {
	dir := writeFolder(t, map[string]string{CitiesFile: strings.Join([]string{
		cityLine("1", "Lisbon", "38.71667", "-9.13333", "PPLC", "PT", "14"),
		cityLine("2", "Amadora", "38.75382", "-9.23083", "PPLA2", "PT", "14"),
		cityLine("3", "Alfama", "38.7115", "-9.1300", "PPLX", "PT", "14"), // a section of Lisbon: skipped
		cityLine("4", "Nowhere", "10.5", "20.5", "PPL", "ZZ", "01"),       // no such country, no such state
		cityLine("5", "Palisade", "39.11026", "-108.35090", "PPL", "US", "CO"),
	}, "\n") + "\n"})
	ix, err := Load(dir, 0)
	require.NoError(t, err)
	require.Equal(t, 4, ix.Len())

	for _, tc := range []struct {
		name                 string
		lat, lon             float64
		city, state, country string // "" for nil
	}{
		{"at the city", 38.7168, -9.1334, "Lisbon", "Lisbon", "Portugal"},
		{"nearer the other city", 38.75, -9.22, "Amadora", "Lisbon", "Portugal"},
		{"a PPLX row names nothing", 38.7115, -9.1300, "Lisbon", "Lisbon", "Portugal"},
		{"admin1 and country named", 39.115, -108.400968, "Palisade", "Colorado", "United States of America"},
		{"unknown country and state", 10.5, 20.5, "Nowhere", "", ""},
		{"22 km south", 38.71667 - 0.2, -9.13333, "Lisbon", "Lisbon", "Portugal"},
		{"far away", -33.9, 151.2, "", "", ""},
		{"latitude 0 is no position", 0, -9.13333, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			city, state, country := ix.PlaceAt(tc.lat, tc.lon)
			assert.Equal(t, tc.city, deref(city), "city")
			assert.Equal(t, tc.state, deref(state), "state")
			assert.Equal(t, tc.country, deref(country), "country")
		})
	}
	last, file := ix.ImportState()
	assert.Equal(t, "2023-03-05T00:00:00+00:00", last)
	assert.Equal(t, "cities500.txt", file)
}

// TestBoxCornersReachPastTheRadius: the reference's box is a cube, whose
// corners lie past 25 km, and it does not check the distance again.
func TestBoxCornersReachPastTheRadius(t *testing.T) {
	// Near the equator and the prime meridian, north is the cube's z axis
	// and east its y axis; a degree is 111.32 km on the reference's Earth.
	dir := writeFolder(t, map[string]string{CitiesFile: cityLine("1", "Null Island", "0.01", "0.01", "PPL", "GA", "") + "\n"})
	ix, err := Load(dir, 0)
	require.NoError(t, err)
	const km = 1 / 111.32
	for _, tc := range []struct {
		name        string
		north, east float64 // km
		named       bool
	}{
		{"24 km north", 24, 0, true},
		{"26 km north", 26, 0, false},
		{"24 km north and 24 km east: 34 km, in a corner", 24, 24, true},
		{"26 km east", 0, 26, false},
	} {
		city, _, country := ix.PlaceAt(0.01+tc.north*km, 0.01+tc.east*km)
		assert.Equal(t, tc.named, city != nil, tc.name)
		assert.Equal(t, tc.named, country != nil && *country == "Gabon", tc.name)
	}
}

func TestLoadRefusesBadFiles(t *testing.T) {
	good := cityLine("1", "Lisbon", "38.71667", "-9.13333", "PPLC", "PT", "14")
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"too few columns", map[string]string{CitiesFile: good + "\n1\tShort\n"}, "cities500.txt:2: 2 columns, not 19"},
		{"a position not a number", map[string]string{CitiesFile: cityLine("1", "X", "north", "1", "PPL", "PT", "") + "\n"}, `cities500.txt:1: the position "north", "1"`},
		{"a latitude off the globe", map[string]string{CitiesFile: cityLine("1", "X", "91", "1", "PPL", "PT", "") + "\n"}, "cities500.txt:1: the position"},
		{"an id not an integer", map[string]string{CitiesFile: cityLine("x1", "X", "1", "1", "PPL", "PT", "") + "\n"}, `cities500.txt:1: the id "x1"`},
		{"a name too long", map[string]string{CitiesFile: cityLine("1", strings.Repeat("a", 201), "1", "1", "PPL", "PT", "") + "\n"}, "cities500.txt:1: the name"},
		{"a country code too long", map[string]string{CitiesFile: cityLine("1", "X", "1", "1", "PPL", "PRT", "") + "\n"}, "cities500.txt:1: a country code"},
		{"an admin line without a name", map[string]string{Admin1File: "PT.14\n", CitiesFile: good}, "admin1CodesASCII.txt:1: not a code and a name"},
		{"a line too long", map[string]string{Admin2File: strings.Repeat("a", maxLineBytes+1), CitiesFile: good}, "admin2Codes.txt:1: a line longer than"},
		{"a date too long", map[string]string{DateFile: strings.Repeat("2", 300), CitiesFile: good}, "geodata-date.txt: not a date"},
		{"no cities file", map[string]string{}, "cities500.txt: no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(writeFolder(t, tc.files), 0)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestLoadBoundsTheCities(t *testing.T) {
	lines := cityLine("1", "A", "1", "1", "PPL", "PT", "") + "\n" + cityLine("2", "B", "2", "2", "PPL", "PT", "") + "\n" +
		cityLine("3", "C", "3", "3", "PPLX", "PT", "") + "\n"
	dir := writeFolder(t, map[string]string{CitiesFile: lines})
	ix, err := Load(dir, 2)
	require.NoError(t, err, "PPLX rows do not count")
	assert.Equal(t, 2, ix.Len())
	_, err = Load(dir+"/", 1)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cities500.txt:2: more than 1 cities")
}

// realFolder is the reference's own GeoNames folder, where the reference
// server of this machine keeps it.
const realFolder = "/tmp/immich-real/geodata"

// TestReferenceFolderNamesTheUpstreamPositions: the upstream's e2e map
// spec expects the markers of its two test photos named so, and the
// reference named the fixtures' positions so.
func TestReferenceFolderNamesTheUpstreamPositions(t *testing.T) {
	if _, err := os.Stat(filepath.Join(realFolder, CitiesFile)); err != nil {
		t.Skipf("the reference's GeoNames files are not at %s (the reference server's geodata folder): %v", realFolder, err)
	}
	ix, err := Load(realFolder, 0)
	require.NoError(t, err)
	assertNamesKnownPlaces(t, ix)
}

// knownPlaces are positions and the names the reference gives them: the
// upstream's map spec's two photos (their EXIF GPS as package exif reads
// it from the upstream's test-assets), whose markers its e2e spec expects
// named so, and the fixtures' positions, as the reference named them
// (shared/reference/extracted.json).
var knownPlaces = []struct {
	file                 string
	lat, lon             float64
	city, state, country string
}{
	{"formats/heic/IMG_2682.heic", 41.2203, -96.071625, "Ralston", "Nebraska", "United States of America"},
	{"metadata/gps-position/thompson-springs.jpg", 39.115, -108.400968333333, "Palisade", "Colorado", "United States of America"},
	{"DSC01234.JPG", 35.659482, 139.700559, "Motoyoyogichō", "Tokyo", "Japan"},
	{"DSC05678.ARW", -33.807613, 18.464927, "Cape Town", "Western Cape", "South Africa"},
	{"IMG_4021.JPG", 38.711815, -9.129682, "Lisbon", "Lisbon", "Portugal"},
}

// assertNamesKnownPlaces checks that ix names knownPlaces as the
// reference does.
func assertNamesKnownPlaces(t *testing.T, ix *Index) {
	t.Helper()
	for _, tc := range knownPlaces {
		city, state, country := ix.PlaceAt(tc.lat, tc.lon)
		assert.Equal(t, []string{tc.city, tc.state, tc.country}, []string{deref(city), deref(state), deref(country)}, tc.file)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// BenchmarkPlaceAt names a position in Europe, where the band of cities a
// query reads is widest, from the reference's own folder.
func BenchmarkPlaceAt(b *testing.B) {
	if _, err := os.Stat(filepath.Join(realFolder, CitiesFile)); err != nil {
		b.Skipf("the reference's GeoNames files are not at %s: %v", realFolder, err)
	}
	ix, err := Load(realFolder, 0)
	require.NoError(b, err)
	for b.Loop() {
		ix.PlaceAt(48.8566, 2.3522)
	}
}
