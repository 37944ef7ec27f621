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
	if p == nil || km > maxZoneKm {
		return "", false
	}
	return p.Zone, true
}
