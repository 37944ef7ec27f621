package steps

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// The server and its settings: what the web app reads before a page, the
// disk, what each user stores, and the settings an admin reads and
// changes. What a scenario changes of the settings (or of the admin's
// onboarding) it reads first and sets back with later: only the settings
// it changed, so that a change made meanwhile by someone else stays.

// settingsState is what the settings steps keep within a scenario.
type settingsState struct {
	told     webAppView // what the web app was told, without credentials
	user     *user      // the new user the scenario made
	photo    *file      // the photo they uploaded
	message  string     // the login page message an admin set
	css      string     // the theme's CSS an admin set
	crf      any        // the quality of converted videos, before a change
	defaults settings   // the default settings an admin read
	shown    *bool      // whether the admin was shown around, before a change
}

// webAppView is what the web app reads before a page: the server's
// config, features and theme.
type webAppView struct {
	config struct {
		LoginPageMessage string  `json:"loginPageMessage"`
		TrashDays        float64 `json:"trashDays"`
		UserDeleteDelay  float64 `json:"userDeleteDelay"`
		OAuthButtonText  string  `json:"oauthButtonText"`
		IsInitialized    bool    `json:"isInitialized"`
		IsOnboarded      bool    `json:"isOnboarded"`
		ExternalDomain   string  `json:"externalDomain"`
	}
	features map[string]bool
	theme    struct {
		CustomCSS string `json:"customCss"`
	}
}

// settings are the server's settings as JSON, numbers kept as written.
type settings map[string]any

// at is the setting at a dotted path ("server.loginPageMessage"), or nil.
func (c settings) at(path string) any {
	var v any = map[string]any(c)
	for key := range strings.SplitSeq(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[key]
	}
	return v
}

// set sets the setting at a dotted path, whose sections are there.
func (c settings) set(path string, value any) {
	keys := strings.Split(path, ".")
	m := map[string]any(c)
	for _, key := range keys[:len(keys)-1] {
		next, ok := m[key].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[key] = next
		}
		m = next
	}
	m[keys[len(keys)-1]] = value
}

// on says whether the setting at path is true.
func (c settings) on(path string) bool {
	b, _ := c.at(path).(bool)
	return b
}

// settingsSteps are the steps about the server and its settings.
func (s *scenario) settingsSteps() []step {
	return []step{
		{`^the web app asks, without credentials, how the server is set up, what it offers and how it looks$`, s.webAppAsks},
		{`^what it is told agrees with the settings an admin reads$`, s.toldAgreesWithSettings},
		{`^I ask how full the server's disk is$`, s.askDisk},
		{`^the disk's use and free space fit in its size, and the part used is the use over the size$`, s.diskAddsUp},
		{`^a new user who has uploaded a photo of their own$`, s.newUserWithPhoto},
		{`^an admin asks what each user stores$`, s.adminAsksStatistics},
		{`^that user is counted with 1 photo, no video and the photo's bytes, and the totals are everyone's$`, s.userCounted},
		{`^an admin changes the login page message and the theme's CSS$`, s.adminChangesMessageAndCSS},
		{`^the settings the admin gets back hold the new message and CSS$`, s.answerHoldsChange},
		{`^the settings, read again, hold the new message and CSS$`, s.settingsHoldChange},
		{`^the web app, asking without credentials, shows the new message on the login page and the new CSS on its pages$`, s.webAppShowsChange},
		{`^an admin sets the quality of converted videos \(ffmpeg\.crf\) to (\d+)$`, s.adminSetsCRF},
		{`^the quality of converted videos, read again, is as it was$`, s.crfAsItWas},
		{`^an admin reads the default settings$`, s.adminReadsDefaults},
		{`^they hold every setting the server's settings hold$`, s.defaultsHoldEverySetting},
		{`^an admin reads the options of the storage template$`, s.adminReadsTemplateOptions},
		{`^the default storage template is one of its presets$`, s.defaultTemplateIsPreset},
		{`^an admin records the opposite of whether they were shown around$`, s.adminRecordsOnboarding},
		{`^it is recorded, as the admin and the web app read it$`, s.onboardingRecorded},
		{`^an admin records that they were shown around as "([^"]*)"$`, s.adminRecordsOnboardingAs},
		{`^a new user who is not an admin$`, s.newNonAdmin},
		{`^they (read the server's settings|change the login page message|read the default settings|read the options of the storage template|ask what each user stores|ask whether the admin was shown around|record that the admin was shown around, or was not)$`, s.nonAdminTries},
		{`^each of the server's settings and figures is refused with status (\d+) and the message "([^"]*)"$`, s.settingsOperationsRefused},
	}
}

