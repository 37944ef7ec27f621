package store

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store/storetest"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/password"
)

// The small dataset the tests start from, with its credentials.
const (
	keyBob         = storetest.KeyBob
	linkView       = storetest.LinkView
	aliceID        = storetest.AliceID
	bobID          = storetest.BobID
	carolID        = storetest.CarolID
	aliceAssetID   = storetest.AliceAssetID
	aliceAssetBody = storetest.AliceAssetBody
	testAlbumID    = "00000000-0000-4000-8000-0000000a1b01"
	uploadLinkID   = "00000000-0000-4000-8000-00000000001a"
	viewLinkID     = "00000000-0000-4000-8000-00000000002a"
)

var sha1Base64 = storetest.SHA1Base64

// The store's writes are all-or-nothing. Each test below makes a write fail
// after its first step, by handing out an id or key that is already taken,
// and checks that the state is exactly what it was: every record and every
// index, the stamps and the clock.

// testStore is a store on the test dataset with ids and keys handed out
// from the lists given, in order.
func testStore(t *testing.T, ids, secrets []string) *Store {
	t.Helper()
	db, err := New(storetest.Dataset(), storetest.Now)
	require.NoError(t, err)
	db.newID = func() string {
		require.NotEmpty(t, ids, "the write asked for more ids than the test gave")
		id := ids[0]
		ids = ids[1:]
		return id
	}
	db.newSecret = func(int) string {
		require.NotEmpty(t, secrets, "the write asked for more keys than the test gave")
		k := secrets[0]
		secrets = secrets[1:]
		return k
	}
	return db
}

// snapshot is what a failed write must leave as it was.
type snapshot struct {
	state  *state
	stamps uint64
	last   time.Time
}

// take rebuilds the state from the store's own records: a deep copy with
// every index, which the state after a failed write must equal.
func take(t *testing.T, db *Store) snapshot {
	t.Helper()
	st, err := newState(db.Records().Dataset(), MaxListedAssets)
	require.NoError(t, err)
	st.loaded = db.state.loaded
	st.base, st.maxMade = db.state.base, db.state.maxMade
	return snapshot{state: st, stamps: db.Stamp(Everything), last: db.last}
}

func requireUnchanged(t *testing.T, db *Store, before snapshot) {
	t.Helper()
	assert.Equal(t, before.state, db.state, "the state changed")
	assert.Equal(t, before.stamps, db.Stamp(Everything), "the stamps changed")
	assert.Equal(t, before.last, db.last, "the clock moved")
}

const freshID = "00000000-0000-4000-8000-0000000f0001"

// upload is an upload in a write of its own.
func upload(db *Store, owner string, still model.AssetRecord, live *model.AssetRecord) (Upload, error) {
	var res Upload
	err := db.Write(func(tx *Tx) error {
		var err error
		res, err = tx.AddUpload(owner, still, live)
		return err
	})
	return res, err
}

func TestStoreUploadFailingHalfwayLeavesNothing(t *testing.T) {
	still := model.AssetRecord{Type: model.AssetImage, OriginalFileName: "IMG_1.HEIC", Checksum: sha1Base64([]byte("still")), IsVisible: true}
	video := model.AssetRecord{Type: model.AssetVideo, OriginalFileName: "IMG_1.MOV", Checksum: sha1Base64([]byte("video"))}

	// The video is stored under a fresh id; the still then gets an id that
	// is taken, after the video is in.
	db := testStore(t, []string{freshID, aliceAssetID}, nil)
	before := take(t, db)
	_, err := upload(db, aliceID, still, &video)
	require.Error(t, err)
	assert.Equal(t, Internal, CodeOf(err))
	requireUnchanged(t, db, before)

	// The same upload succeeds once the ids are free.
	db.newID = sequence(freshID, "00000000-0000-4000-8000-0000000f0002")
	res, err := upload(db, aliceID, still, &video)
	require.NoError(t, err)
	assert.Equal(t, "00000000-0000-4000-8000-0000000f0002", res.ID)
	assert.Equal(t, freshID, res.LiveVideoID)
	assert.Equal(t, freshID, *db.state.assetBy[res.ID].LivePhotoVideoID)
}

