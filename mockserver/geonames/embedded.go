package geonames

import (
	_ "embed" // the reference's cities, packed
	"sync"
)

// packedCities is the reference's own GeoNames folder at 66fced40e
// (cities500.txt and admin1CodesASCII.txt of 2023-03-05, its
// geodata-date.txt), packed by internal/citygen.
//
//go:embed cities500.pack
var packedCities string

// embedded reads packedCities once, on first use: a server that never
// names a position never pays for it. It is the one package-level value
// here, set once and read-only after, as countryNames is.
var embedded = sync.OnceValues(func() (*Index, error) { return unpack(packedCities) })

// Embedded is the index of the reference's own GeoNames files, built into
// the binary: the places of positions named as the reference at
// 66fced40e names them, with no folder. It is read on the first call
// (about 12 MiB, once per process) and shared after; an error says the
// binary's copy does not read, which its tests rule out.
func Embedded() (*Index, error) { return embedded() }

// EmbeddedDate is the date of the embedded index's files (its
// geodata-date.txt), read without reading the cities: what the
// reference's import state answers.
func EmbeddedDate() (string, error) { return packDate(packedCities) }
