package mockserver

// routes is the one place that maps paths to operations, each with who may
// call it (policy): anyone, a user, an admin, a user or a link's holder,
// or a link's key.
func (s *server) routes() {
	// The heart of the contract.
	s.route("POST /api/asset/upload", s.as(userOrLinkKey, s.upload))
	s.route("GET /api/shared-links", s.as(user, s.sharedLinks))

	// Shared links.
	s.route("POST /api/shared-links", s.as(user, s.withBody(sharedLinkCreateBody, s.createSharedLink)))
	s.route("GET /api/shared-links/me", s.as(linkKey, s.mySharedLink))
	s.route("GET /api/shared-links/{id}", s.as(user, s.sharedLink))
	s.route("PATCH /api/shared-links/{id}", s.as(user, s.withBody(sharedLinkEditBody, s.updateSharedLink)))
	s.route("DELETE /api/shared-links/{id}", s.as(user, s.removeSharedLink))
	s.route("PUT /api/shared-links/{id}/assets", s.as(userOrLink, s.withBody(assetIDsBody, s.sharedLinkAssets(true))))
	s.route("DELETE /api/shared-links/{id}/assets", s.as(userOrLink, s.withBody(assetIDsBody, s.sharedLinkAssets(false))))

	// The server.
	s.route("GET /.well-known/immich", s.as(anyone, wellKnown))
	s.route("GET /api/server-info/ping", s.as(anyone, ping))
	s.route("GET /api/server-info/version", s.as(anyone, version))
	s.route("GET /api/server-info/media-types", s.as(anyone, mediaTypes))
	s.route("GET /api/server-info/config", s.as(anyone, s.serverConfig))
	s.route("GET /api/server-info/features", s.as(anyone, s.serverFeatures))
	s.route("GET /api/server-info/theme", s.as(anyone, s.serverTheme))
	s.route("GET /api/server-info/storage", s.as(user, s.serverStorage))
	s.route("GET /api/server-info/statistics", s.as(admin, s.serverStatistics))
	s.route("GET /custom.css", s.as(anyone, s.customCSS))
	s.route("GET /share/{key}", s.as(anyone, s.sharePage)) // the key is in the path
	s.route("GET /api/system-metadata/admin-onboarding", s.as(admin, s.adminOnboarding))
	s.route("POST /api/system-metadata/admin-onboarding", s.as(admin, s.withBody(adminOnboardingBody, s.updateAdminOnboarding)))
	s.route("GET /api/openapi.json", s.as(anyone, s.specJSON))
	s.route("GET /api/openapi.yaml", s.as(anyone, s.specYAML))

	// Live events (socket.io): the endpoint checks the credentials itself,
	// as the reference's gateway does. Without its slash, no route (the
	// mux would redirect it).
	s.route("/api/socket.io/", s.as(anyone, s.liveSocket))
	s.route("/api/socket.io", s.as(anyone, noRoute))

	// Assets.
	s.route("POST /api/asset/bulk-upload-check", s.as(user, s.bulkUploadCheck))
	s.route("GET /api/asset/statistics", s.as(user, s.assetStatistics))
	s.route("GET /api/asset/random", s.as(user, s.randomAssets))
	s.route("GET /api/asset/memory-lane", s.as(user, s.memoryLane))
	s.route("PUT /api/asset", s.as(user, s.withBody(bulkUpdateAssetsBody, s.updateAssets)))
	s.route("DELETE /api/asset", s.as(user, s.withBody(bulkDeleteAssetsBody, s.deleteAssets)))
	s.route("PUT /api/asset/stack/parent", s.as(user, s.withBody(updateStackParentBody, s.updateStackParent)))
	s.route("GET /api/asset/{id}", s.as(userOrLink, s.asset))
	s.route("PUT /api/asset/{id}", s.as(user, s.withBody(updateAssetBody, s.updateAsset)))
	s.route("POST /api/trash/empty", s.as(user, s.emptyTrash))
	s.route("POST /api/trash/restore", s.as(user, s.restoreTrash(true)))
	s.route("POST /api/trash/restore/assets", s.as(user, s.restoreTrash(false)))
	s.route("GET /api/timeline/buckets", s.as(userOrLink, s.timeBuckets))
	s.route("GET /api/timeline/bucket", s.as(userOrLink, s.timeBucket))
	s.route("GET /api/partners", s.as(user, s.partners))
	s.route("POST /api/partners/{id}", s.as(user, s.createPartner))
	s.route("PUT /api/partners/{id}", s.as(user, s.withBody(updatePartnerBody, s.updatePartner)))
	s.route("DELETE /api/partners/{id}", s.as(user, s.removePartner))
	s.route("POST /api/people", s.as(user, s.withBody(personCreateBody, s.createPerson)))
	s.route("GET /api/asset/thumbnail/{id}", noCacheOnError(s.as(userOrLink, s.picture(false))))
	s.route("GET /api/asset/file/{id}", noCacheOnError(s.as(userOrLink, s.picture(true))))

	// Downloads.
	s.route("POST /api/download/info", s.as(userOrLink, s.withBody(downloadInfoBody, s.downloadInfo)))
	s.route("POST /api/download/archive", s.as(userOrLink, s.withBody(assetIDsBody, s.downloadArchive)))
	s.route("POST /api/download/asset/{id}", noCacheOnError(s.as(userOrLink, s.downloadAsset)))

	// Logging in and out.
	s.route("POST /api/auth/login", s.as(anyone, s.withBody(loginBody, s.login)))
	s.route("POST /api/auth/admin-sign-up", s.as(anyone, s.withBody(signUpBody, s.signUpAdmin)))
	s.route("POST /api/auth/validateToken", s.as(user, validateToken))
	s.route("POST /api/auth/change-password", s.as(user, s.withBody(changePasswordBody, s.changePassword)))
	s.route("POST /api/auth/logout", s.as(user, s.logout))
	s.route("GET /api/sessions", s.as(user, s.sessions))
	s.route("DELETE /api/sessions", s.as(user, s.deleteSessions))
	s.route("DELETE /api/sessions/{id}", s.as(user, s.deleteSession))
	s.route("GET /api/api-keys", s.as(user, s.apiKeys))
	s.route("POST /api/api-keys", s.as(user, s.withBody(apiKeyCreateBody, s.createAPIKey)))
	s.route("GET /api/api-keys/{id}", s.as(user, s.apiKey))
	s.route("PUT /api/api-keys/{id}", s.as(user, s.withBody(apiKeyUpdateBody, s.updateAPIKey)))
	s.route("DELETE /api/api-keys/{id}", s.as(user, s.deleteAPIKey))

	// Users.
	s.route("GET /api/users", s.as(user, s.users))
	s.route("GET /api/users/me", s.as(user, s.myUser))
	s.route("PUT /api/users/me", s.as(user, s.withBody(userUpdateMeBody, s.updateMyUser)))
	s.route("GET /api/users/me/preferences", s.as(user, s.myPreferences))
	s.route("PUT /api/users/me/preferences", s.as(user, s.withBody(preferencesUpdateBody, s.updateMyPreferences)))
	s.route("POST /api/users/profile-image", s.as(user, s.createProfileImage))
	s.route("DELETE /api/users/profile-image", s.as(user, s.deleteProfileImage))
	s.route("GET /api/users/{id}", s.as(user, s.user))
	s.route("GET /api/users/{id}/profile-image", noCacheOnError(s.as(user, s.profileImage)))
	s.route("GET /api/admin/users", s.as(admin, s.usersAdmin))
	s.route("POST /api/admin/users", s.as(admin, s.withBody(userAdminCreateBody, s.createUserAdmin)))
	s.route("GET /api/admin/users/{id}", s.as(admin, s.userAdmin))
	s.route("PUT /api/admin/users/{id}", s.as(admin, s.withBody(userAdminUpdateBody, s.updateUserAdmin)))
	s.route("DELETE /api/admin/users/{id}", s.as(admin, s.withBody(userAdminDeleteBody, s.deleteUserAdmin)))
	s.route("POST /api/admin/users/{id}/restore", s.as(admin, s.restoreUserAdmin))
	s.route("GET /api/admin/users/{id}/preferences", s.as(admin, s.userPreferencesAdmin))
	s.route("PUT /api/admin/users/{id}/preferences", s.as(admin, s.withBody(preferencesUpdateBody, s.updateUserPreferencesAdmin)))

	// Albums.
	s.route("GET /api/albums", s.as(user, s.albums))
	s.route("POST /api/albums", s.as(user, s.withBody(createAlbumBody, s.createAlbum)))
	s.route("GET /api/albums/count", s.as(user, s.albumCount))
	s.route("GET /api/albums/{id}", s.as(userOrLink, s.album))
	s.route("PATCH /api/albums/{id}", s.as(user, s.withBody(updateAlbumBody, s.updateAlbum)))
	s.route("DELETE /api/albums/{id}", s.as(user, s.deleteAlbum))
	s.route("PUT /api/albums/{id}/assets", s.as(userOrLink, s.withBody(bulkIDsBody, s.addAlbumAssets)))
	s.route("DELETE /api/albums/{id}/assets", s.as(user, s.withBody(bulkIDsBody, s.removeAlbumAssets)))
	s.route("PUT /api/albums/{id}/users", s.as(user, s.withBody(addUsersBody, s.addAlbumUsers)))
	s.route("PUT /api/albums/{id}/user/{userId}", s.as(user, s.withBody(updateAlbumUserBody, s.updateAlbumUser)))
	s.route("DELETE /api/albums/{id}/user/{userId}", s.as(user, s.removeAlbumUser))

	// Activities, the server's settings, people, search and the map.
	s.route("GET /api/activities", s.as(user, s.activities))
	s.route("POST /api/activities", s.as(user, s.withBody(activityCreateBody, s.createActivity)))
	s.route("GET /api/activities/statistics", s.as(user, s.activityStatistics))
	s.route("DELETE /api/activities/{id}", s.as(user, s.deleteActivity))
	s.route("GET /api/system-config", s.as(admin, s.systemConfig))
	s.route("PUT /api/system-config", s.as(admin, s.withBody(systemConfigBody, s.updateSystemConfig)))
	s.route("GET /api/system-config/defaults", s.as(admin, systemConfigDefaults))
	s.route("GET /api/system-config/storage-template-options", s.as(admin, storageTemplateOptions))
	s.route("GET /api/people", s.as(user, s.people))
	s.route("PUT /api/people", s.as(user, s.withBody(s.peopleUpdateBody(), s.updatePeople)))
	s.route("GET /api/people/{id}", s.as(user, s.person))
	s.route("PUT /api/people/{id}", s.as(user, s.withBody(s.personUpdateBody(), s.updatePerson)))
	s.route("GET /api/people/{id}/statistics", s.as(user, s.personStatistics))
	s.route("GET /api/people/{id}/assets", s.as(user, s.personAssets))
	s.route("GET /api/people/{id}/thumbnail", noCacheOnError(s.as(user, s.personThumbnail)))
	s.route("POST /api/search/metadata", s.as(user, s.withBody(metadataSearchBody, s.searchMetadata)))
	s.route("POST /api/search/smart", s.as(user, s.withBody(smartSearchBody, s.searchSmart)))
	s.route("GET /api/search/explore", s.as(user, s.searchExplore))
	s.route("GET /api/search/cities", s.as(user, s.searchCities))
	s.route("GET /api/search/suggestions", s.as(user, s.searchSuggestions))
	s.route("GET /api/search/person", s.as(user, s.searchPerson))
	s.route("GET /api/map/markers", s.as(user, s.mapMarkers))
	s.route("GET /api/map/style.json", s.as(userOrLink, mapStyle))

	if s.cfg.NoControl {
		return
	}
	// The control API.
	s.route("GET /__mock/users", s.as(anyone, s.controlUsers))
	s.route("POST /__mock/users", s.as(anyone, s.controlCreateUser))
	s.route("POST /__mock/shared-links", s.as(user, s.controlCreateLink))
	s.route("GET /__mock/assets", s.as(user, s.controlAssets))
	s.route("POST /__mock/reset", s.as(anyone, s.controlReset))
	s.route("GET /__mock/dataset", s.as(anyone, s.controlDataset))
}
