package fake

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/gazetteer"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

var testAnchor = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

func options(seed int64) Options {
	return Options{Seed: seed, Anchor: testAnchor, Links: 12, APIKey: "mediaspec-dev-key"}
}

// twentyDatasets are the datasets of seeds 1 to 20 with the server's
// defaults, generated once for the tests that read them.
var twentyDatasets = sync.OnceValue(func() []model.Dataset {
	out := make([]model.Dataset, 20)
	for i := range out {
		out[i] = Generate(options(int64(i + 1)))
	}
	return out
})

func TestGenerateIsDeterministic(t *testing.T) {
	tests := []struct {
		name string
		o    Options
	}{
		{"default", options(1)},
		{"many links", Options{Seed: 42, Anchor: testAnchor, Links: 150, Users: 5, APIKey: "k"}},
		{"negative seed, one other user", Options{Seed: -7, Anchor: testAnchor.AddDate(-3, 0, 0), Links: 3, Users: 1, APIKey: "k"}},
		{"seed zero", Options{Seed: 0, Anchor: testAnchor, Links: 12, APIKey: "k"}},
		{"anchor at an odd instant", Options{Seed: 9, Anchor: time.Date(2031, 7, 14, 13, 5, 9, 123456789, time.FixedZone("CEST", 7200)), Links: 12}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, b := Generate(tt.o), Generate(tt.o)
			require.True(t, reflect.DeepEqual(a, b), "two datasets of the same options differ")
			ja, err := json.Marshal(a)
			require.NoError(t, err)
			jb, err := json.Marshal(b)
			require.NoError(t, err)
			assert.Equal(t, ja, jb)

			other := tt.o
			other.Seed++
			jc, err := json.Marshal(Generate(other))
			require.NoError(t, err)
			assert.NotEqual(t, ja, jc, "another seed gives the same dataset")
		})
	}
}

// TestDatasetSurvivesJSON checks that a dataset written as JSON (GET
// /__mock/dataset) and read back (serve --fixtures) is the same dataset.
func TestDatasetSurvivesJSON(t *testing.T) {
	d := Generate(Options{Seed: 3, Anchor: testAnchor, Links: 40, APIKey: "k"})
	b, err := json.Marshal(d)
	require.NoError(t, err)
	var back model.Dataset
	require.NoError(t, json.Unmarshal(b, &back))
	assert.True(t, reflect.DeepEqual(d, back), "the dataset changed through JSON")
}

func TestGenerateHoldsInvariantsOn20Seeds(t *testing.T) {
	for i, d := range twentyDatasets() {
		seed := i + 1
		for _, err := range Check(d) {
			t.Errorf("seed %d: %v", seed, err)
		}
	}
}

func TestGenerateOptions(t *testing.T) {
	tests := []struct {
		name         string
		o            Options
		wantUsers    int
		wantMyLinks  int
		wantAPIKey   string
		wantAnchorAt time.Time
	}{
		{"defaults", Options{Seed: 5, Anchor: testAnchor, Links: 12, APIKey: "mediaspec-dev-key"}, 1 + DefaultOtherUsers, 12, "mediaspec-dev-key", testAnchor},
		{"no other users", Options{Seed: 5, Anchor: testAnchor, Links: 4, Users: -1, APIKey: "key-a"}, 1, 4, "key-a", testAnchor},
		{"six other users", Options{Seed: 5, Anchor: testAnchor, Links: 1, Users: 6, APIKey: "key-b"}, 7, 1, "key-b", testAnchor},
		{"no links", Options{Seed: 5, Anchor: testAnchor, Links: 0, APIKey: "key-c"}, 1 + DefaultOtherUsers, 0, "key-c", testAnchor},
		{"anchor in another zone", Options{Seed: 5, Anchor: time.Date(2025, 1, 1, 9, 0, 0, 0, time.FixedZone("", 3600)), Links: 2, APIKey: "k"}, 1 + DefaultOtherUsers, 2, "k", time.Date(2025, 1, 1, 8, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Generate(tt.o)
			require.Len(t, d.Users, tt.wantUsers)
			assert.Equal(t, tt.o.Seed, d.Seed)
			assert.True(t, d.Anchor.Equal(tt.wantAnchorAt), "anchor %v", d.Anchor)
			assert.Equal(t, tt.wantAPIKey, d.Users[0].APIKey)
			mine := 0
			for _, l := range d.SharedLinks {
				if l.UserID == d.Users[0].ID {
					mine++
				}
			}
			assert.Equal(t, tt.wantMyLinks, mine)
			for _, u := range d.Users[1:] {
				assert.Regexp(t, `^[A-Za-z0-9]{30,43}$`, u.APIKey)
				owns := false
				for _, l := range d.SharedLinks {
					owns = owns || l.UserID == u.ID
				}
				assert.True(t, owns, "user %s has no links of their own", u.Name)
			}
			assert.Empty(t, Check(d))
		})
	}
}

