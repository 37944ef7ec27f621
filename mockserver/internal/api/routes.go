package api

import (
	"net/http"
	"slices"
)

// route is one operation of the server: its pattern (method and path, as
// http.ServeMux reads it), who may call it (policy: anyone, a user, an
// admin, a user or a link's holder, or a link's key), and what it does.
// Tests iterate the table: every route is in the OpenAPI document or named
// as outside it, and each refuses the callers its policy refuses.
type route struct {
	pattern string
	policy  policy
	op      operation
	wrap    func(http.Handler) http.Handler // around its handler, if any
}

// handler is the route's operation behind its policy.
func (r route) handler(s *server) http.Handler {
	h := s.as(r.policy, r.op)
	if r.wrap != nil {
		h = r.wrap(h)
	}
	return h
}

// routes registers every route of the table.
func (s *server) routes() {
	for _, r := range s.routeTable() {
		s.route(r.pattern, r.handler(s))
	}
}

// routeTable is the one place that maps paths to operations, each with
// its policy; the control API's routes but with Config.NoControl. Each area
// of the API lists its routes in a function of its own.
func (s *server) routeTable() []route {
	table := slices.Concat(s.sharedLinkRoutes(), s.serverRoutes(), s.assetRoutes(), s.downloadRoutes(),
		s.authRoutes(), s.userRoutes(), s.albumRoutes(), s.activityRoutes(), s.peopleRoutes(), s.searchRoutes(), s.faceRoutes(),
		s.jobRoutes(), s.syncRoutes(), s.memoryRoutes(), s.libraryRoutes())
	if s.cfg.NoControl {
		return table
	}
	return append(table, s.controlRoutes()...)
}

// sharedLinkRoutes are the heart of the contract and the shared links around it.
func (s *server) sharedLinkRoutes() []route {
	return []route{
		// The heart of the contract.
		{pattern: "POST /api/asset/upload", policy: userOrLinkKey, op: s.upload},
		{pattern: "GET /api/shared-links", policy: user, op: s.sharedLinks},

		// Shared links.
		{pattern: "POST /api/shared-links", policy: user, op: s.withBody(sharedLinkCreateBody, s.createSharedLink)},
		{pattern: "GET /api/shared-links/me", policy: linkKey, op: s.mySharedLink},
		{pattern: "GET /api/shared-links/{id}", policy: user, op: s.sharedLink},
		{pattern: "PATCH /api/shared-links/{id}", policy: user, op: s.withBody(sharedLinkEditBody, s.updateSharedLink)},
		{pattern: "DELETE /api/shared-links/{id}", policy: user, op: s.removeSharedLink},
		{pattern: "PUT /api/shared-links/{id}/assets", policy: userOrLink, op: s.withBody(assetIDsBody, s.sharedLinkAssets(true))},
		{pattern: "DELETE /api/shared-links/{id}/assets", policy: userOrLink, op: s.withBody(assetIDsBody, s.sharedLinkAssets(false))},
	}
}

// serverRoutes are the server's own: its version, features and settings for clients, its pages and documents, and live events.
func (s *server) serverRoutes() []route {
	return []route{
		{pattern: "GET /.well-known/immich", policy: anyone, op: wellKnown},
		{pattern: "GET /api/server-info/ping", policy: anyone, op: ping},
		{pattern: "GET /api/server-info/version", policy: anyone, op: version},
		{pattern: "GET /api/server-info/media-types", policy: anyone, op: mediaTypes},
		{pattern: "GET /api/server-info/config", policy: anyone, op: s.serverConfig},
		{pattern: "GET /api/server-info/features", policy: anyone, op: s.serverFeatures},
		{pattern: "GET /api/server-info/theme", policy: anyone, op: s.serverTheme},
		{pattern: "GET /api/server-info/storage", policy: user, op: s.serverStorage},
		{pattern: "GET /api/server-info/statistics", policy: admin, op: s.serverStatistics},
		{pattern: "GET /custom.css", policy: anyone, op: s.customCSS},
		{pattern: "GET /share/{key}", policy: anyone, op: s.sharePage}, // the key is in the path
		{pattern: "GET /api/system-metadata/admin-onboarding", policy: admin, op: s.adminOnboarding},
		{pattern: "POST /api/system-metadata/admin-onboarding", policy: admin, op: s.withBody(adminOnboardingBody, s.updateAdminOnboarding)},
		{pattern: "GET /api/openapi.json", policy: anyone, op: s.specJSON},
		{pattern: "GET /api/openapi.yaml", policy: anyone, op: s.specYAML},

		// Live events (socket.io): the endpoint checks the credentials itself,
		// as the reference's gateway does. Without its slash, no route (the
		// mux would redirect it).
		{pattern: "/api/socket.io/", policy: anyone, op: s.liveSocket},
		{pattern: "/api/socket.io", policy: anyone, op: noRoute},
	}
}

