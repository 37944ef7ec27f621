package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/dto"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The server's settings, as an admin reads and changes them (the
// upstream's system-config controller). The mock keeps them in the store
// (a reset brings back the defaults); of what they say, the server's
// config, features and theme answers show the login page message, the
// trash, the map, reverse geocoding, the external domain, the custom CSS
// and the user delete delay. The rest is kept and answered, and changes
// nothing: the mock has no jobs, no machine learning, no OAuth and no mail.

// Shorthands of the settings' declarations.
var (
	toNumber     = dto.TypeNumber()
	requiredBool = dto.ValidateBoolean(false)
	isInt        = dto.As(dto.IsInt())
	isNumber     = dto.As(dto.IsNumber())
	isObject     = dto.As(dto.IsObject())
	minOf        = func(n float64) dto.Decorator { return dto.As(dto.Min(n)) }
	maxOf        = func(n float64) dto.Decorator { return dto.As(dto.Max(n)) }
	enumOf       = func(values ...string) dto.Decorator { return dto.As(dto.IsEnum(values...)) }
	eachEnumOf   = func(values ...string) dto.Decorator { return dto.As(dto.IsEnum(values...).Each()) }
	enabledIf    = func(name string) dto.Decorator {
		return dto.ValidateIf(func(o dto.Body) bool { return truthy(o[name]) })
	}
	configText = func(name string, ds ...dto.Decorator) dto.Property {
		return dto.Field(name, ds...).Limit(store.MaxConfigTextChars)
	}
	section = func(name string, class *dto.Class, ds ...dto.Decorator) dto.Property {
		return dto.Field(name, append(ds, dto.ValidateNested(class, false), isObject)...)
	}
)

// truthy is JavaScript's truthiness of a JSON value.
func truthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case string:
		return t != ""
	case json.Number:
		f, err := t.Float64()
		return err == nil && f != 0
	}
	return true
}

// The enums of the settings, in the upstream's order.
var (
	videoCodecs = []string{"h264", "hevc", "vp9", "av1"}
	audioCodecs = []string{"mp3", "aac", "libopus"}
)

// isList is a rule of the mock's: the reference stores a codec list that
// is no list, and then answers it as it came. One left out keeps the
// default, as there.
var isList = dto.As(dto.Check(func(v any) bool {
	_, ok := v.([]any)
	return ok || v == nil
}, "$property must be an array"))

// cronRule is the upstream's Validate(CronValidator).
var cronRule = dto.As(dto.Check(func(v any) bool { s, ok := v.(string); return ok && validCron(s) }, "Invalid cron expression"))

