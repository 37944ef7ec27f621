package mockserver

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The store's writes are all-or-nothing. Each test below makes a write fail
// after its first step, by handing out an id or key that is already taken,
// and checks that the state is exactly what it was: every record and every
// index, the listings' version and the clock.

// testStore is a store on testDataset with ids and keys handed out from
// the lists given, in order.
func testStore(t *testing.T, ids, secrets []string) *store {
	t.Helper()
	db, err := newStore(testDataset(), testNow)
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
	state   *state
	version uint64
	last    time.Time
}

// take rebuilds the state from the store's own dataset: a deep copy with
// every index, which the state after a failed write must equal.
func take(t *testing.T, db *store) snapshot {
	t.Helper()
	st, err := newState(db.state.dataset())
	require.NoError(t, err)
	st.loaded = db.state.loaded
	return snapshot{state: st, version: db.version, last: db.last}
}

func requireUnchanged(t *testing.T, db *store, before snapshot) {
	t.Helper()
	assert.Equal(t, before.state, db.state, "the state changed")
	assert.Equal(t, before.version, db.version, "the listings' version changed")
	assert.Equal(t, before.last, db.last, "the clock moved")
}

const freshID = "00000000-0000-4000-8000-0000000f0001"

func TestStoreUploadFailingHalfwayLeavesNothing(t *testing.T) {
	still := model.AssetRecord{Type: model.AssetImage, OriginalFileName: "IMG_1.HEIC", Checksum: sha1Base64([]byte("still")), IsVisible: true}
	video := model.AssetRecord{Type: model.AssetVideo, OriginalFileName: "IMG_1.MOV", Checksum: sha1Base64([]byte("video"))}

	// The video is stored under a fresh id; the still then gets an id that
	// is taken, after the video is in.
	db := testStore(t, []string{freshID, aliceAssetID}, nil)
	before := take(t, db)
	_, err := db.addUpload(aliceID, still, &video)
	require.Error(t, err)
	assert.Equal(t, errInternal, codeOf(err))
	requireUnchanged(t, db, before)

	// The same upload succeeds once the ids are free.
	db.newID = sequence(freshID, "00000000-0000-4000-8000-0000000f0002")
	res, err := db.addUpload(aliceID, still, &video)
	require.NoError(t, err)
	assert.Equal(t, "00000000-0000-4000-8000-0000000f0002", res.ID)
	assert.Equal(t, freshID, *db.state.assetBy[res.ID].LivePhotoVideoID)
}

func TestStoreUploadRefusedLeavesNothing(t *testing.T) {
	for name, tt := range map[string]struct {
		owner string
		still model.AssetRecord
		live  *model.AssetRecord
		code  errorCode
	}{
		"owner gone":         {"00000000-0000-4000-8000-00000000dead", model.AssetRecord{Type: model.AssetImage, Checksum: sha1Base64([]byte("x"))}, nil, errUnauthenticated},
		"over quota":         {carolID, model.AssetRecord{Type: model.AssetImage, Checksum: sha1Base64([]byte("x")), ExifInfo: &model.Exif{FileSizeInByte: new(int64(2048))}}, nil, errInvalid},
		"video is the still": {aliceID, model.AssetRecord{Type: model.AssetImage, Checksum: sha1Base64([]byte("x"))}, &model.AssetRecord{Type: model.AssetVideo, Checksum: sha1Base64([]byte("x"))}, errInvalid},
		"video is a photo":   {aliceID, model.AssetRecord{Type: model.AssetImage, Checksum: sha1Base64([]byte("x"))}, &model.AssetRecord{Type: model.AssetVideo, Checksum: sha1Base64([]byte(aliceAssetBody))}, errInvalid},
		"broken checksum":    {aliceID, model.AssetRecord{Type: model.AssetImage, Checksum: "AAAA"}, nil, errInternal},
	} {
		t.Run(name, func(t *testing.T) {
			db := testStore(t, []string{freshID, "00000000-0000-4000-8000-0000000f0002"}, nil)
			before := take(t, db)
			_, err := db.addUpload(tt.owner, tt.still, tt.live)
			require.Error(t, err)
			assert.Equal(t, tt.code, codeOf(err))
			requireUnchanged(t, db, before)
		})
	}
}

