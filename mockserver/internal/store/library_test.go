package store

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store/storetest"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The store's rules for the library's writes (albums.go, assetedits.go,
// partners.go, people.go): stacks stay well formed through every change,
// a deletion for good leaves no reference behind, partnerships go one
// way, and a refused write leaves nothing.

// stackIDs are five more assets of Alice's, to stack.
var stackIDs = []string{
	"00000000-0000-4000-8000-00000005ac00",
	"00000000-0000-4000-8000-00000005ac01",
	"00000000-0000-4000-8000-00000005ac02",
	"00000000-0000-4000-8000-00000005ac03",
	"00000000-0000-4000-8000-00000005ac04",
}

// libraryStore is a store on the test dataset with the stack assets, a
// live photo of Alice's (still and video) in her album, and with change
// applied to the dataset first.
func libraryStore(t *testing.T, change ...func(d *model.Dataset)) *Store {
	t.Helper()
	d := storetest.Dataset()
	at := d.Assets[0].FileCreatedAt
	asset := func(id string, typ string) model.AssetRecord {
		return model.AssetRecord{
			ID: id, OwnerID: aliceID, Type: typ, Checksum: sha1Base64([]byte(id)), IsVisible: typ == model.AssetImage,
			FileCreatedAt: at, FileModifiedAt: at, LocalDateTime: at, CreatedAt: at, UpdatedAt: at,
			ExifInfo: &model.Exif{FileSizeInByte: new(int64(100))},
		}
	}
	for _, id := range stackIDs {
		d.Assets = append(d.Assets, asset(id, model.AssetImage))
	}
	still, video := asset(liveStillID, model.AssetImage), asset(liveVideoID, model.AssetVideo)
	still.LivePhotoVideoID = new(liveVideoID)
	d.Assets = append(d.Assets, still, video)
	d.Albums[0].AssetIDs = append(d.Albums[0].AssetIDs, liveStillID)
	for _, c := range change {
		c(&d)
	}
	db, err := New(d, storetest.Now)
	require.NoError(t, err)
	return db
}

const (
	liveStillID = "00000000-0000-4000-8000-0000001f0001"
	liveVideoID = "00000000-0000-4000-8000-0000001f0002"
)

var (
	alicePrincipal = Principal{User: &model.UserRecord{User: model.User{ID: aliceID}, IsAdmin: true}}
	bobPrincipal   = Principal{User: &model.UserRecord{User: model.User{ID: bobID}}}
	carolPrincipal = Principal{User: &model.UserRecord{User: model.User{ID: carolID}}}
)

// stackOf is the ids of a's stack, its parent first, or nil.
func stackOf(db *Store, id string) []string {
	var out []string
	db.Read(func(v *View) {
		for _, m := range v.Stack(v.Asset(id)) {
			out = append(out, m.ID)
		}
	})
	return out
}

// requireWellFormed checks what every write must leave: the state is the
// one its own records build (every index agrees with the records), and
// every stack is a parent that is no child, and children that lead none.
func requireWellFormed(t *testing.T, db *Store) {
	t.Helper()
	rebuilt, err := newState(db.Records().Dataset(), MaxListedAssets)
	require.NoError(t, err, "the records hold together")
	db.Read(func(v *View) {
		for parent, children := range v.st.children {
			p := v.st.assetBy[parent]
			require.NotNil(t, p, "the parent %s is stored", parent)
			assert.Nil(t, p.StackParentID, "the parent %s is no child", parent)
			assert.NotEmpty(t, children, "a parent has children")
			got := make([]string, 0, len(children))
			for _, c := range children {
				require.NotNil(t, c.StackParentID)
				assert.Equal(t, parent, *c.StackParentID)
				assert.Same(t, v.st.assetBy[c.ID], c, "the index holds the stored record of %s", c.ID)
				assert.Empty(t, v.st.children[c.ID], "a child leads no stack")
				got = append(got, c.ID)
			}
			want := make([]string, 0, len(rebuilt.children[parent]))
			for _, c := range rebuilt.children[parent] {
				want = append(want, c.ID)
			}
			assert.ElementsMatch(t, want, got, "the children of %s", parent)
		}
		assert.Len(t, v.st.children, len(rebuilt.children), "as many stacks as the records hold")
		assert.Equal(t, rebuilt.usage, v.st.usage, "the usage is the records'")
		assert.Equal(t, rebuilt.albumLinks, v.st.albumLinks)
		assert.Len(t, v.st.assetBy, len(rebuilt.assetBy))
	})
}

