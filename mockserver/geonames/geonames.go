// Package geonames names the place at a position as the reference's
// reverse geocoding does, from the GeoNames files it imports at start
// (cities500.txt, admin1CodesASCII.txt, admin2Codes.txt, geodata-date.txt
// in one folder): the nearest city within its 25 km box, its first-level
// division (admin1) as the state, and its country's English name as
// i18n-iso-countries gives it.
//
// The cities are kept compact, sorted along the Earth's axis: a position's
// query reads only the band of cities whose box it may fall in.
//
// The binary carries the reference's own folder, packed (Embedded, read
// on first use): the mock names every upload's place as the reference
// does with no folder given; Load reads another (serve --geodata).
//
// The GeoNames data (cities500.txt, admin1CodesASCII.txt) is © GeoNames,
// geonames.org, licensed under Creative Commons Attribution 4.0 (CC BY
// 4.0); the English names of countries are i18n-iso-countries' (MIT).
package geonames

//go:generate go run ./internal/countrygen -in package/langs/en.json -out countries.go
//go:generate go run ./internal/citygen -in geodata -out cities500.pack

import (
	"math"
	"slices"
)

// The files of a GeoNames folder, named as the reference names them.
const (
	CitiesFile = "cities500.txt"
	Admin1File = "admin1CodesASCII.txt"
	Admin2File = "admin2Codes.txt"
	DateFile   = "geodata-date.txt"
)

// DefaultMaxCities bounds the cities Load keeps: cities500.txt holds about
// 200,000; a file of more (allCountries.txt holds 13 million) is refused
// rather than let fill the memory.
const DefaultMaxCities = 500_000

// Index is a folder of GeoNames files, read (Load), or the reference's
// own, built in (Embedded): the cities, each with its position on the
// reference's Earth, name, country and state.
type Index struct {
	cities []city   // sorted by z
	names  []byte   // the cities' names, one after another
	states []string // the admin1 names the cities use; a city's state is states[i-1]
	date   string   // geodata-date.txt, as the reference reads it
}

// city is one row of cities500.txt as the query needs it: 40 bytes.
type city struct {
	x, y, z float64 // ll_to_earth(latitude, longitude), in metres
	name    uint32  // where its name starts in names
	nameLen uint16
	country [2]byte // its ISO 3166-1 code as the file gives it
	state   uint32  // 1 + its index in states; 0 for none
}

// earthRadius is the radius of the earthdistance extension's earth(), in
// metres: the sphere the reference's positions and distances are on.
const earthRadius = 6378168

// searchRadius is the reference's reach: the box of earth_box(position,
// 25000) a city must lie in to name the position.
const searchRadius = 25000

// earthPoint is ll_to_earth(lat, lon): a position as the reference's
// database holds it, a point in space with the Earth's centre at 0.
func earthPoint(lat, lon float64) (x, y, z float64) {
	const perDegree = math.Pi / 180 // radians(), as PostgreSQL's
	la, lo := lat*perDegree, lon*perDegree
	return earthRadius * math.Cos(la) * math.Cos(lo), earthRadius * math.Cos(la) * math.Sin(lo), earthRadius * math.Sin(la)
}

// PlaceAt names the place at a position as the reference's metadata job
// does: the city nearest to it (by earth_distance) of those in the
// position's 25 km box, the name of the city's admin1 as the state (nil
// where admin1CodesASCII.txt has none), the English name of its country
// (nil for a code i18n-iso-countries does not know). All three are nil
// where no city is near, and for a latitude or longitude of 0, which the
// reference's job takes for no position.
func (ix *Index) PlaceAt(lat, lon float64) (cityName, state, country *string) {
	if lat == 0 || lon == 0 || math.IsNaN(lat) || math.IsNaN(lon) {
		return nil, nil, nil
	}
	c, ok := ix.nearest(lat, lon)
	if !ok {
		return nil, nil, nil
	}
	n := string(ix.names[c.name : c.name+uint32(c.nameLen)])
	cityName = &n
	if c.state > 0 {
		s := ix.states[c.state-1]
		state = &s
	}
	if name, ok := countryNames[upper(c.country)]; ok {
		country = &name
	}
	return cityName, state, country
}

// nearest is the city nearest to a position of those in its box: the
// reference's earth_box(ll_to_earth(lat, lon), 25000) @> "earthCoord",
// ordered by earth_distance. A box is a cube in space: its corners reach
// a little past 25 km, as the reference's query (which does not check the
// distance again) lets them.
func (ix *Index) nearest(lat, lon float64) (city, bool) {
	px, py, pz := earthPoint(lat, lon)
	// gc_to_sec(25000): the straight-line length earth_box widens the
	// position by, each way on each axis.
	r := 2 * earthRadius * math.Sin(searchRadius/(2.0*earthRadius))
	loZ, hiZ := pz-r, pz+r
	from, _ := slices.BinarySearchFunc(ix.cities, loZ, func(c city, z float64) int {
		if c.z < z {
			return -1
		}
		return 1 // the first city at loZ or above
	})
	best, bestD, found := city{}, math.Inf(1), false
	for _, c := range ix.cities[from:] {
		if c.z > hiZ {
			break
		}
		if c.x < px-r || c.x > px+r || c.y < py-r || c.y > py+r {
			continue
		}
		dx, dy, dz := c.x-px, c.y-py, c.z-pz
		if d := dx*dx + dy*dy + dz*dz; d < bestD {
			best, bestD, found = c, d, true
		}
	}
	return best, found
}

// upper is a country code upper-cased, as i18n-iso-countries looks a
// two-letter code up.
func upper(code [2]byte) string {
	b := code
	for i := range b {
		if 'a' <= b[i] && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b[:])
}

// ImportState is what the reference's GET
// /api/system-metadata/reverse-geocoding-state answers after importing
// the folder: the text of its geodata-date.txt, and the cities' file.
func (ix *Index) ImportState() (lastUpdate, fileName string) {
	return ix.date, CitiesFile
}

// Len is how many cities the index holds.
func (ix *Index) Len() int { return len(ix.cities) }