// adminCreds are an admin's credentials; a scenario that needs them is
// skipped without.
func (s *scenario) adminCreds(ctx context.Context) (credentials, error) {
	if !s.cfg.canMakeUsers() {
		return credentials{}, skip("needs an admin: give --admin-api-key, or --admin-email and --admin-password")
	}
	return s.admin(ctx)
}

// settingsAsAdmin reads the server's settings as an admin.
func (s *scenario) settingsAsAdmin(ctx context.Context) (settings, error) {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return nil, err
	}
	return s.readSettings(ctx, "/system-config", admin)
}

// readSettings reads the server's settings with creds.
func (s *scenario) readSettings(ctx context.Context, path string, creds credentials) (settings, error) {
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: path, creds: creds})
	if err := judgeNow(resp, err, http.StatusOK); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return decodeSettings(resp.body)
}

// decodeSettings reads settings, their numbers as written.
func decodeSettings(b []byte) (settings, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var c settings
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("the settings are not a JSON object: %w", err)
	}
	return c, nil
}

// webAppAsks reads, without credentials, what the web app reads before a page.
func (s *scenario) webAppAsks(ctx context.Context) error {
	v := &s.settings.told
	for _, r := range []struct {
		path string
		out  any
	}{{"/server-info/config", &v.config}, {"/server-info/features", &v.features}, {"/server-info/theme", &v.theme}} {
		if err := s.sendKept(ctx, nil, credentials{}, http.MethodGet, r.path, nil); err != nil {
			return err
		}
		if err := s.decodeLast(http.StatusOK, r.out); err != nil {
			return err
		}
	}
	return nil
}

// toldAgreesWithSettings judges what the web app was told against the
// settings an admin reads.
func (s *scenario) toldAgreesWithSettings(ctx context.Context) error {
	c, err := s.settingsAsAdmin(ctx)
	if err != nil {
		return err
	}
	v := s.settings.told
	if !v.config.IsInitialized {
		return fmt.Errorf("the server says it is not initialized, though it has an admin")
	}
	number := func(path string) float64 {
		n, _ := c.at(path).(json.Number)
		f, _ := n.Float64()
		return f
	}
	text := func(path string) string { t, _ := c.at(path).(string); return t }
	ml := c.on("machineLearning.enabled")
	for _, d := range []struct {
		what       string
		told, want any
	}{
		{"the login page message", v.config.LoginPageMessage, text("server.loginPageMessage")},
		{"the days in the trash", v.config.TrashDays, number("trash.days")},
		{"the days before a user is deleted", v.config.UserDeleteDelay, number("user.deleteDelay")},
		{"the OAuth button's text", v.config.OAuthButtonText, text("oauth.buttonText")},
		{"the external domain", v.config.ExternalDomain, text("server.externalDomain")},
		{"the custom CSS", v.theme.CustomCSS, text("theme.customCss")},
		{"the map", v.features["map"], c.on("map.enabled")},
		{"the trash", v.features["trash"], c.on("trash.enabled")},
		{"reverse geocoding", v.features["reverseGeocoding"], c.on("reverseGeocoding.enabled")},
		{"OAuth", v.features["oauth"], c.on("oauth.enabled")},
		{"OAuth's auto launch", v.features["oauthAutoLaunch"], c.on("oauth.autoLaunch")},
		{"password login", v.features["passwordLogin"], c.on("passwordLogin.enabled")},
		{"mail", v.features["email"], c.on("notifications.smtp.enabled")},
		{"smart search", v.features["smartSearch"], ml && c.on("machineLearning.clip.enabled")},
		{"facial recognition", v.features["facialRecognition"], ml && c.on("machineLearning.facialRecognition.enabled")},
		{"duplicate detection", v.features["duplicateDetection"], ml && c.on("machineLearning.clip.enabled") && c.on("machineLearning.duplicateDetection.enabled")},
	} {
		if d.told != d.want {
			return fmt.Errorf("the web app is told %v of %s, and the settings say %v", d.told, d.what, d.want)
		}
	}
	return nil
}

