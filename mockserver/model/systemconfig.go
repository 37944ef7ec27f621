package model

import "slices"

// SystemConfig is the server's settings, the API's SystemConfigDto, its
// keys in the order the reference writes them. Numbers are float64, as
// JavaScript has them: a whole number encodes without a fraction.
type SystemConfig struct {
	FFmpeg           FFmpegConfig          `json:"ffmpeg"`
	Job              JobConfig             `json:"job"`
	Logging          LoggingConfig         `json:"logging"`
	MachineLearning  MachineLearningConfig `json:"machineLearning"`
	Map              MapConfig             `json:"map"`
	ReverseGeocoding EnabledConfig         `json:"reverseGeocoding"`
	OAuth            OAuthConfig           `json:"oauth"`
	PasswordLogin    EnabledConfig         `json:"passwordLogin"`
	StorageTemplate  StorageTemplateConfig `json:"storageTemplate"`
	Image            ImageConfig           `json:"image"`
	NewVersionCheck  EnabledConfig         `json:"newVersionCheck"`
	Trash            TrashConfig           `json:"trash"`
	Theme            ThemeConfig           `json:"theme"`
	Library          LibraryConfig         `json:"library"`
	Server           ServerSettingsConfig  `json:"server"`
	Notifications    NotificationsConfig   `json:"notifications"`
	User             UserSettingsConfig    `json:"user"`
}

// EnabledConfig is a section that only turns something on or off.
type EnabledConfig struct {
	Enabled bool `json:"enabled"`
}

// FFmpegConfig is SystemConfigFFmpegDto.
type FFmpegConfig struct {
	CRF                 float64  `json:"crf"`
	Threads             float64  `json:"threads"`
	Preset              string   `json:"preset"`
	TargetVideoCodec    string   `json:"targetVideoCodec"`
	AcceptedVideoCodecs []string `json:"acceptedVideoCodecs"`
	TargetAudioCodec    string   `json:"targetAudioCodec"`
	AcceptedAudioCodecs []string `json:"acceptedAudioCodecs"`
	TargetResolution    string   `json:"targetResolution"`
	MaxBitrate          string   `json:"maxBitrate"`
	BFrames             float64  `json:"bframes"`
	Refs                float64  `json:"refs"`
	GOPSize             float64  `json:"gopSize"`
	NPL                 float64  `json:"npl"`
	TemporalAQ          bool     `json:"temporalAQ"`
	CQMode              string   `json:"cqMode"`
	TwoPass             bool     `json:"twoPass"`
	PreferredHwDevice   string   `json:"preferredHwDevice"`
	Transcode           string   `json:"transcode"`
	Tonemap             string   `json:"tonemap"`
	Accel               string   `json:"accel"`
	AccelDecode         bool     `json:"accelDecode"`
}

// JobSettings is JobSettingsDto.
type JobSettings struct {
	Concurrency float64 `json:"concurrency"`
}

// JobConfig is SystemConfigJobDto: each queue's concurrency.
type JobConfig struct {
	BackgroundTask      JobSettings `json:"backgroundTask"`
	SmartSearch         JobSettings `json:"smartSearch"`
	MetadataExtraction  JobSettings `json:"metadataExtraction"`
	FaceDetection       JobSettings `json:"faceDetection"`
	Search              JobSettings `json:"search"`
	Sidecar             JobSettings `json:"sidecar"`
	Library             JobSettings `json:"library"`
	Migration           JobSettings `json:"migration"`
	ThumbnailGeneration JobSettings `json:"thumbnailGeneration"`
	VideoConversion     JobSettings `json:"videoConversion"`
	Notifications       JobSettings `json:"notifications"`
}

// LoggingConfig is SystemConfigLoggingDto.
type LoggingConfig struct {
	Enabled bool   `json:"enabled"`
	Level   string `json:"level"`
}

// MachineLearningConfig is SystemConfigMachineLearningDto.
type MachineLearningConfig struct {
	Enabled            bool                     `json:"enabled"`
	URL                string                   `json:"url"`
	CLIP               ModelConfig              `json:"clip"`
	DuplicateDetection DuplicateDetectionConfig `json:"duplicateDetection"`
	FacialRecognition  RecognitionConfig        `json:"facialRecognition"`
}

