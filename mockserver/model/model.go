// Package model defines what the mock server stores (the records of a
// Dataset) and the JSON shapes its API answers with (the response types).
//
// Records are normalised: an asset names its owner by id, an album names its
// assets by id. Responses are built from records, so every nested copy of a
// user, album or asset agrees with every other copy of it.
package model

import (
	"fmt"
	"slices"
	"time"
)

// TimeLayout is how every date-time of the API is written: UTC with
// millisecond precision, as the reference server writes them.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// DateLayout is how calendar dates (a person's birth date) are written.
const DateLayout = "2006-01-02"

// Time is an instant that encodes in TimeLayout.
type Time struct{ time.Time }

// At wraps t, truncated to the millisecond precision the API carries.
func At(t time.Time) Time { return Time{t.UTC().Truncate(time.Millisecond)} }

// InRange says whether t, in UTC, lies in the years 0001 to 9999: the dates
// the API writes in TimeLayout and reads back. The mock stores no other.
func InRange(t time.Time) bool {
	y := t.UTC().Year()
	return y >= 1 && y <= 9999
}

// Ptr returns a pointer to t, for the API's nullable date-times.
func (t Time) Ptr() *Time { return &t }

// MarshalJSON writes t in TimeLayout. It writes the digits itself: a
// listing carries tens of thousands of times, and time.Format's layout
// parsing was a seventh of the cost of encoding one.
func (t Time) MarshalJSON() ([]byte, error) {
	u := t.UTC()
	year, month, day := u.Date()
	if year < 0 || year > 9999 {
		b := append([]byte{'"'}, u.AppendFormat(nil, TimeLayout)...)
		return append(b, '"'), nil
	}
	hour, minute, sec := u.Clock()
	b := make([]byte, 0, len(TimeLayout)+2)
	b = append(b, '"')
	b = appendDigits(b, year, 4)
	b = append(b, '-')
	b = appendDigits(b, int(month), 2)
	b = append(b, '-')
	b = appendDigits(b, day, 2)
	b = append(b, 'T')
	b = appendDigits(b, hour, 2)
	b = append(b, ':')
	b = appendDigits(b, minute, 2)
	b = append(b, ':')
	b = appendDigits(b, sec, 2)
	b = append(b, '.')
	b = appendDigits(b, u.Nanosecond()/int(time.Millisecond), 3)
	return append(b, 'Z', '"'), nil
}

// appendDigits appends n, zero-padded to width digits.
func appendDigits(b []byte, n, width int) []byte {
	var buf [4]byte
	for i := width - 1; i >= 0; i-- {
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, buf[:width]...)
}

// UnmarshalJSON reads an RFC 3339 date-time.
func (t *Time) UnmarshalJSON(b []byte) error {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return fmt.Errorf("date-time %s is not a string", b)
	}
	v, err := time.Parse(time.RFC3339Nano, string(b[1:len(b)-1]))
	if err != nil {
		return fmt.Errorf("date-time %s: %w", b, err)
	}
	if !InRange(v) {
		return fmt.Errorf("date-time %s is not in the years 0001 to 9999", b)
	}
	*t = At(v)
	return nil
}

// Asset types.
const (
	AssetImage = "IMAGE"
	AssetVideo = "VIDEO"
	AssetAudio = "AUDIO"
	AssetOther = "OTHER"
)

// Shared link types.
const (
	LinkAlbum      = "ALBUM"
	LinkIndividual = "INDIVIDUAL"
)

// Album user roles.
const (
	RoleEditor = "editor"
	RoleViewer = "viewer"
)

// Tag types.
const (
	TagObject = "OBJECT"
	TagFace   = "FACE"
	TagCustom = "CUSTOM"
)

// AvatarColors returns the values a user's avatarColor may take, in the
// API's order.
func AvatarColors() []string {
	return []string{"primary", "pink", "red", "yellow", "blue", "green", "purple", "orange", "gray", "amber"}
}

