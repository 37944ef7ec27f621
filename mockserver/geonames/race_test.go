//go:build race

package geonames

// raceWatched: the tests run under the race detector, which makes a
// position named some ten times slower.
const raceWatched = true
