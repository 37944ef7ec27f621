package geonames

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lisbonFolder is a small GeoNames folder: cities of two countries, one
// with no state, one PPLX row, one city of no country known.
func lisbonFolder(t *testing.T) string {
	return writeFolder(t, map[string]string{CitiesFile: strings.Join([]string{
		cityLine("1", "Lisbon", "38.71667", "-9.13333", "PPLC", "PT", "14"),
		cityLine("2", "Amadora", "38.75382", "-9.23083", "PPLA2", "PT", "14"),
		cityLine("3", "Alfama", "38.7115", "-9.1300", "PPLX", "PT", "14"),
		cityLine("4", "Nowhere", "10.5", "20.5", "PPL", "ZZ", "01"),
		cityLine("5", "Palisade", "39.11026", "-108.35090", "PPL", "US", "CO"),
		cityLine("6", "Twin of Palisade", "39.11026", "-108.3509", "PPL", "US", "CO"),
		cityLine("7", "Açores", "-37.7", "-25", "PPL", "P", ""),
	}, "\n") + "\n"})
}

func packed(t *testing.T, dir string) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, Pack(&b, dir))
	return b.Bytes()
}

// TestPackKeepsWhatLoadReads: a folder packed and unpacked is the index
// Load reads from it, city for city, in the same order (which decides
// between two cities at the same place).
func TestPackKeepsWhatLoadReads(t *testing.T) {
	dir := lisbonFolder(t)
	want, err := Load(dir, 0)
	require.NoError(t, err)
	got, err := unpack(string(packed(t, dir)))
	require.NoError(t, err)
	assert.Equal(t, want, got)
	city, state, country := got.PlaceAt(39.11026, -108.3509)
	assert.Equal(t, []string{"Palisade", "Colorado", "United States of America"}, []string{deref(city), deref(state), deref(country)},
		"the first of two cities at one place, as the file orders them")
	date, err := packDate(string(packed(t, dir)))
	require.NoError(t, err)
	assert.Equal(t, "2023-03-05T00:00:00+00:00", date)
}

