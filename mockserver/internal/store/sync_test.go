package store

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// TestAuditIsBounded: the audit lets go of entries older than AuditMaxAge,
// and of the oldest past MaxAuditRecords, and then knows since when it is
// whole.
func TestAuditIsBounded(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	const owner = "00000000-0000-4000-8000-00000000a11c"
	entry := func(i int, at time.Time) model.AuditRecord {
		return model.AuditRecord{EntityType: model.AuditAsset, EntityID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), OwnerID: owner, CreatedAt: model.At(at)}
	}
	var l auditLog
	l = l.audited(model.At(now.Add(-101*24*time.Hour)), entry(0, now.Add(-101*24*time.Hour)))
	require.Len(t, l.entries, 1)
	l = l.audited(model.At(now), entry(1, now))
	assert.Equal(t, []model.AuditRecord{entry(1, now)}, l.entries, "older than 100 days: let go")
	assert.Nil(t, l.since, "the age alone needs no mark: 100 days always need a full sync")

	batch := make([]model.AuditRecord, MaxAuditRecords)
	for i := range batch {
		batch[i] = entry(2+i, now.Add(time.Duration(i+1)*time.Millisecond))
	}
	l = l.audited(model.At(now), batch...)
	assert.Len(t, l.entries, MaxAuditRecords)
	assert.Equal(t, batch[0], l.entries[0])
	require.NotNil(t, l.since)
	assert.Equal(t, now, l.since.Time, "whole since the newest entry let go")

	db, err := New(model.Dataset{Audit: l.log()}, func() time.Time { return now })
	require.NoError(t, err)
	db.Read(func(v *View) {
		assert.True(t, v.needsFullSync(now.Add(-time.Second)), "before what was let go")
		assert.False(t, v.needsFullSync(now), "since then it is whole")
		assert.Len(t, v.deletedAfter(model.AuditAsset, map[string]bool{owner: true}, now), MaxAuditRecords)
	})
}