// assetRoutes are the assets, their pictures, the trash, the timeline, partners and the people made by hand.
func (s *server) assetRoutes() []route {
	return []route{
		{pattern: "POST /api/asset/bulk-upload-check", policy: user, op: s.bulkUploadCheck},
		{pattern: "GET /api/asset/statistics", policy: user, op: s.assetStatistics},
		{pattern: "GET /api/asset/random", policy: user, op: s.randomAssets},
		{pattern: "GET /api/asset/memory-lane", policy: user, op: s.memoryLane},
		{pattern: "PUT /api/asset", policy: user, op: s.withBody(bulkUpdateAssetsBody, s.updateAssets)},
		{pattern: "DELETE /api/asset", policy: user, op: s.withBody(bulkDeleteAssetsBody, s.deleteAssets)},
		{pattern: "PUT /api/asset/stack/parent", policy: user, op: s.withBody(updateStackParentBody, s.updateStackParent)},
		{pattern: "GET /api/asset/{id}", policy: userOrLink, op: s.asset},
		{pattern: "PUT /api/asset/{id}", policy: user, op: s.withBody(updateAssetBody, s.updateAsset)},
		{pattern: "POST /api/trash/empty", policy: user, op: s.emptyTrash},
		{pattern: "POST /api/trash/restore", policy: user, op: s.restoreTrash(true)},
		{pattern: "POST /api/trash/restore/assets", policy: user, op: s.restoreTrash(false)},
		{pattern: "GET /api/timeline/buckets", policy: userOrLink, op: s.timeBuckets},
		{pattern: "GET /api/timeline/bucket", policy: userOrLink, op: s.timeBucket},
		{pattern: "GET /api/partners", policy: user, op: s.partners},
		{pattern: "POST /api/partners/{id}", policy: user, op: s.createPartner},
		{pattern: "PUT /api/partners/{id}", policy: user, op: s.withBody(updatePartnerBody, s.updatePartner)},
		{pattern: "DELETE /api/partners/{id}", policy: user, op: s.removePartner},
		{pattern: "POST /api/people", policy: user, op: s.withBody(personCreateBody, s.createPerson)},
		{pattern: "GET /api/asset/thumbnail/{id}", policy: userOrLink, op: s.picture(false), wrap: noCacheOnError},
		{pattern: "GET /api/asset/file/{id}", policy: userOrLink, op: s.picture(true), wrap: noCacheOnError},
	}
}

// downloadRoutes are the downloads: what a selection holds, its archive, one original.
func (s *server) downloadRoutes() []route {
	return []route{
		{pattern: "POST /api/download/info", policy: userOrLink, op: s.withBody(downloadInfoBody, s.downloadInfo)},
		{pattern: "POST /api/download/archive", policy: userOrLink, op: s.withBody(assetIDsBody, s.downloadArchive)},
		{pattern: "POST /api/download/asset/{id}", policy: userOrLink, op: s.downloadAsset, wrap: noCacheOnError},
	}
}

