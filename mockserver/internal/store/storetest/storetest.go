// Package storetest holds the small, hand-made dataset the mock's tests
// start from, with its users' credentials: the store's tests and the HTTP
// layer's share it.
package storetest

import (
	"crypto/sha1"
	"encoding/base64"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/password"
)

// Credentials of the small dataset the tests start from.
const (
	KeyAlice       = "alice-key"   // the default user, with links
	KeyBob         = "bob-key"     // another user, with one link
	KeyCarol       = "carol-key"   // a user without links, with a 1 KiB quota
	LinkUpload     = "link-upload" // Alice's link that allows uploads
	LinkView       = "link-view"   // Alice's link that does not
	LinkExpired    = "link-expired"
	AliceID        = "00000000-0000-4000-8000-00000000a11c"
	BobID          = "00000000-0000-4000-8000-000000000b0b"
	CarolID        = "00000000-0000-4000-8000-0000000ca701"
	AliceAssetID   = "00000000-0000-4000-8000-0000000a5e71"
	AliceAssetBody = "alice's first photo"
)

// Password is the password of Alice and Bob in Dataset (Carol has
// none); hashed once, as hashing takes milliseconds on purpose.
const Password = "correct horse battery staple"

// PasswordHash is Password, hashed.
var PasswordHash = password.HashWithSalt(Password, []byte("mediaspec-tests!"))

// SHA1Base64 is the checksum of b, as assets carry it.
func SHA1Base64(b []byte) string {
	s := sha1.Sum(b)
	return base64.StdEncoding.EncodeToString(s[:])
}

// Dataset is a small, hand-made dataset: three users, one asset of
// Alice's, her three links (one expired) and one link of Bob's.
func Dataset() model.Dataset {
	anchor := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	at := func(days int) model.Time { return model.At(anchor.AddDate(0, 0, days)) }
	str := func(s string) *string { return &s }
	quota := int64(1024)
	size := int64(len(AliceAssetBody))
	users := []model.UserRecord{
		{User: model.User{ID: AliceID, Name: "Alice Moreau", Email: "alice@example.com", AvatarColor: "green"}, APIKey: KeyAlice, PasswordHash: PasswordHash, IsAdmin: true},
		{User: model.User{ID: BobID, Name: "Bob Tanaka", Email: "bob@example.com", AvatarColor: "blue"}, APIKey: KeyBob, PasswordHash: PasswordHash},
		{User: model.User{ID: CarolID, Name: "Carol Diaz", Email: "carol@example.com", AvatarColor: "pink"}, APIKey: KeyCarol, QuotaSizeInBytes: &quota},
	}
	bobAsset := "00000000-0000-4000-8000-000000b0a5e7"
	asset := func(id, owner, name, body string) model.AssetRecord {
		return model.AssetRecord{
			ID: id, OwnerID: owner, DeviceAssetID: name + "-1", DeviceID: "pixel-8",
			Type: model.AssetImage, OriginalPath: "upload/library/" + owner + "/2026/2026-10-01/" + name,
			OriginalFileName: name, Checksum: SHA1Base64([]byte(body)), Duration: model.DefaultDuration,
			FileCreatedAt: at(-30), FileModifiedAt: at(-30), LocalDateTime: at(-30), CreatedAt: at(-29), UpdatedAt: at(-29),
			IsVisible: true, ExifInfo: &model.Exif{FileSizeInByte: &size},
		}
	}
	albumID := "00000000-0000-4000-8000-0000000a1b01"
	return model.Dataset{
		Seed: 7, Anchor: model.At(anchor), Users: users,
		Assets: []model.AssetRecord{
			asset(AliceAssetID, AliceID, "PXL_20261001_101500123.jpg", AliceAssetBody),
			asset(bobAsset, BobID, "IMG_0001.HEIC", "bob's photo"),
		},
		Albums: []model.AlbumRecord{{
			ID: albumID, OwnerID: AliceID, AlbumName: "Lisbon, October 2026", AlbumUsers: []model.AlbumUserRecord{{UserID: BobID, Role: model.RoleViewer}},
			AssetIDs: []string{AliceAssetID}, CreatedAt: at(-20), UpdatedAt: at(-20), IsActivityEnabled: true,
		}},
		SharedLinks: []model.SharedLinkRecord{
			{ID: "00000000-0000-4000-8000-00000000001a", Key: LinkUpload, Type: model.LinkAlbum, UserID: AliceID, AlbumID: &albumID, AllowUpload: true, AllowDownload: true, ShowMetadata: true, CreatedAt: at(-10)},
			{ID: "00000000-0000-4000-8000-00000000002a", Key: LinkView, Type: model.LinkIndividual, UserID: AliceID, AssetIDs: []string{AliceAssetID}, Description: str("For Grandma"), CreatedAt: at(-5), ExpiresAt: at(300).Ptr()},
			{ID: "00000000-0000-4000-8000-00000000003a", Key: LinkExpired, Type: model.LinkIndividual, UserID: AliceID, AssetIDs: []string{AliceAssetID}, Password: str("sardines"), CreatedAt: at(-15), ExpiresAt: at(-14).Ptr()},
			{ID: "00000000-0000-4000-8000-00000000004b", Key: "link-bob", Type: model.LinkIndividual, UserID: BobID, AssetIDs: []string{bobAsset}, CreatedAt: at(-3)},
		},
	}
}

// Now is the wall clock of the tests' mocks: three weeks after
// Dataset's anchor, so that which of its links have expired does not
// depend on the day the tests run.
func Now() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