// TestGenerateFillsOptionalFields checks that across 20 seeds every optional
// field and every kind of record appears, and none everywhere.
func TestGenerateFillsOptionalFields(t *testing.T) {
	seen := map[string]int{}
	total := map[string]int{}
	count := func(what string, present bool) {
		total[what]++
		if present {
			seen[what]++
		}
	}
	for _, d := range twentyDatasets() {
		linked := map[string]bool{}
		for _, l := range d.SharedLinks {
			count("link description", l.Description != nil)
			count("link password", l.Password != nil)
			count("link expiry", l.ExpiresAt != nil)
			count("link expired", l.ExpiresAt != nil && l.ExpiresAt.Before(testAnchor))
			count("link valid after the anchor", l.ExpiresAt != nil && l.ExpiresAt.After(testAnchor))
			count("ALBUM link", l.Type == model.LinkAlbum)
			count("link allows upload", l.AllowUpload)
			count("link allows download", l.AllowDownload)
			count("link shows metadata", l.ShowMetadata)
			if l.AlbumID != nil {
				linked[*l.AlbumID] = true
			}
		}
		for _, al := range d.Albums {
			count("album with a link", linked[al.ID])
			count("album shared with users", len(al.AlbumUsers) > 0)
			count("album description", al.Description != "")
			count("album order", al.Order != nil)
			count("album activity", al.IsActivityEnabled)
		}
		for _, a := range d.Assets {
			count("exif", a.ExifInfo != nil)
			count("GPS", a.ExifInfo != nil && a.ExifInfo.Latitude != nil)
			count("lens model", a.ExifInfo != nil && a.ExifInfo.LensModel != nil)
			count("exif time zone", a.ExifInfo != nil && a.ExifInfo.TimeZone != nil)
			count("projection type", a.ExifInfo != nil && a.ExifInfo.ProjectionType != nil)
			count("smart info", a.SmartInfo != nil)
			count("faces", len(a.Faces) > 0)
			count("tags", len(a.TagIDs) > 0)
			count("thumbhash", a.Thumbhash != nil)
			count("live photo", a.LivePhotoVideoID != nil)
			count("stacked", a.StackParentID != nil)
			count("duplicate", a.DuplicateID != nil)
			count("external library", a.LibraryID != nil)
			count("video", a.Type == model.AssetVideo)
			count("favourite", a.IsFavorite)
			count("archived", a.IsArchived)
			count("trashed", a.IsTrashed)
			count("offline", a.IsOffline)
			count("hidden", !a.IsVisible)
		}
		for _, p := range d.People {
			count("birth date", p.BirthDate != nil)
			count("named person", p.Name != "")
			count("hidden person", p.IsHidden)
		}
		for _, u := range d.Users {
			count("profile image", u.ProfileImagePath != "")
			count("quota", u.QuotaSizeInBytes != nil)
		}
		for _, tg := range d.Tags {
			count("OBJECT tag", tg.Type == model.TagObject)
			count("FACE tag", tg.Type == model.TagFace)
		}
	}
	for what, n := range total {
		assert.Positive(t, seen[what], "no %s in 20 datasets", what)
		assert.Less(t, seen[what], n, "%s everywhere in 20 datasets", what)
	}
}