// The classes of SystemConfigDto, as the upstream declares them.
var (
	ffmpegConfig = dto.NewClass("SystemConfigFFmpegDto",
		dto.Field("crf", isInt, minOf(0), maxOf(51), toNumber),
		dto.Field("threads", isInt, minOf(0), toNumber),
		configText("preset", isString),
		dto.Field("targetVideoCodec", enumOf(videoCodecs...)),
		dto.Field("acceptedVideoCodecs", isList, eachEnumOf(videoCodecs...)),
		dto.Field("targetAudioCodec", enumOf(audioCodecs...)),
		dto.Field("acceptedAudioCodecs", isList, eachEnumOf(audioCodecs...)),
		configText("targetResolution", isString),
		configText("maxBitrate", isString),
		dto.Field("bframes", isInt, minOf(-1), maxOf(16), toNumber),
		dto.Field("refs", isInt, minOf(0), maxOf(6), toNumber),
		dto.Field("gopSize", isInt, minOf(0), toNumber),
		dto.Field("npl", isInt, minOf(0), toNumber),
		dto.Field("temporalAQ", requiredBool),
		dto.Field("cqMode", enumOf("auto", "cqp", "icq")),
		dto.Field("twoPass", requiredBool),
		configText("preferredHwDevice", isString),
		dto.Field("transcode", enumOf("all", "optimal", "bitrate", "required", "disabled")),
		dto.Field("accel", enumOf("nvenc", "qsv", "vaapi", "rkmpp", "disabled")),
		dto.Field("accelDecode", requiredBool),
		dto.Field("tonemap", enumOf("hable", "mobius", "reinhard", "disabled")),
	)
	jobSettings = dto.NewClass("JobSettingsDto",
		dto.Field("concurrency", isInt, dto.As(dto.IsPositive())),
	)
	jobConfig = dto.NewClass("SystemConfigJobDto",
		section("thumbnailGeneration", jobSettings),
		section("metadataExtraction", jobSettings),
		section("videoConversion", jobSettings),
		section("smartSearch", jobSettings),
		section("migration", jobSettings),
		section("backgroundTask", jobSettings),
		section("search", jobSettings),
		section("faceDetection", jobSettings),
		section("sidecar", jobSettings),
		section("library", jobSettings),
		section("notifications", jobSettings),
	)
	libraryScanConfig = dto.NewClass("SystemConfigLibraryScanDto",
		dto.Field("enabled", requiredBool),
		configText("cronExpression", enabledIf("enabled"), isNotEmpty, cronRule, isString),
	)
	enabledConfig = func(name string) *dto.Class { return dto.NewClass(name, dto.Field("enabled", requiredBool)) }
	libraryConfig = dto.NewClass("SystemConfigLibraryDto",
		section("scan", libraryScanConfig),
		section("watch", enabledConfig("SystemConfigLibraryWatchDto")),
	)
	loggingConfig = dto.NewClass("SystemConfigLoggingDto",
		dto.Field("enabled", requiredBool),
		dto.Field("level", enumOf("verbose", "debug", "log", "warn", "error", "fatal")),
	)
	// modelConfig is TaskConfig's and ModelConfig's members, in the order
	// a class that extends them inherits them.
	modelConfig = []dto.Property{
		dto.Field("enabled", requiredBool),
		configText("modelName", isString, isNotEmpty),
		dto.Field("modelType", enumOf("facial-recognition", "clip"), optional),
	}
	clipConfig = dto.NewClass("CLIPConfig", append([]dto.Property{
		dto.Field("mode", enumOf("vision", "text"), optional),
	}, modelConfig...)...)
	duplicateDetectionConfig = dto.NewClass("DuplicateDetectionConfig",
		dto.Field("maxDistance", isNumber, minOf(0.001), maxOf(0.1), toNumber),
		dto.Field("enabled", requiredBool),
	)
	recognitionConfig = dto.NewClass("RecognitionConfig", append([]dto.Property{
		dto.Field("minScore", isNumber, minOf(0), maxOf(1), toNumber),
		dto.Field("maxDistance", isNumber, minOf(0), maxOf(2), toNumber),
		dto.Field("minFaces", isNumber, minOf(1), toNumber),
	}, modelConfig...)...)
	machineLearningConfig = dto.NewClass("SystemConfigMachineLearningDto",
		dto.Field("enabled", requiredBool),
		configText("url", dto.As(dto.IsURL()), enabledIf("enabled")),
		section("clip", clipConfig),
		section("duplicateDetection", duplicateDetectionConfig),
		section("facialRecognition", recognitionConfig),
	)
	mapConfig = dto.NewClass("SystemConfigMapDto",
		dto.Field("enabled", requiredBool),
		configText("lightStyle", isString),
		configText("darkStyle", isString),
	)
	oauthConfig = dto.NewClass("SystemConfigOAuthDto",
		dto.Field("autoLaunch", requiredBool),
		dto.Field("autoRegister", requiredBool),
		configText("buttonText", isString),
		configText("clientId", enabledIf("enabled"), isNotEmpty, isString),
		configText("clientSecret", enabledIf("enabled"), isNotEmpty, isString),
		dto.Field("defaultStorageQuota", isNumber, minOf(0)),
		dto.Field("enabled", requiredBool),
		configText("issuerUrl", enabledIf("enabled"), isNotEmpty, isString),
		dto.Field("mobileOverrideEnabled", requiredBool),
		configText("mobileRedirectUri", enabledIf("mobileOverrideEnabled"), dto.As(dto.IsURL())),
		configText("scope", isString),
		configText("signingAlgorithm", isString, isNotEmpty),
		configText("storageLabelClaim", isString),
		configText("storageQuotaClaim", isString),
	)
	serverConfigClass = dto.NewClass("SystemConfigServerDto",
		configText("externalDomain", isString),
		configText("loginPageMessage", isString),
	)
	smtpTransportConfig = dto.NewClass("SystemConfigSmtpTransportDto",
		dto.Field("ignoreCert", dto.As(dto.IsBoolean())),
		configText("host", isNotEmpty, isString),
		dto.Field("port", isNumber, minOf(0), maxOf(65535)),
		configText("username", isString),
		configText("password", isString),
	)
	smtpConfig = dto.NewClass("SystemConfigSmtpDto",
		dto.Field("enabled", dto.As(dto.IsBoolean())),
		configText("from", enabledIf("enabled"), isNotEmpty, isString, isNotEmpty),
		configText("replyTo", isString),
		section("transport", smtpTransportConfig, enabledIf("enabled")),
	)
	notificationsConfig   = dto.NewClass("SystemConfigNotificationsDto", section("smtp", smtpConfig))
	storageTemplateConfig = dto.NewClass("SystemConfigStorageTemplateDto",
		dto.Field("enabled", requiredBool),
		dto.Field("hashVerificationEnabled", requiredBool),
		configText("template", isNotEmpty, isString),
	)
	imageConfig = dto.NewClass("SystemConfigImageDto",
		dto.Field("thumbnailFormat", enumOf("jpeg", "webp")),
		dto.Field("thumbnailSize", isInt, minOf(1), toNumber),
		dto.Field("previewFormat", enumOf("jpeg", "webp")),
		dto.Field("previewSize", isInt, minOf(1), toNumber),
		dto.Field("quality", isInt, minOf(1), maxOf(100), toNumber),
		dto.Field("colorspace", enumOf("srgb", "p3")),
		dto.Field("extractEmbedded", requiredBool),
	)
	trashConfig = dto.NewClass("SystemConfigTrashDto",
		dto.Field("enabled", requiredBool),
		dto.Field("days", isInt, minOf(0), toNumber),
	)
	themeConfig = dto.NewClass("SystemConfigThemeDto",
		dto.Field("customCss", isString).Limit(store.MaxCustomCSSChars),
	)
	userConfig = dto.NewClass("SystemConfigUserDto",
		dto.Field("deleteDelay", isInt, minOf(1), toNumber),
	)
	// systemConfigBody is SystemConfigDto: PUT /api/system-config.
	systemConfigBody = dto.NewClass("SystemConfigDto",
		section("ffmpeg", ffmpegConfig),
		section("logging", loggingConfig),
		section("machineLearning", machineLearningConfig),
		section("map", mapConfig),
		section("newVersionCheck", enabledConfig("SystemConfigNewVersionCheckDto")),
		section("oauth", oauthConfig),
		section("passwordLogin", enabledConfig("SystemConfigPasswordLoginDto")),
		section("reverseGeocoding", enabledConfig("SystemConfigReverseGeocodingDto")),
		section("storageTemplate", storageTemplateConfig),
		section("job", jobConfig),
		section("image", imageConfig),
		section("trash", trashConfig),
		section("theme", themeConfig),
		section("library", libraryConfig),
		section("notifications", notificationsConfig),
		section("server", serverConfigClass),
		section("user", userConfig),
	).Within(configBody)
)