func TestStoreLinkFailingHalfwayLeavesNothing(t *testing.T) {
	for name, tt := range map[string]struct {
		ids, secrets []string
	}{
		// The album is stored; the link then gets a taken id.
		"link id taken": {[]string{"00000000-0000-4000-8000-00000000001a", freshID}, []string{"a-new-key"}},
		// The album is stored; the link then gets a taken key.
		"link key taken": {[]string{"00000000-0000-4000-8000-0000000f0002", freshID}, []string{linkView}},
		// The album's own id is taken.
		"album id taken": {[]string{"00000000-0000-4000-8000-0000000f0002", "00000000-0000-4000-8000-0000000a1b01"}, []string{"a-new-key"}},
	} {
		t.Run(name, func(t *testing.T) {
			db := testStore(t, tt.ids, tt.secrets)
			before := take(t, db)
			_, err := db.addLink(aliceID, linkRequest{Type: model.LinkAlbum, AssetIDs: []string{aliceAssetID}})
			require.Error(t, err)
			assert.Equal(t, errInternal, codeOf(err))
			requireUnchanged(t, db, before)
		})
	}
}

func TestStoreLinkRefusedLeavesNothing(t *testing.T) {
	for name, tt := range map[string]struct {
		user string
		req  linkRequest
		code errorCode
	}{
		"user gone":        {"00000000-0000-4000-8000-00000000dead", linkRequest{Type: model.LinkAlbum}, errUnauthenticated},
		"another's asset":  {bobID, linkRequest{Type: model.LinkIndividual, AssetIDs: []string{aliceAssetID}}, errNoAccess},
		"asset twice":      {aliceID, linkRequest{Type: model.LinkIndividual, AssetIDs: []string{aliceAssetID, aliceAssetID}}, errInvalid},
		"unknown type":     {aliceID, linkRequest{Type: "album"}, errInvalid},
		"individual empty": {aliceID, linkRequest{Type: model.LinkIndividual}, errInvalid},
	} {
		t.Run(name, func(t *testing.T) {
			db := testStore(t, []string{freshID, "00000000-0000-4000-8000-0000000f0002"}, []string{"a-new-key"})
			before := take(t, db)
			_, err := db.addLink(tt.user, tt.req)
			require.Error(t, err)
			assert.Equal(t, tt.code, codeOf(err))
			requireUnchanged(t, db, before)
		})
	}
}

func TestStoreUserFailingLeavesNothing(t *testing.T) {
	for name, tt := range map[string]struct {
		email        string
		ids, secrets []string
		code         errorCode
	}{
		"email taken": {"ALICE@example.com", []string{freshID}, []string{"a-new-key"}, errConflict},
		"id taken":    {"dora@example.com", []string{bobID}, []string{"a-new-key"}, errInternal},
		"key taken":   {"dora@example.com", []string{freshID}, []string{keyBob}, errInternal},
	} {
		t.Run(name, func(t *testing.T) {
			db := testStore(t, tt.ids, tt.secrets)
			before := take(t, db)
			_, err := db.addUser("Dora", tt.email, nil)
			require.Error(t, err)
			assert.Equal(t, tt.code, codeOf(err))
			requireUnchanged(t, db, before)
		})
	}
}

