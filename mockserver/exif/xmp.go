package exif

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// MaxXMP is the largest sidecar ReadXMP reads; a larger one is not metadata
// a camera or an editor writes.
const MaxXMP = 1 << 20

// Bounds of an XMP document's shape: how deeply its elements nest and how
// many tokens it may have.
const (
	maxXMPDepth  = 64
	maxXMPTokens = 100_000
)

// ErrNoXMP reports a sidecar ReadXMP cannot use: too large, not XML, or
// without any of the properties it reports.
var ErrNoXMP = errors.New("no xmp metadata")

// The namespaces of the properties ReadXMP reports.
const (
	nsTIFF      = "http://ns.adobe.com/tiff/1.0/"
	nsEXIF      = "http://ns.adobe.com/exif/1.0/"
	nsEXIFEX    = "http://cipa.jp/exif/1.0/"
	nsXMP       = "http://ns.adobe.com/xap/1.0/"
	nsPhotoshop = "http://ns.adobe.com/photoshop/1.0/"
	nsDC        = "http://purl.org/dc/elements/1.1/"
	nsAux       = "http://ns.adobe.com/exif/1.0/aux/"
	nsRDF       = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
)

// XMP is what a sidecar says: the API's fields it sets, and how its
// capture time was written.
type XMP struct {
	// Exif holds the fields the sidecar sets; the others are nil.
	// FileSizeInByte, City, State and Country are never set.
	Exif model.Exif
	// ZoneFromOffset is the zone its capture time was written in
	// ("UTC+1"), or "" where it had none. The reference names a sidecar's
	// zone after the place its position lies in, and after this offset
	// only where there is no position.
	ZoneFromOffset string
}

// ReadXMP reads an XMP sidecar. It returns ErrNoXMP, wrapped with the cause,
// for a sidecar it cannot use; it never panics, whatever the bytes.
func ReadXMP(data []byte) (*XMP, error) {
	if len(data) > MaxXMP {
		return nil, fmt.Errorf("%w: %d bytes, more than %d", ErrNoXMP, len(data), MaxXMP)
	}
	props, err := xmpProperties(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoXMP, err)
	}
	var t tags
	prop := func(ns, name string) string { return props[ns+" "+name] }
	t.make = prop(nsTIFF, "Make")
	t.model = prop(nsTIFF, "Model")
	t.lens = firstOf(prop(nsEXIFEX, "LensModel"), prop(nsAux, "Lens"))
	t.description = prop(nsDC, "description")
	t.orientation, _ = strconv.Atoi(prop(nsTIFF, "Orientation"))
	t.exifWidth, _ = strconv.Atoi(firstOf(prop(nsEXIF, "PixelXDimension"), prop(nsTIFF, "ImageWidth")))
	t.exifHeight, _ = strconv.Atoi(firstOf(prop(nsEXIF, "PixelYDimension"), prop(nsTIFF, "ImageLength")))
	t.exposure = rational(prop(nsEXIF, "ExposureTime"))
	t.fNumber = rational(prop(nsEXIF, "FNumber"))
	t.focalLength = rational(prop(nsEXIF, "FocalLength"))
	t.iso, _ = strconv.Atoi(firstOf(prop(nsEXIF, "ISOSpeedRatings"), prop(nsEXIFEX, "PhotographicSensitivity")))
	t.latitude, t.latitudeRef, t.hasLatitude = xmpCoordinate(prop(nsEXIF, "GPSLatitude"), "S")
	t.longitude, t.longitudeRef, t.hasLongitude = xmpCoordinate(prop(nsEXIF, "GPSLongitude"), "W")
	x := t.exif()

	out := &XMP{}
	if x != nil {
		out.Exif = *x
	}
	// XMP writes its dates in ISO 8601, with or without an offset.
	if d, zone, ok := xmpDate(firstOf(prop(nsEXIF, "DateTimeOriginal"), prop(nsPhotoshop, "DateCreated"), prop(nsXMP, "CreateDate"))); ok {
		out.Exif.DateTimeOriginal, out.ZoneFromOffset = d.Ptr(), zone
	}
	if d, _, ok := xmpDate(prop(nsXMP, "ModifyDate")); ok {
		out.Exif.ModifyDate = d.Ptr()
	}
	if out.Exif == (model.Exif{}) {
		return nil, ErrNoXMP
	}
	return out, nil
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// xmpProperties reads the properties of an XMP document, by namespace and
// name ("http://ns.adobe.com/tiff/1.0/ Make"), whether written as
// attributes of rdf:Description or as its elements; a property holding an
// rdf:Alt, rdf:Seq or rdf:Bag takes its first item.
func xmpProperties(data []byte) (map[string]string, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	props := map[string]string{}
	var path []xml.Name
	var text strings.Builder
	for tokens := 0; ; tokens++ {
		if tokens > maxXMPTokens {
			return nil, errors.New("too many XML tokens")
		}
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, errors.New("not XML")
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if len(path) >= maxXMPDepth {
				return nil, errors.New("elements nested too deeply")
			}
			path = append(path, el.Name)
			text.Reset()
			if el.Name.Space == nsRDF && el.Name.Local == "Description" {
				for _, a := range el.Attr {
					set(props, a.Name.Space+" "+a.Name.Local, a.Value)
				}
			}
		case xml.CharData:
			if text.Len() < MaxXMP {
				text.Write(el)
			}
		case xml.EndElement:
			if len(path) == 0 {
				return nil, errors.New("not XML")
			}
			path = path[:len(path)-1]
			isRDF := func(n xml.Name, local string) bool { return n.Space == nsRDF && n.Local == local }
			switch {
			case isRDF(el.Name, "li") && len(path) >= 2:
				// The first item of the container a property holds.
				set(props, path[len(path)-2].Space+" "+path[len(path)-2].Local, strings.TrimSpace(text.String()))
			case len(path) >= 1 && isRDF(path[len(path)-1], "Description"):
				set(props, el.Name.Space+" "+el.Name.Local, strings.TrimSpace(text.String()))
			}
			text.Reset()
		}
	}
	if len(props) == 0 {
		return nil, errors.New("no properties")
	}
	return props, nil
}