// write runs f as one write, which must succeed.
func write(t *testing.T, db *Store, f func(tx *Tx) error) {
	t.Helper()
	require.NoError(t, db.Write(f))
	requireWellFormed(t, db)
}

func stackUnderParent(parent string, ids ...string) func(tx *Tx) error {
	return func(tx *Tx) error {
		return tx.UpdateAssets(aliceID, ids, BulkAssetPatch{StackParentID: new(parent)})
	}
}

func unstackAssets(ids ...string) func(tx *Tx) error {
	return func(tx *Tx) error { return tx.UpdateAssets(aliceID, ids, BulkAssetPatch{RemoveParent: true}) }
}

func TestStoreStacksStayWellFormed(t *testing.T) {
	s := stackIDs
	db := libraryStore(t)
	requireWellFormed(t, db)

	write(t, db, stackUnderParent(s[0], s[1], s[2]))
	assert.Equal(t, []string{s[0], s[1], s[2]}, stackOf(db, s[0]))
	assert.Equal(t, stackOf(db, s[0]), stackOf(db, s[2]), "any member names the whole stack")

	// The parent among the ids, or a member as the new parent: one stack.
	write(t, db, stackUnderParent(s[0], s[0], s[3]))
	assert.Equal(t, []string{s[0], s[1], s[2], s[3]}, stackOf(db, s[0]))
	write(t, db, stackUnderParent(s[2], s[4]))
	assert.Equal(t, s[2], stackOf(db, s[0])[0], "the merged stack's parent")
	assert.ElementsMatch(t, s, stackOf(db, s[2]))

	// A parent that leaves its stack leaves its place to another; a stack
	// of one is no stack.
	write(t, db, unstackAssets(s[2]))
	assert.Nil(t, stackOf(db, s[2]))
	rest := stackOf(db, s[0])
	assert.ElementsMatch(t, []string{s[0], s[1], s[3], s[4]}, rest)
	write(t, db, unstackAssets(rest[1], rest[2]))
	assert.Len(t, stackOf(db, rest[0]), 2)
	write(t, db, unstackAssets(rest[3]))
	for _, id := range s {
		assert.Nil(t, stackOf(db, id), id)
	}
	write(t, db, unstackAssets(s[0], s[1]))

	// A new parent for a stack.
	write(t, db, stackUnderParent(s[0], s[1], s[2]))
	write(t, db, func(tx *Tx) error { return tx.SetStackParent(aliceID, s[1], s[2]) })
	assert.Equal(t, s[2], stackOf(db, s[0])[0])
	assert.ElementsMatch(t, []string{s[0], s[1], s[2]}, stackOf(db, s[0]))
}

