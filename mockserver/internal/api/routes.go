package api

import (
	"cmp"
	"net/http"
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
)

// route is one operation of the server: its pattern (method and path, as
// http.ServeMux reads it), who may call it (policy: anyone, a user, an
// admin, a user or a link's holder, or a link's key), and what it does:
// op, or, for an operation on a JSON body, the body's class and do, which
// is handed the body once it is judged. Tests iterate the table: every
// route is in the OpenAPI document or named as outside it, and each
// refuses the callers its policy refuses.
type route struct {
	pattern string
	policy  policy
	op      operation
	body    *dto.Class
	do      func(c *call, b dto.Body) error
	// order: which of a wrong body and a wrong {id} is answered. The
	// reference's pipes answer the argument its controller declares last:
	// for a JSON body, the body (bodyFirst, taken when order is not set),
	// but for the few that declare the body before the id (idFirst). An op
	// that reads its own body is let in with a wrong id only if it says
	// bodyFirst, and then judges call.badID itself.
	order judging
	wrap  func(http.Handler) http.Handler // around its handler, if any
}

// handler is the route's operation behind its policy.
func (r route) handler(s *server) http.Handler {
	var h http.Handler
	if r.body != nil {
		h = s.as(r.policy, s.withBody(r.body, r.do), cmp.Or(r.order, bodyFirst))
	} else {
		h = s.as(r.policy, r.op, cmp.Or(r.order, idFirst))
	}
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
		{pattern: "POST /api/shared-links", policy: user, body: sharedLinkCreateBody, do: s.createSharedLink},
		{pattern: "GET /api/shared-links/me", policy: linkKey, op: s.mySharedLink},
		{pattern: "GET /api/shared-links/{id}", policy: user, op: s.sharedLink},
		{pattern: "PATCH /api/shared-links/{id}", policy: user, body: sharedLinkEditBody, do: s.updateSharedLink},
		{pattern: "DELETE /api/shared-links/{id}", policy: user, op: s.removeSharedLink},
		{pattern: "PUT /api/shared-links/{id}/assets", policy: userOrLink, body: assetIDsBody, do: s.sharedLinkAssets(true)},
		{pattern: "DELETE /api/shared-links/{id}/assets", policy: userOrLink, body: assetIDsBody, do: s.sharedLinkAssets(false)},
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
		{pattern: "POST /api/system-metadata/admin-onboarding", policy: admin, body: adminOnboardingBody, do: s.updateAdminOnboarding},
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
		{pattern: "PUT /api/asset", policy: user, body: bulkUpdateAssetsBody, do: s.updateAssets},
		{pattern: "DELETE /api/asset", policy: user, body: bulkDeleteAssetsBody, do: s.deleteAssets},
		{pattern: "PUT /api/asset/stack/parent", policy: user, body: updateStackParentBody, do: s.updateStackParent},
		{pattern: "GET /api/asset/{id}", policy: userOrLink, op: s.asset},
		{pattern: "PUT /api/asset/{id}", policy: user, body: updateAssetBody, do: s.updateAsset},
		{pattern: "POST /api/trash/empty", policy: user, op: s.emptyTrash},
		{pattern: "POST /api/trash/restore", policy: user, op: s.restoreTrash(true)},
		{pattern: "POST /api/trash/restore/assets", policy: user, op: s.restoreTrash(false)},
		{pattern: "GET /api/timeline/buckets", policy: userOrLink, op: s.timeBuckets},
		{pattern: "GET /api/timeline/bucket", policy: userOrLink, op: s.timeBucket},
		{pattern: "GET /api/partners", policy: user, op: s.partners},
		{pattern: "POST /api/partners/{id}", policy: user, op: s.createPartner},
		{pattern: "PUT /api/partners/{id}", policy: user, body: updatePartnerBody, do: s.updatePartner},
		{pattern: "DELETE /api/partners/{id}", policy: user, op: s.removePartner},
		{pattern: "POST /api/people", policy: user, body: personCreateBody, do: s.createPerson},
		{pattern: "GET /api/asset/thumbnail/{id}", policy: userOrLink, op: s.picture(false), wrap: noCacheOnError},
		{pattern: "GET /api/asset/file/{id}", policy: userOrLink, op: s.picture(true), wrap: noCacheOnError},
	}
}

// downloadRoutes are the downloads: what a selection holds, its archive, one original.
func (s *server) downloadRoutes() []route {
	return []route{
		{pattern: "POST /api/download/info", policy: userOrLink, body: downloadInfoBody, do: s.downloadInfo},
		{pattern: "POST /api/download/archive", policy: userOrLink, body: assetIDsBody, do: s.downloadArchive},
		{pattern: "POST /api/download/asset/{id}", policy: userOrLink, op: s.downloadAsset, wrap: noCacheOnError},
	}
}

