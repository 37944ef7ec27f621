package api

import (
	"fmt"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The people of richDataset, by name.
const (
	mariaID    = "00000000-0000-4000-8000-00000000e001" // named, in two of Alice's pictures
	unnamedID  = "00000000-0000-4000-8000-00000000e002" // unnamed, in three
	strangerID = "00000000-0000-4000-8000-00000000e003" // unnamed, in one: too few to list
	zedID      = "00000000-0000-4000-8000-00000000e004" // named and hidden
	noThumbID  = "00000000-0000-4000-8000-00000000e005" // without a thumbnail
	archivedID = "00000000-0000-4000-8000-00000000e006" // only in an archived picture
	bobsID     = "00000000-0000-4000-8000-00000000e007" // Bob's
)

// richAsset is the id of richDataset's asset n.
func richAsset(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-0000000a%04d", n) }

// richDataset is the tests' dataset with a library to search: Alice's
// pictures in Lisbon (five, one more in the trash), Porto (one archived),
// a video, people in them, and Bob's picture in Berlin, which he shares
// with Alice in her timeline. Alice's first asset gets a position in
// Lisbon.
func richDataset() model.Dataset {
	d := testDataset()
	anchor := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	at := func(days int) model.Time { return model.At(anchor.AddDate(0, 0, days)) }
	place := func(city, state, country string, lat, lon float64) *model.Exif {
		size := int64(1000)
		return &model.Exif{City: &city, State: &state, Country: &country, Latitude: &lat, Longitude: &lon,
			Make: new("Apple"), Model: new("iPhone 15 Pro"), FileSizeInByte: &size}
	}
	lisbon := func() *model.Exif { return place("Lisbon", "Lisbon", "Portugal", 38.7118, -9.1297) }
	d.Assets[0].ExifInfo = lisbon()
	face := func(n int, person string) model.FaceRecord {
		return model.FaceRecord{ID: fmt.Sprintf("00000000-0000-4000-8000-0000000f%04d", n), PersonID: person,
			BoundingBoxX1: 10, BoundingBoxY1: 10, BoundingBoxX2: 60, BoundingBoxY2: 60, ImageWidth: 400, ImageHeight: 300}
	}
	asset := func(n int, owner, name string, days int, exif *model.Exif, faces ...model.FaceRecord) model.AssetRecord {
		return model.AssetRecord{
			ID: richAsset(n), OwnerID: owner, DeviceAssetID: name, DeviceID: "pixel-8", Type: model.AssetImage,
			OriginalPath: "upload/library/" + owner + "/" + name, OriginalFileName: name,
			Checksum: sha1Base64([]byte(name)), Duration: model.DefaultDuration,
			FileCreatedAt: at(days), FileModifiedAt: at(days), LocalDateTime: at(days), CreatedAt: at(days + 1), UpdatedAt: at(days + 1),
			IsVisible: true, ExifInfo: exif, Faces: faces,
			SmartInfo: &model.SmartInfo{Objects: []string{}, Tags: []string{"beach"}},
		}
	}
	var fn int
	nextFace := func(person string) model.FaceRecord { fn++; return face(fn, person) }
	assets := []model.AssetRecord{
		asset(1, aliceID, "IMG_0001.jpg", -100, lisbon(), nextFace(mariaID), nextFace(unnamedID)),
		asset(2, aliceID, "IMG_0002.jpg", -90, lisbon(), nextFace(mariaID), nextFace(unnamedID), nextFace(zedID)),
		asset(3, aliceID, "IMG_0003.jpg", -80, lisbon(), nextFace(unnamedID), nextFace(strangerID), nextFace(noThumbID)),
		asset(4, aliceID, "PXL_0004.jpg", -70, lisbon()),
		asset(5, aliceID, "PXL_0005.jpg", -60, place("Porto", "Porto", "Portugal", 41.1496, -8.611)),
		asset(6, aliceID, "PXL_0006.jpg", -50, place("Porto", "Porto", "Portugal", 41.1496, -8.611), nextFace(archivedID)),
		asset(7, aliceID, "PXL_0007.jpg", -40, lisbon()),
		asset(8, aliceID, "MVI_0008.mp4", -30, nil),
		asset(9, bobID, "DSC_0009.jpg", -20, place("Berlin", "Berlin", "Germany", 52.52, 13.405), nextFace(bobsID)),
	}
	assets[4].IsFavorite = true
	assets[5].IsArchived = true
	assets[6].IsTrashed = true
	assets[7].Type, assets[7].SmartInfo = model.AssetVideo, nil
	d.Assets = append(d.Assets, assets...)
	person := func(id, owner, name string, hidden bool) model.PersonRecord {
		return model.PersonRecord{ID: id, OwnerID: owner, Name: name, IsHidden: hidden, ThumbnailPath: "upload/thumbs/" + id + ".jpeg"}
	}
	d.People = []model.PersonRecord{
		person(mariaID, aliceID, "Maria Silva", false), person(unnamedID, aliceID, "", false), person(strangerID, aliceID, "", false),
		person(zedID, aliceID, "Zed", true), person(noThumbID, aliceID, "No Thumb", false), person(archivedID, aliceID, "Archie", false),
		person(bobsID, bobID, "Bob's friend", false),
	}
	d.People[4].ThumbnailPath = ""
	d.Partners = []model.PartnerRecord{{SharedByID: bobID, SharedWithID: aliceID, InTimeline: true, CreatedAt: at(-5)}}
	return d
}