// The file extensions an upload takes, lower case with their dot, in the
// order the server's media types list them (raw formats first). Only read.
var (
	imageExtensions = [...]string{".3fr", ".ari", ".arw", ".cap", ".cin", ".cr2", ".cr3", ".crw", ".dcr", ".dng",
		".erf", ".fff", ".iiq", ".k25", ".kdc", ".mrw", ".nef", ".orf", ".ori", ".pef", ".psd", ".raf", ".raw",
		".rw2", ".rwl", ".sr2", ".srf", ".srw", ".x3f", ".avif", ".bmp", ".gif", ".heic", ".heif", ".hif", ".insp",
		".jpe", ".jpeg", ".jpg", ".jxl", ".png", ".svg", ".tif", ".tiff", ".webp"}
	videoExtensions = [...]string{".3gp", ".3gpp", ".avi", ".flv", ".insv", ".m2ts", ".m4v", ".mkv", ".mov",
		".mp4", ".mpe", ".mpeg", ".mpg", ".mts", ".webm", ".wmv"}
)

// ImageExtensions returns the extensions of image files, as GET
// /api/server-info/media-types lists them.
func ImageExtensions() []string { return slices.Clone(imageExtensions[:]) }

// VideoExtensions returns the extensions of video files, as GET
// /api/server-info/media-types lists them.
func VideoExtensions() []string { return slices.Clone(videoExtensions[:]) }

// SidecarExtensions returns the extensions of sidecar files.
func SidecarExtensions() []string { return []string{".xmp"} }

// AssetTypeOf is the asset type of a file extension (lower case, with its
// dot): AssetImage, AssetVideo, or "" for a file an upload does not take.
func AssetTypeOf(ext string) string {
	switch {
	case slices.Contains(imageExtensions[:], ext):
		return AssetImage
	case slices.Contains(videoExtensions[:], ext):
		return AssetVideo
	}
	return ""
}

// DefaultDuration is the duration the reference gives every still image.
const DefaultDuration = "0:00:00.00000"

// Dataset is the whole state of the mock: what GET /__mock/dataset returns and
// what `serve --fixtures` loads. Seed and Anchor say how it was generated.
type Dataset struct {
	Seed        int64              `json:"seed"`
	Anchor      Time               `json:"anchor"`
	Users       []UserRecord       `json:"users"`
	People      []PersonRecord     `json:"people"`
	Tags        []Tag              `json:"tags"`
	Assets      []AssetRecord      `json:"assets"`
	Albums      []AlbumRecord      `json:"albums"`
	SharedLinks []SharedLinkRecord `json:"sharedLinks"`
	// APIKeys are the keys users made with POST /api/api-keys, beside the
	// key every user has (UserRecord.APIKey).
	APIKeys []APIKeyRecord `json:"apiKeys,omitempty"`
	// Sessions are the logins that are still valid.
	Sessions []SessionRecord `json:"sessions,omitempty"`
	// Partners are users who share their whole library with another.
	Partners []PartnerRecord `json:"partners,omitempty"`
	// Activities are the comments and likes of albums' users.
	Activities []ActivityRecord `json:"activities,omitempty"`
	// Memories are the users' memories (MemoryRecord).
	Memories []MemoryRecord `json:"memories,omitempty"`
	// Audit is the audit of deletions the mobile app's sync reads; nil:
	// nothing deleted yet.
	Audit *AuditLog `json:"audit,omitempty"`
	// Libraries are the external libraries admins made.
	Libraries []LibraryRecord `json:"libraries,omitempty"`
	// SystemConfig is the server's settings where an admin changed them;
	// nil: the defaults.
	SystemConfig *SystemConfig `json:"systemConfig,omitempty"`
	// AdminOnboarded: the first admin went through the web app's
	// onboarding.
	AdminOnboarded bool `json:"adminOnboarded,omitempty"`
	// MediaDir is the folder that holds the uploads' files and pictures,
	// where the mock that wrote the dataset kept them; serve --fixtures
	// reuses it.
	MediaDir string `json:"mediaDir,omitempty"`
}