// askDisk asks, with the scenario's credentials, how full the disk is.
func (s *scenario) askDisk(ctx context.Context) error {
	return s.sendKept(ctx, s.me, s.creds, http.MethodGet, "/server-info/storage", nil)
}

// diskAddsUp judges the disk's figures, in bytes and as written for a reader.
func (s *scenario) diskAddsUp() error {
	var d struct {
		DiskSize, DiskUse, DiskAvailable          string
		DiskSizeRaw, DiskUseRaw, DiskAvailableRaw int64
		DiskUsagePercentage                       float64
	}
	if err := s.decodeLast(http.StatusOK, &d); err != nil {
		return err
	}
	if d.DiskSizeRaw <= 0 || d.DiskUseRaw < 0 || d.DiskAvailableRaw < 0 || d.DiskUseRaw+d.DiskAvailableRaw > d.DiskSizeRaw {
		return fmt.Errorf("a disk of %d bytes has %d used and %d free", d.DiskSizeRaw, d.DiskUseRaw, d.DiskAvailableRaw)
	}
	if want := float64(d.DiskUseRaw) / float64(d.DiskSizeRaw) * 100; math.Abs(d.DiskUsagePercentage-want) > 0.01 {
		return fmt.Errorf("the part used is %.2f%%, and %d of %d bytes is %.4f%%", d.DiskUsagePercentage, d.DiskUseRaw, d.DiskSizeRaw, want)
	}
	for _, f := range []struct {
		written string
		raw     int64
	}{{d.DiskSize, d.DiskSizeRaw}, {d.DiskUse, d.DiskUseRaw}, {d.DiskAvailable, d.DiskAvailableRaw}} {
		if err := readableSize(f.written, f.raw); err != nil {
			return err
		}
	}
	return nil
}

// readableSize says whether written ("252.0 GiB") is raw bytes, to its last digit.
func readableSize(written string, raw int64) error {
	number, unit, _ := strings.Cut(written, " ")
	n, err := strconv.ParseFloat(number, 64)
	at := slices.Index([]string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}, unit)
	if err != nil || at < 0 {
		return fmt.Errorf("%q is not a size a reader reads", written)
	}
	scale := math.Pow(1024, float64(at))
	if math.Abs(n*scale-float64(raw)) > 0.051*scale {
		return fmt.Errorf("%q is not %d bytes", written, raw)
	}
	return nil
}

// newUserWithPhoto makes a new user, who uploads a photo.
func (s *scenario) newUserWithPhoto(ctx context.Context) error {
	u, err := s.newUser(ctx)
	if err != nil {
		return err
	}
	s.settings.user = u
	_, f, err := s.uploadPhoto(ctx, u)
	s.settings.photo = f
	return err
}

// serverStats is what each user stores, as an admin reads it.
type serverStats struct {
	Photos, Videos int
	Usage          int64
	UsageByUser    []struct {
		UserID         string `json:"userId"`
		Photos, Videos int
		Usage          int64
	} `json:"usageByUser"`
}