func TestStoreUploadRefusedLeavesNothing(t *testing.T) {
	for name, tt := range map[string]struct {
		owner string
		still model.AssetRecord
		live  *model.AssetRecord
		code  Code
	}{
		"owner gone":         {"00000000-0000-4000-8000-00000000dead", model.AssetRecord{Type: model.AssetImage, Checksum: sha1Base64([]byte("x"))}, nil, Unauthenticated},
		"over quota":         {carolID, model.AssetRecord{Type: model.AssetImage, Checksum: sha1Base64([]byte("x")), ExifInfo: &model.Exif{FileSizeInByte: new(int64(2048))}}, nil, Invalid},
		"video is the still": {aliceID, model.AssetRecord{Type: model.AssetImage, Checksum: sha1Base64([]byte("x"))}, &model.AssetRecord{Type: model.AssetVideo, Checksum: sha1Base64([]byte("x"))}, Invalid},
		"video is a photo":   {aliceID, model.AssetRecord{Type: model.AssetImage, Checksum: sha1Base64([]byte("x"))}, &model.AssetRecord{Type: model.AssetVideo, Checksum: sha1Base64([]byte(aliceAssetBody))}, Invalid},
		"broken checksum":    {aliceID, model.AssetRecord{Type: model.AssetImage, Checksum: "AAAA"}, nil, Internal},
	} {
		t.Run(name, func(t *testing.T) {
			db := testStore(t, []string{freshID, "00000000-0000-4000-8000-0000000f0002"}, nil)
			before := take(t, db)
			_, err := upload(db, tt.owner, tt.still, tt.live)
			require.Error(t, err)
			assert.Equal(t, tt.code, CodeOf(err))
			requireUnchanged(t, db, before)
		})
	}
}

// albumLink makes an album of assets and an ALBUM link of it in one write,
// as the control API does.
func albumLink(db *Store, owner string, assets []string) error {
	return db.Write(func(tx *Tx) error {
		al, err := tx.CreateAlbum(owner, NewAlbum{Name: "x", AssetIDs: assets})
		if err != nil {
			return err
		}
		_, err = tx.CreateLink(owner, NewLink{Type: model.LinkAlbum, AlbumID: &al.ID})
		return err
	})
}

func TestStoreLinkFailingHalfwayLeavesNothing(t *testing.T) {
	for name, tt := range map[string]struct {
		ids, secrets []string
	}{
		// The album is stored; the link then gets a taken id.
		"link id taken": {[]string{freshID, uploadLinkID}, []string{"a-new-key"}},
		// The album is stored; the link then gets a taken key.
		"link key taken": {[]string{freshID, "00000000-0000-4000-8000-0000000f0002"}, []string{linkView}},
		// The album's own id is taken.
		"album id taken": {[]string{testAlbumID}, []string{"a-new-key"}},
	} {
		t.Run(name, func(t *testing.T) {
			db := testStore(t, tt.ids, tt.secrets)
			before := take(t, db)
			err := albumLink(db, aliceID, []string{aliceAssetID})
			require.Error(t, err)
			assert.Equal(t, Internal, CodeOf(err))
			requireUnchanged(t, db, before)
		})
	}
}

func TestStoreLinkRefusedLeavesNothing(t *testing.T) {
	for name, tt := range map[string]struct {
		user string
		nl   NewLink
		code Code
	}{
		"user gone":        {"00000000-0000-4000-8000-00000000dead", NewLink{Type: model.LinkAlbum}, Unauthenticated},
		"another's asset":  {bobID, NewLink{Type: model.LinkIndividual, AssetIDs: []string{aliceAssetID}}, NoAccess},
		"album without id": {aliceID, NewLink{Type: model.LinkAlbum}, Invalid},
		"another's album":  {bobID, NewLink{Type: model.LinkAlbum, AlbumID: new(testAlbumID)}, NoAccess},
		"individual empty": {aliceID, NewLink{Type: model.LinkIndividual}, Invalid},
	} {
		t.Run(name, func(t *testing.T) {
			db := testStore(t, []string{freshID, "00000000-0000-4000-8000-0000000f0002"}, []string{"a-new-key"})
			before := take(t, db)
			err := db.Write(func(tx *Tx) error { _, err := tx.CreateLink(tt.user, tt.nl); return err })
			require.Error(t, err)
			assert.Equal(t, tt.code, CodeOf(err))
			requireUnchanged(t, db, before)
		})
	}
}

func TestStoreUserFailingLeavesNothing(t *testing.T) {
	for name, tt := range map[string]struct {
		email        string
		ids, secrets []string
		code         Code
	}{
		"email taken": {"ALICE@example.com", []string{freshID}, []string{"a-new-key"}, Conflict},
		"id taken":    {"dora@example.com", []string{bobID}, []string{"a-new-key"}, Internal},
		"key taken":   {"dora@example.com", []string{freshID}, []string{keyBob}, Internal},
	} {
		t.Run(name, func(t *testing.T) {
			db := testStore(t, tt.ids, tt.secrets)
			before := take(t, db)
			err := db.Write(func(tx *Tx) error { _, err := tx.AddUser("Dora", tt.email, nil); return err })
			require.Error(t, err)
			assert.Equal(t, tt.code, CodeOf(err))
			requireUnchanged(t, db, before)
		})
	}
}