// authRoutes are logging in and out, sessions and API keys.
func (s *server) authRoutes() []route {
	return []route{
		{pattern: "POST /api/auth/login", policy: anyone, op: s.withBody(loginBody, s.login)},
		{pattern: "POST /api/auth/admin-sign-up", policy: anyone, op: s.withBody(signUpBody, s.signUpAdmin)},
		{pattern: "POST /api/auth/validateToken", policy: user, op: validateToken},
		{pattern: "POST /api/auth/change-password", policy: user, op: s.withBody(changePasswordBody, s.changePassword)},
		{pattern: "POST /api/auth/logout", policy: user, op: s.logout},
		{pattern: "GET /api/sessions", policy: user, op: s.sessions},
		{pattern: "DELETE /api/sessions", policy: user, op: s.deleteSessions},
		{pattern: "DELETE /api/sessions/{id}", policy: user, op: s.deleteSession},
		{pattern: "GET /api/api-keys", policy: user, op: s.apiKeys},
		{pattern: "POST /api/api-keys", policy: user, op: s.withBody(apiKeyCreateBody, s.createAPIKey)},
		{pattern: "GET /api/api-keys/{id}", policy: user, op: s.apiKey},
		{pattern: "PUT /api/api-keys/{id}", policy: user, op: s.withBody(apiKeyUpdateBody, s.updateAPIKey)},
		{pattern: "DELETE /api/api-keys/{id}", policy: user, op: s.deleteAPIKey},
	}
}

// userRoutes are the users, as themselves and as an admin sees them.
func (s *server) userRoutes() []route {
	return []route{
		{pattern: "GET /api/users", policy: user, op: s.users},
		{pattern: "GET /api/users/me", policy: user, op: s.myUser},
		{pattern: "PUT /api/users/me", policy: user, op: s.withBody(userUpdateMeBody, s.updateMyUser)},
		{pattern: "GET /api/users/me/preferences", policy: user, op: s.myPreferences},
		{pattern: "PUT /api/users/me/preferences", policy: user, op: s.withBody(preferencesUpdateBody, s.updateMyPreferences)},
		{pattern: "POST /api/users/profile-image", policy: user, op: s.createProfileImage},
		{pattern: "DELETE /api/users/profile-image", policy: user, op: s.deleteProfileImage},
		{pattern: "GET /api/users/{id}", policy: user, op: s.user},
		{pattern: "GET /api/users/{id}/profile-image", policy: user, op: s.profileImage, wrap: noCacheOnError},
		{pattern: "GET /api/admin/users", policy: admin, op: s.usersAdmin},
		{pattern: "POST /api/admin/users", policy: admin, op: s.withBody(userAdminCreateBody, s.createUserAdmin)},
		{pattern: "GET /api/admin/users/{id}", policy: admin, op: s.userAdmin},
		{pattern: "PUT /api/admin/users/{id}", policy: admin, op: s.withBody(userAdminUpdateBody, s.updateUserAdmin)},
		{pattern: "DELETE /api/admin/users/{id}", policy: admin, op: s.withBody(userAdminDeleteBody, s.deleteUserAdmin)},
		{pattern: "POST /api/admin/users/{id}/restore", policy: admin, op: s.restoreUserAdmin},
		{pattern: "GET /api/admin/users/{id}/preferences", policy: admin, op: s.userPreferencesAdmin},
		{pattern: "PUT /api/admin/users/{id}/preferences", policy: admin, op: s.withBody(preferencesUpdateBody, s.updateUserPreferencesAdmin)},
	}
}

// albumRoutes are the albums, their assets and their users.
func (s *server) albumRoutes() []route {
	return []route{
		{pattern: "GET /api/albums", policy: user, op: s.albums},
		{pattern: "POST /api/albums", policy: user, op: s.withBody(createAlbumBody, s.createAlbum)},
		{pattern: "GET /api/albums/count", policy: user, op: s.albumCount},
		{pattern: "GET /api/albums/{id}", policy: userOrLink, op: s.album},
		{pattern: "PATCH /api/albums/{id}", policy: user, op: s.withBody(updateAlbumBody, s.updateAlbum)},
		{pattern: "DELETE /api/albums/{id}", policy: user, op: s.deleteAlbum},
		{pattern: "PUT /api/albums/{id}/assets", policy: userOrLink, op: s.withBody(bulkIDsBody, s.addAlbumAssets)},
		{pattern: "DELETE /api/albums/{id}/assets", policy: user, op: s.withBody(bulkIDsBody, s.removeAlbumAssets)},
		{pattern: "PUT /api/albums/{id}/users", policy: user, op: s.withBody(addUsersBody, s.addAlbumUsers)},
		{pattern: "PUT /api/albums/{id}/user/{userId}", policy: user, op: s.withBody(updateAlbumUserBody, s.updateAlbumUser)},
		{pattern: "DELETE /api/albums/{id}/user/{userId}", policy: user, op: s.removeAlbumUser},
	}
}