// UserRecord is a stored user with its credentials.
type UserRecord struct {
	User
	APIKey string `json:"apiKey"`
	// PasswordHash is the user's password as package password hashes it;
	// empty means the user cannot log in.
	PasswordHash         string  `json:"passwordHash,omitempty"`
	IsAdmin              bool    `json:"isAdmin,omitempty"`
	ShouldChangePassword bool    `json:"shouldChangePassword,omitempty"`
	StorageLabel         *string `json:"storageLabel,omitempty"`
	// QuotaSizeInBytes limits the bytes of the user's assets; nil means no limit.
	QuotaSizeInBytes *int64 `json:"quotaSizeInBytes,omitempty"`
	CreatedAt        Time   `json:"createdAt"`
	// UpdatedAt is when the user last changed; zero means CreatedAt.
	UpdatedAt Time `json:"updatedAt,omitzero"`
	// DeletedAt is when an admin deleted the user; nil while they are
	// active. A deleted user can be restored.
	DeletedAt *Time `json:"deletedAt,omitempty"`
	// Preferences are what the user changed of their preferences; nil
	// fields keep the defaults.
	Preferences *PreferencesRecord `json:"preferences,omitempty"`
}

// PreferencesRecord is what a user set of their preferences.
type PreferencesRecord struct {
	// AvatarColor is the colour the user chose; without one, it comes
	// from their email.
	AvatarColor     *string `json:"avatarColor,omitempty"`
	MemoriesEnabled *bool   `json:"memoriesEnabled,omitempty"`
}

// APIKeyRecord is an API key a user made. The secret works as x-api-key.
type APIKeyRecord struct {
	ID        string `json:"id"`
	UserID    string `json:"userId"`
	Name      string `json:"name"`
	Secret    string `json:"secret"`
	CreatedAt Time   `json:"createdAt"`
	UpdatedAt Time   `json:"updatedAt"`
}

// SessionRecord is a login. Only the SHA-256 of its access token is kept
// (hex), so that a dataset file does not hand out working sessions.
type SessionRecord struct {
	ID        string `json:"id"`
	UserID    string `json:"userId"`
	TokenHash string `json:"tokenHash"`
	CreatedAt Time   `json:"createdAt"`
	// UpdatedAt is when the session was last changed; zero means CreatedAt.
	UpdatedAt Time `json:"updatedAt,omitzero"`
	// DeviceType and DeviceOS say what logged in (the browser, or the
	// app's device), as its User-Agent told.
	DeviceType string `json:"deviceType,omitempty"`
	DeviceOS   string `json:"deviceOS,omitempty"`
}

// PartnerRecord is a user sharing their library with another: the one
// shared with sees its assets (not the archived or trashed ones), and
// with InTimeline in their own timeline too.
type PartnerRecord struct {
	SharedByID   string `json:"sharedById"`
	SharedWithID string `json:"sharedWithId"`
	InTimeline   bool   `json:"inTimeline"`
	CreatedAt    Time   `json:"createdAt"`
}

// PersonRecord is a person recognised in a user's library.
type PersonRecord struct {
	ID            string  `json:"id"`
	OwnerID       string  `json:"ownerId"`
	Name          string  `json:"name"`
	BirthDate     *string `json:"birthDate"`
	IsHidden      bool    `json:"isHidden"`
	ThumbnailPath string  `json:"thumbnailPath"`
	// FaceAssetID is the id of the face (not of the asset, despite the
	// reference's name) that is the person's picture; nil: none chosen
	// (the dataset's people, whose picture is painted from their id).
	FaceAssetID *string `json:"faceAssetId,omitempty"`
	// CreatedAt and UpdatedAt are when the person was made and last
	// changed through the API; zero for the dataset's people.
	CreatedAt Time `json:"createdAt,omitzero"`
	UpdatedAt Time `json:"updatedAt,omitzero"`
}

