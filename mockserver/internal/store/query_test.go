package store

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// TestUpdateReturnsWhatItMade: what an Update returns is what it stored,
// and a Query after it sees it.
func TestUpdateReturnsWhatItMade(t *testing.T) {
	db := testStore(t, []string{freshID}, nil)
	made, err := Update(db, func(tx *Tx) (*model.AlbumRecord, error) {
		return tx.CreateAlbum(aliceID, NewAlbum{Name: "made"})
	})
	require.NoError(t, err)
	require.NotNil(t, made)
	assert.Equal(t, freshID, made.ID)

	seen, err := Query(db, func(v *View) (string, error) {
		al := v.Album(freshID)
		if al == nil {
			return "", errors.New("no album")
		}
		return al.AlbumName, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "made", seen)
}

// TestUpdateFailingLeavesNothing: an Update whose f fails after a change
// takes the change back, as Write does, and returns the zero T, whatever
// f returned beside its error.
func TestUpdateFailingLeavesNothing(t *testing.T) {
	db := testStore(t, []string{freshID}, nil)
	before := take(t, db)
	refused := errors.New("refused")
	got, err := Update(db, func(tx *Tx) (*model.AlbumRecord, error) {
		al, err := tx.CreateAlbum(aliceID, NewAlbum{Name: "gone"})
		require.NoError(t, err)
		return al, refused
	})
	require.ErrorIs(t, err, refused)
	assert.Nil(t, got)
	requireUnchanged(t, db, before)

	found, err := Query(db, func(v *View) (bool, error) { return v.Album(freshID) != nil, nil })
	require.NoError(t, err)
	assert.False(t, found)
}

// TestQueryFailingReturnsZero: a Query whose f fails returns its error
// and the zero T.
func TestQueryFailingReturnsZero(t *testing.T) {
	db := testStore(t, nil, nil)
	refused := errors.New("refused")
	got, err := Query(db, func(v *View) (int, error) { return 7, refused })
	require.ErrorIs(t, err, refused)
	assert.Zero(t, got)
}
