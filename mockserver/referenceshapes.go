package mockserver

import "github.com/mediaspec/mediaspec/mockserver/model"

// With Config.ReferenceShapes the mock answers in the reference's exact
// shapes where the reference is thin or quirky (WORKFLOWS.md: "Objects"
// and the Ref-bug lines about shapes), so that a frontend proves against
// the mock that it survives the real server. By default the mock answers
// the full, consistent shapes. Each function below is one such place; the
// README's table "Where the mock differs from the reference" names each.

// referenceListed thins a link of getAllSharedLinks: its assets without
// owner, exifInfo or tags and never a favourite; an album link without
// assets, its album without assets, count, dates or users, and with false
// flags.
func referenceListed(l *model.SharedLink) {
	if l.Album != nil {
		l.Assets = []model.Asset{}
		al := *l.Album
		referenceLinkAlbum(&al)
		al.AssetCount = 0
		al.StartDate, al.EndDate = nil, nil
		l.Album = &al
		return
	}
	assets := make([]model.Asset, len(l.Assets))
	for i, a := range l.Assets {
		a.Owner, a.ExifInfo, a.Tags, a.IsFavorite = nil, nil, nil, false
		assets[i] = a
	}
	l.Assets = assets
}

// referenceLinkAlbum is a link's album as every link body shows it: no
// assets, no users, shared and hasSharedLink false, whatever is true.
func referenceLinkAlbum(al *model.Album) {
	al.Assets, al.AlbumUsers = []model.Asset{}, []model.AlbumUser{}
	al.Shared, al.HasSharedLink = false, false
	al.LastModifiedAssetTimestamp = nil
}

// referenceMade is the answer of createSharedLink and updateSharedLink:
// no assets and no album, whatever the link holds.
func referenceMade(l *model.SharedLink) {
	l.Assets, l.Album = []model.Asset{}, nil
}

// referenceRead is a link as getSharedLinkById and getMySharedLink show
// it: its album with the quirks of every link body.
func referenceRead(l *model.SharedLink) {
	if l.Album != nil {
		al := *l.Album
		referenceLinkAlbum(&al)
		l.Album = &al
	}
}

// referenceAlbumsHolding is an album of getAllAlbums?assetId: hasSharedLink
// false, and shared counting its users only.
func referenceAlbumsHolding(al *model.Album) {
	al.HasSharedLink = false
	al.Shared = len(al.AlbumUsers) > 0
}
