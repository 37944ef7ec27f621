package api

import (
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The reference's version, which clients compare with their own.
const (
	versionMajor = 1
	versionMinor = 105
	versionPatch = 1
)

// The answers that never change, encoded once.
var (
	pongBody      = []byte(`{"res":"pong"}`)
	wellKnownBody = []byte(`{"api":{"endpoint":"/api"}}`)
)

// wellKnown is GET /.well-known/immich at the server's root: clients
// discover the API's base path with it.
func wellKnown(c *call) error {
	httpx.WriteRawJSON(c.w, http.StatusOK, wellKnownBody)
	return nil
}

// ping is GET /api/server-info/ping. It, the version and the media types
// ignore any credentials, even bad ones, as on the reference.
func ping(c *call) error {
	httpx.WriteRawJSON(c.w, http.StatusOK, pongBody)
	return nil
}

// version is GET /api/server-info/version.
func version(c *call) error {
	return c.json(http.StatusOK, struct {
		Major int `json:"major"`
		Minor int `json:"minor"`
		Patch int `json:"patch"`
	}{versionMajor, versionMinor, versionPatch})
}

// mediaTypes is GET /api/server-info/media-types: the extensions an upload
// takes, as the upload itself judges them.
func mediaTypes(c *call) error {
	return c.json(http.StatusOK, struct {
		Video   []string `json:"video"`
		Image   []string `json:"image"`
		Sidecar []string `json:"sidecar"`
	}{model.VideoExtensions(), model.ImageExtensions(), model.SidecarExtensions()})
}

// serverConfig is GET /api/server-info/config: what the web app reads to
// decide where a visitor goes (isInitialized: the server has an admin;
// isOnboarded: the admin went through onboarding), and the settings an
// admin changes with PUT /api/system-config.
func (s *server) serverConfig(c *call) error {
	var initialized, onboarded bool
	var cfg model.SystemConfig
	s.store.Read(func(v *store.View) { initialized, onboarded, cfg = v.HasAdmin(), v.AdminOnboarded(), v.SystemConfig() })
	return c.json(http.StatusOK, struct {
		LoginPageMessage string  `json:"loginPageMessage"`
		TrashDays        float64 `json:"trashDays"`
		UserDeleteDelay  float64 `json:"userDeleteDelay"`
		OAuthButtonText  string  `json:"oauthButtonText"`
		IsInitialized    bool    `json:"isInitialized"`
		IsOnboarded      bool    `json:"isOnboarded"`
		ExternalDomain   string  `json:"externalDomain"`
	}{cfg.Server.LoginPageMessage, cfg.Trash.Days, cfg.User.DeleteDelay, cfg.OAuth.ButtonText, initialized, onboarded, cfg.Server.ExternalDomain})
}

// serverFeatures is GET /api/server-info/features: what the server does,
// as the reference derives it from the settings (an admin who turns the
// map or machine learning on or off sees the flag follow). The mock keeps
// no config file.
func (s *server) serverFeatures(c *call) error {
	cfg := s.config()
	ml := cfg.MachineLearning
	smartSearch := ml.Enabled && ml.CLIP.Enabled
	return c.json(http.StatusOK, map[string]bool{
		"smartSearch": smartSearch, "facialRecognition": ml.Enabled && ml.FacialRecognition.Enabled,
		"duplicateDetection": smartSearch && ml.DuplicateDetection.Enabled, "map": cfg.Map.Enabled,
		"reverseGeocoding": cfg.ReverseGeocoding.Enabled, "sidecar": true, "search": true, "trash": cfg.Trash.Enabled,
		"oauth": cfg.OAuth.Enabled, "oauthAutoLaunch": cfg.OAuth.AutoLaunch, "passwordLogin": cfg.PasswordLogin.Enabled,
		"configFile": false, "email": cfg.Notifications.SMTP.Enabled,
	})
}

// config is the server's settings as they are now.
func (s *server) config() model.SystemConfig {
	var cfg model.SystemConfig
	s.store.Read(func(v *store.View) { cfg = v.SystemConfig() })
	return cfg
}

// serverTheme is GET /api/server-info/theme: the theme's CSS of the settings.
func (s *server) serverTheme(c *call) error {
	return c.json(http.StatusOK, map[string]string{"customCss": s.config().Theme.CustomCSS})
}

// customCSS is GET /custom.css at the server's root: the theme's CSS.
func (s *server) customCSS(c *call) error {
	css := s.config().Theme.CustomCSS
	c.w.Header().Set("Content-Type", "text/css; charset=utf-8")
	c.w.Header().Set("Content-Length", strconv.Itoa(len(css)))
	c.w.WriteHeader(http.StatusOK)
	if c.r.Method != http.MethodHead {
		_, _ = io.WriteString(c.w, css)
	}
	return nil
}

// serverStorage is GET /api/server-info/storage: the disk of the media
// folder (or of the working folder without one), in the reference's
// units.
func (s *server) serverStorage(c *call) error {
	dir := "."
	if s.folder != nil {
		dir = s.folder.Dir()
	}
	total, free, available := media.DiskUsage(dir)
	used := total - free
	percent := 0.0
	if total > 0 {
		percent = math.Round(float64(used)/float64(total)*10000) / 100
	}
	return c.json(http.StatusOK, struct {
		DiskSize            string  `json:"diskSize"`
		DiskUse             string  `json:"diskUse"`
		DiskAvailable       string  `json:"diskAvailable"`
		DiskSizeRaw         int64   `json:"diskSizeRaw"`
		DiskUseRaw          int64   `json:"diskUseRaw"`
		DiskAvailableRaw    int64   `json:"diskAvailableRaw"`
		DiskUsagePercentage float64 `json:"diskUsagePercentage"`
	}{humanSize(total), humanSize(used), humanSize(available), total, used, available, percent})
}

// humanSize writes bytes as the reference does (asHumanReadable): the
// largest binary unit, one decimal.
func humanSize(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v := float64(n)
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	decimals := 1
	if i == 0 {
		decimals = 0
	}
	return strconv.FormatFloat(v, 'f', decimals, 64) + " " + units[i]
}

// serverStatistics is GET /api/server-info/statistics (admins): photos,
// videos and bytes of every user not deleted, the oldest user first.
func (s *server) serverStatistics(c *call) error {
	type usage struct {
		UserID           string `json:"userId"`
		UserName         string `json:"userName"`
		Photos           int    `json:"photos"`
		Videos           int    `json:"videos"`
		Usage            int64  `json:"usage"`
		QuotaSizeInBytes *int64 `json:"quotaSizeInBytes"`
	}
	out := struct {
		Photos      int     `json:"photos"`
		Videos      int     `json:"videos"`
		Usage       int64   `json:"usage"`
		UsageByUser []usage `json:"usageByUser"`
	}{UsageByUser: []usage{}}
	s.store.Read(func(v *store.View) {
		users := v.UserList(false)
		slices.Reverse(users)
		for _, u := range users {
			st := v.Statistics(u.ID, nil, nil, nil)
			n := usage{UserID: u.ID, UserName: u.Name, Photos: st.Images, Videos: st.Videos, Usage: v.Usage(u.ID), QuotaSizeInBytes: u.QuotaSizeInBytes}
			out.Photos += n.Photos
			out.Videos += n.Videos
			out.Usage += n.Usage
			out.UsageByUser = append(out.UsageByUser, n)
		}
	})
	return c.json(http.StatusOK, out)
}