// adminAsksStatistics asks, as an admin, what each user stores.
func (s *scenario) adminAsksStatistics(ctx context.Context) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	return s.sendKept(ctx, nil, admin, http.MethodGet, "/server-info/statistics", nil)
}

// userCounted judges the new user's figures, and the totals. A server may
// count a file's bytes once it has read it: the harness asks again, up to
// --settle.
func (s *scenario) userCounted(ctx context.Context) error {
	if err := s.wantStatus(http.StatusOK); err != nil {
		return err
	}
	u, f := s.settings.user, s.settings.photo
	if u == nil || f == nil {
		return fmt.Errorf("no new user uploaded a photo earlier in the scenario")
	}
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	return s.settle(ctx, func() error {
		var st serverStats
		if err := s.call(ctx, "asking what each user stores", http.MethodGet, "/server-info/statistics", admin, nil, &st, http.StatusOK); err != nil {
			return err
		}
		return st.counts(u.id, int64(len(f.content)))
	})
}

// counts says whether st counts the user with one photo of size bytes,
// and totals everyone's figures.
func (st serverStats) counts(userID string, size int64) error {
	var photos, videos int
	var usage int64
	found := false
	for _, n := range st.UsageByUser {
		photos, videos, usage = photos+n.Photos, videos+n.Videos, usage+n.Usage
		if n.UserID == userID {
			found = true
			if n.Photos != 1 || n.Videos != 0 || n.Usage != size {
				return fmt.Errorf("the new user is counted with %d photos, %d videos and %d bytes, want 1, 0 and %d", n.Photos, n.Videos, n.Usage, size)
			}
		}
	}
	if !found {
		return fmt.Errorf("the new user %s is not among the %d users counted", userID, len(st.UsageByUser))
	}
	if photos != st.Photos || videos != st.Videos || usage != st.Usage {
		return fmt.Errorf("the totals are %d photos, %d videos and %d bytes, and the users' figures sum to %d, %d and %d", st.Photos, st.Videos, st.Usage, photos, videos, usage)
	}
	return nil
}

// laterSetBack reads the settings at paths now, and keeps the undo that
// sets them back: only them, over whatever the settings are then.
func (s *scenario) laterSetBack(ctx context.Context, admin credentials, paths ...string) (settings, error) {
	c, err := s.readSettings(ctx, "/system-config", admin)
	if err != nil {
		return nil, err
	}
	old := map[string]any{}
	for _, p := range paths {
		old[p] = c.at(p)
	}
	s.later("the settings "+strings.Join(paths, ", "), func(ctx context.Context) error {
		now, err := s.readSettings(ctx, "/system-config", admin)
		if err != nil {
			return err
		}
		if s.settingsAre(now, old) {
			return nil
		}
		for p, v := range old {
			now.set(p, v)
		}
		return s.call(ctx, "setting the settings back", http.MethodPut, "/system-config", admin, now, nil, http.StatusOK)
	})
	return c, nil
}

// settingsAre says whether c holds the values of want at their paths.
func (s *scenario) settingsAre(c settings, want map[string]any) bool {
	for p, v := range want {
		if !reflect.DeepEqual(c.at(p), v) {
			return false
		}
	}
	return true
}

// changeable skips a scenario on a server whose settings come from its
// config file, which takes no change through the API.
func (s *scenario) changeable(ctx context.Context) error {
	var f map[string]bool
	if err := s.call(ctx, "asking what the server offers", http.MethodGet, "/server-info/features", credentials{}, nil, &f, http.StatusOK); err != nil {
		return err
	}
	if f["configFile"] {
		return skip("the server's settings come from its config file: no change is taken through the API")
	}
	return nil
}

