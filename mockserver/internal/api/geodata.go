package api

import (
	"net/http"

	"github.com/mediaspec/mediaspec/mockserver/gazetteer"
	"github.com/mediaspec/mediaspec/mockserver/geonames"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// ReverseGeocoder names the places of positions in the reference's stead:
// a GeoNames folder read as the reference imports it (geonames.Index,
// serve --geodata). Without one, the reference's own folder, built in
// (geonames.Embedded), names them.
type ReverseGeocoder interface {
	// PlaceAt is the city, state and country of a position, nil where it
	// names none.
	PlaceAt(lat, lon float64) (city, state, country *string)
	// ImportState is the import's lastUpdate and lastImportFileName.
	ImportState() (lastUpdate, fileName string)
}

// places names the place at a position, for the metadata of uploads and
// library files and for an asset's new position: by Config.ReverseGeocoder
// where there is one, else by the reference's own GeoNames cities, built
// in and read on the first position named. (The seeded data's places are
// the gazetteer's cities, which the generator put its photos at.)
func (s *server) places(lat, lon float64) (city, state, country *string) {
	if g := s.cfg.ReverseGeocoder; g != nil {
		return g.PlaceAt(lat, lon)
	}
	ix, err := geonames.Embedded()
	if err != nil { // the binary's own copy, which its tests read: never expected
		s.log.Error("the built-in GeoNames cities do not read: the gazetteer names the place", "err", err)
		return gazetteer.PlaceAt(lat, lon)
	}
	return ix.PlaceAt(lat, lon)
}

// reverseGeocodingState is GET /api/system-metadata/reverse-geocoding-state:
// the state of the reference's GeoNames import: the built-in cities' (the
// reference's own import at 66fced40e, cities500.txt of 2023-03-05), or
// a GeoNames folder's geodata-date.txt.
func (s *server) reverseGeocodingState(c *call) error {
	var last, file string
	if g := s.cfg.ReverseGeocoder; g != nil {
		last, file = g.ImportState()
	} else {
		date, err := geonames.EmbeddedDate()
		if err != nil {
			return err
		}
		last, file = date, geonames.CitiesFile
	}
	return c.json(http.StatusOK, model.ReverseGeocodingState{LastUpdate: &last, LastImportFileName: &file})
}