// FaceRecord is one face of a person found in an asset.
type FaceRecord struct {
	ID            string `json:"id"`
	PersonID      string `json:"personId"`
	BoundingBoxX1 int    `json:"boundingBoxX1"`
	BoundingBoxY1 int    `json:"boundingBoxY1"`
	BoundingBoxX2 int    `json:"boundingBoxX2"`
	BoundingBoxY2 int    `json:"boundingBoxY2"`
	ImageWidth    int    `json:"imageWidth"`
	ImageHeight   int    `json:"imageHeight"`
}

// AssetRecord is a stored asset. Owner, people, tags and stack are derived
// from the other records when the asset is shown.
type AssetRecord struct {
	ID               string       `json:"id"`
	OwnerID          string       `json:"ownerId"`
	DeviceAssetID    string       `json:"deviceAssetId"`
	DeviceID         string       `json:"deviceId"`
	Type             string       `json:"type"`
	OriginalPath     string       `json:"originalPath"`
	OriginalFileName string       `json:"originalFileName"`
	Checksum         string       `json:"checksum"`
	Thumbhash        *string      `json:"thumbhash"`
	Duration         string       `json:"duration"`
	FileCreatedAt    Time         `json:"fileCreatedAt"`
	FileModifiedAt   Time         `json:"fileModifiedAt"`
	LocalDateTime    Time         `json:"localDateTime"`
	CreatedAt        Time         `json:"createdAt"`
	UpdatedAt        Time         `json:"updatedAt"`
	IsFavorite       bool         `json:"isFavorite"`
	IsArchived       bool         `json:"isArchived"`
	IsTrashed        bool         `json:"isTrashed"`
	IsOffline        bool         `json:"isOffline"`
	IsVisible        bool         `json:"isVisible"`
	HasMetadata      bool         `json:"hasMetadata"`
	Resized          bool         `json:"resized"`
	LibraryID        *string      `json:"libraryId"`
	LivePhotoVideoID *string      `json:"livePhotoVideoId"`
	StackParentID    *string      `json:"stackParentId"`
	DuplicateID      *string      `json:"duplicateId"`
	ExifInfo         *Exif        `json:"exifInfo,omitempty"`
	SmartInfo        *SmartInfo   `json:"smartInfo,omitempty"`
	TagIDs           []string     `json:"tagIds,omitempty"`
	Faces            []FaceRecord `json:"faces,omitempty"`
}

// AlbumUserRecord shares an album with a user.
type AlbumUserRecord struct {
	UserID string `json:"userId"`
	Role   string `json:"role"`
}

// AlbumRecord is a stored album; its asset count, dates and flags are derived.
type AlbumRecord struct {
	ID                    string            `json:"id"`
	OwnerID               string            `json:"ownerId"`
	AlbumName             string            `json:"albumName"`
	Description           string            `json:"description"`
	AlbumThumbnailAssetID *string           `json:"albumThumbnailAssetId"`
	AlbumUsers            []AlbumUserRecord `json:"albumUsers"`
	AssetIDs              []string          `json:"assetIds"`
	CreatedAt             Time              `json:"createdAt"`
	UpdatedAt             Time              `json:"updatedAt"`
	IsActivityEnabled     bool              `json:"isActivityEnabled"`
	Order                 *string           `json:"order,omitempty"`
}