func TestStoreDeletingForGoodLeavesNoReference(t *testing.T) {
	s := stackIDs
	usage := func(db *Store) int64 {
		var n int64
		db.Read(func(v *View) { n = v.Usage(aliceID) })
		return n
	}
	forGood := func(ids ...string) func(tx *Tx) error {
		return func(tx *Tx) error { _, err := tx.DeleteAssets(aliceID, ids, true); return err }
	}

	t.Run("a stack's parent", func(t *testing.T) {
		db := libraryStore(t)
		write(t, db, stackUnderParent(s[0], s[1], s[2]))
		write(t, db, forGood(s[0]))
		assert.Equal(t, []string{s[1], s[2]}, stackOf(db, s[1]), "the first other asset leads the stack")
	})
	t.Run("the parent of a stack of two", func(t *testing.T) {
		db := libraryStore(t)
		write(t, db, stackUnderParent(s[0], s[1]))
		write(t, db, forGood(s[0]))
		assert.Nil(t, stackOf(db, s[1]), "a stack of one is no stack")
	})
	t.Run("a child", func(t *testing.T) {
		db := libraryStore(t)
		write(t, db, stackUnderParent(s[0], s[1], s[2]))
		write(t, db, forGood(s[2]))
		assert.Equal(t, []string{s[0], s[1]}, stackOf(db, s[0]))
	})
	t.Run("a live photo, with its video", func(t *testing.T) {
		db := libraryStore(t)
		before := usage(db)
		var gone []string
		write(t, db, func(tx *Tx) error {
			var err error
			gone, err = tx.DeleteAssets(aliceID, []string{liveStillID}, true)
			return err
		})
		assert.Equal(t, []string{liveStillID, liveVideoID}, gone, "the ids deleted, in order")
		db.Read(func(v *View) {
			assert.Nil(t, v.Asset(liveStillID))
			assert.Nil(t, v.Asset(liveVideoID))
			assert.Equal(t, []string{aliceAssetID}, v.Album(testAlbumID).AssetIDs)
		})
		assert.Equal(t, before-200, usage(db), "their bytes leave the quota")
	})
	t.Run("a live photo's video alone", func(t *testing.T) {
		db := libraryStore(t)
		write(t, db, forGood(liveVideoID))
		db.Read(func(v *View) {
			require.NotNil(t, v.Asset(liveStillID))
			assert.Nil(t, v.Asset(liveStillID).LivePhotoVideoID, "the still points to no video")
		})
	})
	t.Run("an album's thumbnail and a link's asset", func(t *testing.T) {
		db := libraryStore(t, func(d *model.Dataset) {
			d.Albums[0].AlbumThumbnailAssetID = new(aliceAssetID)
		})
		write(t, db, func(tx *Tx) error {
			_, err := tx.DeleteAssets(aliceID, []string{aliceAssetID}, true)
			return err
		})
		db.Read(func(v *View) {
			al := v.Album(testAlbumID)
			assert.Equal(t, []string{liveStillID}, al.AssetIDs)
			require.NotNil(t, al.AlbumThumbnailAssetID)
			assert.Equal(t, liveStillID, *al.AlbumThumbnailAssetID, "the next asset left")
			assert.Empty(t, v.Link(viewLinkID).AssetIDs, "the link shows it no more")
			assert.NotNil(t, v.Link(viewLinkID), "the link stays")
		})
	})
	t.Run("emptying the trash", func(t *testing.T) {
		db := libraryStore(t)
		write(t, db, func(tx *Tx) error { _, err := tx.DeleteAssets(aliceID, []string{s[0], s[1]}, false); return err })
		write(t, db, func(tx *Tx) error {
			_, err := tx.DeleteAssets(bobID, []string{"00000000-0000-4000-8000-000000b0a5e7"}, false)
			return err
		})
		var gone []string
		write(t, db, func(tx *Tx) error {
			var err error
			gone, err = tx.EmptyTrash(aliceID)
			return err
		})
		assert.Equal(t, []string{s[0], s[1]}, gone)
		db.Read(func(v *View) {
			assert.NotNil(t, v.Asset("00000000-0000-4000-8000-000000b0a5e7"), "another's trash stays")
			assert.NotNil(t, v.Asset(s[2]))
		})
		write(t, db, func(tx *Tx) error {
			var err error
			gone, err = tx.EmptyTrash(aliceID)
			return err
		})
		assert.Empty(t, gone, "nothing left to empty")
	})
}

