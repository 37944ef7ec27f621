package main

import (
	"fmt"

	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/geonames"
)

// loadGeodata reads serve --geodata's folder of GeoNames files, as the
// reference imports its IMMICH_REVERSE_GEOCODING_ROOT at start; nil for
// none given, which leaves the reference's own folder, built in, to name
// places (read on the first position named). banner
// is the start-up line that says what was read.
func loadGeodata(dir string) (g mockserver.ReverseGeocoder, banner string, err error) {
	if dir == "" {
		return nil, "", nil
	}
	ix, err := geonames.Load(dir, 0)
	if err != nil {
		return nil, "", fmt.Errorf("--geodata: %w", err)
	}
	last, _ := ix.ImportState()
	return ix, fmt.Sprintf("geodata: %d cities of %s (%s) name the places of uploads, as the reference's\n", ix.Len(), dir, last), nil
}
