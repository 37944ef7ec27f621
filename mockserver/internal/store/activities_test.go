package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store/storetest"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// activityDataset is the test dataset with Bob's like of the album, his
// comment on Alice's asset in it, and Alice's comment on the album.
func activityDataset() model.Dataset {
	d := storetest.Dataset()
	at := func(days int) model.Time { return model.At(storetest.Now().AddDate(0, 0, days)) }
	d.Activities = []model.ActivityRecord{
		{ID: "00000000-0000-4000-8000-0000000ac701", AlbumID: testAlbumID, UserID: bobID, IsLiked: true, CreatedAt: at(-3)},
		{ID: "00000000-0000-4000-8000-0000000ac702", AlbumID: testAlbumID, UserID: bobID, AssetID: new(aliceAssetID), Comment: new("Lovely light"), CreatedAt: at(-2)},
		{ID: "00000000-0000-4000-8000-0000000ac703", AlbumID: testAlbumID, UserID: aliceID, Comment: new("Our trip"), CreatedAt: at(-1)},
	}
	return d
}

func activityIDs(as []*model.ActivityRecord) []string {
	out := []string{}
	for _, a := range as {
		out = append(out, a.ID[len(a.ID)-3:])
	}
	return out
}

func TestActivitiesLoadChecks(t *testing.T) {
	for name, change := range map[string]func(d *model.Dataset){
		"an unknown album":  func(d *model.Dataset) { d.Activities[0].AlbumID = "00000000-0000-4000-8000-00000000dead" },
		"an unknown user":   func(d *model.Dataset) { d.Activities[0].UserID = "00000000-0000-4000-8000-00000000dead" },
		"an unknown asset":  func(d *model.Dataset) { d.Activities[1].AssetID = new("00000000-0000-4000-8000-00000000dead") },
		"a like with text":  func(d *model.Dataset) { d.Activities[0].Comment = new("x") },
		"a comment without": func(d *model.Dataset) { d.Activities[1].Comment = nil },
		"an id twice":       func(d *model.Dataset) { d.Activities[1].ID = d.Activities[0].ID },
		"a like twice": func(d *model.Dataset) {
			d.Activities = append(d.Activities, d.Activities[0])
			d.Activities[3].ID = freshID
		},
		"a comment too long": func(d *model.Dataset) { d.Activities[1].Comment = new(string(make([]byte, MaxCommentChars+1))) },
		"a settings text long": func(d *model.Dataset) {
			c := model.DefaultSystemConfig()
			c.Server.LoginPageMessage = string(make([]byte, MaxConfigTextChars+1))
			d.SystemConfig = &c
		},
	} {
		t.Run(name, func(t *testing.T) {
			d := activityDataset()
			change(&d)
			assert.Error(t, Check(d))
		})
	}
	require.NoError(t, Check(activityDataset()))
}

