package api

import (
	"fmt"
	"net/http"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
)

// The map (the upstream's map controller): the markers of a library's
// assets with a position, and the style the web app draws the map with.
// The mock's style needs no tiles from anywhere: a background, and lines
// of latitude and longitude every fifteen degrees, drawn from data in the
// style itself, so that nothing leaves the machine.

// MapMarkerDto: GET /api/map/markers.
var mapMarkerQuery = dto.NewClass("MapMarkerDto",
	dto.Field("isArchived", optionalBool),
	dto.Field("isFavorite", optionalBool),
	dto.Field("fileCreatedAfter", optionalDate),
	dto.Field("fileCreatedBefore", optionalDate),
	dto.Field("withPartners", optionalBool),
	dto.Field("withSharedAlbums", optionalBool),
)

// MapThemeDto: GET /api/map/style.json.
var mapThemeQuery = dto.NewClass("MapThemeDto", dto.Field("theme", dto.As(dto.IsEnum("light", "dark"))))

// mapMarker is MapMarkerResponseDto.
type mapMarker struct {
	ID      string  `json:"id"`
	Lat     float64 `json:"lat"`
	Lon     float64 `json:"lon"`
	City    *string `json:"city"`
	State   *string `json:"state"`
	Country *string `json:"country"`
}

// mapMarkers is GET /api/map/markers: the caller's assets with a
// position (and their partners', and those of their albums, as asked),
// the newest first.
func (s *server) mapMarkers(c *call) error {
	b, err := readQuery(c.r.URL.Query(), mapMarkerQuery)
	if err != nil {
		return err
	}
	q := store.MarkerQuery{
		UserID: c.p().User.ID, IsArchived: boolOf(b, "isArchived"), IsFavorite: boolOf(b, "isFavorite"),
		After: timeOf(b, "fileCreatedAfter"), Before: timeOf(b, "fileCreatedBefore"),
	}
	q.WithPartners, _ = b.Bool("withPartners")
	q.WithSharedAlbums, _ = b.Bool("withSharedAlbums")
	key := fmt.Sprintf("markers\x00%s\x00%v\x00%v\x00%v\x00%v\x00%v\x00%v", q.UserID, ptrKey(q.IsArchived), ptrKey(q.IsFavorite), ptrKey(q.After), ptrKey(q.Before), q.WithPartners, q.WithSharedAlbums)
	a, err := s.answers.encodedList(c.r.Context(), key, store.Everything, func(v *store.View, emit func(any) error) error {
		for _, a := range v.MapMarkers(q) {
			e := a.ExifInfo
			if err := emit(mapMarker{ID: a.ID, Lat: *e.Latitude, Lon: *e.Longitude, City: e.City, State: e.State, Country: e.Country}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.large.Write(c.w, http.StatusOK, a.parts, a.size, a.etag)
	return nil
}

// mapColors are a theme's colours: the sea, and the lines.
var mapColors = map[string][2]string{
	"light": {"#d4e6f1", "#9fb8c8"},
	"dark":  {"#1b2631", "#34495e"},
}

// mapStyle is GET /api/map/style.json?theme=light|dark: a MapLibre style
// (version 8) of the theme, drawn without tiles.
func mapStyle(c *call) error {
	b, err := readQuery(c.r.URL.Query(), mapThemeQuery)
	if err != nil {
		return err
	}
	theme, _ := b.String("theme")
	colors := mapColors[theme]
	var lines [][][2]float64
	for lon := -180; lon <= 180; lon += 15 {
		lines = append(lines, [][2]float64{{float64(lon), -85}, {float64(lon), 85}})
	}
	for lat := -75; lat <= 75; lat += 15 {
		lines = append(lines, [][2]float64{{-180, float64(lat)}, {180, float64(lat)}})
	}
	type obj = map[string]any
	style := obj{
		"id":      "immich-map-" + theme, // as the reference names its two styles
		"version": 8,
		"name":    fmt.Sprintf("Immich Map (mediaspec, %s)", theme),
		"sources": obj{
			"graticule": obj{
				"type": "geojson",
				"data": obj{"type": "Feature", "properties": obj{}, "geometry": obj{"type": "MultiLineString", "coordinates": lines}},
			},
		},
		"layers": []obj{
			{"id": "background", "type": "background", "paint": obj{"background-color": colors[0]}},
			{"id": "graticule", "type": "line", "source": "graticule", "paint": obj{"line-color": colors[1], "line-width": 1}},
		},
	}
	return c.json(http.StatusOK, style)
}
