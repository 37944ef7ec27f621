package exif

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestExposureTime(t *testing.T) {
	tests := []struct {
		secs float64
		want string
	}{
		{1.0 / 250, "1/250"},
		{10.0 / 2500, "1/250"},
		{1.0 / 8000, "1/8000"},
		{1.0 / 120, "1/120"},
		{0.25, "1/4"},
		{1.0 / 3, "0.3"},
		{0.5, "0.5"},
		{1.5, "1.5"},
		{2, "2"},
		{30, "30"},
		{0, ""},
		{-1, ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, exposureTime(tt.secs), "%v s", tt.secs)
	}
}

func TestZone(t *testing.T) {
	tests := []struct {
		offset string
		want   string // "" when the offset is not read
	}{
		{"+01:00", "UTC+1"},
		{"+09:00", "UTC+9"},
		{"-03:00", "UTC-3"},
		{"+05:30", "UTC+5:30"},
		{"-09:30", "UTC-9:30"},
		{"+00:00", "UTC"},
		{"-00:00", "UTC"},
		{"", ""},
		{"+1:00", ""},
		{"01:00", ""},
		{"+25:00", ""},
		{"+01:75", ""},
		{"+0a:00", ""},
	}
	for _, tt := range tests {
		loc, ok := zone(tt.offset)
		if tt.want == "" {
			assert.False(t, ok, "%q", tt.offset)
			continue
		}
		if assert.True(t, ok, "%q", tt.offset) {
			assert.Equal(t, tt.want, zoneName(loc), "%q", tt.offset)
		}
	}
}

func TestIfdOf(t *testing.T) {
	tests := []struct {
		namespace string
		want      ifd
	}{
		{"IFD0", ifd0},
		{"IFD0/ExifIFDP", ifdExif},
		{"IFD0/ExifIFD", ifdExif},
		{"IFD0/GPSInfoIFD", ifdGPS},
		// imagemeta names the Interop IFD's tags 1 and 2 after GPS tags.
		{"IFD0/ExifIFDP/InteroperabilityIFD", ifdOther},
		{"IFD1", ifdOther},
		{"IFD0/SubIFD", ifdOther},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, ifdOf(tt.namespace), tt.namespace)
	}
}

// TestDatesOutsideTheAPIsYearsAreDropped: an EXIF capture date outside the
// years 1800 to 2999 (once in UTC) is dropped, never stored.
func TestDatesOutsideTheAPIsYearsAreDropped(t *testing.T) {
	minus5 := time.FixedZone("", -5*3600)
	for _, tt := range []struct {
		v   string
		loc *time.Location
		ok  bool
	}{
		{"9999:12:31 23:00:00", minus5, false},
		{"9999:12:31 18:59:59", minus5, false}, // a year tools write for no date
		{"2999:12:31 23:59:59", time.UTC, true},
		{"3000:01:01 00:00:00", time.UTC, false},
		{"1799:12:31 23:59:59", time.UTC, false},
		{"0000:01:01 00:00:00", time.UTC, false},
		{"2023:06:14 20:42:07", time.UTC, true},
	} {
		_, ok := date(tt.v, "", tt.loc)
		if ok != tt.ok {
			t.Errorf("date(%q, %v) kept: %v, want %v", tt.v, tt.loc, ok, tt.ok)
		}
	}
}