// systemConfig is GET /api/system-config.
func (s *server) systemConfig(c *call) error {
	var out model.SystemConfig
	s.store.Read(func(v *store.View) { out = v.SystemConfig() })
	return c.json(http.StatusOK, out)
}

// systemConfigDefaults is GET /api/system-config/defaults.
func systemConfigDefaults(c *call) error {
	return c.json(http.StatusOK, model.DefaultSystemConfig())
}

// The tokens of a storage template, as the upstream names them.
var (
	yearTokens   = []string{"y", "yy"}
	monthTokens  = []string{"M", "MM", "MMM", "MMMM"}
	weekTokens   = []string{"W", "WW"}
	dayTokens    = []string{"d", "dd"}
	hourTokens   = []string{"h", "hh", "H", "HH"}
	minuteTokens = []string{"m", "mm"}
	secondTokens = []string{"s", "ss", "SSS"}
	presetTokens = []string{
		"{{y}}/{{y}}-{{MM}}-{{dd}}/{{filename}}", "{{y}}/{{MM}}-{{dd}}/{{filename}}",
		"{{y}}/{{MMMM}}-{{dd}}/{{filename}}", "{{y}}/{{MM}}/{{filename}}", "{{y}}/{{MMM}}/{{filename}}",
		"{{y}}/{{MMMM}}/{{filename}}", "{{y}}/{{MM}}/{{dd}}/{{filename}}", "{{y}}/{{MMMM}}/{{dd}}/{{filename}}",
		"{{y}}/{{y}}-{{MM}}/{{y}}-{{MM}}-{{dd}}/{{filename}}", "{{y}}-{{MM}}-{{dd}}/{{filename}}",
		"{{y}}-{{MMM}}-{{dd}}/{{filename}}", "{{y}}-{{MMMM}}-{{dd}}/{{filename}}", "{{y}}/{{y}}-{{MM}}/{{filename}}",
		"{{y}}/{{y}}-{{WW}}/{{filename}}", "{{y}}/{{y}}-{{MM}}-{{dd}}/{{assetId}}", "{{y}}/{{y}}-{{MM}}/{{assetId}}",
		"{{y}}/{{y}}-{{WW}}/{{assetId}}", "{{album}}/{{filename}}",
	}
)

