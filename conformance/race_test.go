//go:build race

package conformance_test

// raceWatched: the tests run under the race detector.
const raceWatched = true
