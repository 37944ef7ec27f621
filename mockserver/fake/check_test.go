package fake

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// copyDataset returns a deep copy of d, through JSON as a fixtures file would.
func copyDataset(t *testing.T, d model.Dataset) model.Dataset {
	t.Helper()
	b, err := json.Marshal(d)
	require.NoError(t, err)
	var c model.Dataset
	require.NoError(t, json.Unmarshal(b, &c))
	return c
}

func find[T any](t *testing.T, s []T, ok func(*T) bool) *T {
	t.Helper()
	for i := range s {
		if ok(&s[i]) {
			return &s[i]
		}
	}
	t.Fatal("the dataset has no record to corrupt")
	return nil
}

func TestCheckReportsEachCorruption(t *testing.T) {
	clean := Generate(Options{Seed: 11, Anchor: testAnchor, Links: 30, APIKey: "k"})
	require.Empty(t, Check(clean), "the dataset to corrupt must hold every invariant")

	image := func(a *model.AssetRecord) bool {
		return a.Type == model.AssetImage && a.ExifInfo != nil && len(a.Faces) > 0
	}
	tests := []struct {
		name    string
		corrupt func(t *testing.T, d *model.Dataset) string // returns the id Check should name
		kind    string
		problem string
	}{
		{"album thumbnail not among its assets", func(t *testing.T, d *model.Dataset) string {
			al := &d.Albums[0]
			other := find(t, d.Assets, func(a *model.AssetRecord) bool { return !slices.Contains(al.AssetIDs, a.ID) })
			al.AlbumThumbnailAssetID = &other.ID
			return al.ID
		}, "album", "thumbnail"},
		{"album thumbnail in the trash", func(t *testing.T, d *model.Dataset) string {
			al := find(t, d.Albums, func(al *model.AlbumRecord) bool { return len(al.AssetIDs) > 1 && al.AlbumThumbnailAssetID != nil })
			a := find(t, d.Assets, func(a *model.AssetRecord) bool { return a.ID == *al.AlbumThumbnailAssetID })
			a.IsTrashed = true
			return al.ID
		}, "album", "in the trash"},
		{"album without a thumbnail, showing assets", func(t *testing.T, d *model.Dataset) string {
			al := find(t, d.Albums, func(al *model.AlbumRecord) bool { return len(al.AssetIDs) > 0 })
			al.AlbumThumbnailAssetID = nil
			return al.ID
		}, "album", "no thumbnail"},
		{"checksum that is not SHA-1", func(t *testing.T, d *model.Dataset) string {
			d.Assets[3].Checksum = "c2hhMQ=="
			return d.Assets[3].ID
		}, "asset", "base64 SHA-1"},
		{"checksum repeated for one owner", func(t *testing.T, d *model.Dataset) string {
			b := find(t, d.Assets[1:], func(a *model.AssetRecord) bool { return a.OwnerID == d.Assets[0].OwnerID })
			b.Checksum = d.Assets[0].Checksum
			return b.ID
		}, "asset", "also asset"},
		{"face outside the image", func(t *testing.T, d *model.Dataset) string {
			a := find(t, d.Assets, image)
			a.Faces[0].BoundingBoxX2 = a.Faces[0].ImageWidth + 10
			return a.ID
		}, "asset", "not inside"},
		{"face image not the exif image", func(t *testing.T, d *model.Dataset) string {
			a := find(t, d.Assets, image)
			a.Faces[0].ImageWidth /= 2
			a.Faces[0].ImageHeight /= 2
			a.Faces[0].BoundingBoxX1, a.Faces[0].BoundingBoxY1, a.Faces[0].BoundingBoxX2, a.Faces[0].BoundingBoxY2 = 0, 0, 1, 1
			return a.ID
		}, "asset", "is not the exif image"},
		{"face of another owner's person", func(t *testing.T, d *model.Dataset) string {
			a := find(t, d.Assets, image)
			p := find(t, d.People, func(p *model.PersonRecord) bool { return p.OwnerID != a.OwnerID })
			a.Faces[0].PersonID = p.ID
			return a.ID
		}, "asset", "another owner"},
		{"album user is the owner", func(t *testing.T, d *model.Dataset) string {
			al := &d.Albums[1]
			al.AlbumUsers = append(al.AlbumUsers, model.AlbumUserRecord{UserID: al.OwnerID, Role: model.RoleViewer})
			return al.ID
		}, "album", "is the owner"},
		{"album asset of another owner", func(t *testing.T, d *model.Dataset) string {
			al := &d.Albums[0]
			other := find(t, d.Assets, func(a *model.AssetRecord) bool { return a.OwnerID != al.OwnerID })
			al.AssetIDs = append(al.AssetIDs, other.ID)
			return al.ID
		}, "album", "not the album's owner"},
		{"link created before its album", func(t *testing.T, d *model.Dataset) string {
			l := find(t, d.SharedLinks, func(l *model.SharedLinkRecord) bool { return l.Type == model.LinkAlbum })
			for _, al := range d.Albums {
				if al.ID == *l.AlbumID {
					l.CreatedAt = model.At(al.CreatedAt.Add(-time.Hour))
				}
			}
			return l.ID
		}, "sharedLink", "after its album"},
		{"link of someone else's album", func(t *testing.T, d *model.Dataset) string {
			l := find(t, d.SharedLinks, func(l *model.SharedLinkRecord) bool { return l.Type == model.LinkAlbum })
			other := find(t, d.Users, func(u *model.UserRecord) bool { return u.ID != l.UserID })
			l.UserID = other.ID
			return l.ID
		}, "sharedLink", "not the album owner"},
		{"INDIVIDUAL link without assets", func(t *testing.T, d *model.Dataset) string {
			l := find(t, d.SharedLinks, func(l *model.SharedLinkRecord) bool { return l.Type == model.LinkIndividual })
			l.AssetIDs = nil
			return l.ID
		}, "sharedLink", "has no assets"},
		{"short link key", func(t *testing.T, d *model.Dataset) string {
			d.SharedLinks[0].Key = "abc"
			return d.SharedLinks[0].ID
		}, "sharedLink", "50 bytes"},
		{"date after the anchor", func(t *testing.T, d *model.Dataset) string {
			d.Assets[5].UpdatedAt = model.At(testAnchor.Add(time.Hour))
			return d.Assets[5].ID
		}, "asset", "not before the anchor"},
		{"localDateTime not in the exif zone", func(t *testing.T, d *model.Dataset) string {
			a := find(t, d.Assets, func(a *model.AssetRecord) bool { return a.ExifInfo != nil && a.ExifInfo.TimeZone != nil })
			a.LocalDateTime = model.At(a.LocalDateTime.Add(time.Hour))
			return a.ID
		}, "asset", "localDateTime"},
		{"image with a video's duration", func(t *testing.T, d *model.Dataset) string {
			a := find(t, d.Assets, func(a *model.AssetRecord) bool { return a.Type == model.AssetImage })
			a.Duration = "0:00:12.000000"
			return a.ID
		}, "asset", "duration"},
		{"video with a photo's extension", func(t *testing.T, d *model.Dataset) string {
			a := find(t, d.Assets, func(a *model.AssetRecord) bool { return a.Type == model.AssetVideo })
			a.OriginalFileName = "IMG_0001.HEIC"
			return a.ID
		}, "asset", "VIDEO has file name"},
		{"live photo pointing at a visible photo", func(t *testing.T, d *model.Dataset) string {
			a := find(t, d.Assets, func(a *model.AssetRecord) bool { return a.LivePhotoVideoID != nil })
			other := find(t, d.Assets, func(b *model.AssetRecord) bool { return b.IsVisible && b.OwnerID == a.OwnerID && b.ID != a.ID })
			a.LivePhotoVideoID = &other.ID
			return a.ID
		}, "asset", "hidden VIDEO"},
		{"stack parent missing", func(t *testing.T, d *model.Dataset) string {
			a := find(t, d.Assets, func(a *model.AssetRecord) bool { return a.StackParentID != nil })
			a.StackParentID = ptr("7b7c9d4e-3f0a-4c1e-9b2d-5a6f7e8d9c0b")
			return a.ID
		}, "asset", "stackParentId"},
		{"OBJECT tag the detector never saw", func(t *testing.T, d *model.Dataset) string {
			tag := find(t, d.Tags, func(tg *model.Tag) bool { return tg.Type == model.TagObject })
			a := find(t, d.Assets, func(a *model.AssetRecord) bool { return a.OwnerID == tag.UserID && a.SmartInfo != nil })
			a.SmartInfo = &model.SmartInfo{Objects: []string{"giraffe"}, Tags: []string{"savanna"}}
			if tag.Name == "giraffe" || tag.Name == "savanna" {
				tag.Name = "dog"
			}
			a.TagIDs = []string{tag.ID}
			return a.ID
		}, "asset", "OBJECT tag"},
		{"person of a missing owner", func(t *testing.T, d *model.Dataset) string {
			d.People[0].OwnerID = "0e9b2c1d-8f7a-4e6d-9c5b-4a3f2e1d0c9b"
			return d.People[0].ID
		}, "person", "does not exist"},
		{"id that is not a UUID", func(t *testing.T, d *model.Dataset) string {
			d.Tags[0].ID = "tag-1"
			return "tag-1"
		}, "tag", "not a UUID"},
		{"birth date in another format", func(t *testing.T, d *model.Dataset) string {
			p := find(t, d.People, func(p *model.PersonRecord) bool { return p.BirthDate != nil })
			p.BirthDate = ptr("12/05/1990")
			return p.ID
		}, "person", "YYYY-MM-DD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := copyDataset(t, clean)
			id := tt.corrupt(t, &d)
			errs := Check(d)
			require.NotEmpty(t, errs, "Check found nothing wrong")
			found := false
			for _, err := range errs {
				var v *Violation
				require.True(t, errors.As(err, &v), "%v is not a *Violation", err)
				if v.Kind == tt.kind && v.ID == id && strings.Contains(v.Problem, tt.problem) {
					found = true
				}
			}
			assert.True(t, found, "no %s %s error about %q among %v", tt.kind, id, tt.problem, errs)
		})
	}
}