func TestDefaultUserHasEveryKindOfLink(t *testing.T) {
	for i, d := range twentyDatasets() {
		seed := i + 1
		kinds := map[string]bool{}
		for _, l := range d.SharedLinks {
			if l.UserID != d.Users[0].ID {
				continue
			}
			kinds[l.Type] = true
			switch {
			case l.ExpiresAt == nil:
				kinds["never expires"] = true
			case l.ExpiresAt.Before(testAnchor):
				kinds["expired"] = true
			default:
				kinds["valid"] = true
				assert.True(t, l.ExpiresAt.After(testAnchor.Add(24*time.Hour)), "seed %d: a valid link expires within a day of the anchor", seed)
			}
		}
		for _, k := range []string{model.LinkAlbum, model.LinkIndividual, "never expires", "expired", "valid"} {
			assert.True(t, kinds[k], "seed %d: the default user has no %s link", seed, k)
		}
	}
}

// fileName is how each maker's devices name files.
var fileName = map[string]*regexp.Regexp{
	"Apple":               regexp.MustCompile(`^IMG_\d{4}(\(\d+\))?\.(HEIC|JPG|MOV)$`),
	"Google":              regexp.MustCompile(`^(PXL_\d{8}_\d{9}|(IMG|VID)_\d{8}_\d{6})(\(\d+\))?\.(jpg|mp4)$`),
	"samsung":             regexp.MustCompile(`^\d{8}_\d{6}(\(\d+\))?\.(jpg|mp4)$`),
	"Xiaomi":              regexp.MustCompile(`^(IMG|VID)_\d{8}_\d{6}(\(\d+\))?\.(jpg|mp4)$`),
	"OnePlus":             regexp.MustCompile(`^(IMG|VID)_?\d{8}_?\d{6}(\(\d+\))?\.(jpg|mp4)$`),
	"SONY":                regexp.MustCompile(`^(DSC\d{5}\.(JPG|ARW)|C\d{4}\.MP4)$`),
	"Canon":               regexp.MustCompile(`^(IMG_\d{4}\.(JPG|CR2|CR3)|MVI_\d{4}\.MP4)$`),
	"NIKON CORPORATION":   regexp.MustCompile(`^DSC_\d{4}\.(JPG|NEF|MOV)$`),
	"FUJIFILM":            regexp.MustCompile(`^DSCF\d{4}\.(JPG|RAF|MOV)$`),
	"OLYMPUS CORPORATION": regexp.MustCompile(`^P[1-9A-C]\d{6}\.(JPG|ORF|MOV)$`),
	"Panasonic":           regexp.MustCompile(`^P\d{7}\.(JPG|RW2|MP4)$`),
	"GoPro":               regexp.MustCompile(`^(GOPR|GX01)\d{4}\.(JPG|MP4)$`),
	"DJI":                 regexp.MustCompile(`^DJI_\d{4}\.(JPG|MP4)$`),
	"Arashi Vision":       regexp.MustCompile(`^(IMG|VID)_\d{8}_\d{6}_00_\d{3}\.(insp|insv)$`),
}

var (
	whatsAppName = regexp.MustCompile(`^(IMG|VID)-\d{8}-WA\d{4}\.(jpg|mp4)$`)
	exposure     = regexp.MustCompile(`^1/\d+$`)
	uploadPath   = regexp.MustCompile(`^upload/library/[0-9a-f-]{36}/(\d{4})/(\d{4}-\d{2}-\d{2})/[^/]+$`)
	libraryPath  = regexp.MustCompile(`^/mnt/photos/(\d{4})/(\d{4}-\d{2}-\d{2})/[^/]+$`)
)