// SharedLinkRecord is a stored shared link: to an album (AlbumID) or to
// individual assets (AssetIDs).
type SharedLinkRecord struct {
	ID            string   `json:"id"`
	Key           string   `json:"key"`
	Type          string   `json:"type"`
	UserID        string   `json:"userId"`
	AlbumID       *string  `json:"albumId,omitempty"`
	AssetIDs      []string `json:"assetIds,omitempty"`
	AllowDownload bool     `json:"allowDownload"`
	AllowUpload   bool     `json:"allowUpload"`
	ShowMetadata  bool     `json:"showMetadata"`
	Password      *string  `json:"password"`
	Description   *string  `json:"description"`
	ExpiresAt     *Time    `json:"expiresAt"`
	CreatedAt     Time     `json:"createdAt"`
}

// User is the API's UserResponseDto.
type User struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	Email            string `json:"email"`
	AvatarColor      string `json:"avatarColor"`
	ProfileImagePath string `json:"profileImagePath"`
}

// Exif is the API's ExifResponseDto; every field is nullable.
type Exif struct {
	Make             *string  `json:"make"`
	Model            *string  `json:"model"`
	ExifImageWidth   *float64 `json:"exifImageWidth"`
	ExifImageHeight  *float64 `json:"exifImageHeight"`
	FileSizeInByte   *int64   `json:"fileSizeInByte"`
	Orientation      *string  `json:"orientation"`
	DateTimeOriginal *Time    `json:"dateTimeOriginal"`
	ModifyDate       *Time    `json:"modifyDate"`
	TimeZone         *string  `json:"timeZone"`
	LensModel        *string  `json:"lensModel"`
	FNumber          *float64 `json:"fNumber"`
	FocalLength      *float64 `json:"focalLength"`
	ISO              *float64 `json:"iso"`
	ExposureTime     *string  `json:"exposureTime"`
	Latitude         *float64 `json:"latitude"`
	Longitude        *float64 `json:"longitude"`
	City             *string  `json:"city"`
	State            *string  `json:"state"`
	Country          *string  `json:"country"`
	Description      *string  `json:"description"`
	ProjectionType   *string  `json:"projectionType"`
}

// SmartInfo is the API's SmartInfoResponseDto.
type SmartInfo struct {
	Objects []string `json:"objects"`
	Tags    []string `json:"tags"`
}

// Tag is the API's TagResponseDto, stored as it is shown.
type Tag struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Type   string `json:"type"`
	UserID string `json:"userId"`
}

// Face is the API's AssetFaceWithoutPersonResponseDto.
type Face struct {
	ID            string `json:"id"`
	BoundingBoxX1 int    `json:"boundingBoxX1"`
	BoundingBoxY1 int    `json:"boundingBoxY1"`
	BoundingBoxX2 int    `json:"boundingBoxX2"`
	BoundingBoxY2 int    `json:"boundingBoxY2"`
	ImageWidth    int    `json:"imageWidth"`
	ImageHeight   int    `json:"imageHeight"`
}

// Person is the API's PersonWithFacesResponseDto.
type Person struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	BirthDate     *string `json:"birthDate"`
	ThumbnailPath string  `json:"thumbnailPath"`
	IsHidden      bool    `json:"isHidden"`
	Faces         []Face  `json:"faces"`
}

// Asset is the API's AssetResponseDto. Tags, stackParentId and stack are
// shown only where the answer loads them (nil: absent); people always, an
// empty list where there are none to show.
type Asset struct {
	ID               string     `json:"id"`
	DeviceAssetID    string     `json:"deviceAssetId"`
	OwnerID          string     `json:"ownerId"`
	Owner            *User      `json:"owner,omitempty"`
	DeviceID         string     `json:"deviceId"`
	LibraryID        *string    `json:"libraryId"`
	Type             string     `json:"type"`
	OriginalPath     string     `json:"originalPath"`
	OriginalFileName string     `json:"originalFileName"`
	FileCreatedAt    Time       `json:"fileCreatedAt"`
	FileModifiedAt   Time       `json:"fileModifiedAt"`
	LocalDateTime    Time       `json:"localDateTime"`
	UpdatedAt        Time       `json:"updatedAt"`
	IsFavorite       bool       `json:"isFavorite"`
	IsArchived       bool       `json:"isArchived"`
	IsTrashed        bool       `json:"isTrashed"`
	IsOffline        bool       `json:"isOffline"`
	HasMetadata      bool       `json:"hasMetadata"`
	Resized          bool       `json:"resized"`
	Duration         string     `json:"duration"`
	ExifInfo         *Exif      `json:"exifInfo,omitempty"`
	SmartInfo        *SmartInfo `json:"smartInfo,omitempty"`
	LivePhotoVideoID *string    `json:"livePhotoVideoId"`
	Tags             []Tag      `json:"tags,omitzero"`
	People           []Person   `json:"people"`
	Checksum         string     `json:"checksum"`
	StackParentID    *string    `json:"stackParentId,omitempty"`
	Stack            []Asset    `json:"stack,omitzero"`
	StackCount       *int       `json:"stackCount"`
	DuplicateID      *string    `json:"duplicateId"`
	Thumbhash        *string    `json:"thumbhash"`
}

