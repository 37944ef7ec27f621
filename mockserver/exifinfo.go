package mockserver

import (
	"github.com/mediaspec/mediaspec/mockserver/exif"
	"github.com/mediaspec/mediaspec/mockserver/gazetteer"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// exifInfo is the exifInfo of an uploaded file: what the EXIF in its head
// says, the place its GPS position names (as the reference's reverse
// geocoding does), and always its size. The bool says whether the file
// carried EXIF. A file without EXIF, or with EXIF too broken to read, is no
// error: the upload stands, with only the size known.
func exifInfo(head []byte, size int64) (*model.Exif, bool) {
	e, err := exif.Read(head)
	if err != nil || e == nil {
		return &model.Exif{FileSizeInByte: &size}, false
	}
	e.FileSizeInByte = &size
	if e.Latitude != nil && e.Longitude != nil && e.City == nil {
		if city, state, country, ok := gazetteer.Locate(*e.Latitude, *e.Longitude); ok {
			e.City, e.State, e.Country = &city, &state, &country
		}
	}
	return e, true
}