func TestAssetsLookLikeTheDevicesWroteThem(t *testing.T) {
	for i, d := range twentyDatasets() {
		seed := i + 1
		for _, a := range d.Assets {
			x := a.ExifInfo
			switch {
			case x == nil || x.Make == nil:
				if a.HasMetadata && x == nil {
					assert.Regexp(t, whatsAppName, a.OriginalFileName, "seed %d: a file without exif", seed)
				}
			default:
				re, ok := fileName[*x.Make]
				if assert.True(t, ok, "unknown make %q", *x.Make) {
					assert.Regexp(t, re, a.OriginalFileName, "seed %d: %s %s", seed, *x.Make, *x.Model)
				}
			}
			// The storage path is dated by the local day the photo was taken.
			m := uploadPath.FindStringSubmatch(a.OriginalPath)
			if m == nil {
				m = libraryPath.FindStringSubmatch(a.OriginalPath)
			}
			if assert.NotNil(t, m, "seed %d: path %q", seed, a.OriginalPath) {
				assert.Equal(t, a.LocalDateTime.Format("2006-01-02"), m[2], "seed %d: path %q", seed, a.OriginalPath)
			}
			if x == nil {
				continue
			}
			if x.ExposureTime != nil {
				assert.Regexp(t, exposure, *x.ExposureTime)
				require.NotNil(t, x.FNumber)
				require.NotNil(t, x.ISO)
				require.NotNil(t, x.FocalLength)
				assert.True(t, *x.FNumber >= 1.4 && *x.FNumber <= 11, "f-number %v", *x.FNumber)
				assert.True(t, *x.ISO >= 50 && *x.ISO <= 6400, "ISO %v", *x.ISO)
			}
			if x.LensModel != nil && *x.Make == "Apple" {
				// Apple writes focal length and aperture into the lens model.
				assert.Contains(t, *x.LensModel, *x.Model+" ")
				assert.Contains(t, *x.LensModel, "f/"+trimFloat(*x.FNumber))
				assert.Contains(t, *x.LensModel, trimFloat(*x.FocalLength)+"mm")
			}
			if x.FileSizeInByte != nil && a.Type == model.AssetImage {
				mb := float64(*x.FileSizeInByte) / 1e6
				ext := strings.ToUpper(a.OriginalFileName[strings.LastIndexByte(a.OriginalFileName, '.')+1:])
				switch ext {
				case "ARW", "CR2", "CR3", "NEF", "RAF", "ORF", "RW2":
					assert.True(t, mb >= 10 && mb <= 60, "raw file of %.1f MB", mb)
				default:
					assert.True(t, mb >= 0.5 && mb <= 20, "%s of %.1f MB", ext, mb)
				}
			}
			if x.City != nil {
				p := placeIndex(*x.City, countryCode(*x.Country))
				if assert.GreaterOrEqual(t, p, 0, "city %s, %s is not in the gazetteer", *x.City, *x.Country) {
					assert.Equal(t, cities[p].State, *x.State)
					assert.Equal(t, cities[p].Zone, *x.TimeZone)
					assert.InDelta(t, cities[p].Lat, *x.Latitude, 0.2)
					assert.InDelta(t, cities[p].Lon, *x.Longitude, 0.2)
				}
			}
		}
	}
}