// adminChangesMessageAndCSS changes, as an admin, the login page message
// and the theme's CSS to new ones, and keeps the answer.
func (s *scenario) adminChangesMessageAndCSS(ctx context.Context) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	if err := s.changeable(ctx); err != nil {
		return err
	}
	c, err := s.laterSetBack(ctx, admin, "server.loginPageMessage", "theme.customCss")
	if err != nil {
		return err
	}
	tag := randomHex(6)
	s.settings.message = "Conformance check " + tag + ": back in a moment"
	s.settings.css = "/* mediaspec conformance " + tag + " */"
	c.set("server.loginPageMessage", s.settings.message)
	c.set("theme.customCss", s.settings.css)
	return s.sendKept(ctx, nil, admin, http.MethodPut, "/system-config", c)
}

// holdsChange says whether c holds the message and CSS the admin set.
func (s *scenario) holdsChange(c settings) error {
	if m, css := c.at("server.loginPageMessage"), c.at("theme.customCss"); m != s.settings.message || css != s.settings.css {
		return fmt.Errorf("the settings hold the login page message %v and the CSS %v, want %q and %q", m, css, s.settings.message, s.settings.css)
	}
	return nil
}

// answerHoldsChange judges the settings a change answered.
func (s *scenario) answerHoldsChange() error {
	if err := s.wantStatus(http.StatusOK); err != nil {
		return err
	}
	c, err := decodeSettings(s.last.body)
	if err != nil {
		return err
	}
	return s.holdsChange(c)
}

// settingsHoldChange reads the settings again and judges them.
func (s *scenario) settingsHoldChange(ctx context.Context) error {
	c, err := s.settingsAsAdmin(ctx)
	if err != nil {
		return err
	}
	return s.holdsChange(c)
}

// webAppShowsChange judges what the web app is told after the change.
func (s *scenario) webAppShowsChange(ctx context.Context) error {
	if err := s.webAppAsks(ctx); err != nil {
		return err
	}
	v := s.settings.told
	if v.config.LoginPageMessage != s.settings.message || v.theme.CustomCSS != s.settings.css {
		return fmt.Errorf("the web app is told the login page message %q and the CSS %q, want %q and %q", v.config.LoginPageMessage, v.theme.CustomCSS, s.settings.message, s.settings.css)
	}
	return nil
}

// crfPath is the setting of the quality of converted videos.
const crfPath = "ffmpeg.crf"

// adminSetsCRF sets, as an admin, the quality of converted videos, and
// keeps the answer; were it taken, it is set back.
func (s *scenario) adminSetsCRF(ctx context.Context, crf int) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	c, err := s.laterSetBack(ctx, admin, crfPath)
	if err != nil {
		return err
	}
	s.settings.crf = c.at(crfPath)
	c.set(crfPath, crf)
	return s.sendKept(ctx, nil, admin, http.MethodPut, "/system-config", c)
}

// crfAsItWas reads the settings again and judges the quality of converted videos.
func (s *scenario) crfAsItWas(ctx context.Context) error {
	c, err := s.settingsAsAdmin(ctx)
	if err != nil {
		return err
	}
	if now := c.at(crfPath); !reflect.DeepEqual(now, s.settings.crf) {
		return fmt.Errorf("%s is %v after a change refused, and was %v", crfPath, now, s.settings.crf)
	}
	return nil
}

// adminReadsDefaults reads, as an admin, the default settings.
func (s *scenario) adminReadsDefaults(ctx context.Context) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	if err := s.sendKept(ctx, nil, admin, http.MethodGet, "/system-config/defaults", nil); err != nil {
		return err
	}
	if err := s.wantStatus(http.StatusOK); err != nil {
		return err
	}
	s.settings.defaults, err = decodeSettings(s.last.body)
	return err
}

// defaultsHoldEverySetting judges the defaults against the settings: the
// same sections and settings, each of the same kind.
func (s *scenario) defaultsHoldEverySetting(ctx context.Context) error {
	c, err := s.settingsAsAdmin(ctx)
	if err != nil {
		return err
	}
	return sameShape(map[string]any(c), map[string]any(s.settings.defaults), "")
}

