package gazetteer

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLocate(t *testing.T) {
	for _, tt := range []struct {
		name     string
		lat, lon float64
		city     string
		ok       bool
	}{
		{"Alfama, Lisbon", 38.711815, -9.129682, "Lisbon", true},
		{"Shibuya, Tokyo", 35.659482, 139.700559, "Tokyo", true},
		{"Bloubergstrand, Cape Town", -33.807613, 18.464927, "Cape Town", true},
		{"the middle of the Pacific", 0, -140, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			city, _, _, ok := Locate(tt.lat, tt.lon)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.city, city)
		})
	}
}

func TestZoneAt(t *testing.T) {
	for _, tt := range []struct {
		name     string
		lat, lon float64
		zone     string
		ok       bool
	}{
		{"Alfama, Lisbon", 38.711815, -9.129682, "Europe/Lisbon", true},
		{"Shibuya, Tokyo", 35.659482, 139.700559, "Asia/Tokyo", true},
		{"Sintra, 25 km from Lisbon", 38.8029, -9.3817, "Europe/Lisbon", true},
		{"the middle of the Pacific", 0, -140, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			zone, ok := ZoneAt(tt.lat, tt.lon)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.zone, zone)
		})
	}
}