func trimFloat(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

func countryCode(country string) string {
	for _, p := range cities {
		if p.Country == country {
			return p.CC
		}
	}
	return ""
}

// personName is a given name and a family name, with particles such as
// "van den" or "De".
var personName = regexp.MustCompile(`^\p{Lu}[\p{L}'-]* (\p{Ll}+ )*\p{Lu}[\p{L}'-]*( \p{Lu}[\p{L}'-]*)?$`)

// TestTextIsWhatPeopleWrite scans every text people typed in 20 datasets
// for filler.
func TestTextIsWhatPeopleWrite(t *testing.T) {
	filler := regexp.MustCompile(`(?i)\b(lorem|ipsum|dolor|consectetur|foo|bar|baz|test|example|sample|todo|xxx|null|undefined)\b`)
	for i, d := range twentyDatasets() {
		seed := i + 1
		var texts []string
		for _, u := range d.Users {
			texts = append(texts, u.Name, u.Email)
		}
		for _, p := range d.People {
			texts = append(texts, p.Name)
			if p.Name != "" && !personName.MatchString(p.Name) {
				t.Errorf("seed %d: %q is not a person's name", seed, p.Name)
			}
		}
		for _, tg := range d.Tags {
			texts = append(texts, tg.Name)
		}
		for _, al := range d.Albums {
			texts = append(texts, al.AlbumName, al.Description)
			if strings.TrimSpace(al.AlbumName) != al.AlbumName || strings.Contains(al.AlbumName, "  ") {
				t.Errorf("seed %d: album name %q has stray spaces", seed, al.AlbumName)
			}
		}
		for _, l := range d.SharedLinks {
			if l.Description != nil {
				texts = append(texts, *l.Description)
			}
			if l.Password != nil {
				texts = append(texts, *l.Password)
			}
		}
		for _, a := range d.Assets {
			if a.ExifInfo != nil && a.ExifInfo.Description != nil {
				texts = append(texts, *a.ExifInfo.Description)
			}
			if a.SmartInfo != nil {
				texts = append(texts, a.SmartInfo.Objects...)
				texts = append(texts, a.SmartInfo.Tags...)
			}
		}
		checked := make(map[string]bool, len(texts))
		for _, s := range texts {
			if !checked[s] && filler.MatchString(s) {
				t.Errorf("seed %d: %q reads like filler", seed, s)
			}
			checked[s] = true
		}
	}
}

func TestGazetteer(t *testing.T) {
	require.GreaterOrEqual(t, len(cities), 100)
	continents := map[string]bool{}
	seen := map[string]bool{}
	for _, p := range cities {
		loc, err := gazetteer.Location(p.Zone)
		require.NoError(t, err, p.City)
		assert.False(t, seen[p.City+"/"+p.CC], "%s is listed twice", p.City)
		seen[p.City+"/"+p.CC] = true
		assert.True(t, p.Lat >= -90 && p.Lat <= 90 && p.Lon >= -180 && p.Lon <= 180, p.City)
		assert.Regexp(t, `^[A-Z]{2}$`, p.CC)
		assert.NotEmpty(t, p.Features, p.City)
		assert.True(t, p.Weight >= 1 && p.Weight <= 5, p.City)
		// The zone's offset fits the longitude: within four hours of solar time.
		_, off := time.Date(2024, 1, 15, 12, 0, 0, 0, loc).Zone()
		assert.InDelta(t, p.Lon/15, float64(off)/3600, 4, "%s: zone %s at longitude %v", p.City, p.Zone, p.Lon)
		switch region, _, _ := strings.Cut(p.Zone, "/"); {
		case region == "America" && p.Lat < 8:
			continents["South America"] = true
		case region == "America":
			continents["North America"] = true
		case region == "Australia" || region == "Pacific":
			continents["Oceania"] = true
		case region == "Atlantic":
			continents["Europe"] = true
		case region == "Indian":
			continents[map[bool]string{true: "Asia", false: "Africa"}[p.Lon > 70]] = true
		default:
			continents[region] = true
		}
	}
	for _, c := range []string{"Europe", "Asia", "Africa", "North America", "South America", "Oceania", "Antarctica"} {
		assert.True(t, continents[c], "no city in %s", c)
	}
	for i := range cultures {
		for _, h := range cultures[i].homes {
			city, cc, _ := strings.Cut(h, "/")
			assert.GreaterOrEqual(t, placeIndex(city, cc), 0, "home %s is not in the gazetteer", h)
		}
	}
}

func TestCameraCatalogue(t *testing.T) {
	all := append(phones[:len(phones):len(phones)], cameras[:]...)
	require.GreaterOrEqual(t, len(all), 30)
	makers := map[string]bool{}
	for _, d := range all {
		makers[d.make] = true
		assert.NotEmpty(t, d.lenses, d.model)
		assert.NotEmpty(t, d.dims, d.model)
		assert.NotEmpty(t, d.videoDims, d.model)
		assert.Contains(t, model.ImageExtensions(), "."+strings.ToLower(d.stillExt), d.model)
		assert.Contains(t, model.VideoExtensions(), "."+strings.ToLower(d.videoExt), d.model)
		if d.rawExt != "" {
			assert.Contains(t, model.ImageExtensions(), "."+strings.ToLower(d.rawExt), d.model)
		}
		for _, dim := range d.dims {
			assert.GreaterOrEqual(t, dim[0], dim[1], "%s: sizes are landscape", d.model)
		}
		for _, l := range d.lenses {
			assert.True(t, l.focalMin > 0 && l.focalMax >= l.focalMin, "%s %s", d.model, l.model)
			assert.True(t, l.apertureWide >= 1.4 && l.apertureTele >= l.apertureWide, "%s %s", d.model, l.model)
		}
	}
	assert.GreaterOrEqual(t, len(makers), 10)
}

func TestLocalDateTimeFollowsTheZone(t *testing.T) {
	g := newGen(Options{Seed: 1})
	tests := []struct {
		zone string
		utc  time.Time
		want time.Time
	}{
		{"Europe/Lisbon", time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC), time.Date(2024, 7, 1, 13, 0, 0, 0, time.UTC)},
		{"Europe/Lisbon", time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC), time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)},
		{"Asia/Kathmandu", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 1, 1, 5, 45, 0, 0, time.UTC)},
		{"America/Sao_Paulo", time.Date(2024, 1, 1, 2, 0, 0, 0, time.UTC), time.Date(2023, 12, 31, 23, 0, 0, 0, time.UTC)},
		{"Australia/Sydney", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 1, 1, 11, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, localClock(tt.utc, g.zone(tt.zone)), tt.zone)
	}
	assert.Equal(t, "UTC+5:45", utcOffsetName(20700))
	assert.Equal(t, "UTC-3", utcOffsetName(-10800))
	assert.Equal(t, "0:00:02.933333", videoDuration(2.933333))
	assert.Equal(t, "1:02:03.000000", videoDuration(3723))
}