// ModelConfig is CLIPConfig's stored members.
type ModelConfig struct {
	Enabled   bool   `json:"enabled"`
	ModelName string `json:"modelName"`
}

// DuplicateDetectionConfig is DuplicateDetectionConfig.
type DuplicateDetectionConfig struct {
	Enabled     bool    `json:"enabled"`
	MaxDistance float64 `json:"maxDistance"`
}

// RecognitionConfig is RecognitionConfig's stored members.
type RecognitionConfig struct {
	Enabled     bool    `json:"enabled"`
	ModelName   string  `json:"modelName"`
	MinScore    float64 `json:"minScore"`
	MaxDistance float64 `json:"maxDistance"`
	MinFaces    float64 `json:"minFaces"`
}

// MapConfig is SystemConfigMapDto.
type MapConfig struct {
	Enabled    bool   `json:"enabled"`
	LightStyle string `json:"lightStyle"`
	DarkStyle  string `json:"darkStyle"`
}

// OAuthConfig is SystemConfigOAuthDto.
type OAuthConfig struct {
	AutoLaunch            bool    `json:"autoLaunch"`
	AutoRegister          bool    `json:"autoRegister"`
	ButtonText            string  `json:"buttonText"`
	ClientID              string  `json:"clientId"`
	ClientSecret          string  `json:"clientSecret"`
	DefaultStorageQuota   float64 `json:"defaultStorageQuota"`
	Enabled               bool    `json:"enabled"`
	IssuerURL             string  `json:"issuerUrl"`
	MobileOverrideEnabled bool    `json:"mobileOverrideEnabled"`
	MobileRedirectURI     string  `json:"mobileRedirectUri"`
	Scope                 string  `json:"scope"`
	SigningAlgorithm      string  `json:"signingAlgorithm"`
	StorageLabelClaim     string  `json:"storageLabelClaim"`
	StorageQuotaClaim     string  `json:"storageQuotaClaim"`
}

// StorageTemplateConfig is SystemConfigStorageTemplateDto.
type StorageTemplateConfig struct {
	Enabled                 bool   `json:"enabled"`
	HashVerificationEnabled bool   `json:"hashVerificationEnabled"`
	Template                string `json:"template"`
}

// ImageConfig is SystemConfigImageDto.
type ImageConfig struct {
	ThumbnailFormat string  `json:"thumbnailFormat"`
	ThumbnailSize   float64 `json:"thumbnailSize"`
	PreviewFormat   string  `json:"previewFormat"`
	PreviewSize     float64 `json:"previewSize"`
	Quality         float64 `json:"quality"`
	Colorspace      string  `json:"colorspace"`
	ExtractEmbedded bool    `json:"extractEmbedded"`
}

// TrashConfig is SystemConfigTrashDto.
type TrashConfig struct {
	Enabled bool    `json:"enabled"`
	Days    float64 `json:"days"`
}

// ThemeConfig is SystemConfigThemeDto.
type ThemeConfig struct {
	CustomCSS string `json:"customCss"`
}

// LibraryConfig is SystemConfigLibraryDto.
type LibraryConfig struct {
	Scan  LibraryScanConfig `json:"scan"`
	Watch EnabledConfig     `json:"watch"`
}

// LibraryScanConfig is SystemConfigLibraryScanDto.
type LibraryScanConfig struct {
	Enabled        bool   `json:"enabled"`
	CronExpression string `json:"cronExpression"`
}

// ServerSettingsConfig is SystemConfigServerDto.
type ServerSettingsConfig struct {
	ExternalDomain   string `json:"externalDomain"`
	LoginPageMessage string `json:"loginPageMessage"`
}

// NotificationsConfig is SystemConfigNotificationsDto.
type NotificationsConfig struct {
	SMTP SMTPConfig `json:"smtp"`
}

// SMTPConfig is SystemConfigSmtpDto.
type SMTPConfig struct {
	Enabled   bool                `json:"enabled"`
	From      string              `json:"from"`
	ReplyTo   string              `json:"replyTo"`
	Transport SMTPTransportConfig `json:"transport"`
}