// AlbumUser is the API's AlbumUserResponseDto.
type AlbumUser struct {
	Role string `json:"role"`
	User User   `json:"user"`
}

// Album is the API's AlbumResponseDto.
type Album struct {
	ID                         string      `json:"id"`
	OwnerID                    string      `json:"ownerId"`
	AlbumName                  string      `json:"albumName"`
	Description                string      `json:"description"`
	CreatedAt                  Time        `json:"createdAt"`
	UpdatedAt                  Time        `json:"updatedAt"`
	AlbumThumbnailAssetID      *string     `json:"albumThumbnailAssetId"`
	Shared                     bool        `json:"shared"`
	AlbumUsers                 []AlbumUser `json:"albumUsers"`
	HasSharedLink              bool        `json:"hasSharedLink"`
	Assets                     []Asset     `json:"assets"`
	Owner                      User        `json:"owner"`
	AssetCount                 int         `json:"assetCount"`
	StartDate                  *Time       `json:"startDate,omitempty"`
	EndDate                    *Time       `json:"endDate,omitempty"`
	LastModifiedAssetTimestamp *Time       `json:"lastModifiedAssetTimestamp,omitempty"`
	IsActivityEnabled          bool        `json:"isActivityEnabled"`
	Order                      *string     `json:"order,omitempty"`
}

// SharedLink is the API's SharedLinkResponseDto. The token is never shown.
type SharedLink struct {
	ID            string  `json:"id"`
	Description   *string `json:"description"`
	Password      *string `json:"password"`
	UserID        string  `json:"userId"`
	Key           string  `json:"key"`
	Type          string  `json:"type"`
	CreatedAt     Time    `json:"createdAt"`
	ExpiresAt     *Time   `json:"expiresAt"`
	Assets        []Asset `json:"assets"`
	Album         *Album  `json:"album,omitempty"`
	AllowUpload   bool    `json:"allowUpload"`
	AllowDownload bool    `json:"allowDownload"`
	ShowMetadata  bool    `json:"showMetadata"`
}

// Partner is the API's PartnerResponseDto: the other user of a partnership.
type Partner struct {
	User
	InTimeline bool `json:"inTimeline"`
}

// Session is the API's SessionResponseDto.
type Session struct {
	ID         string `json:"id"`
	CreatedAt  Time   `json:"createdAt"`
	UpdatedAt  Time   `json:"updatedAt"`
	Current    bool   `json:"current"`
	DeviceOS   string `json:"deviceOS"`
	DeviceType string `json:"deviceType"`
}

// Preferences is the API's UserPreferencesResponseDto.
type Preferences struct {
	Memories struct {
		Enabled bool `json:"enabled"`
	} `json:"memories"`
	Avatar struct {
		Color string `json:"color"`
	} `json:"avatar"`
}

