package api

import (
	"net/http"

	"github.com/mediaspec/mediaspec/mockserver/gazetteer"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// ReverseGeocoder names the places of positions in the reference's stead:
// a GeoNames folder read as the reference imports it (geonames.Index,
// serve --geodata).
type ReverseGeocoder interface {
	// PlaceAt is the city, state and country of a position, nil where it
	// names none.
	PlaceAt(lat, lon float64) (city, state, country *string)
	// ImportState is the import's lastUpdate and lastImportFileName.
	ImportState() (lastUpdate, fileName string)
}

// places names the place at a position, for the metadata of uploads and
// library files and for an asset's new position: by Config.ReverseGeocoder
// where there is one, else by the built-in gazetteer.
func (s *server) places(lat, lon float64) (city, state, country *string) {
	if g := s.cfg.ReverseGeocoder; g != nil {
		return g.PlaceAt(lat, lon)
	}
	return gazetteer.PlaceAt(lat, lon)
}

// reverseGeocodingState is GET /api/system-metadata/reverse-geocoding-state:
// the state of the reference's GeoNames import. The built-in gazetteer's
// cities stand for the reference's own import at 66fced40e (cities500.txt
// of 2023-03-05); a GeoNames folder answers its geodata-date.txt.
func (s *server) reverseGeocodingState(c *call) error {
	last, file := "2023-03-05T00:00:00+00:00", "cities500.txt"
	if g := s.cfg.ReverseGeocoder; g != nil {
		last, file = g.ImportState()
	}
	return c.json(http.StatusOK, model.ReverseGeocodingState{LastUpdate: &last, LastImportFileName: &file})
}