func TestStoreReplaceFailingLeavesNothing(t *testing.T) {
	db := testStore(t, nil, nil)
	before := take(t, db)
	broken := storetest.Dataset()
	broken.Assets[0].OwnerID = "00000000-0000-4000-8000-00000000dead"
	require.Error(t, db.Replace(broken)) // an asset of no user: refused
	requireUnchanged(t, db, before)
}

// sequence hands out ids in order.
func sequence(ids ...string) func() string {
	return func() string {
		id := ids[0]
		ids = ids[1:]
		return id
	}
}

// TestStoreWritesRefusedLeaveNothing checks every other write of the store:
// refused, or failing on an id that is taken, it leaves the state as it was.
func TestStoreWritesRefusedLeaveNothing(t *testing.T) {
	alice := Principal{User: &model.UserRecord{User: model.User{ID: aliceID}, IsAdmin: true}}
	bob := Principal{User: &model.UserRecord{User: model.User{ID: bobID}}}
	for name, write := range map[string]func(db *Store, tx *Tx) error{
		"API key, user gone": func(db *Store, tx *Tx) error {
			_, err := tx.AddAPIKey("00000000-0000-4000-8000-00000000dead", "x")
			return err
		},
		"API key, secret taken": func(db *Store, tx *Tx) error {
			db.newID = func() string { return freshID }
			db.newToken = func() string { return keyBob }
			_, err := tx.AddAPIKey(aliceID, "x")
			return err
		},
		"admin user, not an admin": func(db *Store, tx *Tx) error {
			_, err := tx.AddUserAdmin(bob.User, NewUser{Email: "e@example.com"})
			return err
		},
		"admin user, email taken": func(db *Store, tx *Tx) error {
			_, err := tx.AddUserAdmin(alice.User, NewUser{Email: "BOB@example.com"})
			return err
		},
		"admin user, id taken": func(db *Store, tx *Tx) error {
			db.newID = func() string { return bobID }
			_, err := tx.AddUserAdmin(alice.User, NewUser{Email: "e@example.com"})
			return err
		},
		"album, user twice": func(db *Store, tx *Tx) error {
			_, err := tx.CreateAlbum(aliceID, NewAlbum{Users: []model.AlbumUserRecord{{UserID: bobID, Role: "viewer"}, {UserID: bobID, Role: "editor"}}})
			return err
		},
		"album, id taken": func(db *Store, tx *Tx) error {
			db.newID = func() string { return testAlbumID }
			_, err := tx.CreateAlbum(aliceID, NewAlbum{Name: "x"})
			return err
		},
		"album assets, a viewer": func(db *Store, tx *Tx) error {
			_, err := tx.AddAlbumAssets(bob, testAlbumID, []string{aliceAssetID})
			return err
		},
		"link, id taken": func(db *Store, tx *Tx) error {
			db.newID = func() string { return viewLinkID }
			_, err := tx.CreateLink(aliceID, NewLink{Type: model.LinkIndividual, AssetIDs: []string{aliceAssetID}})
			return err
		},
		"link update, another's": func(db *Store, tx *Tx) error {
			_, err := tx.UpdateLink(bobID, viewLinkID, LinkPatch{})
			return err
		},
		"link removal, another's": func(db *Store, tx *Tx) error { return tx.RemoveLink(bobID, viewLinkID) },
		"link assets, an album link": func(db *Store, tx *Tx) error {
			_, err := tx.ChangeLinkAssets(alice, uploadLinkID, []string{aliceAssetID}, true)
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			db := testStore(t, nil, []string{"a-new-key"})
			before := take(t, db)
			require.Error(t, db.Write(func(tx *Tx) error { return write(db, tx) }))
			requireUnchanged(t, db, before)
		})
	}
}

func TestLoginWithAWrongPasswordLeavesNothing(t *testing.T) {
	db := testStore(t, nil, nil)
	before := take(t, db)
	_, _, err := db.Login("alice@example.com", "nope", Device{})
	require.Error(t, err)
	requireUnchanged(t, db, before)
}