// sameShape says where the defaults d lack a setting of the settings c,
// or have one of another kind.
func sameShape(c, d any, path string) error {
	cm, isSection := c.(map[string]any)
	if !isSection {
		if c != nil && d != nil && reflect.TypeOf(c) != reflect.TypeOf(d) {
			return fmt.Errorf("the setting %s is %v, and its default %v is of another kind", path, c, d)
		}
		return nil
	}
	dm, ok := d.(map[string]any)
	if !ok {
		return fmt.Errorf("the defaults have no section %s", path)
	}
	for key, v := range cm {
		if _, ok := dm[key]; !ok {
			return fmt.Errorf("the defaults have no setting %s", strings.TrimPrefix(path+"."+key, "."))
		}
		if err := sameShape(v, dm[key], strings.TrimPrefix(path+"."+key, ".")); err != nil {
			return err
		}
	}
	return nil
}

// adminReadsTemplateOptions reads, as an admin, the storage template's options.
func (s *scenario) adminReadsTemplateOptions(ctx context.Context) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	return s.sendKept(ctx, nil, admin, http.MethodGet, "/system-config/storage-template-options", nil)
}

// defaultTemplateIsPreset judges the storage template's presets against the default template.
func (s *scenario) defaultTemplateIsPreset() error {
	var o struct {
		PresetOptions []string `json:"presetOptions"`
	}
	if err := s.decodeLast(http.StatusOK, &o); err != nil {
		return err
	}
	template, _ := s.settings.defaults.at("storageTemplate.template").(string)
	if !slices.Contains(o.PresetOptions, template) {
		return fmt.Errorf("the default storage template %q is none of the %d presets %q", template, len(o.PresetOptions), o.PresetOptions)
	}
	return nil
}

// onboarding reads, with creds, whether the admin was shown around.
func (s *scenario) onboarding(ctx context.Context, creds credentials) (bool, error) {
	var o struct {
		IsOnboarded *bool `json:"isOnboarded"`
	}
	if err := s.call(ctx, "asking whether the admin was shown around", http.MethodGet, "/system-metadata/admin-onboarding", creds, nil, &o, http.StatusOK); err != nil {
		return false, err
	}
	if o.IsOnboarded == nil {
		return false, fmt.Errorf("the server does not say whether the admin was shown around")
	}
	return *o.IsOnboarded, nil
}

// laterSetBackOnboarding reads whether the admin was shown around, and
// keeps the undo that records it again.
func (s *scenario) laterSetBackOnboarding(ctx context.Context, admin credentials) (bool, error) {
	was, err := s.onboarding(ctx, admin)
	if err != nil {
		return false, err
	}
	s.settings.shown = &was
	s.later("whether the admin was shown around", func(ctx context.Context) error {
		if now, err := s.onboarding(ctx, admin); err != nil || now == was {
			return err
		}
		return s.call(ctx, "recording again whether the admin was shown around", http.MethodPost, "/system-metadata/admin-onboarding", admin, map[string]bool{"isOnboarded": was}, nil, http.StatusNoContent)
	})
	return was, nil
}

// adminRecordsOnboarding records, as an admin, the opposite of whether
// they were shown around, and keeps the answer.
func (s *scenario) adminRecordsOnboarding(ctx context.Context) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	was, err := s.laterSetBackOnboarding(ctx, admin)
	if err != nil {
		return err
	}
	return s.sendKept(ctx, nil, admin, http.MethodPost, "/system-metadata/admin-onboarding", map[string]bool{"isOnboarded": !was})
}

// onboardingRecorded judges the record, as the admin and the web app read it.
func (s *scenario) onboardingRecorded(ctx context.Context) error {
	if err := s.wantStatus(http.StatusNoContent); err != nil {
		return err
	}
	want := !*s.settings.shown
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	if now, err := s.onboarding(ctx, admin); err != nil || now != want {
		return fmt.Errorf("the admin reads that they were shown around: %t, want %t (%v)", now, want, err)
	}
	if err := s.webAppAsks(ctx); err != nil {
		return err
	}
	if s.settings.told.config.IsOnboarded != want {
		return fmt.Errorf("the web app is told isOnboarded %t, want %t", s.settings.told.config.IsOnboarded, want)
	}
	return nil
}