// syncRoutes are the mobile app's sync, the audit of deletions it reads,
// and OAuth (off, as on the reference).
func (s *server) syncRoutes() []route {
	return []route{
		{pattern: "POST /api/sync/full-sync", policy: user, op: s.withBody(fullSyncBody, s.fullSync)},
		{pattern: "POST /api/sync/delta-sync", policy: user, op: s.withBody(deltaSyncBody, s.deltaSync)},
		{pattern: "GET /api/audit/deletes", policy: user, op: s.auditDeletes},
		{pattern: "POST /api/oauth/authorize", policy: anyone, op: s.withBody(oauthConfigBody, s.oauthAuthorize)},
		{pattern: "POST /api/oauth/callback", policy: anyone, op: s.withBody(oauthCallbackBody, s.oauthCallback)},
		{pattern: "POST /api/oauth/link", policy: user, op: s.withBody(oauthCallbackBody, s.oauthLink)},
		{pattern: "POST /api/oauth/unlink", policy: user, op: s.oauthUnlink},
		{pattern: "GET /api/oauth/mobile-redirect", policy: anyone, op: s.oauthMobileRedirect},
	}
}

// activityRoutes are the activities of shared albums and the server's settings.
func (s *server) activityRoutes() []route {
	return []route{
		{pattern: "GET /api/activities", policy: user, op: s.activities},
		{pattern: "POST /api/activities", policy: user, op: s.withBody(activityCreateBody, s.createActivity)},
		{pattern: "GET /api/activities/statistics", policy: user, op: s.activityStatistics},
		{pattern: "DELETE /api/activities/{id}", policy: user, op: s.deleteActivity},
		{pattern: "GET /api/system-config", policy: admin, op: s.systemConfig},
		{pattern: "PUT /api/system-config", policy: admin, op: s.withBody(systemConfigBody, s.updateSystemConfig)},
		{pattern: "GET /api/system-config/defaults", policy: admin, op: systemConfigDefaults},
		{pattern: "GET /api/system-config/storage-template-options", policy: admin, op: storageTemplateOptions},
	}
}

// peopleRoutes are the people found in the assets.
func (s *server) peopleRoutes() []route {
	return []route{
		{pattern: "GET /api/people", policy: user, op: s.people},
		{pattern: "PUT /api/people", policy: user, op: s.withBody(s.peopleUpdateBody(), s.updatePeople)},
		{pattern: "GET /api/people/{id}", policy: user, op: s.person},
		{pattern: "PUT /api/people/{id}", policy: user, op: s.withBody(s.personUpdateBody(), s.updatePerson)},
		{pattern: "GET /api/people/{id}/statistics", policy: user, op: s.personStatistics},
		{pattern: "GET /api/people/{id}/assets", policy: user, op: s.personAssets},
		{pattern: "GET /api/people/{id}/thumbnail", policy: user, op: s.personThumbnail, wrap: noCacheOnError},
	}
}

// searchRoutes are search and the map.
func (s *server) searchRoutes() []route {
	return []route{
		{pattern: "POST /api/search/metadata", policy: user, op: s.withBody(metadataSearchBody, s.searchMetadata)},
		{pattern: "POST /api/search/smart", policy: user, op: s.withBody(smartSearchBody, s.searchSmart)},
		{pattern: "GET /api/search/explore", policy: user, op: s.searchExplore},
		{pattern: "GET /api/search/cities", policy: user, op: s.searchCities},
		{pattern: "GET /api/search/suggestions", policy: user, op: s.searchSuggestions},
		{pattern: "GET /api/search/person", policy: user, op: s.searchPerson},
		{pattern: "GET /api/map/markers", policy: user, op: s.mapMarkers},
		{pattern: "GET /api/map/style.json", policy: userOrLink, op: mapStyle},
	}
}

