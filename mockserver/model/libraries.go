package model

// LibraryRecord is a stored external library: folders on the mock's
// machine whose media files a scan imports as assets of its owner.
type LibraryRecord struct {
	ID                string   `json:"id"`
	OwnerID           string   `json:"ownerId"`
	Name              string   `json:"name"`
	ImportPaths       []string `json:"importPaths"`
	ExclusionPatterns []string `json:"exclusionPatterns"`
	CreatedAt         Time     `json:"createdAt"`
	UpdatedAt         Time     `json:"updatedAt"`
	RefreshedAt       *Time    `json:"refreshedAt"`
}

// Library is the API's LibraryResponseDto.
type Library struct {
	ID                string   `json:"id"`
	OwnerID           string   `json:"ownerId"`
	Name              string   `json:"name"`
	CreatedAt         Time     `json:"createdAt"`
	UpdatedAt         Time     `json:"updatedAt"`
	RefreshedAt       *Time    `json:"refreshedAt"`
	AssetCount        int      `json:"assetCount"`
	ImportPaths       []string `json:"importPaths"`
	ExclusionPatterns []string `json:"exclusionPatterns"`
}

// LibraryStats is the API's LibraryStatsResponseDto.
type LibraryStats struct {
	Photos int   `json:"photos"`
	Videos int   `json:"videos"`
	Usage  int64 `json:"usage"`
	Total  int   `json:"total"`
}

// ImportPathCheck is the API's ValidateLibraryImportPathResponseDto.
type ImportPathCheck struct {
	ImportPath string `json:"importPath"`
	IsValid    bool   `json:"isValid"`
	Message    string `json:"message,omitempty"`
}

// LibraryChecks is the API's ValidateLibraryResponseDto.
type LibraryChecks struct {
	ImportPaths []ImportPathCheck `json:"importPaths"`
}
