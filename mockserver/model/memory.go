package model

// MemoryOnThisDay is the one memory type the API knows (MemoryType): the
// pictures taken on this day some years ago.
const MemoryOnThisDay = "on_this_day"

// MemoryData is a memory's data; for on_this_day, the year it recalls
// (OnThisDayDto).
type MemoryData struct {
	Year int64 `json:"year"`
}

// MemoryRecord is a stored memory: a user's selection of assets for a
// day, which their web app shows as a story.
type MemoryRecord struct {
	ID      string     `json:"id"`
	OwnerID string     `json:"ownerId"`
	Type    string     `json:"type"`
	Data    MemoryData `json:"data"`
	IsSaved bool       `json:"isSaved"`
	// MemoryAt orders memories; SeenAt is when the user last saw it (nil:
	// never).
	MemoryAt  Time  `json:"memoryAt"`
	SeenAt    *Time `json:"seenAt"`
	CreatedAt Time  `json:"createdAt"`
	UpdatedAt Time  `json:"updatedAt"`
	// AssetIDs are its assets, in the order they were added; those in the
	// trash stay, out of sight, until they are deleted for good.
	AssetIDs []string `json:"assetIds"`
}

// Memory is the API's MemoryResponseDto, its keys in the reference's
// order. DeletedAt is always null: a memory deleted is gone.
type Memory struct {
	ID        string     `json:"id"`
	CreatedAt Time       `json:"createdAt"`
	UpdatedAt Time       `json:"updatedAt"`
	DeletedAt *Time      `json:"deletedAt"`
	MemoryAt  Time       `json:"memoryAt"`
	SeenAt    *Time      `json:"seenAt"`
	OwnerID   string     `json:"ownerId"`
	Type      string     `json:"type"`
	Data      MemoryData `json:"data"`
	IsSaved   bool       `json:"isSaved"`
	Assets    []Asset    `json:"assets"`
}
