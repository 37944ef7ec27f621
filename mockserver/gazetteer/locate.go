package gazetteer

import "math"

// maxLocateKm is how far from a gazetteer city a position may be and still
// be named after it.
const maxLocateKm = 100

// Locate names the place at a position as a reverse geocoder would: the
// city nearest to it, if one lies within 100 km. The mock names the places
// of uploaded photos with it, so an upload reads like the generated library.
func Locate(lat, lon float64) (city, state, country string, ok bool) {
	p, km := nearest(lat, lon)
	if p == nil || km > maxLocateKm {
		return "", "", "", false
	}
	return p.City, p.State, p.Country, true
}

// PlaceAt is Locate as the metadata of an upload holds it: nil for each
// part where no city is near.
func PlaceAt(lat, lon float64) (city, state, country *string) {
	c, st, co, ok := Locate(lat, lon)
	if !ok {
		return nil, nil, nil
	}
	return &c, &st, &co
}

// nearest is the gazetteer city nearest to a position, and how far it is.
func nearest(lat, lon float64) (*Place, float64) {
	best, bestKm := -1, math.Inf(1)
	for i := range places {
		if km := distanceKm(lat, lon, places[i].Lat, places[i].Lon); km < bestKm {
			best, bestKm = i, km
		}
	}
	if best < 0 {
		return nil, bestKm
	}
	return &places[best], bestKm
}

// distanceKm is the great-circle distance between two positions.
func distanceKm(lat1, lon1, lat2, lon2 float64) float64 {
	const earthKm = 6371
	rad := math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthKm * math.Asin(math.Min(1, math.Sqrt(a)))
}

// maxZoneKm is how far from a gazetteer city a position may be and still
// take its time zone.
const maxZoneKm = 500

// ZoneAt is the IANA time zone of the gazetteer city nearest to a position,
// if one lies within 500 km: the zone a photo taken there was taken in, as
// the reference finds it from a photo's GPS position.
func ZoneAt(lat, lon float64) (string, bool) {
	p, km := nearest(lat, lon)
	zone := ""
	if p != nil && km <= maxZoneKm {
		zone = p.Zone
	}
	for _, z := range zoneTowns {
		if d := distanceKm(lat, lon, z.lat, z.lon); d < km && d <= maxZoneKm {
			zone, km = z.zone, d
		}
	}
	return zone, zone != ""
}

// zoneTowns name the zones of the plains and mountains of North America,
// where the gazetteer's cities lie more than 500 km apart: only ZoneAt
// reads them (the data generator does not place photos there). Omaha is
// where the upstream's own test photo IMG_2682.heic was taken.
var zoneTowns = [...]struct {
	zone     string
	lat, lon float64
}{
	{"America/Chicago", 41.2565, -95.9345},   // Omaha
	{"America/Chicago", 39.0997, -94.5786},   // Kansas City
	{"America/Chicago", 44.9778, -93.2650},   // Minneapolis
	{"America/Chicago", 32.7767, -96.7970},   // Dallas
	{"America/Chicago", 35.4676, -97.5164},   // Oklahoma City
	{"America/Chicago", 46.8083, -100.7837},  // Bismarck
	{"America/Denver", 40.7608, -111.8910},   // Salt Lake City
	{"America/Denver", 35.0844, -106.6504},   // Albuquerque
	{"America/Denver", 45.7833, -108.5007},   // Billings
	{"America/Boise", 43.6150, -116.2023},    // Boise
	{"America/Phoenix", 33.4484, -112.0740},  // Phoenix
	{"America/Winnipeg", 49.8951, -97.1384},  // Winnipeg
	{"America/Regina", 50.4452, -104.6189},   // Regina
	{"America/Edmonton", 51.0447, -114.0719}, // Calgary
}
