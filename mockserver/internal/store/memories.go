package store

import (
	"fmt"
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Memories: a user's selections of assets for a day ("on this day"), which
// only their owner reads, changes or deletes (the upstream's memory
// service). A memory is a collection of assets as an album is: a change of
// one stamps Albums.

// MaxMemoryAssets bounds the assets of one memory: a selection for a day,
// far above any real one.
const MaxMemoryAssets = 10_000

// errTooManyMemoryAssets refuses a memory past MaxMemoryAssets (a rule
// of the mock's).
func errTooManyMemoryAssets() *Error {
	return Fail(Invalid, "A memory holds at most %d assets", MaxMemoryAssets)
}

// addMemory checks m against the state and adds it, recording in tx how
// to take it back.
func (tx *Tx) addMemory(m model.MemoryRecord) error {
	st := tx.st
	if err := tx.room(); err != nil {
		return err
	}
	switch {
	case m.ID == "" || st.memoryByID[m.ID] != nil:
		return fmt.Errorf("id %q is empty or not unique", m.ID)
	case st.userByID[m.OwnerID] == nil:
		return fmt.Errorf("ownerId %q is not a user", m.OwnerID)
	case m.Type != model.MemoryOnThisDay:
		return fmt.Errorf("type %q is not %s", m.Type, model.MemoryOnThisDay)
	case m.Data.Year <= 0:
		return fmt.Errorf("data.year %d is not positive", m.Data.Year)
	case len(m.AssetIDs) > MaxMemoryAssets:
		return fmt.Errorf("%d assets, over the limit of %d", len(m.AssetIDs), MaxMemoryAssets)
	}
	seen := make(map[string]bool, len(m.AssetIDs))
	for _, id := range m.AssetIDs {
		if st.assetBy[id] == nil || seen[id] {
			return fmt.Errorf("asset %q is not an asset, or is listed twice", id)
		}
		seen[id] = true
	}
	if err := inRange(timeField{"memoryAt", &m.MemoryAt}, timeField{"seenAt", m.SeenAt},
		timeField{"createdAt", &m.CreatedAt}, timeField{"updatedAt", &m.UpdatedAt}); err != nil {
		return err
	}
	n := len(st.memories)
	st.memories = append(st.memories, &m)
	st.memoryByID[m.ID] = &m
	tx.did(Albums, func() {
		st.memories = st.memories[:n]
		delete(st.memoryByID, m.ID)
	})
	return nil
}

// replaceMemory puts a changed copy of a memory in the place of the stored one.
func (tx *Tx) replaceMemory(old, m *model.MemoryRecord) {
	st := tx.st
	i := slices.Index(st.memories, old)
	st.memories[i], st.memoryByID[m.ID] = m, m
	tx.did(Albums, func() { st.memories[i], st.memoryByID[old.ID] = old, old })
}

// MemoriesOf is the user's memories, the latest memoryAt first, as the
// reference orders them; the last made first where those are alike.
func (v *View) MemoriesOf(userID string) []*model.MemoryRecord {
	var out []*model.MemoryRecord
	for _, m := range slices.Backward(v.st.memories) {
		if m.OwnerID == userID {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b *model.MemoryRecord) int { return b.MemoryAt.Compare(a.MemoryAt.Time) })
	return out
}

// OwnMemory is the user's memory of that id, or the reference's 400 for
// permission (memory.read, memory.write or memory.delete): another user's
// memory and none at all are alike.
func (v *View) OwnMemory(userID, id, permission string) (*model.MemoryRecord, error) {
	m := v.st.memoryByID[id]
	if m == nil || m.OwnerID != userID {
		return nil, Fail(NoAccess, "Not found or no %s access", permission)
	}
	return m, nil
}

// MemoryAssets is what a memory shows of its assets: those out of the
// trash, in the order they were added.
func (v *View) MemoryAssets(m *model.MemoryRecord) []*model.AssetRecord {
	out := make([]*model.AssetRecord, 0, len(m.AssetIDs))
	for _, id := range m.AssetIDs {
		if a := v.st.assetBy[id]; a != nil && Live(a) {
			out = append(out, a)
		}
	}
	return out
}

// mayShare says whether the user may put an asset in a memory, as the
// reference's asset.share permission: their own, in the trash too, or a
// partner's out of the archive and the trash.
func (v *View) mayShare(userID string, a *model.AssetRecord) bool {
	if a == nil {
		return false
	}
	if a.OwnerID == userID {
		return true
	}
	return !a.IsArchived && Live(a) && v.IsPartner(a.OwnerID, userID)
}

// NewMemory is what POST /api/memories asks for.
type NewMemory struct {
	Type     string
	Year     int64
	IsSaved  bool
	MemoryAt model.Time
	SeenAt   *model.Time
	AssetIDs []string
}

// CreateMemory makes a memory of the user's, with the assets of nm the
// user may share (the others are left out without a word, as the
// reference leaves them; an id given twice is kept once).
func (tx *Tx) CreateMemory(userID string, nm NewMemory) (*model.MemoryRecord, error) {
	now := tx.Tick()
	m := model.MemoryRecord{
		ID: tx.db.newID(), OwnerID: userID, Type: nm.Type, Data: model.MemoryData{Year: nm.Year},
		IsSaved: nm.IsSaved, MemoryAt: nm.MemoryAt, SeenAt: nm.SeenAt, CreatedAt: now, UpdatedAt: now,
		AssetIDs: []string{},
	}
	kept := map[string]bool{}
	for _, id := range nm.AssetIDs {
		if !kept[id] && tx.mayShare(userID, tx.st.assetBy[id]) {
			kept[id] = true
			m.AssetIDs = append(m.AssetIDs, id)
		}
	}
	if len(m.AssetIDs) > MaxMemoryAssets {
		return nil, errTooManyMemoryAssets()
	}
	if err := tx.addMemory(m); err != nil {
		return nil, internal(err)
	}
	return tx.st.memoryByID[m.ID], nil
}

// MemoryPatch is what PUT /api/memories/{id} changes: each field given
// (SeenAt set with ClearSeenAt false; cleared with it true).
type MemoryPatch struct {
	IsSaved     *bool
	MemoryAt    *model.Time
	SeenAt      *model.Time
	ClearSeenAt bool
}

// UpdateMemory changes the user's memory. Its updatedAt moves only when a
// value changes, as the reference saves it.
func (tx *Tx) UpdateMemory(userID, id string, mp MemoryPatch) (*model.MemoryRecord, error) {
	old, err := tx.OwnMemory(userID, id, "memory.write")
	if err != nil {
		return nil, err
	}
	m := *old
	if mp.IsSaved != nil {
		m.IsSaved = *mp.IsSaved
	}
	if mp.MemoryAt != nil {
		m.MemoryAt = *mp.MemoryAt
	}
	switch {
	case mp.ClearSeenAt:
		m.SeenAt = nil
	case mp.SeenAt != nil:
		m.SeenAt = mp.SeenAt
	}
	if m.IsSaved == old.IsSaved && m.MemoryAt.Equal(old.MemoryAt.Time) && sameTime(m.SeenAt, old.SeenAt) {
		return old, nil
	}
	m.UpdatedAt = tx.Tick()
	tx.replaceMemory(old, &m)
	return &m, nil
}

func sameTime(a, b *model.Time) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && a.Equal(b.Time))
}