// storageTemplateOptions is GET /api/system-config/storage-template-options.
func storageTemplateOptions(c *call) error {
	return c.json(http.StatusOK, struct {
		YearOptions   []string `json:"yearOptions"`
		MonthOptions  []string `json:"monthOptions"`
		WeekOptions   []string `json:"weekOptions"`
		DayOptions    []string `json:"dayOptions"`
		HourOptions   []string `json:"hourOptions"`
		MinuteOptions []string `json:"minuteOptions"`
		SecondOptions []string `json:"secondOptions"`
		PresetOptions []string `json:"presetOptions"`
	}{yearTokens, monthTokens, weekTokens, dayTokens, hourTokens, minuteTokens, secondTokens, presetTokens})
}

// updateSystemConfig is PUT /api/system-config: the settings as the body
// has them, judged as the reference judges them; a setting left out,
// null or "" keeps its default, as there. The answer is the settings.
func (s *server) updateSystemConfig(c *call, b dto.Body) error {
	next, err := configOf(b)
	if err != nil {
		return err
	}
	if err := s.store.Write(func(tx *store.Tx) error { return tx.SetSystemConfig(next) }); err != nil {
		return err
	}
	return c.json(http.StatusOK, next)
}

// configOf is the settings a judged body asks for, over the defaults, or
// the reference's refusal: of a value of the wrong kind where the DTO has
// no rule (the mock's own), of a cron expression or of a storage template.
func configOf(b dto.Body) (model.SystemConfig, error) {
	var defaults map[string]any
	if err := decodeNumbers(mustJSON(model.DefaultSystemConfig()), &defaults); err != nil {
		return model.SystemConfig{}, fmt.Errorf("reading the default settings: %w", err)
	}
	// As the reference's library service checks it, first, whether the
	// scan is on or off.
	library, _ := b["library"].(dto.Body)
	scan, _ := library["scan"].(dto.Body)
	if cron, ok := scan["cronExpression"].(string); !ok || !validCron(cron) {
		shown := "undefined"
		if v, present := scan["cronExpression"]; present {
			shown = jsString(v)
		}
		return model.SystemConfig{}, store.Fail(store.Invalid, "Invalid cron expression %s", shown)
	}
	var pr problems
	merged := overlayConfig(defaults, map[string]any(b), "", &pr)
	if err := pr.err(); err != nil {
		return model.SystemConfig{}, err
	}
	var next model.SystemConfig
	if err := decodeNumbers(mustJSON(merged), &next); err != nil {
		return model.SystemConfig{}, fmt.Errorf("reading the settings: %w", err)
	}
	if err := checkStorageTemplate(next.StorageTemplate.Template); err != nil {
		return model.SystemConfig{}, store.Fail(store.Invalid, "Invalid storage template: Error: %s", err.Error())
	}
	// As the reference: the target codecs are always accepted.
	if f := &next.FFmpeg; !slices.Contains(f.AcceptedVideoCodecs, f.TargetVideoCodec) {
		f.AcceptedVideoCodecs = append(f.AcceptedVideoCodecs, f.TargetVideoCodec)
	}
	if f := &next.FFmpeg; !slices.Contains(f.AcceptedAudioCodecs, f.TargetAudioCodec) {
		f.AcceptedAudioCodecs = append(f.AcceptedAudioCodecs, f.TargetAudioCodec)
	}
	return next, nil
}

// overlayConfig is def with in's values laid over it, setting by setting, as
// the reference merges a new config into its defaults: a value absent,
// null or "" keeps the default; one of another kind than the default's is
// a problem.
func overlayConfig(def map[string]any, in any, path string, pr *problems) map[string]any {
	var given map[string]any
	switch t := in.(type) {
	case dto.Body:
		given = t
	case map[string]any:
		given = t
	}
	out := make(map[string]any, len(def))
	for k, dv := range def {
		name := strings.TrimPrefix(path+"."+k, ".")
		iv, present := given[k]
		if sub, ok := dv.(map[string]any); ok {
			out[k] = overlayConfig(sub, iv, name, pr)
			continue
		}
		if !present || iv == nil || iv == "" {
			out[k] = dv
			continue
		}
		if want, got := kindOf(dv), kindOf(iv); want != got {
			pr.add("%s must be %s", name, want)
			continue
		}
		if n, ok := iv.(json.Number); ok {
			if f, err := n.Float64(); err != nil || math.IsInf(f, 0) {
				pr.add("%s must be a finite number", name)
				continue
			}
		}
		out[k] = iv
	}
	return out
}