func TestStoreTrashAndRestore(t *testing.T) {
	db := libraryStore(t)
	trashed := func(id string) bool {
		var out bool
		db.Read(func(v *View) { out = v.Asset(id).IsTrashed })
		return out
	}
	write(t, db, func(tx *Tx) error {
		_, err := tx.DeleteAssets(aliceID, []string{stackIDs[0], stackIDs[1]}, false)
		return err
	})
	assert.True(t, trashed(stackIDs[0]))
	db.Read(func(v *View) {
		assert.Nil(t, v.ReadableAsset(bobPrincipal, stackIDs[0]), "only its owner reads it")
		assert.NotNil(t, v.ReadableAsset(alicePrincipal, stackIDs[0]))
	})
	var restored []string
	write(t, db, func(tx *Tx) error {
		var err error
		restored, err = tx.RestoreAssets(aliceID, []string{stackIDs[0], stackIDs[2]}, false)
		return err
	})
	assert.Equal(t, []string{stackIDs[0]}, restored, "what was in the trash, not the rest")
	write(t, db, func(tx *Tx) error {
		var err error
		restored, err = tx.RestoreAssets(aliceID, nil, true)
		return err
	})
	assert.Equal(t, []string{stackIDs[1]}, restored)
	assert.False(t, trashed(stackIDs[1]))
}

func TestStorePartnersGoOneWay(t *testing.T) {
	db := libraryStore(t, func(d *model.Dataset) {
		d.Assets = append(d.Assets, model.AssetRecord{
			ID: "00000000-0000-4000-8000-0000000a5e72", OwnerID: aliceID, Type: model.AssetImage, Checksum: sha1Base64([]byte("archived")),
			IsVisible: true, IsArchived: true, FileCreatedAt: d.Assets[0].FileCreatedAt, FileModifiedAt: d.Assets[0].FileCreatedAt,
			LocalDateTime: d.Assets[0].FileCreatedAt, CreatedAt: d.Assets[0].FileCreatedAt, UpdatedAt: d.Assets[0].FileCreatedAt,
		})
	})
	const archived = "00000000-0000-4000-8000-0000000a5e72"
	write(t, db, func(tx *Tx) error { _, err := tx.AddPartner(aliceID, carolID); return err })
	db.Read(func(v *View) {
		assert.True(t, v.IsPartner(aliceID, carolID))
		assert.False(t, v.IsPartner(carolID, aliceID), "the sharing goes one way")
		require.Len(t, v.PartnersOf(aliceID, true), 1)
		assert.Empty(t, v.PartnersOf(aliceID, false))
		require.Len(t, v.PartnersOf(carolID, false), 1)
		assert.False(t, v.PartnersOf(carolID, false)[0].InTimeline, "not in the timeline until said")

		assert.NotNil(t, v.ReadableAsset(carolPrincipal, stackIDs[0]), "in no album: as a partner")
		assert.Nil(t, v.ReadableAsset(carolPrincipal, archived), "not the archive")
		assert.Nil(t, v.ReadableAsset(alicePrincipal, "00000000-0000-4000-8000-000000b0a5e7"))
	})
	write(t, db, func(tx *Tx) error {
		p, err := tx.SetPartnerInTimeline(aliceID, carolID, true)
		if err == nil {
			assert.True(t, p.InTimeline)
		}
		return err
	})
	db.Read(func(v *View) { assert.True(t, v.PartnersOf(aliceID, true)[0].InTimeline) })

	// A partner may take the other's asset out of an album he edits.
	write(t, db, func(tx *Tx) error {
		_, err := tx.AddAlbumUsers(alicePrincipal, testAlbumID, []model.AlbumUserRecord{{UserID: carolID, Role: model.RoleEditor}})
		return err
	})
	var out []model.BulkIDResult
	write(t, db, func(tx *Tx) error {
		var err error
		out, err = tx.RemoveAlbumAssets(carolPrincipal, testAlbumID, []string{aliceAssetID})
		return err
	})
	assert.Equal(t, []model.BulkIDResult{{ID: aliceAssetID, Success: true}}, out)

	// A deleted user's partnerships leave the listings, and come back.
	write(t, db, func(tx *Tx) error { _, err := tx.DeleteUser(carolID, false); return err })
	db.Read(func(v *View) { assert.Empty(t, v.PartnersOf(aliceID, true)) })
	write(t, db, func(tx *Tx) error { _, err := tx.RestoreUser(carolID); return err })
	db.Read(func(v *View) { assert.Len(t, v.PartnersOf(aliceID, true), 1) })

	write(t, db, func(tx *Tx) error { return tx.RemovePartner(aliceID, carolID) })
	db.Read(func(v *View) {
		assert.False(t, v.IsPartner(aliceID, carolID))
		assert.Nil(t, v.ReadableAsset(carolPrincipal, stackIDs[0]))
	})
}

