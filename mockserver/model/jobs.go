package model

// JobCounts is the API's JobCountsDto: a queue's jobs by state.
type JobCounts struct {
	Active    int `json:"active"`
	Completed int `json:"completed"`
	Failed    int `json:"failed"`
	Delayed   int `json:"delayed"`
	Waiting   int `json:"waiting"`
	Paused    int `json:"paused"`
}

// QueueStatus is the API's QueueStatusDto.
type QueueStatus struct {
	IsActive bool `json:"isActive"`
	IsPaused bool `json:"isPaused"`
}

// JobStatus is the API's JobStatusDto: one queue.
type JobStatus struct {
	JobCounts   JobCounts   `json:"jobCounts"`
	QueueStatus QueueStatus `json:"queueStatus"`
}

// AllJobStatus is the API's AllJobStatusResponseDto: every queue, its
// keys in the reference's order.
type AllJobStatus struct {
	ThumbnailGeneration      JobStatus `json:"thumbnailGeneration"`
	MetadataExtraction       JobStatus `json:"metadataExtraction"`
	VideoConversion          JobStatus `json:"videoConversion"`
	SmartSearch              JobStatus `json:"smartSearch"`
	StorageTemplateMigration JobStatus `json:"storageTemplateMigration"`
	Migration                JobStatus `json:"migration"`
	BackgroundTask           JobStatus `json:"backgroundTask"`
	Search                   JobStatus `json:"search"`
	DuplicateDetection       JobStatus `json:"duplicateDetection"`
	FaceDetection            JobStatus `json:"faceDetection"`
	FacialRecognition        JobStatus `json:"facialRecognition"`
	Sidecar                  JobStatus `json:"sidecar"`
	Library                  JobStatus `json:"library"`
	Notifications            JobStatus `json:"notifications"`
}

// ReverseGeocodingState is the API's ReverseGeocodingStateResponseDto:
// when the places a position is named after were last imported, and from
// which file.
type ReverseGeocodingState struct {
	LastUpdate         *string `json:"lastUpdate"`
	LastImportFileName *string `json:"lastImportFileName"`
}

// The entity and path types of a file report's items (PathEntityType,
// PathType).
const (
	PathEntityAsset  = "asset"
	PathEntityPerson = "person"
	PathEntityUser   = "user"

	PathOriginal     = "original"
	PathPreview      = "preview"
	PathThumbnail    = "thumbnail"
	PathEncodedVideo = "encoded_video"
	PathSidecar      = "sidecar"
	PathFace         = "face"
	PathProfile      = "profile"
)

// FileReportItem is the API's FileReportItemDto: a record and the file it
// names, which is not there.
type FileReportItem struct {
	EntityID   string  `json:"entityId"`
	EntityType string  `json:"entityType"`
	Checksum   *string `json:"checksum,omitempty"`
	PathType   string  `json:"pathType"`
	PathValue  string  `json:"pathValue"`
}

// FileReport is the API's FileReportDto: records whose file is missing
// (orphans), and files no record names (extras).
type FileReport struct {
	Orphans []FileReportItem `json:"orphans"`
	Extras  []string         `json:"extras"`
}

// FileChecksum is the API's FileChecksumResponseDto.
type FileChecksum struct {
	Filename string `json:"filename"`
	Checksum string `json:"checksum"`
}