// set keeps the first non-empty value of a property.
func set(props map[string]string, key, v string) {
	if _, ok := props[key]; !ok && v != "" && len(v) <= 4096 {
		props[key] = strings.ToValidUTF8(v, "\uFFFD")
	}
}

// rational reads an XMP rational ("178/100") or decimal.
func rational(s string) float64 {
	num, den, found := strings.Cut(s, "/")
	n, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0
	}
	if found {
		d, err := strconv.ParseFloat(den, 64)
		if err != nil || d == 0 {
			return 0
		}
		n /= d
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return 0
	}
	return n
}

// xmpCoordinate reads an XMP GPS coordinate: "DDD,MM.mmmmk" or
// "DDD,MM,SSk", k being N, S, E or W; or signed decimal degrees, whose
// minus is the reference negative (S or W).
func xmpCoordinate(s, negative string) (deg float64, ref string, ok bool) {
	if s == "" {
		return 0, "", false
	}
	if last := s[len(s)-1]; strings.ContainsRune("NSEW", rune(last)) {
		ref, s = string(last), s[:len(s)-1]
	}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return 0, "", false
	}
	scale := 1.0
	for _, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, "", false
		}
		deg += v / scale
		scale *= 60
	}
	if deg < 0 && ref == "" {
		deg, ref = -deg, negative
	}
	return deg, ref, true
}

// xmpDate reads an XMP date: ISO 8601, with seconds or without, with an
// offset or without (then taken as UTC); and the name of its offset's zone.
func xmpDate(s string) (d model.Time, zone string, ok bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04Z07:00", "2006-01-02T15:04"} {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		if !plausible(t) {
			return model.Time{}, "", false
		}
		if strings.ContainsAny(s[len("2006-01-02T15:04"):], "Z+-") {
			zone = zoneName(t.Location())
		}
		return model.At(t), zone, true
	}
	return model.Time{}, "", false
}