// TestStoreLibraryWritesRefusedLeaveNothing: each of the library's writes,
// refused, leaves the state as it was, even where it had begun to change
// it (a second user after a first, an asset after the one before).
func TestStoreLibraryWritesRefusedLeaveNothing(t *testing.T) {
	s := stackIDs
	for _, tt := range []struct {
		name  string
		setup func(tx *Tx) error
		write func(tx *Tx) error
		code  Code
	}{
		{"album update, a viewer", nil, func(tx *Tx) error {
			_, err := tx.UpdateAlbum(bobPrincipal, testAlbumID, AlbumPatch{Name: new("x")})
			return err
		}, NoAccess},
		{"album update, a thumbnail outside", nil, func(tx *Tx) error {
			_, err := tx.UpdateAlbum(alicePrincipal, testAlbumID, AlbumPatch{Name: new("x"), ThumbnailAssetID: new(s[0])})
			return err
		}, Invalid},
		{"album deletion, a viewer", nil, func(tx *Tx) error { return tx.DeleteAlbum(bobPrincipal, testAlbumID) }, NoAccess},
		{"album assets out, a viewer", nil, func(tx *Tx) error {
			_, err := tx.RemoveAlbumAssets(bobPrincipal, testAlbumID, []string{aliceAssetID})
			return err
		}, NoAccess},
		{"album users, the owner after another", nil, func(tx *Tx) error {
			_, err := tx.AddAlbumUsers(alicePrincipal, testAlbumID, []model.AlbumUserRecord{{UserID: carolID, Role: model.RoleViewer}, {UserID: aliceID}})
			return err
		}, Invalid},
		{"album users, one already in after another", nil, func(tx *Tx) error {
			_, err := tx.AddAlbumUsers(alicePrincipal, testAlbumID, []model.AlbumUserRecord{{UserID: carolID}, {UserID: bobID}})
			return err
		}, Invalid},
		{"album role, a user not in it", nil, func(tx *Tx) error {
			return tx.SetAlbumUserRole(alicePrincipal, testAlbumID, carolID, model.RoleEditor)
		}, Invalid},
		{"album role, a viewer", nil, func(tx *Tx) error {
			return tx.SetAlbumUserRole(bobPrincipal, testAlbumID, bobID, model.RoleEditor)
		}, NoAccess},
		{"album user out, the owner", nil, func(tx *Tx) error { return tx.RemoveAlbumUser(alicePrincipal, testAlbumID, aliceID) }, Invalid},
		{"asset update, another's", nil, func(tx *Tx) error {
			_, err := tx.UpdateAsset(bobID, aliceAssetID, AssetPatch{IsFavorite: new(true)})
			return err
		}, NoAccess},
		{"bulk update, the last another's", nil, func(tx *Tx) error {
			return tx.UpdateAssets(aliceID, []string{s[0], s[1], "00000000-0000-4000-8000-000000b0a5e7"}, BulkAssetPatch{AssetPatch: AssetPatch{IsFavorite: new(true)}})
		}, NoAccess},
		{"bulk stack, another's parent", nil, func(tx *Tx) error {
			return tx.UpdateAssets(aliceID, []string{s[0], s[1]}, BulkAssetPatch{StackParentID: new("00000000-0000-4000-8000-000000b0a5e7")})
		}, NoAccess},
		{"unstack after a stack, another's", stackUnderParent(s[0], s[1], s[2]), func(tx *Tx) error {
			return tx.UpdateAssets(aliceID, []string{s[1], "00000000-0000-4000-8000-000000b0a5e7"}, BulkAssetPatch{RemoveParent: true})
		}, NoAccess},
		{"new parent, outside the stack", stackUnderParent(s[0], s[1], s[2]), func(tx *Tx) error {
			return tx.SetStackParent(aliceID, s[0], s[3])
		}, Invalid},
		{"new parent, in no stack", nil, func(tx *Tx) error { return tx.SetStackParent(aliceID, s[3], s[3]) }, Invalid},
		{"new parent, another's stack", stackUnderParent(s[0], s[1], s[2]), func(tx *Tx) error {
			return tx.SetStackParent(bobID, s[0], s[1])
		}, NoAccess},
		{"trash, the last another's", nil, func(tx *Tx) error {
			_, err := tx.DeleteAssets(aliceID, []string{s[0], "00000000-0000-4000-8000-000000b0a5e7"}, false)
			return err
		}, NoAccess},
		{"delete for good, the last another's", nil, func(tx *Tx) error {
			_, err := tx.DeleteAssets(aliceID, []string{liveStillID, "00000000-0000-4000-8000-000000b0a5e7"}, true)
			return err
		}, NoAccess},
		{"restore, the last another's", func(tx *Tx) error { _, err := tx.DeleteAssets(aliceID, []string{s[0]}, false); return err }, func(tx *Tx) error {
			_, err := tx.RestoreAssets(aliceID, []string{s[0], "00000000-0000-4000-8000-000000b0a5e7"}, false)
			return err
		}, NoAccess},
		{"partner, twice", func(tx *Tx) error { _, err := tx.AddPartner(aliceID, bobID); return err }, func(tx *Tx) error {
			_, err := tx.AddPartner(aliceID, bobID)
			return err
		}, Invalid},
		{"partner, oneself", nil, func(tx *Tx) error { _, err := tx.AddPartner(aliceID, aliceID); return err }, Invalid},
		{"partner, nobody", nil, func(tx *Tx) error {
			_, err := tx.AddPartner(aliceID, "00000000-0000-4000-8000-00000000dead")
			return err
		}, Invalid},
		{"partner removal, none", nil, func(tx *Tx) error { return tx.RemovePartner(aliceID, bobID) }, Invalid},
		{"partner timeline, the sharer", func(tx *Tx) error { _, err := tx.AddPartner(aliceID, bobID); return err }, func(tx *Tx) error {
			_, err := tx.SetPartnerInTimeline(bobID, aliceID, true)
			return err
		}, NoAccess},
		{"person, nobody's", nil, func(tx *Tx) error {
			_, err := tx.AddPerson("00000000-0000-4000-8000-00000000dead", NewPerson{Name: "x"})
			return err
		}, Unauthenticated},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := libraryStore(t)
			db.newID = func() string { return freshID }
			if tt.setup != nil {
				require.NoError(t, db.Write(tt.setup))
			}
			before := take(t, db)
			err := db.Write(tt.write)
			require.Error(t, err)
			assert.Equal(t, tt.code, CodeOf(err), "%v", err)
			requireUnchanged(t, db, before)
		})
	}
}