// authRoutes are logging in and out, sessions and API keys.
func (s *server) authRoutes() []route {
	return []route{
		{pattern: "POST /api/auth/login", policy: anyone, body: loginBody, do: s.login},
		{pattern: "POST /api/auth/admin-sign-up", policy: anyone, body: signUpBody, do: s.signUpAdmin},
		{pattern: "POST /api/auth/validateToken", policy: user, op: validateToken},
		{pattern: "POST /api/auth/change-password", policy: user, body: changePasswordBody, do: s.changePassword},
		{pattern: "POST /api/auth/logout", policy: user, op: s.logout},
		{pattern: "GET /api/sessions", policy: user, op: s.sessions},
		{pattern: "DELETE /api/sessions", policy: user, op: s.deleteSessions},
		{pattern: "DELETE /api/sessions/{id}", policy: user, op: s.deleteSession},
		{pattern: "GET /api/api-keys", policy: user, op: s.apiKeys},
		{pattern: "POST /api/api-keys", policy: user, body: apiKeyCreateBody, do: s.createAPIKey},
		{pattern: "GET /api/api-keys/{id}", policy: user, op: s.apiKey},
		{pattern: "PUT /api/api-keys/{id}", policy: user, body: apiKeyUpdateBody, do: s.updateAPIKey},
		{pattern: "DELETE /api/api-keys/{id}", policy: user, op: s.deleteAPIKey},
	}
}

// userRoutes are the users, as themselves and as an admin sees them.
func (s *server) userRoutes() []route {
	return []route{
		{pattern: "GET /api/users", policy: user, op: s.users},
		{pattern: "GET /api/users/me", policy: user, op: s.myUser},
		{pattern: "PUT /api/users/me", policy: user, body: userUpdateMeBody, do: s.updateMyUser},
		{pattern: "GET /api/users/me/preferences", policy: user, op: s.myPreferences},
		{pattern: "PUT /api/users/me/preferences", policy: user, body: preferencesUpdateBody, do: s.updateMyPreferences},
		{pattern: "POST /api/users/profile-image", policy: user, op: s.createProfileImage},
		{pattern: "DELETE /api/users/profile-image", policy: user, op: s.deleteProfileImage},
		{pattern: "GET /api/users/{id}", policy: user, op: s.user},
		{pattern: "GET /api/users/{id}/profile-image", policy: user, op: s.profileImage, wrap: noCacheOnError},
		{pattern: "GET /api/admin/users", policy: admin, op: s.usersAdmin},
		{pattern: "POST /api/admin/users", policy: admin, body: userAdminCreateBody, do: s.createUserAdmin},
		{pattern: "GET /api/admin/users/{id}", policy: admin, op: s.userAdmin},
		{pattern: "PUT /api/admin/users/{id}", policy: admin, body: userAdminUpdateBody, do: s.updateUserAdmin},
		{pattern: "DELETE /api/admin/users/{id}", policy: admin, body: userAdminDeleteBody, do: s.deleteUserAdmin},
		{pattern: "POST /api/admin/users/{id}/restore", policy: admin, op: s.restoreUserAdmin},
		{pattern: "GET /api/admin/users/{id}/preferences", policy: admin, op: s.userPreferencesAdmin},
		{pattern: "PUT /api/admin/users/{id}/preferences", policy: admin, body: preferencesUpdateBody, do: s.updateUserPreferencesAdmin},
	}
}

// albumRoutes are the albums, their assets and their users.
func (s *server) albumRoutes() []route {
	return []route{
		{pattern: "GET /api/albums", policy: user, op: s.albums},
		{pattern: "POST /api/albums", policy: user, body: createAlbumBody, do: s.createAlbum},
		{pattern: "GET /api/albums/count", policy: user, op: s.albumCount},
		{pattern: "GET /api/albums/{id}", policy: userOrLink, op: s.album},
		{pattern: "PATCH /api/albums/{id}", policy: user, body: updateAlbumBody, do: s.updateAlbum},
		{pattern: "DELETE /api/albums/{id}", policy: user, op: s.deleteAlbum},
		{pattern: "PUT /api/albums/{id}/assets", policy: userOrLink, body: bulkIDsBody, do: s.addAlbumAssets},
		{pattern: "DELETE /api/albums/{id}/assets", policy: user, body: bulkIDsBody, do: s.removeAlbumAssets, order: idFirst},
		{pattern: "PUT /api/albums/{id}/users", policy: user, body: addUsersBody, do: s.addAlbumUsers},
		{pattern: "PUT /api/albums/{id}/user/{userId}", policy: user, body: updateAlbumUserBody, do: s.updateAlbumUser},
		{pattern: "DELETE /api/albums/{id}/user/{userId}", policy: user, op: s.removeAlbumUser},
	}
}

