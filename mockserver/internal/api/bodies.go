package api

import (
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The request bodies the operations take, declared as the upstream
// declares its DTOs (server/src/dtos at 66fced40e), decorator for
// decorator in its source order: package dto judges them as the reference
// does. Where the mock goes beyond the reference, it says so: every
// stored text has a limit (MaxLength), and where the reference has no
// rule and fails with a 500, the mock has the rule a correct server would.

// Shorthands for the decorators of the declarations below.
var (
	isString      = dto.As(dto.IsString())
	isNotEmpty    = dto.As(dto.IsNotEmpty())
	isArray       = dto.As(dto.IsArray())
	isEmail       = dto.As(dto.IsEmail())
	optional      = dto.Optional()
	nullable      = dto.OptionalNullable()
	optionalUUID  = dto.ValidateUUID(dto.ValidateUUIDOptions{Optional: true})
	optionalUUIDs = dto.ValidateUUID(dto.ValidateUUIDOptions{Optional: true, Each: true})
	uuids         = dto.ValidateUUID(dto.ValidateUUIDOptions{Each: true})
	optionalBool  = dto.ValidateBoolean(true)
)

// toEmail is the upstream's toEmail: an email in lower case. A value that
// is no string is left for IsEmail to refuse (the reference fails with a
// 500 there).
var toEmail = dto.Transform(func(_ string, v any) (any, error) {
	if s, ok := v.(string); ok {
		return strings.ToLower(s), nil
	}
	return v, nil
})

// AlbumUserCreateDto.
var albumUserCreate = dto.NewClass("AlbumUserCreateDto",
	dto.Field("userId", dto.ValidateUUID(dto.ValidateUUIDOptions{})),
	dto.Field("role", dto.As(dto.IsEnum(model.RoleEditor, model.RoleViewer))),
)

// CreateAlbumDto: POST /api/albums.
var createAlbumBody = dto.NewClass("CreateAlbumDto",
	dto.Field("albumName", isString).Limit(store.MaxNameChars),
	dto.Field("description", isString, optional).Limit(store.MaxDescriptionChars),
	dto.Field("albumUsers", optional, isArray, dto.ValidateNested(albumUserCreate, true)),
	dto.Field("assetIds", optionalUUIDs),
).Within(listBody)

// BulkIdsDto: PUT /api/albums/{id}/assets.
var bulkIDsBody = dto.NewClass("BulkIdsDto",
	dto.Field("ids", uuids),
).Within(listBody)

// AssetIdsDto: PUT and DELETE /api/shared-links/{id}/assets, POST
// /api/download/archive.
var assetIDsBody = dto.NewClass("AssetIdsDto",
	dto.Field("assetIds", uuids),
).Within(listBody)

// DownloadInfoDto: POST /api/download/info. (POST /api/download/archive
// takes AssetIdsDto.)
var downloadInfoBody = dto.NewClass("DownloadInfoDto",
	dto.Field("assetIds", optionalUUIDs),
	dto.Field("albumId", optionalUUID),
	dto.Field("userId", optionalUUID),
	dto.Field("archiveSize", dto.As(dto.IsInt()), dto.As(dto.IsPositive()), optional),
).Within(listBody)

// SharedLinkCreateDto: POST /api/shared-links.
var sharedLinkCreateBody = dto.NewClass("SharedLinkCreateDto",
	dto.Field("type", dto.As(dto.IsEnum(model.LinkAlbum, model.LinkIndividual))),
	dto.Field("assetIds", optionalUUIDs),
	dto.Field("albumId", optionalUUID),
	dto.Field("description", isString, optional).Limit(store.MaxDescriptionChars),
	dto.Field("password", isString, optional).Limit(store.MaxPasswordChars),
	dto.Field("expiresAt", dto.ValidateDate(dto.ValidateDateOptions{Optional: true, Nullable: true})),
	dto.Field("allowUpload", optionalBool),
	dto.Field("allowDownload", optionalBool),
	dto.Field("showMetadata", optionalBool),
).Within(listBody)

// SharedLinkEditDto: PATCH /api/shared-links/{id}. The reference declares
// description, password, expiresAt and allowUpload without a rule (and
// stores a number as text, or fails with a 500); the mock judges them as
// createSharedLink does, and a null clears description, password and
// expiresAt.
var sharedLinkEditBody = dto.NewClass("SharedLinkEditDto",
	dto.Field("description", isString, nullable).Limit(store.MaxDescriptionChars),
	dto.Field("password", isString, nullable).Limit(store.MaxPasswordChars),
	dto.Field("expiresAt", dto.ValidateDate(dto.ValidateDateOptions{Optional: true, Nullable: true})),
	dto.Field("allowUpload", optionalBool),
	dto.Field("allowDownload", optionalBool),
	dto.Field("showMetadata", optionalBool),
	dto.Field("changeExpiryTime", optionalBool),
)

// LoginCredentialDto: POST /api/auth/login.
var loginBody = dto.NewClass("LoginCredentialDto",
	dto.Field("email", isEmail, toEmail, isNotEmpty),
	dto.Field("password", isString, isNotEmpty).Limit(store.MaxPasswordChars),
)

// UserAdminCreateDto: POST /api/admin/users.
var userAdminCreateBody = dto.NewClass("UserAdminCreateDto",
	dto.Field("email", isEmail, toEmail),
	dto.Field("password", isNotEmpty, isString).Limit(store.MaxPasswordChars),
	dto.Field("name", isNotEmpty, isString).Limit(store.MaxNameChars),
	dto.Field("storageLabel", nullable, isString).Limit(store.MaxNameChars),
	dto.Field("quotaSizeInBytes", nullable, dto.As(dto.IsNumber()), dto.As(dto.IsPositive())).Whole(),
	dto.Field("shouldChangePassword", optionalBool),
	dto.Field("notify", optional, dto.As(dto.IsBoolean())),
)

// APIKeyCreateDto: POST /api/api-keys.
var apiKeyCreateBody = dto.NewClass("APIKeyCreateDto",
	dto.Field("name", isString, isNotEmpty, optional).Limit(store.MaxNameChars),
)

// AssetBulkUploadCheckItem and AssetBulkUploadCheckDto: POST
// /api/asset/bulk-upload-check.
var (
	bulkUploadCheckItem = dto.NewClass("AssetBulkUploadCheckItem",
		dto.Field("id", isString, isNotEmpty),
		dto.Field("checksum", isString, isNotEmpty),
	)
	bulkUploadCheckBody = dto.NewClass("AssetBulkUploadCheckDto",
		dto.Field("assets", isArray, dto.ValidateNested(bulkUploadCheckItem, true)),
	).Within(listBody)
)

// SignUpDto: POST /api/auth/admin-sign-up (LoginCredentialDto's members,
// then name).
var signUpBody = dto.NewClass("SignUpDto",
	dto.Field("name", isString, isNotEmpty).Limit(store.MaxNameChars),
	dto.Field("email", isEmail, toEmail, isNotEmpty),
	dto.Field("password", isString, isNotEmpty).Limit(store.MaxPasswordChars),
)

// ChangePasswordDto: POST /api/auth/change-password.
var changePasswordBody = dto.NewClass("ChangePasswordDto",
	dto.Field("password", isString, isNotEmpty).Limit(store.MaxPasswordChars),
	dto.Field("newPassword", isString, isNotEmpty, dto.As(dto.MinLength(8))).Limit(store.MaxPasswordChars),
)

// UserUpdateMeDto: PUT /api/users/me.
var userUpdateMeBody = dto.NewClass("UserUpdateMeDto",
	dto.Field("email", optional, isEmail, toEmail),
	dto.Field("password", optional, isNotEmpty, isString).Limit(store.MaxPasswordChars),
	dto.Field("name", optional, isString, isNotEmpty).Limit(store.MaxNameChars),
)

// UserAdminUpdateDto: PUT /api/admin/users/{id}.
var userAdminUpdateBody = dto.NewClass("UserAdminUpdateDto",
	dto.Field("email", optional, isEmail, toEmail),
	dto.Field("password", optional, isNotEmpty, isString).Limit(store.MaxPasswordChars),
	dto.Field("name", optional, isString, isNotEmpty).Limit(store.MaxNameChars),
	dto.Field("storageLabel", nullable, isString).Limit(store.MaxNameChars),
	dto.Field("shouldChangePassword", optionalBool),
	dto.Field("quotaSizeInBytes", nullable, dto.As(dto.IsNumber()), dto.As(dto.IsPositive())).Whole(),
)

// UserAdminDeleteDto: DELETE /api/admin/users/{id}.
var userAdminDeleteBody = dto.NewClass("UserAdminDeleteDto",
	dto.Field("force", optionalBool),
)

// UserPreferencesUpdateDto, with its AvatarUpdate and MemoryUpdate: PUT
// /api/users/me/preferences and /api/admin/users/{id}/preferences.
var (
	avatarUpdate = dto.NewClass("AvatarUpdate",
		dto.Field("color", optional, dto.As(dto.IsEnum(model.AvatarColors()...))),
	)
	memoryUpdate = dto.NewClass("MemoryUpdate",
		dto.Field("enabled", optionalBool),
	)
	preferencesUpdateBody = dto.NewClass("UserPreferencesUpdateDto",
		dto.Field("avatar", optional, dto.ValidateNested(avatarUpdate, false)),
		dto.Field("memories", optional, dto.ValidateNested(memoryUpdate, false)),
	)
)

// APIKeyUpdateDto: PUT /api/api-keys/{id}.
var apiKeyUpdateBody = dto.NewClass("APIKeyUpdateDto",
	dto.Field("name", isString, isNotEmpty).Limit(store.MaxNameChars),
)

// AdminOnboardingUpdateDto: POST /api/system-metadata/admin-onboarding.
var adminOnboardingBody = dto.NewClass("AdminOnboardingUpdateDto",
	dto.Field("isOnboarded", dto.As(dto.IsBoolean())),
)

// UpdateAlbumDto: PATCH /api/albums/{id}.
var updateAlbumBody = dto.NewClass("UpdateAlbumDto",
	dto.Field("albumName", optional, isString).Limit(store.MaxNameChars),
	dto.Field("description", optional, isString).Limit(store.MaxDescriptionChars),
	dto.Field("albumThumbnailAssetId", optionalUUID),
	dto.Field("isActivityEnabled", optionalBool),
	dto.Field("order", dto.As(dto.IsEnum("asc", "desc")), optional),
)

// AlbumUserAddDto and AddUsersDto: PUT /api/albums/{id}/users. The
// reference judges only that the list is not empty (and fails with a 500
// on a bad user id or role); the mock judges each user as the DTO
// declares it, the role optional (editor when absent, as there).
var (
	albumUserAdd = dto.NewClass("AlbumUserAddDto",
		dto.Field("userId", dto.ValidateUUID(dto.ValidateUUIDOptions{})),
		dto.Field("role", dto.As(dto.IsEnum(model.RoleEditor, model.RoleViewer)), optional),
	)
	addUsersBody = dto.NewClass("AddUsersDto",
		dto.Field("albumUsers", dto.As(dto.ArrayNotEmpty()), dto.ValidateNested(albumUserAdd, true)),
	).Within(listBody)
)

// UpdateAlbumUserDto: PUT /api/albums/{id}/user/{userId}.
var updateAlbumUserBody = dto.NewClass("UpdateAlbumUserDto",
	dto.Field("role", dto.As(dto.IsEnum(model.RoleEditor, model.RoleViewer))),
)

// hasGPS is the upstream's ValidateGPS: a position is judged when either
// of its members is given.
var hasGPS = dto.ValidateIf(func(o dto.Body) bool { return o.Has("latitude") || o.Has("longitude") })

// updateAssetBase is UpdateAssetBase's members, which UpdateAssetDto and
// AssetBulkUpdateDto extend (their own members are judged first).
var updateAssetBase = []dto.Property{
	dto.Field("isFavorite", optionalBool),
	dto.Field("isArchived", optionalBool),
	dto.Field("dateTimeOriginal", optional, dto.As(dto.IsDateString())),
	dto.Field("latitude", hasGPS, dto.As(dto.IsLatitude()), isNotEmpty),
	dto.Field("longitude", hasGPS, dto.As(dto.IsLongitude()), isNotEmpty),
}

// UpdateAssetDto: PUT /api/asset/{id}.
var updateAssetBody = dto.NewClass("UpdateAssetDto", append([]dto.Property{
	dto.Field("description", optional, isString).Limit(store.MaxDescriptionChars),
}, updateAssetBase...)...)

// AssetBulkUpdateDto: PUT /api/asset.
var bulkUpdateAssetsBody = dto.NewClass("AssetBulkUpdateDto", append([]dto.Property{
	dto.Field("ids", uuids),
	dto.Field("stackParentId", optionalUUID),
	dto.Field("removeParent", optionalBool),
	dto.Field("duplicateId", optional),
}, updateAssetBase...)...).Within(listBody)

// UpdateStackParentDto: PUT /api/asset/stack/parent.
var updateStackParentBody = dto.NewClass("UpdateStackParentDto",
	dto.Field("oldParentId", dto.ValidateUUID(dto.ValidateUUIDOptions{})),
	dto.Field("newParentId", dto.ValidateUUID(dto.ValidateUUIDOptions{})),
)

// AssetBulkDeleteDto: DELETE /api/asset (its own member, then BulkIdsDto's).
var bulkDeleteAssetsBody = dto.NewClass("AssetBulkDeleteDto",
	dto.Field("force", optionalBool),
	dto.Field("ids", uuids),
).Within(listBody)

// UpdatePartnerDto: PUT /api/partners/{id}. The reference asks only that
// inTimeline is there; the mock asks for a boolean, as it is stored.
var updatePartnerBody = dto.NewClass("UpdatePartnerDto",
	dto.Field("inTimeline", isNotEmpty).Boolean(),
)

// PersonCreateDto: POST /api/people.
var personCreateBody = dto.NewClass("PersonCreateDto",
	dto.Field("name", optional, isString).Limit(store.MaxNameChars),
	dto.Field("birthDate", dto.ValidateDate(dto.ValidateDateOptions{Optional: true, Nullable: true})),
	dto.Field("isHidden", optionalBool),
)

// randomQuery is RandomAssetsDto: GET /api/asset/random's count.
var randomQuery = dto.NewClass("RandomAssetsDto",
	dto.Field("count", optional, dto.As(dto.IsInt()), dto.As(dto.IsPositive()), dto.TypeNumber()),
)

// memoryLaneQuery is MemoryLaneDto: GET /api/asset/memory-lane's day and
// month.
var memoryLaneQuery = dto.NewClass("MemoryLaneDto",
	dto.Field("day", dto.As(dto.IsInt()), dto.TypeNumber(), dto.As(dto.Max(31)), dto.As(dto.Min(1))),
	dto.Field("month", dto.As(dto.IsInt()), dto.TypeNumber(), dto.As(dto.Max(12)), dto.As(dto.Min(1))),
)
