package store

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store/storetest"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// TestListingsStayBounded: a user's listing shows at most MaxListedAssets
// assets (an ALBUM link's album twice); a write past it is refused and
// leaves nothing, and a dataset past it does not load.
func TestListingsStayBounded(t *testing.T) {
	d := storetest.Dataset()
	// Alice's links list 2 (the ALBUM link's one asset, twice) + 1 + 1.
	base := d.Assets[0]
	fill := (MaxListedAssets-2)/2 - 1 - 1 // the album's assets that bring her listing to MaxListedAssets − 2
	for i := range fill + 3 {
		a := base
		a.ID = fmt.Sprintf("00000000-0000-4000-8000-%012d", 100_000+i)
		a.Checksum = sha1Base64(fmt.Appendf(nil, "fill %d", i))
		d.Assets = append(d.Assets, a)
		if i < fill {
			d.Albums[0].AssetIDs = append(d.Albums[0].AssetIDs, a.ID)
		}
	}
	spare := func(i int) string { return d.Assets[len(d.Assets)-3+i].ID }
	db, err := New(d, storetest.Now)
	require.NoError(t, err)
	require.Equal(t, MaxListedAssets-2, db.state.listed(aliceID))
	alice := Principal{User: db.state.userByID[aliceID]}
	write := func(f func(tx *Tx) error) error { return db.Write(f) }

	var res []model.BulkIDResult
	require.NoError(t, write(func(tx *Tx) error {
		res, err = tx.AddAlbumAssets(alice, d.Albums[0].ID, []string{spare(0)})
		return err
	}), "up to the bound")
	require.True(t, res[0].Success)
	require.Equal(t, MaxListedAssets, db.state.listed(aliceID))

	before := take(t, db)
	err = write(func(tx *Tx) error { _, err := tx.AddAlbumAssets(alice, d.Albums[0].ID, []string{spare(1)}); return err })
	require.Error(t, err)
	assert.Equal(t, Invalid, CodeOf(err))
	assert.Equal(t, fmt.Sprintf("Too many shared assets: the owner's shared links would list %d assets, and a listing holds at most %d", MaxListedAssets+2, MaxListedAssets), err.Error())
	requireUnchanged(t, db, before)

	individual := NewLink{Type: model.LinkIndividual, AssetIDs: []string{spare(1)}}
	err = write(func(tx *Tx) error { _, err := tx.CreateLink(aliceID, individual); return err })
	assert.Equal(t, Invalid, CodeOf(err), "a new link past the bound: %v", err)
	err = write(func(tx *Tx) error {
		_, err := tx.ChangeLinkAssets(alice, viewLinkID, []string{spare(1)}, true)
		return err
	})
	assert.Equal(t, Invalid, CodeOf(err), "a link's new asset past the bound: %v", err)
	requireUnchanged(t, db, before)

	// Removing makes room again.
	require.NoError(t, write(func(tx *Tx) error {
		_, err := tx.ChangeLinkAssets(alice, viewLinkID, []string{aliceAssetID}, false)
		return err
	}))
	require.NoError(t, write(func(tx *Tx) error { _, err := tx.CreateLink(aliceID, individual); return err }))

	d.Albums[0].AssetIDs = append(d.Albums[0].AssetIDs, spare(0), spare(1))
	err = Check(d)
	require.Error(t, err)
	assert.Regexp(t, `^sharedLinks\[\d+\]: Too many shared assets`, err.Error(), "the record is named")
}
