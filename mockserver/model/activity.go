package model

// Activity types, as the API names them (ReactionType).
const (
	ActivityComment = "comment"
	ActivityLike    = "like"
)

// ActivityRecord is a comment on, or a like of, an album or one of its
// assets, by one of the album's users.
type ActivityRecord struct {
	ID      string `json:"id"`
	AlbumID string `json:"albumId"`
	UserID  string `json:"userId"`
	// AssetID is the asset it is about; nil: the album itself.
	AssetID *string `json:"assetId"`
	// Comment is the text of a comment; nil for a like.
	Comment   *string `json:"comment"`
	IsLiked   bool    `json:"isLiked"`
	CreatedAt Time    `json:"createdAt"`
}

// Activity is the API's ActivityResponseDto, its keys in the reference's
// order.
type Activity struct {
	ID        string  `json:"id"`
	AssetID   *string `json:"assetId"`
	CreatedAt Time    `json:"createdAt"`
	Comment   *string `json:"comment"`
	Type      string  `json:"type"`
	User      User    `json:"user"`
}