func BenchmarkGenerate10000Links(b *testing.B) {
	o := Options{Seed: 1, Anchor: testAnchor, Links: 10000, APIKey: "mediaspec-dev-key"}
	for b.Loop() {
		Generate(o)
	}
}

func BenchmarkGenerateDefault(b *testing.B) {
	o := options(1)
	for b.Loop() {
		Generate(o)
	}
}

// TestDefaultUserHasAnUploadLink: whatever the seed and however few links,
// the default user has a link that allows uploads and is still valid, an
// album's where one is valid, so the upload-through-a-link screen needs no
// set-up. Its description, if any, asks for photos.
func TestDefaultUserHasAnUploadLink(t *testing.T) {
	for _, links := range []int{1, 2, 3, 12} {
		for seed := int64(1); seed <= 20; seed++ {
			o := options(seed)
			o.Links = links
			d := Generate(o)
			owner := d.Users[0].ID
			var found *model.SharedLinkRecord
			albums := 0
			for i := range d.SharedLinks {
				l := &d.SharedLinks[i]
				if l.UserID != owner {
					continue
				}
				if l.Type == model.LinkAlbum && (l.ExpiresAt == nil || l.ExpiresAt.After(testAnchor.Add(24*time.Hour))) {
					albums++
				}
				if l.AllowUpload && (l.ExpiresAt == nil || l.ExpiresAt.After(testAnchor.Add(24*time.Hour))) && found == nil {
					found = l
				}
			}
			require.NotNil(t, found, "seed %d, %d links: no valid link of the default user allows uploads", seed, links)
			if albums > 0 {
				assert.Equal(t, model.LinkAlbum, found.Type, "seed %d, %d links: a valid album link", seed, links)
			}
			if found.Description != nil && links > 1 {
				assert.NotContains(t, *found.Description, "Download", "seed %d: %q", seed, *found.Description)
			}
			assert.Empty(t, Check(d))
		}
	}
}
