package mockserver

import "github.com/mediaspec/mediaspec/mockserver/model"

// exifInfo is the exifInfo of an uploaded file: what its EXIF says, and
// always its size. The bool says whether the file carried metadata.
func exifInfo(head []byte, size int64) (*model.Exif, bool) {
	return &model.Exif{FileSizeInByte: &size}, false
}