// memoryRoutes are the memories and the tags.
func (s *server) memoryRoutes() []route {
	return []route{
		{pattern: "GET /api/memories", policy: user, op: s.memories},
		{pattern: "POST /api/memories", policy: user, op: s.withMemoryCreateBody(s.createMemory)},
		{pattern: "GET /api/memories/{id}", policy: user, op: s.memory},
		{pattern: "PUT /api/memories/{id}", policy: user, op: s.withBody(memoryUpdateBody, s.updateMemory)},
		{pattern: "DELETE /api/memories/{id}", policy: user, op: s.deleteMemory},
		{pattern: "PUT /api/memories/{id}/assets", policy: user, op: s.withBody(bulkIDsBody, s.memoryAssets(true))},
		{pattern: "DELETE /api/memories/{id}/assets", policy: user, op: s.withBody(bulkIDsBody, s.memoryAssets(false))},
		{pattern: "GET /api/tags", policy: user, op: s.tags},
		{pattern: "POST /api/tags", policy: user, op: s.withBody(createTagBody, s.createTag)},
		{pattern: "GET /api/tags/{id}", policy: user, op: s.tag},
		{pattern: "PATCH /api/tags/{id}", policy: user, op: s.withBody(updateTagBody, s.updateTag)},
		{pattern: "DELETE /api/tags/{id}", policy: user, op: s.deleteTag},
		{pattern: "GET /api/tags/{id}/assets", policy: user, op: s.tagAssets},
		{pattern: "PUT /api/tags/{id}/assets", policy: user, op: s.withBody(assetIDsBody, s.tagAssetsWith(true))},
		{pattern: "DELETE /api/tags/{id}/assets", policy: user, op: s.withBody(assetIDsBody, s.tagAssetsWith(false))},
	}
}

// controlRoutes are the control API (/__mock/), which tests and frontend developers use to set up state.
func (s *server) controlRoutes() []route {
	return []route{
		{pattern: "GET /__mock/users", policy: anyone, op: s.controlUsers},
		{pattern: "POST /__mock/users", policy: anyone, op: s.controlCreateUser},
		{pattern: "POST /__mock/shared-links", policy: user, op: s.controlCreateLink},
		{pattern: "GET /__mock/assets", policy: user, op: s.controlAssets},
		{pattern: "POST /__mock/faces", policy: anyone, op: s.controlCreateFace},
		{pattern: "PUT /__mock/people/{id}/thumbnail", policy: anyone, op: s.controlPersonThumbnail},
		{pattern: "POST /__mock/reset", policy: anyone, op: s.controlReset},
		{pattern: "GET /__mock/dataset", policy: anyone, op: s.controlDataset},
	}
}

// libraryRoutes are the external libraries, for admins only.
func (s *server) libraryRoutes() []route {
	return []route{
		{pattern: "GET /api/libraries", policy: admin, op: s.libraries},
		{pattern: "POST /api/libraries", policy: admin, op: s.withBody(createLibraryBody, s.createLibrary)},
		{pattern: "GET /api/libraries/{id}", policy: admin, op: s.library},
		{pattern: "PUT /api/libraries/{id}", policy: admin, op: s.withBody(updateLibraryBody, s.updateLibrary)},
		{pattern: "DELETE /api/libraries/{id}", policy: admin, op: s.deleteLibrary},
		{pattern: "POST /api/libraries/{id}/validate", policy: admin, op: s.withBody(validateLibraryBody, s.validateLibrary)},
		{pattern: "GET /api/libraries/{id}/statistics", policy: admin, op: s.libraryStatistics},
		{pattern: "POST /api/libraries/{id}/scan", policy: admin, op: s.withBody(scanLibraryBody, s.scanLibrary)},
		{pattern: "POST /api/libraries/{id}/removeOffline", policy: admin, op: s.removeOfflineFiles},
	}
}