// RemoveMemory deletes the user's memory.
func (tx *Tx) RemoveMemory(userID, id string) error {
	old, err := tx.OwnMemory(userID, id, "memory.delete")
	if err != nil {
		return err
	}
	forget(tx, Albums, &tx.st.memories, tx.st.memoryByID, id, old)
	return nil
}

// AddMemoryAssets adds assets to the user's memory, in request order, each
// with its outcome: duplicate where the memory holds it (in the trash
// too), no_permission where the user may not share it. The reference asks
// only memory.read of the memory here.
func (tx *Tx) AddMemoryAssets(userID, id string, ids []string) ([]model.BulkIDResult, error) {
	old, err := tx.OwnMemory(userID, id, "memory.read")
	if err != nil {
		return nil, err
	}
	m := *old
	m.AssetIDs = slices.Clone(old.AssetIDs)
	in := make(map[string]bool, len(old.AssetIDs))
	for _, aid := range old.AssetIDs {
		in[aid] = true
	}
	out := make([]model.BulkIDResult, 0, len(ids))
	for _, aid := range ids {
		switch {
		case in[aid]:
			out = append(out, model.BulkIDResult{ID: aid, Error: BulkDuplicate})
		case !tx.mayShare(userID, tx.st.assetBy[aid]):
			out = append(out, model.BulkIDResult{ID: aid, Error: BulkNoPermission})
		default:
			in[aid] = true
			m.AssetIDs = append(m.AssetIDs, aid)
			out = append(out, model.BulkIDResult{ID: aid, Success: true})
		}
	}
	if len(m.AssetIDs) == len(old.AssetIDs) {
		return out, nil
	}
	if len(m.AssetIDs) > MaxMemoryAssets {
		return nil, errTooManyMemoryAssets()
	}
	m.UpdatedAt = tx.Tick()
	tx.replaceMemory(old, &m)
	return out, nil
}

// RemoveMemoryAssets takes assets out of the user's memory, in request
// order, each with its outcome: not_found where the memory does not hold
// it (or no longer: an id given twice), no_permission where the user may
// not share it (a partner's asset since archived).
func (tx *Tx) RemoveMemoryAssets(userID, id string, ids []string) ([]model.BulkIDResult, error) {
	old, err := tx.OwnMemory(userID, id, "memory.write")
	if err != nil {
		return nil, err
	}
	in := make(map[string]bool, len(old.AssetIDs))
	for _, aid := range old.AssetIDs {
		in[aid] = true
	}
	out := make([]model.BulkIDResult, 0, len(ids))
	removed := map[string]bool{}
	for _, aid := range ids {
		switch {
		case !in[aid]:
			out = append(out, model.BulkIDResult{ID: aid, Error: BulkNotFound})
		case !tx.mayShare(userID, tx.st.assetBy[aid]):
			out = append(out, model.BulkIDResult{ID: aid, Error: BulkNoPermission})
		default:
			delete(in, aid)
			removed[aid] = true
			out = append(out, model.BulkIDResult{ID: aid, Success: true})
		}
	}
	if len(removed) == 0 {
		return out, nil
	}
	m := *old
	m.AssetIDs = slices.DeleteFunc(slices.Clone(old.AssetIDs), func(aid string) bool { return removed[aid] })
	m.UpdatedAt = tx.Tick()
	tx.replaceMemory(old, &m)
	return out, nil
}

// pruneMemories drops from d the memories whose owner d no longer holds,
// and from the others the assets it no longer holds, as the reference's
// foreign keys cascade.
func pruneMemories(d *model.Dataset) {
	if len(d.Memories) == 0 {
		return
	}
	users, assets := map[string]bool{}, map[string]bool{}
	for _, u := range d.Users {
		users[u.ID] = true
	}
	for _, a := range d.Assets {
		assets[a.ID] = true
	}
	d.Memories = slices.DeleteFunc(slices.Clone(d.Memories), func(m model.MemoryRecord) bool { return !users[m.OwnerID] })
	for i := range d.Memories {
		m := &d.Memories[i]
		m.AssetIDs = slices.DeleteFunc(slices.Clone(m.AssetIDs), func(id string) bool { return !assets[id] })
	}
}