func TestStoredAs(t *testing.T) {
	tests := []struct {
		path, name string
		want       bool
	}{
		{"upload/library/u/2024/2024-05-12/IMG_1234.HEIC", "IMG_1234.HEIC", true},
		{"upload/library/u/2024/2024-05-12/IMG_1234+1.HEIC", "IMG_1234.HEIC", true},
		{"upload/library/u/2024/2024-05-12/IMG_1234+x.HEIC", "IMG_1234.HEIC", false},
		{"upload/library/u/2024/2024-05-12/IMG_1235.HEIC", "IMG_1234.HEIC", false},
		{"upload/library/u/2024/2024-05-12/IMG_1234.JPG", "IMG_1234.HEIC", false},
		{"upload/library/u/2024/2024-05-12/", "", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, storedAs(tt.path, tt.name), "%s %s", tt.path, tt.name)
	}
}

// TestAlbumCoversAreOutOfTheTrash: an album shows none of its assets in
// the trash, so its cover is never one of them: not on the seeds where the
// generator once chose one (with 30 links, as `serve --links 30` makes
// them), and Check holds it.
func TestAlbumCoversAreOutOfTheTrash(t *testing.T) {
	withTrash := 0
	for _, seed := range []int64{9, 12, 13} {
		d := Generate(Options{Seed: seed, Anchor: testAnchor, Links: 30, APIKey: "k"})
		trashed := map[string]bool{}
		for _, a := range d.Assets {
			trashed[a.ID] = a.IsTrashed
		}
		for _, al := range d.Albums {
			if slices.ContainsFunc(al.AssetIDs, func(id string) bool { return trashed[id] }) {
				withTrash++
			}
			if al.AlbumThumbnailAssetID != nil {
				assert.False(t, trashed[*al.AlbumThumbnailAssetID], "seed %d, album %q: its cover %s is in the trash", seed, al.AlbumName, *al.AlbumThumbnailAssetID)
			}
		}
		assert.Empty(t, Check(d), "seed %d", seed)
	}
	require.NotZero(t, withTrash, "no album holds an asset in the trash: the test looks at nothing")
}