// syncRoutes are the mobile app's sync, the audit of deletions it reads,
// and OAuth (off, as on the reference).
func (s *server) syncRoutes() []route {
	return []route{
		{pattern: "POST /api/sync/full-sync", policy: user, body: fullSyncBody, do: s.fullSync},
		{pattern: "POST /api/sync/delta-sync", policy: user, body: deltaSyncBody, do: s.deltaSync},
		{pattern: "GET /api/audit/deletes", policy: user, op: s.auditDeletes},
		{pattern: "POST /api/oauth/authorize", policy: anyone, body: oauthConfigBody, do: s.oauthAuthorize},
		{pattern: "POST /api/oauth/callback", policy: anyone, body: oauthCallbackBody, do: s.oauthCallback},
		{pattern: "POST /api/oauth/link", policy: user, body: oauthCallbackBody, do: s.oauthLink},
		{pattern: "POST /api/oauth/unlink", policy: user, op: s.oauthUnlink},
		{pattern: "GET /api/oauth/mobile-redirect", policy: anyone, op: s.oauthMobileRedirect},
	}
}

// activityRoutes are the activities of shared albums and the server's settings.
func (s *server) activityRoutes() []route {
	return []route{
		{pattern: "GET /api/activities", policy: user, op: s.activities},
		{pattern: "POST /api/activities", policy: user, body: activityCreateBody, do: s.createActivity},
		{pattern: "GET /api/activities/statistics", policy: user, op: s.activityStatistics},
		{pattern: "DELETE /api/activities/{id}", policy: user, op: s.deleteActivity},
		{pattern: "GET /api/system-config", policy: admin, op: s.systemConfig},
		{pattern: "PUT /api/system-config", policy: admin, body: systemConfigBody, do: s.updateSystemConfig},
		{pattern: "GET /api/system-config/defaults", policy: admin, op: systemConfigDefaults},
		{pattern: "GET /api/system-config/storage-template-options", policy: admin, op: storageTemplateOptions},
	}
}

// peopleRoutes are the people found in the assets.
func (s *server) peopleRoutes() []route {
	return []route{
		{pattern: "GET /api/people", policy: user, op: s.people},
		{pattern: "PUT /api/people", policy: user, body: s.peopleUpdateBody(), do: s.updatePeople},
		{pattern: "GET /api/people/{id}", policy: user, op: s.person},
		{pattern: "PUT /api/people/{id}", policy: user, body: s.personUpdateBody(), do: s.updatePerson},
		{pattern: "GET /api/people/{id}/statistics", policy: user, op: s.personStatistics},
		{pattern: "GET /api/people/{id}/assets", policy: user, op: s.personAssets},
		{pattern: "GET /api/people/{id}/thumbnail", policy: user, op: s.personThumbnail, wrap: noCacheOnError},
	}
}

// searchRoutes are search and the map.
func (s *server) searchRoutes() []route {
	return []route{
		{pattern: "POST /api/search/metadata", policy: user, body: metadataSearchBody, do: s.searchMetadata},
		{pattern: "POST /api/search/smart", policy: user, body: smartSearchBody, do: s.searchSmart},
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
		{pattern: "PUT /api/memories/{id}", policy: user, body: memoryUpdateBody, do: s.updateMemory},
		{pattern: "DELETE /api/memories/{id}", policy: user, op: s.deleteMemory},
		{pattern: "PUT /api/memories/{id}/assets", policy: user, body: bulkIDsBody, do: s.memoryAssets(true)},
		{pattern: "DELETE /api/memories/{id}/assets", policy: user, body: bulkIDsBody, do: s.memoryAssets(false), order: idFirst},
		{pattern: "GET /api/tags", policy: user, op: s.tags},
		{pattern: "POST /api/tags", policy: user, body: createTagBody, do: s.createTag},
		{pattern: "GET /api/tags/{id}", policy: user, op: s.tag},
		{pattern: "PATCH /api/tags/{id}", policy: user, body: updateTagBody, do: s.updateTag},
		{pattern: "DELETE /api/tags/{id}", policy: user, op: s.deleteTag},
		{pattern: "GET /api/tags/{id}/assets", policy: user, op: s.tagAssets},
		{pattern: "PUT /api/tags/{id}/assets", policy: user, body: assetIDsBody, do: s.tagAssetsWith(true)},
		{pattern: "DELETE /api/tags/{id}/assets", policy: user, body: assetIDsBody, do: s.tagAssetsWith(false), order: idFirst},
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
		{pattern: "POST /api/libraries", policy: admin, body: createLibraryBody, do: s.createLibrary},
		{pattern: "GET /api/libraries/{id}", policy: admin, op: s.library},
		{pattern: "PUT /api/libraries/{id}", policy: admin, body: updateLibraryBody, do: s.updateLibrary},
		{pattern: "DELETE /api/libraries/{id}", policy: admin, op: s.deleteLibrary},
		{pattern: "POST /api/libraries/{id}/validate", policy: admin, body: validateLibraryBody, do: s.validateLibrary},
		{pattern: "GET /api/libraries/{id}/statistics", policy: admin, op: s.libraryStatistics},
		{pattern: "POST /api/libraries/{id}/scan", policy: admin, body: scanLibraryBody, do: s.scanLibrary},
		{pattern: "POST /api/libraries/{id}/removeOffline", policy: admin, op: s.removeOfflineFiles},
	}
}