func TestActivitiesGoWithWhatTheyAreAbout(t *testing.T) {
	list := func(db *Store) []string {
		var out []string
		db.Read(func(v *View) {
			for _, a := range v.st.activities {
				out = append(out, a.ID[len(a.ID)-3:])
			}
		})
		return out
	}
	alice := Principal{User: &model.UserRecord{User: model.User{ID: aliceID}}}

	t.Run("the asset deleted for good", func(t *testing.T) {
		db, err := New(activityDataset(), storetest.Now)
		require.NoError(t, err)
		require.NoError(t, db.Write(func(tx *Tx) error { _, err := tx.DeleteAssets(aliceID, []string{aliceAssetID}, false); return err }))
		assert.Equal(t, []string{"701", "702", "703"}, list(db), "the trash keeps them")
		db.Read(func(v *View) {
			n, err := v.ActivityComments(alice, testAlbumID, nil)
			require.NoError(t, err)
			assert.Equal(t, 1, n, "the comment of an asset in the trash does not count")
			found, err := v.Activities(alice, ActivityFilter{AlbumID: testAlbumID})
			require.NoError(t, err)
			assert.Equal(t, []string{"701", "702", "703"}, activityIDs(found), "but is listed, as the reference lists it")
		})
		require.NoError(t, db.Write(func(tx *Tx) error { _, err := tx.EmptyTrash(aliceID); return err }))
		assert.Equal(t, []string{"701", "703"}, list(db))
	})
	t.Run("the album deleted", func(t *testing.T) {
		db, err := New(activityDataset(), storetest.Now)
		require.NoError(t, err)
		require.NoError(t, db.Write(func(tx *Tx) error { return tx.DeleteAlbum(alice, testAlbumID) }))
		assert.Empty(t, list(db))
		assert.Empty(t, db.Records().Dataset().Activities)
	})
	t.Run("the user deleted for good", func(t *testing.T) {
		db, err := New(activityDataset(), storetest.Now)
		require.NoError(t, err)
		require.NoError(t, db.Write(func(tx *Tx) error { _, err := tx.DeleteUser(bobID, false); return err }))
		db.Read(func(v *View) {
			found, err := v.Activities(alice, ActivityFilter{AlbumID: testAlbumID})
			require.NoError(t, err)
			assert.Equal(t, []string{"703"}, activityIDs(found), "a deleted user's are out of sight")
		})
		require.NoError(t, db.Write(func(tx *Tx) error { _, err := tx.RestoreUser(bobID); return err }))
		assert.Equal(t, []string{"701", "702", "703"}, list(db), "and come back with them")
		require.NoError(t, db.Write(func(tx *Tx) error { _, err := tx.DeleteUser(bobID, true); return err }))
		assert.Equal(t, []string{"703"}, list(db))
	})
	t.Run("the album's owner deleted for good", func(t *testing.T) {
		d := activityDataset()
		d.Users[0].IsAdmin, d.Users[1].IsAdmin = false, true
		db, err := New(d, storetest.Now)
		require.NoError(t, err)
		require.NoError(t, db.Write(func(tx *Tx) error { _, err := tx.DeleteUser(aliceID, true); return err }))
		assert.Empty(t, list(db))
	})
}

func TestActivityWritesTakeBack(t *testing.T) {
	// A write that fails after an activity went in or out leaves nothing.
	db, err := New(activityDataset(), storetest.Now)
	require.NoError(t, err)
	db.newID = sequence(freshID)
	before := take(t, db)
	err = db.Write(func(tx *Tx) error {
		if _, _, err := tx.AddActivity(bobID, NewActivity{AlbumID: testAlbumID, Comment: "x"}); err != nil {
			return err
		}
		if err := tx.RemoveActivity(aliceID, "00000000-0000-4000-8000-0000000ac702"); err != nil {
			return err
		}
		if err := tx.SetSystemConfig(model.DefaultSystemConfig()); err != nil {
			return err
		}
		return Fail(Invalid, "no")
	})
	require.Error(t, err)
	requireUnchanged(t, db, before)
}

func TestSystemConfigStoredAsChanged(t *testing.T) {
	db, err := New(storetest.Dataset(), storetest.Now)
	require.NoError(t, err)
	c := model.DefaultSystemConfig()
	c.Server.LoginPageMessage = "Hello"
	require.NoError(t, db.Write(func(tx *Tx) error { return tx.SetSystemConfig(c) }))
	d := db.Records().Dataset()
	require.NotNil(t, d.SystemConfig)
	assert.Equal(t, "Hello", d.SystemConfig.Server.LoginPageMessage)
	db2, err := New(d, storetest.Now)
	require.NoError(t, err)
	db2.Read(func(v *View) { assert.Equal(t, c, v.SystemConfig()) })

	require.NoError(t, db.Write(func(tx *Tx) error { return tx.SetSystemConfig(model.DefaultSystemConfig()) }))
	assert.Nil(t, db.Records().Dataset().SystemConfig, "the defaults are stored as none")

	c.FFmpeg.AcceptedVideoCodecs = make([]string, maxConfigListEntries+1)
	err = db.Write(func(tx *Tx) error { return tx.SetSystemConfig(c) })
	assert.Equal(t, Invalid, CodeOf(err))
}