// TestLoginSpendsAHashWhoeverTheEmailNames: an email that names no one and
// a known one with a wrong password each cost one hash of the password, so
// that the time of the answer tells nothing of which emails exist; both
// get the same answer.
func TestLoginSpendsAHashWhoeverTheEmailNames(t *testing.T) {
	db := testStore(t, nil, nil)
	for _, email := range []string{"nobody@example.com", "alice@example.com"} {
		before := password.Derived()
		_, _, err := db.Login(email, "nope", Device{})
		assert.Equal(t, errBadLogin, err, email)
		assert.Equal(t, int64(1), password.Derived()-before, "%s: one hash", email)
	}
}

// TestWritesStampWhatTheyChange checks that a write gives a new stamp to
// the kinds of record it changed, and only to those, with nothing to
// remember at the call: a cached answer of the kinds it shows stays true
// exactly until one of them changes.
func TestWritesStampWhatTheyChange(t *testing.T) {
	db := testStore(t, []string{freshID, "00000000-0000-4000-8000-0000000f0002", "00000000-0000-4000-8000-0000000f0003"}, []string{"k1", "k2"})
	for _, tt := range []struct {
		name    string
		write   func(tx *Tx) error
		changed Change
	}{
		{"an upload", func(tx *Tx) error {
			_, err := tx.AddUpload(aliceID, model.AssetRecord{Type: model.AssetImage, Checksum: sha1Base64([]byte("new"))}, nil)
			return err
		}, AssetsAdded},
		{"its pictures", func(tx *Tx) error { return tx.SetPictures(freshID, "AAAA") }, Assets},
		{"an album", func(tx *Tx) error { _, err := tx.CreateAlbum(aliceID, NewAlbum{Name: "x"}); return err }, Albums},
		{"a link's change", func(tx *Tx) error {
			_, err := tx.UpdateLink(aliceID, viewLinkID, LinkPatch{AllowUpload: new(true)})
			return err
		}, Links},
		{"a refused write", func(tx *Tx) error { return tx.RemoveLink(bobID, viewLinkID) }, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var before [numKinds]uint64
			for k := range numKinds {
				before[k] = db.Stamp(1 << k)
			}
			_ = db.Write(tt.write)
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

// TestRecordsMadeAreBounded: past MaxMade records made beside the
// dataset's, a write that would make one more is refused as Full, and
// changes nothing; once one goes there is room again, and a reset starts
// the count anew. Loading a dataset is never refused.
func TestRecordsMadeAreBounded(t *testing.T) {
	db, err := New(storetest.Dataset(), storetest.Now, MaxMade(3))
	require.NoError(t, err)
	var keys []string
	for i := range 3 {
		require.NoError(t, db.Write(func(tx *Tx) error {
			k, err := tx.AddAPIKey(aliceID, fmt.Sprint("key ", i))
			if err == nil {
				keys = append(keys, k.ID)
			}
			return err
		}), "record %d", i)
	}
	before := take(t, db)
	err = db.Write(func(tx *Tx) error { _, err := tx.AddAPIKey(aliceID, "one too many"); return err })
	var de *Error
	require.ErrorAs(t, err, &de)
	assert.Equal(t, Full, de.Code)
	requireUnchanged(t, db, before)
	err = db.Write(func(tx *Tx) error { _, err := tx.AddPerson(aliceID, NewPerson{Name: "one too many"}); return err })
	require.ErrorAs(t, err, &de)
	assert.Equal(t, Full, de.Code, "every kind counts")

	require.NoError(t, db.Write(func(tx *Tx) error { return tx.RemoveAPIKey(aliceID, keys[0]) }))
	require.NoError(t, db.Write(func(tx *Tx) error { _, err := tx.AddAPIKey(aliceID, "room again"); return err }))

	require.NoError(t, db.Replace(storetest.Dataset()))
	for i := range 3 {
		require.NoError(t, db.Write(func(tx *Tx) error { _, err := tx.AddAPIKey(aliceID, fmt.Sprint("after the reset ", i)); return err }))
	}
}

// TestLoginOutlastsARebuild: a login whose password is checked while
// another write builds every record anew (another user removed for good)
// still logs in: the user and its password are the same.
func TestLoginOutlastsARebuild(t *testing.T) {
	db := testStore(t, []string{"00000000-0000-4000-8000-0000000f00a1"}, nil)
	db.newToken = func() string {
		// Between the password's check and the session's write.
		require.NoError(t, db.Write(func(tx *Tx) error { _, err := tx.DeleteUser(carolID, true); return err }))
		return "a-token"
	}
	u, token, err := db.Login("alice@example.com", storetest.Password, Device{})
	require.NoError(t, err)
	assert.Equal(t, aliceID, u.ID)
	assert.Equal(t, "a-token", token)
}