// adminRecordsOnboardingAs records, as an admin, a value that is no boolean.
func (s *scenario) adminRecordsOnboardingAs(ctx context.Context, value string) error {
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	if _, err := s.laterSetBackOnboarding(ctx, admin); err != nil {
		return err
	}
	return s.sendKept(ctx, nil, admin, http.MethodPost, "/system-metadata/admin-onboarding", map[string]string{"isOnboarded": value})
}

// newNonAdmin makes a new user, who is no admin.
func (s *scenario) newNonAdmin(ctx context.Context) error {
	u, err := s.newUser(ctx)
	s.settings.user = u
	return err
}

// nonAdminTries asks, as the new user, for what only an admin may; what
// would change something is set back, were it taken.
func (s *scenario) nonAdminTries(ctx context.Context, try string) error {
	u := s.settings.user
	if u == nil {
		return fmt.Errorf("no new user was made earlier in the scenario")
	}
	creds := credentials{apiKey: u.apiKey}
	paths := map[string]string{
		"read the server's settings":               "/system-config",
		"read the default settings":                "/system-config/defaults",
		"read the options of the storage template": "/system-config/storage-template-options",
		"ask what each user stores":                "/server-info/statistics",
		"ask whether the admin was shown around":   "/system-metadata/admin-onboarding",
	}
	if path, ok := paths[try]; ok {
		return s.sendKept(ctx, u, creds, http.MethodGet, path, nil)
	}
	admin, err := s.adminCreds(ctx)
	if err != nil {
		return err
	}
	if try == "change the login page message" {
		c, err := s.laterSetBack(ctx, admin, "server.loginPageMessage")
		if err != nil {
			return err
		}
		c.set("server.loginPageMessage", "Changed by a user who is not an admin")
		return s.sendKept(ctx, u, creds, http.MethodPut, "/system-config", c)
	}
	was, err := s.laterSetBackOnboarding(ctx, admin)
	if err != nil {
		return err
	}
	return s.sendKept(ctx, u, creds, http.MethodPost, "/system-metadata/admin-onboarding", map[string]bool{"isOnboarded": !was})
}

// settingsOperationsRefused sends each request of the settings and the
// server's figures with the scenario's credentials, and judges each refused.
func (s *scenario) settingsOperationsRefused(ctx context.Context, status int, message string) error {
	return s.eachRefused(ctx, status, message, []apiRequest{
		{method: http.MethodGet, path: "/system-config"},
		{method: http.MethodPut, path: "/system-config", body: []byte(`{}`)},
		{method: http.MethodGet, path: "/system-config/defaults"},
		{method: http.MethodGet, path: "/system-config/storage-template-options"},
		{method: http.MethodGet, path: "/server-info/storage"},
		{method: http.MethodGet, path: "/server-info/statistics"},
		{method: http.MethodGet, path: "/system-metadata/admin-onboarding"},
		// A body the server would refuse: a server that let it past
		// without credentials changes nothing all the same.
		{method: http.MethodPost, path: "/system-metadata/admin-onboarding", body: []byte(`{"isOnboarded":"maybe"}`)},
	})
}

// eachRefused sends each request with the scenario's credentials, and
// judges each refused with status and message.
func (s *scenario) eachRefused(ctx context.Context, status int, message string, reqs []apiRequest) error {
	for _, ar := range reqs {
		ar.creds = s.creds
		if ar.body != nil {
			ar.contentType = "application/json"
		}
		resp, err := s.cfg.send(ctx, ar)
		if err := s.keep(resp, s.me, err); err != nil {
			return err
		}
		if err := s.refused(status, []string{message}, false); err != nil {
			return fmt.Errorf("%s %s: %w", ar.method, ar.path, err)
		}
	}
	return nil
}
