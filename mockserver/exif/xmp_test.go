package exif

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
)

// xmpDoc is an XMP sidecar whose rdf:Description has attrs and holds body.
func xmpDoc(attrs, body string) []byte {
	return []byte(`<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
 xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" ` + attrs + `>` + body + `</rdf:Description>
</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`)
}

// TestReadXMPFixture: the Lisbon sidecar says what the reference read of it.
func TestReadXMPFixture(t *testing.T) {
	data, err := fixtures.ReadFile(fixtures.LisbonXMP)
	require.NoError(t, err)
	x, err := ReadXMP(data)
	require.NoError(t, err)
	e := x.Exif
	assert.Equal(t, "Apple", deref(e.Make))
	assert.Equal(t, "iPhone 15 Pro", deref(e.Model))
	assert.Equal(t, "6", deref(e.Orientation))
	assert.Equal(t, "iPhone 15 Pro back triple camera 6.765mm f/1.78", deref(e.LensModel))
	assert.Equal(t, "Sunset over Alfama from the Miradouro de Santa Luzia", deref(e.Description))
	require.NotNil(t, e.DateTimeOriginal)
	assert.Equal(t, time.Date(2023, 6, 14, 19, 42, 7, 0, time.UTC), e.DateTimeOriginal.Time.UTC())
	assert.Equal(t, "UTC+1", x.ZoneFromOffset)
	require.NotNil(t, e.Latitude)
	assert.InDelta(t, 38.711815, *e.Latitude, 1e-6)
	assert.InDelta(t, -9.129682, *e.Longitude, 1e-6)
	assert.Nil(t, e.FileSizeInByte)
	assert.Nil(t, e.City)
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestReadXMP: properties as attributes or elements, the forms of GPS and
// dates XMP writers use, and sidecars that say nothing usable.
func TestReadXMP(t *testing.T) {
	x, err := ReadXMP(xmpDoc(``, `<tiff:Make>Canon</tiff:Make><exif:FNumber>28/10</exif:FNumber>
<exif:ExposureTime>1/200</exif:ExposureTime><exif:ISOSpeedRatings><rdf:Seq><rdf:li>400</rdf:li></rdf:Seq></exif:ISOSpeedRatings>
<exif:GPSLatitude>-33.9249</exif:GPSLatitude><exif:GPSLongitude>18,25,26.4E</exif:GPSLongitude>
<exif:DateTimeOriginal>2024-02-03T04:05:06</exif:DateTimeOriginal>
<dc:description><rdf:Alt><rdf:li xml:lang="x-default">Lion's Head</rdf:li><rdf:li xml:lang="af">Leeukop</rdf:li></rdf:Alt></dc:description>`))
	require.NoError(t, err)
	e := x.Exif
	assert.Equal(t, "Canon", deref(e.Make))
	assert.Equal(t, 2.8, *e.FNumber)
	assert.Equal(t, "1/200", deref(e.ExposureTime))
	assert.Equal(t, 400.0, *e.ISO)
	assert.InDelta(t, -33.9249, *e.Latitude, 1e-9)
	assert.InDelta(t, 18.424, *e.Longitude, 1e-9)
	assert.Equal(t, time.Date(2024, 2, 3, 4, 5, 6, 0, time.UTC), e.DateTimeOriginal.Time.UTC())
	assert.Empty(t, x.ZoneFromOffset, "a date without an offset has no zone")
	assert.Equal(t, "Lion's Head", deref(e.Description), "the first of the alternatives")

	for name, data := range map[string][]byte{
		"not XML":                  []byte("this is not XML <at all"),
		"empty":                    nil,
		"no properties":            xmpDoc(``, ``),
		"over the size bound":      append(xmpDoc(`tiff:Make="Canon"`, ``), bytes.Repeat([]byte(" "), MaxXMP)...),
		"nested too deeply":        xmpDoc(``, strings.Repeat("<dc:x>", 100)+strings.Repeat("</dc:x>", 100)),
		"a date in the year 0000":  xmpDoc(`exif:DateTimeOriginal="0000-01-01T00:00:00"`, ``),
		"a date in the year 9999":  xmpDoc(`exif:DateTimeOriginal="9999-12-31T23:59:59+25:00"`, ``),
		"a position out of bounds": xmpDoc(`exif:GPSLatitude="95,0N" exif:GPSLongitude="200,0E"`, ``),
	} {
		x, err := ReadXMP(data)
		assert.ErrorIs(t, err, ErrNoXMP, "%s: %+v", name, x)
	}
}

// FuzzReadXMP: no sidecar makes ReadXMP panic, and what it reads is within
// the API's bounds.
func FuzzReadXMP(f *testing.F) {
	for _, name := range fixtures.Names() {
		data, err := fixtures.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(xmpDoc(`exif:GPSLatitude="38,42.7N" exif:DateTimeOriginal="2023-06-14T20:42:07+01:00"`, `<dc:subject><rdf:Bag><rdf:li>a</rdf:li></rdf:Bag></dc:subject>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := ReadXMP(data)
		if err != nil {
			return
		}
		if e := x.Exif; e.Latitude != nil && (*e.Latitude < -90 || *e.Latitude > 90 || e.Longitude == nil || *e.Longitude < -180 || *e.Longitude > 180) {
			t.Fatalf("a position out of bounds: %v, %v", e.Latitude, e.Longitude)
		}
	})
}