// TestPackRefusesWhatItCannotKeep: a position finer than the 1e-5 degrees
// the pack keeps would be named otherwise once packed; a folder Load
// refuses is refused with Load's error.
func TestPackRefusesWhatItCannotKeep(t *testing.T) {
	dir := writeFolder(t, map[string]string{CitiesFile: cityLine("1", "X", "38.123456", "1", "PPL", "PT", "") + "\n"})
	err := Pack(&bytes.Buffer{}, dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `cities500.txt:1: the latitude "38.123456" is finer than 1e-05 degrees`)

	dir = writeFolder(t, map[string]string{CitiesFile: "1\tShort\n"})
	err = Pack(&bytes.Buffer{}, dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cities500.txt:1: 2 columns, not 19")
}

// TestUnpackRefusesBrokenData: a pack cut short, altered or made up is an
// error, never a panic nor an index that names places wrongly.
func TestUnpackRefusesBrokenData(t *testing.T) {
	good := packed(t, lisbonFolder(t))
	header := len(packMagic) + 1 + len("2023-03-05T00:00:00+00:00") + 1 // the magic, the date and the count of 6 cities
	require.Equal(t, byte(6), good[header-1])
	flipped := bytes.Clone(good)
	flipped[len(flipped)-12] ^= 0x40 // in the deflate stream's last block: its checksum no longer agrees
	payload := func(build func(b []byte) []byte) string {
		var body bytes.Buffer
		zw := gzip.NewWriter(&body)
		_, err := zw.Write(build(nil))
		require.NoError(t, err)
		require.NoError(t, zw.Close())
		return string(good[:header]) + body.String()
	}
	uv := binary.AppendUvarint
	for _, tc := range []struct {
		name, data, want string
	}{
		{"empty", "", "not a pack of cities"},
		{"another magic", "PK\x03\x04" + string(good[4:]), "not a pack of cities"},
		{"cut in the header", string(good[:len(packMagic)+3]), "header"},
		{"cut in the cities", string(good[:len(good)-30]), "unexpected EOF"},
		{"a byte altered", string(flipped), "cities"},
		{"more cities than any folder", string(uv([]byte(packMagic), 1)) + "x" + string(uv(nil, DefaultMaxCities+1)), "more than 500000 cities"},
		{"bytes after the cities", string(good) + "junk", "cities"},
		{"a state past the states", payload(func(b []byte) []byte {
			b = append(uv(b, 1), "PT"...) // one country
			b = uv(b, 0)                  // no states
			b = uv(b, 6)                  // 6 bytes of names
			b = append(b, "A\nB\nC\nD\nE\nF\n"...)
			b = append(b, 0, 0, 0, 0, 0, 0) // countries
			return append(b, 0, 0, 0, 0, 0, 1)
		}), "city 5: state 1, past the last, 0"},
		{"a country past the countries", payload(func(b []byte) []byte {
			b = append(uv(b, 1), "PT"...)
			b = uv(uv(b, 0), 6)
			b = append(b, "A\nB\nC\nD\nE\nF\n"...)
			return append(b, 0, 0, 7, 0, 0, 0)
		}), "city 2: country 7, past the last, 0"},
		{"a name not UTF-8", payload(func(b []byte) []byte {
			b = append(uv(b, 1), "PT"...)
			b = uv(uv(b, 0), 6)
			return append(b, "A\n\xff\n"...)
		}), "city 1: the name is not UTF-8"},
		{"a latitude off the globe", payload(func(b []byte) []byte {
			b = append(uv(b, 1), "PT"...)
			b = uv(uv(b, 0), 6)
			b = append(b, "A\nB\nC\nD\nE\nF\n"...)
			b = append(b, make([]byte, 12)...)    // countries and states
			b = append(b, make([]byte, 12)...)    // the latitudes' first two planes
			b = append(b, 0x40, 0, 0, 0, 0, 0)    // third plane and
			b = append(b, 0x01, 0, 0, 0, 0, 0)    // fourth: zigzag 0x01400000, +104.8576°
			return append(b, make([]byte, 24)...) // the longitudes
		}), "city 0: latitude 104.8576"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix, err := unpack(tc.data)
			require.Error(t, err)
			assert.Nil(t, ix)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// Every byte altered, and every length cut: an error, or (a byte of
	// the date, or of gzip's header that its checksum leaves out, such as
	// its time) the same cities, never a panic nor other cities.
	want, err := unpack(string(good))
	require.NoError(t, err)
	for i := range good {
		broken := bytes.Clone(good)
		broken[i] ^= 0x01
		if ix, err := unpack(string(broken)); err == nil {
			assert.Equal(t, []any{want.cities, want.names, want.states}, []any{ix.cities, ix.names, ix.states}, "byte %d altered", i)
		}
		_, err := unpack(string(good[:i]))
		assert.Error(t, err, "cut at %d", i)
	}
}

// TestEmbeddedNamesTheUpstreamPositions: the index built into the binary
// names knownPlaces as the reference does; its import state is the
// reference's folder's.
func TestEmbeddedNamesTheUpstreamPositions(t *testing.T) {
	ix, err := Embedded()
	require.NoError(t, err)
	assertNamesKnownPlaces(t, ix)
	last, file := ix.ImportState()
	assert.Equal(t, "2023-03-05T00:00:00+00:00", last)
	assert.Equal(t, CitiesFile, file)
	date, err := EmbeddedDate()
	require.NoError(t, err)
	assert.Equal(t, last, date)
	assert.Greater(t, ix.Len(), 190_000)
}

// TestEmbeddedIsTheReferenceFolder: where the reference's own folder is
// on this machine, the embedded index is the one Load reads from it, and
// names every city's own position, and 10,000 random ones (half anywhere,
// half near a city), as it does. Under the race detector (make test), which
// makes this 36 s instead of 5, one city in ten and a tenth of the random
// positions are named: the indexes are compared whole either way.
func TestEmbeddedIsTheReferenceFolder(t *testing.T) {
	if _, err := os.Stat(filepath.Join(realFolder, CitiesFile)); err != nil {
		t.Skipf("the reference's GeoNames files are not at %s (the reference server's geodata folder), so there is nothing to compare the embedded copy with: %v", realFolder, err)
	}
	folder, err := Load(realFolder, 0)
	require.NoError(t, err)
	embedded, err := Embedded()
	require.NoError(t, err)
	require.Equal(t, folder.Len(), embedded.Len())
	assert.True(t, slices.Equal(folder.cities, embedded.cities), "the cities, in order")
	assert.Equal(t, folder.names, embedded.names)
	assert.Equal(t, folder.states, embedded.states)
	assert.Equal(t, folder.date, embedded.date)

	every, random := 1, 5000
	if raceWatched {
		every, random = 10, 500
	}
	var positions [][2]float64
	cities := 0
	_, _, err = readFolder(realFolder, 0, func(r row) error {
		if cities++; cities%every == 0 {
			positions = append(positions, [2]float64{r.lat, r.lon})
		}
		return nil
	})
	require.NoError(t, err)
	rng, named := rand.New(rand.NewPCG(1, 2)), len(positions)
	for range random {
		positions = append(positions, [2]float64{rng.Float64()*180 - 90, rng.Float64()*360 - 180})
		near := positions[rng.IntN(named)] // a city's
		positions = append(positions, [2]float64{near[0] + rng.Float64()*0.6 - 0.3, near[1] + rng.Float64()*0.6 - 0.3})
	}
	differ := 0
	for _, p := range positions {
		c1, s1, n1 := folder.PlaceAt(p[0], p[1])
		c2, s2, n2 := embedded.PlaceAt(p[0], p[1])
		if deref(c1) != deref(c2) || deref(s1) != deref(s2) || deref(n1) != deref(n2) || (c1 == nil) != (c2 == nil) || (s1 == nil) != (s2 == nil) || (n1 == nil) != (n2 == nil) {
			differ++
			if differ < 5 {
				t.Errorf("at %v: the folder names %q, %q, %q; the embedded index %q, %q, %q", p, deref(c1), deref(s1), deref(n1), deref(c2), deref(s2), deref(n2))
			}
		}
	}
	assert.Zero(t, differ, "of %d positions", len(positions))
}

// BenchmarkEmbedded reads the embedded index, as the first position named
// does: its time, the memory it takes while read (B/op), and the memory it
// holds after (MiB-held).
func BenchmarkEmbedded(b *testing.B) {
	for b.Loop() {
		if _, err := unpack(packedCities); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(heldBy(b, func() (*Index, error) { return unpack(packedCities) }), "MiB-held")
}

// BenchmarkLoad reads the reference's folder, as serve --geodata does, to
// compare with BenchmarkEmbedded.
func BenchmarkLoad(b *testing.B) {
	if _, err := os.Stat(filepath.Join(realFolder, CitiesFile)); err != nil {
		b.Skipf("the reference's GeoNames files are not at %s: %v", realFolder, err)
	}
	for b.Loop() {
		if _, err := Load(realFolder, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(heldBy(b, func() (*Index, error) { return Load(realFolder, 0) }), "MiB-held")
}

// heldBy is the heap, in MiB, that the index read holds once read.
func heldBy(b *testing.B, read func() (*Index, error)) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ix, err := read()
	require.NoError(b, err)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(ix)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
}
