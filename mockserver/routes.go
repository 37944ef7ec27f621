package mockserver

// routes is the one place that maps paths to handlers.
func (s *server) routes() {
	s.mux.Handle("POST /api/asset/upload", s.handleUpload())
	s.mux.Handle("GET /api/shared-links", s.handleSharedLinks())
	s.mux.Handle("POST /api/shared-links", s.handleCreateSharedLink())
	s.mux.Handle("GET /api/shared-links/me", s.handleMySharedLink())
	s.mux.Handle("GET /api/shared-links/{id}", s.handleSharedLink())
	s.mux.Handle("PATCH /api/shared-links/{id}", s.handleUpdateSharedLink())
	s.mux.Handle("DELETE /api/shared-links/{id}", s.handleRemoveSharedLink())
	s.mux.Handle("PUT /api/shared-links/{id}/assets", s.handleSharedLinkAssets(true))
	s.mux.Handle("DELETE /api/shared-links/{id}/assets", s.handleSharedLinkAssets(false))
	s.mux.Handle("GET /.well-known/immich", handleWellKnown())
	s.mux.Handle("GET /api/server-info/ping", handlePing())
	s.mux.Handle("GET /api/server-info/version", handleVersion())
	s.mux.Handle("GET /api/server-info/media-types", handleMediaTypes())
	s.mux.Handle("POST /api/asset/bulk-upload-check", s.handleBulkUploadCheck())
	s.mux.Handle("GET /api/asset/statistics", s.handleAssetStatistics())
	s.mux.Handle("GET /api/asset/{id}", s.handleAsset())
	s.mux.Handle("GET /api/asset/thumbnail/{id}", s.handlePicture(false))
	s.mux.Handle("GET /api/asset/file/{id}", s.handlePicture(true))
	s.mux.Handle("GET /api/users/{id}/profile-image", s.handleProfileImage())
	s.mux.Handle("POST /api/auth/login", s.handleLogin())
	s.mux.Handle("GET /api/users/me", s.handleMyUser())
	s.mux.Handle("POST /api/admin/users", s.handleCreateUserAdmin())
	s.mux.Handle("POST /api/api-keys", s.handleCreateAPIKey())
	s.mux.Handle("GET /api/albums", s.handleAlbums())
	s.mux.Handle("POST /api/albums", s.handleCreateAlbum())
	s.mux.Handle("GET /api/albums/{id}", s.handleAlbum())
	s.mux.Handle("PUT /api/albums/{id}/assets", s.handleAddAlbumAssets())
	s.mux.Handle("GET /api/openapi.json", handleSpecJSON())
	s.mux.Handle("GET /api/openapi.yaml", handleSpecYAML())
	if s.cfg.NoControl {
		return
	}
	s.mux.Handle("GET /__mock/users", s.handleUsers())
	s.mux.Handle("POST /__mock/users", s.handleCreateUser())
	s.mux.Handle("POST /__mock/shared-links", s.handleCreateLink())
	s.mux.Handle("GET /__mock/assets", s.handleAssets())
	s.mux.Handle("POST /__mock/reset", s.handleReset())
	s.mux.Handle("GET /__mock/dataset", s.handleDataset())
}