// UserAdmin is the API's UserAdminResponseDto: a user as they and admins see themselves.
type UserAdmin struct {
	User
	StorageLabel         *string `json:"storageLabel"`
	ShouldChangePassword bool    `json:"shouldChangePassword"`
	IsAdmin              bool    `json:"isAdmin"`
	CreatedAt            Time    `json:"createdAt"`
	DeletedAt            *Time   `json:"deletedAt"`
	UpdatedAt            Time    `json:"updatedAt"`
	OauthID              string  `json:"oauthId"`
	QuotaSizeInBytes     *int64  `json:"quotaSizeInBytes"`
	QuotaUsageInBytes    *int64  `json:"quotaUsageInBytes"`
	Status               string  `json:"status"`
}

// Login is the API's LoginResponseDto.
type Login struct {
	AccessToken          string `json:"accessToken"`
	UserID               string `json:"userId"`
	UserEmail            string `json:"userEmail"`
	Name                 string `json:"name"`
	IsAdmin              bool   `json:"isAdmin"`
	ProfileImagePath     string `json:"profileImagePath"`
	ShouldChangePassword bool   `json:"shouldChangePassword"`
}

// APIKey is the API's APIKeyResponseDto.
type APIKey struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	CreatedAt Time   `json:"createdAt"`
	UpdatedAt Time   `json:"updatedAt"`
}

// NewAPIKey is the API's APIKeyCreateResponseDto.
type NewAPIKey struct {
	Secret string `json:"secret"`
	APIKey APIKey `json:"apiKey"`
}

// UploadResult is the API's AssetFileUploadResponseDto.
type UploadResult struct {
	ID        string `json:"id"`
	Duplicate bool   `json:"duplicate"`
}

// SanitizedAsset is an asset as a shared link that hides metadata
// (showMetadata false) shows it: what a page needs to show the picture.
type SanitizedAsset struct {
	ID               string  `json:"id"`
	Type             string  `json:"type"`
	Thumbhash        *string `json:"thumbhash"`
	LocalDateTime    Time    `json:"localDateTime"`
	Resized          bool    `json:"resized"`
	Duration         string  `json:"duration"`
	LivePhotoVideoID *string `json:"livePhotoVideoId"`
	HasMetadata      bool    `json:"hasMetadata"`
}

// SanitizedAlbum is an album whose assets are sanitized; its Assets
// shadow the album's own when encoded.
type SanitizedAlbum struct {
	Album
	Assets []SanitizedAsset `json:"assets"`
}

// BulkIDResult is the API's BulkIdResponseDto: what became of one id of a
// request that adds several.
type BulkIDResult struct {
	ID      string `json:"id"`
	Success bool   `json:"success"`
	Error   string `json:"error,omitempty"`
}

// AssetIDResult is the API's AssetIdsResponseDto: what became of one asset
// id of a request that adds assets to a shared link or removes them.
type AssetIDResult struct {
	AssetID string `json:"assetId"`
	Success bool   `json:"success"`
	Error   string `json:"error,omitempty"`
}

// SharedLinkWithToken is a password-protected link as its holder opens it
// with the right password: with the token that opens it again.
type SharedLinkWithToken struct {
	SharedLink
	Token string `json:"token"`
}

// SanitizedSharedLink is a link that hides metadata as its holder opens
// it; its Assets shadow the link's own when encoded.
type SanitizedSharedLink struct {
	SharedLink
	Assets []SanitizedAsset `json:"assets"`
	Token  *string          `json:"token,omitempty"`
}

// BulkCheckResult is the API's AssetBulkUploadCheckResult: whether the
// server wants one file of an uploader's batch.
type BulkCheckResult struct {
	ID      string `json:"id"`
	AssetID string `json:"assetId,omitempty"`
	Action  string `json:"action"`
	Reason  string `json:"reason,omitempty"`
}

// AssetStats is the API's AssetStatsResponseDto.
type AssetStats struct {
	Images int `json:"images"`
	Videos int `json:"videos"`
	Total  int `json:"total"`
}