func TestStoreReplaceFailingLeavesNothing(t *testing.T) {
	db := testStore(t, nil, nil)
	before := take(t, db)
	err := db.replace(model.Dataset{}) // no users: refused
	require.Error(t, err)
	assert.Equal(t, errInternal, codeOf(err))
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
	alice := principal{user: &model.UserRecord{User: model.User{ID: aliceID}, IsAdmin: true}}
	bob := principal{user: &model.UserRecord{User: model.User{ID: bobID}}}
	for name, write := range map[string]func(db *store) error{
		"login, wrong password": func(db *store) error { _, err := db.login("alice@example.com", "nope"); return err },
		"API key, user gone":    func(db *store) error { _, err := db.addAPIKey("00000000-0000-4000-8000-00000000dead", "x"); return err },
		"API key, secret taken": func(db *store) error {
			db.newID = func() string { return freshID }
			db.newToken = func() string { return keyBob }
			_, err := db.addAPIKey(aliceID, "x")
			return err
		},
		"admin user, not an admin": func(db *store) error {
			_, err := db.addUserAdmin(bob.user, newUser{Email: "e@example.com"})
			return err
		},
		"admin user, email taken": func(db *store) error {
			_, err := db.addUserAdmin(alice.user, newUser{Email: "BOB@example.com"})
			return err
		},
		"admin user, id taken": func(db *store) error {
			db.newID = func() string { return bobID }
			_, err := db.addUserAdmin(alice.user, newUser{Email: "e@example.com"})
			return err
		},
		"album, user twice": func(db *store) error {
			_, err := db.createAlbum(aliceID, newAlbum{users: []model.AlbumUserRecord{{UserID: bobID, Role: "viewer"}, {UserID: bobID, Role: "editor"}}})
			return err
		},
		"album, id taken": func(db *store) error {
			db.newID = func() string { return testAlbumID }
			_, err := db.createAlbum(aliceID, newAlbum{name: "x"})
			return err
		},
		"album assets, a viewer": func(db *store) error {
			_, err := db.addAlbumAssets(bob, testAlbumID, []string{aliceAssetID})
			return err
		},
		"link, another's asset": func(db *store) error {
			_, err := db.createLink(bobID, newLink{typ: model.LinkIndividual, assetIDs: []string{aliceAssetID}})
			return err
		},
		"link, id taken": func(db *store) error {
			db.newID = func() string { return viewLinkID }
			_, err := db.createLink(aliceID, newLink{typ: model.LinkIndividual, assetIDs: []string{aliceAssetID}})
			return err
		},
		"link update, another's":  func(db *store) error { _, err := db.updateLink(bobID, viewLinkID, linkPatch{}); return err },
		"link removal, another's": func(db *store) error { return db.removeLink(bobID, viewLinkID) },
		"link assets, an album link": func(db *store) error {
			_, err := db.changeLinkAssets(alice, uploadLinkID, []string{aliceAssetID}, true)
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			db := testStore(t, nil, []string{"a-new-key"})
			before := take(t, db)
			require.Error(t, write(db))
			requireUnchanged(t, db, before)
		})
	}
}

// codeOf is the kind of err: errInternal for anything that is not a domain error.
func codeOf(err error) errorCode {
	var de *domainError
	if errors.As(err, &de) {
		return de.code
	}
	return errInternal
}

// dataset is the state as a Dataset, records in the order they were added.
func (st *state) dataset() model.Dataset {
	d := model.Dataset{
		Seed: st.seed, Anchor: st.anchor,
		Users:       make([]model.UserRecord, 0, len(st.users)),
		People:      make([]model.PersonRecord, 0, len(st.people)),
		Tags:        make([]model.Tag, 0, len(st.tags)),
		Assets:      make([]model.AssetRecord, 0, len(st.assets)),
		Albums:      make([]model.AlbumRecord, 0, len(st.albums)),
		SharedLinks: make([]model.SharedLinkRecord, 0, len(st.links)),
	}
	for _, u := range st.users {
		d.Users = append(d.Users, *u)
	}
	for _, p := range st.people {
		d.People = append(d.People, *p)
	}
	for _, t := range st.tags {
		d.Tags = append(d.Tags, *t)
	}
	for _, a := range st.assets {
		d.Assets = append(d.Assets, *a)
	}
	for _, al := range st.albums {
		d.Albums = append(d.Albums, *al)
	}
	for _, l := range st.links {
		d.SharedLinks = append(d.SharedLinks, *l)
	}
	for _, k := range st.apiKeys {
		d.APIKeys = append(d.APIKeys, *k)
	}
	for _, se := range st.sessions {
		d.Sessions = append(d.Sessions, *se)
	}
	return d
}
