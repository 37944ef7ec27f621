package storetest

import (
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The records DownloadsDataset adds to Dataset: Alice's assets of every
// kind a download's rules tell apart, and links that allow downloads.
const (
	AlbumID       = "00000000-0000-4000-8000-0000000a1b01" // Alice's album, Bob a viewer of it
	LiveStillID   = "00000000-0000-4000-8000-0000000d0001" // in the album, a live photo
	LiveVideoID   = "00000000-0000-4000-8000-0000000d0002" // its hidden video
	TrashedID     = "00000000-0000-4000-8000-0000000d0003" // in the album, trashed
	LooseID       = "00000000-0000-4000-8000-0000000d0004" // in no album, offline
	ArchivedID    = "00000000-0000-4000-8000-0000000d0005" // in no album, archived
	NoExifID      = "00000000-0000-4000-8000-0000000d0006" // in no album, no EXIF (no size)
	BobAssetID    = "00000000-0000-4000-8000-000000b0a5e7" // Bob's, who shares his library with Alice
	BobArchivedID = "00000000-0000-4000-8000-0000000d0b01" // Bob's, archived
	BobTrashedID  = "00000000-0000-4000-8000-0000000d0b02" // Bob's, trashed
	LinkDownload  = "link-download"                        // INDIVIDUAL of NoExifID, allows downloads
	LinkAlbumSide = "link-album-side"                      // INDIVIDUAL of ArchivedID carrying the album, allows downloads
	LinkNoDL      = "link-no-download"                     // ALBUM of the album, allows no downloads
	LinkPassword  = "link-password"                        // ALBUM of the album, allows downloads, password "sardines"
)

// DownloadsDataset is Dataset with the records above: the album holds
// Alice's first asset, the live photo and the trashed one, in that order;
// Bob is Alice's partner: he shares his library with her.
func DownloadsDataset() model.Dataset {
	d := Dataset()
	anchor := d.Anchor.Time
	at := func(days int) model.Time { return model.At(anchor.AddDate(0, 0, days)) }
	asset := func(id, name string, typ string, size int64, created time.Time) model.AssetRecord {
		a := model.AssetRecord{
			ID: id, OwnerID: AliceID, DeviceAssetID: name + "-1", DeviceID: "pixel-8",
			Type: typ, OriginalPath: "upload/library/" + AliceID + "/2026/2026-10-02/" + name,
			OriginalFileName: name, Checksum: SHA1Base64([]byte(id)), Duration: model.DefaultDuration,
			FileCreatedAt: model.At(created), FileModifiedAt: model.At(created), LocalDateTime: model.At(created),
			CreatedAt: model.At(created), UpdatedAt: model.At(created), IsVisible: true,
		}
		if size > 0 {
			a.ExifInfo = &model.Exif{FileSizeInByte: &size}
		}
		return a
	}
	video := LiveVideoID
	still := asset(LiveStillID, "IMG_4022.HEIC", model.AssetImage, 3000, at(-28).Time)
	still.LivePhotoVideoID = &video
	hidden := asset(LiveVideoID, "IMG_4022.mov", model.AssetVideo, 2000, at(-28).Time)
	hidden.IsVisible = false
	trashed := asset(TrashedID, "IMG_0003.jpg", model.AssetImage, 500, at(-27).Time)
	trashed.IsTrashed = true
	loose := asset(LooseID, "IMG_0004.jpg", model.AssetImage, 400, at(-26).Time)
	loose.IsOffline = true
	archived := asset(ArchivedID, "IMG_0005.jpg", model.AssetImage, 300, at(-31).Time)
	archived.IsArchived = true
	bobArchived := asset(BobArchivedID, "IMG_0007.jpg", model.AssetImage, 200, at(-24).Time)
	bobArchived.OwnerID, bobArchived.IsArchived = BobID, true
	bobTrashed := asset(BobTrashedID, "IMG_0008.jpg", model.AssetImage, 100, at(-24).Time)
	bobTrashed.OwnerID, bobTrashed.IsTrashed = BobID, true
	d.Assets = append(d.Assets, still, hidden, trashed, loose, archived, asset(NoExifID, "IMG_0006.jpg", model.AssetImage, 0, at(-25).Time), bobArchived, bobTrashed)
	d.Partners = append(d.Partners, model.PartnerRecord{SharedByID: BobID, SharedWithID: AliceID, CreatedAt: at(-20)})
	d.Albums[0].AssetIDs = append(d.Albums[0].AssetIDs, LiveStillID, TrashedID)
	album := AlbumID
	pw := "sardines"
	d.SharedLinks = append(d.SharedLinks,
		model.SharedLinkRecord{ID: "00000000-0000-4000-8000-0000000d1001", Key: LinkDownload, Type: model.LinkIndividual, UserID: AliceID, AssetIDs: []string{NoExifID}, AllowDownload: true, ShowMetadata: true, CreatedAt: at(-2)},
		model.SharedLinkRecord{ID: "00000000-0000-4000-8000-0000000d1002", Key: LinkAlbumSide, Type: model.LinkIndividual, UserID: AliceID, AssetIDs: []string{ArchivedID}, AlbumID: &album, AllowDownload: true, ShowMetadata: true, CreatedAt: at(-2)},
		model.SharedLinkRecord{ID: "00000000-0000-4000-8000-0000000d1003", Key: LinkNoDL, Type: model.LinkAlbum, UserID: AliceID, AlbumID: &album, AllowUpload: true, ShowMetadata: true, CreatedAt: at(-2)},
		model.SharedLinkRecord{ID: "00000000-0000-4000-8000-0000000d1004", Key: LinkPassword, Type: model.LinkAlbum, UserID: AliceID, AlbumID: &album, AllowDownload: true, ShowMetadata: true, Password: &pw, CreatedAt: at(-2)},
	)
	return d
}
