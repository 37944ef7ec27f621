package model

// The entities the audit of deletions names (EntityType).
const (
	AuditAsset = "ASSET"
	AuditAlbum = "ALBUM"
)

// AuditRecord says that an asset or an album of an owner was deleted for
// good, and when: what the mobile app's sync reads to drop its copies.
type AuditRecord struct {
	EntityType string `json:"entityType"`
	EntityID   string `json:"entityId"`
	OwnerID    string `json:"ownerId"`
	CreatedAt  Time   `json:"createdAt"`
}

// AuditLog is the audit of deletions the mock still keeps, the oldest
// first, and since when it is whole: entries older than Since may have
// been let go (a client that last synced before then needs a full sync).
type AuditLog struct {
	Since   *Time         `json:"since,omitempty"`
	Entries []AuditRecord `json:"entries"`
}

// AuditDeletes is the API's AuditDeletesResponseDto.
type AuditDeletes struct {
	NeedsFullSync bool     `json:"needsFullSync"`
	IDs           []string `json:"ids"`
}

// DeltaSync is the API's AssetDeltaSyncResponseDto.
type DeltaSync struct {
	NeedsFullSync bool     `json:"needsFullSync"`
	Upserted      []Asset  `json:"upserted"`
	Deleted       []string `json:"deleted"`
}
