package store

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store/storetest"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// manyAssetsDataset is the test dataset with n more assets of Alice's.
func manyAssetsDataset(n int) (model.Dataset, []string) {
	d := storetest.Dataset()
	ids := make([]string, 0, n)
	for i := range n {
		a := d.Assets[0]
		a.ID = fmt.Sprintf("00000000-0000-4000-8000-%012x", 0xf00000+i)
		a.Checksum = storetest.SHA1Base64([]byte(a.ID))
		a.TagIDs, a.Faces = nil, nil
		d.Assets = append(d.Assets, a)
		ids = append(ids, a.ID)
	}
	return d, ids
}

func TestMemoryAssetsAreBounded(t *testing.T) {
	d, ids := manyAssetsDataset(MaxMemoryAssets + 1)
	db, err := New(d, storetest.Now)
	require.NoError(t, err)
	nm := NewMemory{Type: model.MemoryOnThisDay, Year: 2021, MemoryAt: model.At(time.Now()), AssetIDs: ids}
	err = db.Write(func(tx *Tx) error { _, err := tx.CreateMemory(aliceID, nm); return err })
	require.Error(t, err)
	assert.Equal(t, Invalid, CodeOf(err))
	assert.Equal(t, "A memory holds at most 10000 assets", err.Error())

	nm.AssetIDs = ids[:MaxMemoryAssets]
	m, err := Update(db, func(tx *Tx) (*model.MemoryRecord, error) { return tx.CreateMemory(aliceID, nm) })
	require.NoError(t, err)
	assert.Len(t, m.AssetIDs, MaxMemoryAssets)
	_, err = Update(db, func(tx *Tx) ([]model.BulkIDResult, error) {
		return tx.AddMemoryAssets(aliceID, m.ID, ids[MaxMemoryAssets:])
	})
	assert.Equal(t, Invalid, CodeOf(err), "one more is refused")
}

func TestMemoriesLoadChecks(t *testing.T) {
	base := func() model.Dataset {
		d := storetest.Dataset()
		d.Memories = []model.MemoryRecord{{ID: "00000000-0000-4000-8000-00000000e301", OwnerID: aliceID, Type: model.MemoryOnThisDay,
			Data: model.MemoryData{Year: 2021}, MemoryAt: model.At(storetest.Now()), AssetIDs: []string{aliceAssetID}}}
		return d
	}
	require.NoError(t, Check(base()))
	for name, change := range map[string]func(m *model.MemoryRecord){
		"an unknown owner": func(m *model.MemoryRecord) { m.OwnerID = "00000000-0000-4000-8000-00000000dead" },
		"an unknown asset": func(m *model.MemoryRecord) { m.AssetIDs = []string{"00000000-0000-4000-8000-00000000dead"} },
		"an asset twice":   func(m *model.MemoryRecord) { m.AssetIDs = []string{aliceAssetID, aliceAssetID} },
		"another type":     func(m *model.MemoryRecord) { m.Type = "x" },
		"no year":          func(m *model.MemoryRecord) { m.Data.Year = 0 },
		"no id":            func(m *model.MemoryRecord) { m.ID = "" },
	} {
		d := base()
		change(&d.Memories[0])
		assert.Error(t, Check(d), name)
	}
}