// SMTPTransportConfig is SystemConfigSmtpTransportDto.
type SMTPTransportConfig struct {
	IgnoreCert bool    `json:"ignoreCert"`
	Host       string  `json:"host"`
	Port       float64 `json:"port"`
	Username   string  `json:"username"`
	Password   string  `json:"password"`
}

// UserSettingsConfig is SystemConfigUserDto.
type UserSettingsConfig struct {
	DeleteDelay float64 `json:"deleteDelay"`
}

// DefaultSystemConfig is the reference's default settings, as it answers
// them with machine learning off (IMMICH_MACHINE_LEARNING_ENABLED=false):
// the mock has none.
func DefaultSystemConfig() SystemConfig {
	job := func(n float64) JobSettings { return JobSettings{Concurrency: n} }
	return SystemConfig{
		FFmpeg: FFmpegConfig{
			CRF: 23, Threads: 0, Preset: "ultrafast", TargetVideoCodec: "h264", AcceptedVideoCodecs: []string{"h264"},
			TargetAudioCodec: "aac", AcceptedAudioCodecs: []string{"aac", "mp3", "libopus"}, TargetResolution: "720",
			MaxBitrate: "0", BFrames: -1, Refs: 0, GOPSize: 0, NPL: 0, TemporalAQ: false, CQMode: "auto", TwoPass: false,
			PreferredHwDevice: "auto", Transcode: "required", Tonemap: "hable", Accel: "disabled", AccelDecode: false,
		},
		Job: JobConfig{
			BackgroundTask: job(5), SmartSearch: job(2), MetadataExtraction: job(5), FaceDetection: job(2), Search: job(5),
			Sidecar: job(5), Library: job(5), Migration: job(5), ThumbnailGeneration: job(5), VideoConversion: job(1),
			Notifications: job(5),
		},
		Logging: LoggingConfig{Enabled: true, Level: "log"},
		MachineLearning: MachineLearningConfig{
			Enabled: false, URL: "http://immich-machine-learning:3003",
			CLIP:               ModelConfig{Enabled: true, ModelName: "ViT-B-32__openai"},
			DuplicateDetection: DuplicateDetectionConfig{Enabled: true, MaxDistance: 0.0155},
			FacialRecognition:  RecognitionConfig{Enabled: true, ModelName: "buffalo_l", MinScore: 0.7, MaxDistance: 0.5, MinFaces: 3},
		},
		Map:              MapConfig{Enabled: true},
		ReverseGeocoding: EnabledConfig{Enabled: true},
		OAuth: OAuthConfig{
			AutoRegister: true, ButtonText: "Login with OAuth", Scope: "openid email profile", SigningAlgorithm: "RS256",
			StorageLabelClaim: "preferred_username", StorageQuotaClaim: "immich_quota",
		},
		PasswordLogin:   EnabledConfig{Enabled: true},
		StorageTemplate: StorageTemplateConfig{HashVerificationEnabled: true, Template: "{{y}}/{{y}}-{{MM}}-{{dd}}/{{filename}}"},
		Image: ImageConfig{
			ThumbnailFormat: "webp", ThumbnailSize: 250, PreviewFormat: "jpeg", PreviewSize: 1440, Quality: 80,
			Colorspace: "p3",
		},
		NewVersionCheck: EnabledConfig{Enabled: true},
		Trash:           TrashConfig{Enabled: true, Days: 30},
		Library:         LibraryConfig{Scan: LibraryScanConfig{Enabled: true, CronExpression: "0 0 * * *"}},
		Notifications:   NotificationsConfig{SMTP: SMTPConfig{Transport: SMTPTransportConfig{Port: 587}}},
		User:            UserSettingsConfig{DeleteDelay: 7},
	}
}

// Clone is c with its own lists.
func (c SystemConfig) Clone() SystemConfig {
	c.FFmpeg.AcceptedVideoCodecs = slices.Clone(c.FFmpeg.AcceptedVideoCodecs)
	c.FFmpeg.AcceptedAudioCodecs = slices.Clone(c.FFmpeg.AcceptedAudioCodecs)
	return c
}