// TestStoreLibraryWritesStampWhatTheyChange: the answers kept in memory
// (the timeline, albums, the link listing) stay true exactly until a
// write of a kind they show; each library write stamps its kinds.
func TestStoreLibraryWritesStampWhatTheyChange(t *testing.T) {
	db := libraryStore(t)
	db.newID = sequence(freshID)
	for _, tt := range []struct {
		name    string
		write   func(tx *Tx) error
		changed Change
	}{
		{"an album's name", func(tx *Tx) error {
			_, err := tx.UpdateAlbum(alicePrincipal, testAlbumID, AlbumPatch{Name: new("x")})
			return err
		}, Albums},
		{"an album's user", func(tx *Tx) error { return tx.SetAlbumUserRole(alicePrincipal, testAlbumID, bobID, model.RoleEditor) }, Albums},
		{"a favourite", func(tx *Tx) error {
			_, err := tx.UpdateAsset(aliceID, aliceAssetID, AssetPatch{IsFavorite: new(true)})
			return err
		}, Assets},
		{"a stack", stackUnderParent(stackIDs[0], stackIDs[1]), Assets},
		{"the trash", func(tx *Tx) error { _, err := tx.DeleteAssets(aliceID, []string{stackIDs[2]}, false); return err }, Assets},
		{"a partnership", func(tx *Tx) error { _, err := tx.AddPartner(aliceID, bobID); return err }, Users},
		{"a partner's timeline", func(tx *Tx) error { _, err := tx.SetPartnerInTimeline(aliceID, bobID, true); return err }, Users},
		{"a person", func(tx *Tx) error { _, err := tx.AddPerson(aliceID, NewPerson{Name: "x"}); return err }, Assets},
		{"a deletion for good", func(tx *Tx) error { _, err := tx.DeleteAssets(aliceID, []string{stackIDs[3]}, true); return err }, Everything},
		{"an album with its link", func(tx *Tx) error { return tx.DeleteAlbum(alicePrincipal, testAlbumID) }, Albums | Links},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var before [numKinds]uint64
			for k := range numKinds {
				before[k] = db.Stamp(1 << k)
			}
			require.NoError(t, db.Write(tt.write))
			for k := range numKinds {
				kind := Change(1 << k)
				if tt.changed&kind != 0 {
					assert.Greater(t, db.Stamp(kind), before[k], "kind %d", k)
				} else {
					assert.Equal(t, before[k], db.Stamp(kind), "kind %d", k)
				}
			}
		})
	}
}