// kindOf names the kind of a JSON value, as a setting's message says it.
func kindOf(v any) string {
	switch t := v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean value"
	case json.Number:
		return "a number"
	case []any:
		for _, e := range t {
			if _, ok := e.(string); !ok {
				return "a list"
			}
		}
		return "an array of strings"
	}
	return "an object"
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("encoding the settings: %v", err)) // plain structs and maps always encode
	}
	return b
}

// decodeNumbers decodes data into v, numbers as json.Number.
func decodeNumbers(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// cronField is one field of a cron expression: its bounds and the names
// its values may have.
type cronField struct {
	min, max int
	names    []string
}

var (
	months     = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	weekdays   = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
	cronFields = []cronField{{0, 59, nil}, {0, 23, nil}, {1, 31, nil}, {1, 12, months}, {0, 7, weekdays}}
	cronPart   = regexp.MustCompile(`^(\*|\?|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(/[0-9]+)?$`)
)

// validCron says whether s is a cron expression as the upstream's cron
// library takes one: five fields (minute to weekday), or six with the
// seconds first; each a list of *, values or ranges, with steps.
func validCron(s string) bool {
	fields := strings.Fields(s)
	specs := cronFields
	switch len(fields) {
	case 5:
	case 6:
		specs = append([]cronField{{0, 59, nil}}, cronFields...)
	default:
		return false
	}
	for i, f := range fields {
		for _, part := range strings.Split(f, ",") {
			m := cronPart.FindStringSubmatch(part)
			if m == nil {
				return false
			}
			if step := strings.TrimPrefix(m[3], "/"); step != "" {
				if n, err := strconv.Atoi(step); err != nil || n < 1 {
					return false
				}
			}
			if m[1] == "*" || m[1] == "?" {
				continue
			}
			lo, hi, isRange := strings.Cut(m[1], "-")
			a, okA := cronValue(lo, specs[i])
			b, okB := a, okA
			if isRange {
				b, okB = cronValue(hi, specs[i])
			}
			if !okA || !okB || a > b {
				return false
			}
		}
	}
	return true
}

// cronValue reads one value of a cron field: a number in its bounds, or
// one of its names.
func cronValue(v string, f cronField) (int, bool) {
	if n, err := strconv.Atoi(v); err == nil {
		return n, n >= f.min && n <= f.max
	}
	if i := slices.Index(f.names, strings.ToLower(v)); i >= 0 {
		return i + f.min, true
	}
	return 0, false
}

// templateNames are the names a storage template may use.
var templateNames = slices.Concat([]string{"filename", "ext", "filetype", "filetypefull", "assetId", "album"},
	yearTokens, monthTokens, weekTokens, dayTokens, hourTokens, minuteTokens, secondTokens)

// checkStorageTemplate checks a storage template as the reference's
// Handlebars in strict mode does, near enough: every {{…}} closed, and
// naming a value the template has.
func checkStorageTemplate(t string) error {
	line, col := 1, 0
	for i := 0; i < len(t); {
		if strings.HasPrefix(t[i:], "{{") {
			end := strings.Index(t[i+2:], "}}")
			if end < 0 {
				return fmt.Errorf("Parse error on line %d: an opening {{ is never closed", line)
			}
			name := strings.TrimSpace(t[i+2 : i+2+end])
			if !slices.Contains(templateNames, name) {
				return fmt.Errorf("%q not defined in [object Object] - %d:%d", name, line, col+2)
			}
			i += 2 + end + 2
			col += 2 + end + 2
			continue
		}
		if t[i] == '\n' {
			line, col = line+1, -1
		}
		i++
		col++
	}
	return nil
}

// jsString is a JSON value as JavaScript writes it in a template string.
func jsString(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return t
	case bool:
		return strconv.FormatBool(t)
	case json.Number:
		return t.String()
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			if e != nil {
				parts[i] = jsString(e)
			}
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}