// TestStoreAssetPatch checks what a patch changes of an asset's dates and
// place, and that it leaves the rest.
func TestStoreAssetPatch(t *testing.T) {
	db := libraryStore(t)
	taken := time.Date(2023, 11, 19, 18, 11, 0, 0, time.FixedZone("", -7*3600))
	place := func(lat, lon float64) (city, state, country *string) { return new("Here"), new("There"), new("Land") }
	var a *model.AssetRecord
	write(t, db, func(tx *Tx) error {
		var err error
		a, err = tx.UpdateAsset(aliceID, aliceAssetID, AssetPatch{DateTimeOriginal: &taken, Latitude: new(1.5), Longitude: new(-2.5), Place: place})
		return err
	})
	require.NotNil(t, a.ExifInfo)
	assert.Equal(t, "2023-11-20T01:11:00Z", a.ExifInfo.DateTimeOriginal.UTC().Format(time.RFC3339))
	assert.Equal(t, "UTC-7", *a.ExifInfo.TimeZone)
	assert.Equal(t, "2023-11-19T18:11:00Z", a.LocalDateTime.UTC().Format(time.RFC3339), "the wall clock, read as UTC")
	assert.True(t, a.FileCreatedAt.Equal(taken))
	assert.Equal(t, 1.5, *a.ExifInfo.Latitude)
	assert.Equal(t, "Here", *a.ExifInfo.City)
	assert.Equal(t, int64(len(storetest.AliceAssetBody)), *a.ExifInfo.FileSizeInByte, "the rest of exifInfo stays")

	for _, tt := range []struct {
		offset int
		want   string
	}{{9 * 3600, "UTC+9"}, {0, "UTC+0"}, {5*3600 + 30*60, "UTC+5:30"}, {-(3*3600 + 30*60), "UTC-3:30"}} {
		assert.Equal(t, tt.want, utcOffset(tt.offset))
	}

	// A latitude without its longitude changes no position.
	write(t, db, func(tx *Tx) error {
		_, err := tx.UpdateAsset(aliceID, aliceAssetID, AssetPatch{Latitude: new(50.0)})
		return err
	})
	db.Read(func(v *View) { assert.Equal(t, 1.5, *v.Asset(aliceAssetID).ExifInfo.Latitude) })
}
