package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Search and the map: a user finds their photos by file name, place,
// camera and the day they were taken; the search form suggests what their
// photos hold; the explore page shows their cities; the map marks what has
// a position. Each judges what the server itself read of the photos (GET
// /asset/{id}), not what the harness expects a geocoder to name, and a
// user finds only their own photos.

// searchState is what the search steps keep within a scenario.
type searchState struct {
	photo      *placedPhoto   // a photo whose place and camera the server read
	screenshot string         // the id of a photo without a position
	photos     []*placedPhoto // photos a new user took in one city
	user       *user          // the new user of the scenario
}

// placedPhoto is a photo uploaded with a position and a camera, as the
// server read them.
type placedPhoto struct {
	id, name      string
	fileCreatedAt time.Time
	exif          exifSeen
}

// exifSeen is what the harness reads of a photo's EXIF.
type exifSeen struct {
	City      *string  `json:"city"`
	State     *string  `json:"state"`
	Country   *string  `json:"country"`
	Make      *string  `json:"make"`
	Model     *string  `json:"model"`
	Latitude  *float64 `json:"latitude"`
	Longitude *float64 `json:"longitude"`
}

// foundAsset is an asset a search or the map finds.
type foundAsset struct {
	ID       string    `json:"id"`
	ExifInfo *exifSeen `json:"exifInfo"`
}

// searchPage is a page of a search's assets.
type searchPage struct {
	Assets struct {
		Count int          `json:"count"`
		Items []foundAsset `json:"items"`
	} `json:"assets"`
}

// searchSteps are the steps about search and the map.
func (s *scenario) searchSteps() []step {
	return []step{
		{`^I have uploaded a new photo taken in Lisbon, under a name of its own$`, s.uploadLisbonPhoto},
		{`^I have uploaded a new photo taken in Lisbon and a new screenshot, which has no position$`, s.uploadPhotoAndScreenshot},
		{`^I search for a part of its name, in another case$`, s.searchPartOfName},
		{`^I search for its name, its city, country, camera make and model, and the day it was taken$`, s.searchEverything},
		{`^I search for its name (with another camera|taken after the day it was|in another city|in another country)$`, s.searchOtherwise},
		{`^a new user searches for its name$`, s.newUserSearches},
		{`^(?:I|they) find exactly that photo$`, s.findExactlyThePhoto},
		{`^I find exactly that photo, with where and with what it was taken$`, s.findPhotoWithExif},
		{`^(?:I|they) find nothing$`, s.findNothing},
		{`^the search form suggests to me its country, its state in that country, its city in that state, its camera's make and that make's model, each once$`, s.suggestionsHoldPhoto},
		{`^I ask for suggestions of the kind "([^"]*)"$`, s.askSuggestions},
		{`^I ask for a picture of each city of my photos$`, s.askCities},
		{`^the photo's city is among them, each city once$`, s.photoCityAmongCities},
		{`^a new user who has uploaded (\d+) new photos taken in Lisbon$`, s.newUserWithLisbonPhotos},
		{`^they explore their photos$`, s.theyExplore},
		{`^the city of those photos is one to explore, shown with one of them$`, s.cityExplored},
		{`^I ask for the markers of my map( of my favourites| of photos taken after "[^"]*")?$`, s.askMarkers},
		{`^a new user asks for the markers of their map$`, s.newUserAsksMarkers},
		{`^the photo is marked where it was taken, and the screenshot is not marked$`, s.photoMarked},
		{`^neither is marked$`, s.neitherMarked},
		{`^I ask for the map's style "([^"]*)"$`, s.askMapStyle},
		{`^it is a style to draw the map with$`, s.isMapStyle},
		{`^I search by meaning for (?:"([^"]*)"|nothing)$`, s.searchByMeaning},
		{`^the search is refused as not enabled where the server has no smart search, and answers a page of photos where it has$`, s.smartSearchAsOffered},
		{`^(I|they) search for (?:the person "([^"]*)"|a person without a name)( among the hidden too)?$`, s.searchPerson},
		{`^that person is (found|not found)$`, s.personFound},
		{`^they hide that person$`, s.theyHidePerson},
		{`^each operation of search and the map is refused with status (\d+) and the message "([^"]*)"$`, s.searchOperationsRefused},
	}
}

// uploadPlaced uploads, as who, a new photo taken in Lisbon with a camera,
// and waits (up to --settle) until the server has read where and with
// what it was taken.
func (s *scenario) uploadPlaced(ctx context.Context, who *user, name string) (*placedPhoto, error) {
	id, err := s.uploadFileAs(ctx, who, newFile(name))
	if err != nil {
		return nil, err
	}
	creds := credentials{apiKey: who.apiKey}
	p := &placedPhoto{id: id, name: name}
	return p, s.settle(ctx, func() error {
		var a struct {
			FileCreatedAt string    `json:"fileCreatedAt"`
			ExifInfo      *exifSeen `json:"exifInfo"`
		}
		if err := s.call(ctx, "reading the photo", http.MethodGet, "/asset/"+p.id, creds, nil, &a, http.StatusOK); err != nil {
			return err
		}
		e := a.ExifInfo
		if e == nil || e.City == nil || e.Country == nil || e.Make == nil || e.Model == nil || e.Latitude == nil || e.Longitude == nil {
			return fmt.Errorf("the server has not read where and with what the photo %s was taken: exifInfo %+v", p.id, e)
		}
		p.exif = *e
		p.fileCreatedAt, err = parseTime(a.FileCreatedAt)
		return err
	})
}

// uniqueName is a photo's file name no other photo has.
func uniqueName() string { return "Conformance_" + strings.ToUpper(randomHex(6)) + ".JPG" }

// uploadLisbonPhoto uploads a photo of mine taken in Lisbon, under a name of its own.
func (s *scenario) uploadLisbonPhoto(ctx context.Context) error {
	p, err := s.uploadPlaced(ctx, s.me, uniqueName())
	s.search.photo = p
	return err
}

// uploadPhotoAndScreenshot uploads a photo with a position and a screenshot without one.
func (s *scenario) uploadPhotoAndScreenshot(ctx context.Context) error {
	if err := s.uploadLisbonPhoto(ctx); err != nil {
		return err
	}
	id, err := s.uploadFileAs(ctx, s.me, newFile("Screenshot_"+randomHex(4)+".png"))
	s.search.screenshot = id
	return err
}

// uploadFileAs uploads f as who and returns the new asset's id.
func (s *scenario) uploadFileAs(ctx context.Context, who *user, f *file) (string, error) {
	resp, err := s.upload(ctx, credentials{apiKey: who.apiKey}, uploadForm(f), "")
	if err := judgeNow(resp, err, http.StatusCreated); err != nil {
		return "", fmt.Errorf("uploading %s: %w", f.name, err)
	}
	var up uploadResult
	if err := json.Unmarshal(resp.body, &up); err != nil || up.ID == nil {
		return "", fmt.Errorf("uploading %s: %s", f.name, resp)
	}
	return *up.ID, nil
}

// thePhoto is the photo the scenario searches for.
func (s *scenario) thePhoto() (*placedPhoto, error) {
	if s.search.photo == nil {
		return nil, fmt.Errorf("no photo was uploaded earlier in the scenario")
	}
	return s.search.photo, nil
}

// searchMetadata searches, as who with creds, and keeps the answer.
func (s *scenario) searchMetadata(ctx context.Context, who *user, creds credentials, in map[string]any) error {
	return s.sendKept(ctx, who, creds, http.MethodPost, "/search/metadata", in)
}

// searchPartOfName searches for a part of the photo's name, in lower case.
func (s *scenario) searchPartOfName(ctx context.Context) error {
	p, err := s.thePhoto()
	if err != nil {
		return err
	}
	part := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(p.name, "Conformance_"), ".JPG"))
	return s.searchMetadata(ctx, s.me, s.creds, map[string]any{"originalFileName": part})
}

// photoCriteria are the criteria the photo meets: its name, place,
// camera and the day around the moment it was taken.
func photoCriteria(p *placedPhoto) map[string]any {
	return map[string]any{
		"originalFileName": p.name,
		"city":             *p.exif.City,
		"country":          *p.exif.Country,
		"make":             *p.exif.Make,
		"model":            *p.exif.Model,
		"takenAfter":       p.fileCreatedAt.Add(-12 * time.Hour).Format(time.RFC3339),
		"takenBefore":      p.fileCreatedAt.Add(12 * time.Hour).Format(time.RFC3339),
		"withExif":         true,
	}
}

// searchEverything searches for the photo by everything known of it.
func (s *scenario) searchEverything(ctx context.Context) error {
	p, err := s.thePhoto()
	if err != nil {
		return err
	}
	return s.searchMetadata(ctx, s.me, s.creds, photoCriteria(p))
}

// searchOtherwise searches for the photo's name with one criterion it does not meet.
func (s *scenario) searchOtherwise(ctx context.Context, how string) error {
	p, err := s.thePhoto()
	if err != nil {
		return err
	}
	in := map[string]any{"originalFileName": p.name}
	switch how {
	case "with another camera":
		in["make"], in["model"] = "Hasselblad", "X2D 100C"
	case "taken after the day it was":
		in["takenAfter"] = p.fileCreatedAt.Add(24 * time.Hour).Format(time.RFC3339)
	case "in another city":
		in["city"] = "Reykjavík"
	case "in another country":
		in["country"] = "Iceland"
	}
	return s.searchMetadata(ctx, s.me, s.creds, in)
}

// newUserSearches searches for the photo's name as a new user.
func (s *scenario) newUserSearches(ctx context.Context) error {
	p, err := s.thePhoto()
	if err != nil {
		return err
	}
	u, err := s.newUser(ctx)
	if err != nil {
		return err
	}
	s.search.user = u
	return s.searchMetadata(ctx, u, credentials{apiKey: u.apiKey}, map[string]any{"originalFileName": p.name})
}

// found reads the assets of the last search's answer.
func (s *scenario) found() ([]foundAsset, error) {
	var page searchPage
	if err := s.decodeLast(http.StatusOK, &page); err != nil {
		return nil, err
	}
	if page.Assets.Count != len(page.Assets.Items) {
		return nil, fmt.Errorf("the page counts %d assets and holds %d", page.Assets.Count, len(page.Assets.Items))
	}
	return page.Assets.Items, nil
}

// findExactlyThePhoto judges a search that finds the photo and nothing else.
func (s *scenario) findExactlyThePhoto() error {
	p, err := s.thePhoto()
	if err != nil {
		return err
	}
	items, err := s.found()
	if err != nil {
		return err
	}
	if len(items) != 1 || items[0].ID != p.id {
		return fmt.Errorf("the search finds %s, want exactly the photo %s", ids(items), p.id)
	}
	return nil
}

// findPhotoWithExif judges a search that finds the photo, with its EXIF.
func (s *scenario) findPhotoWithExif() error {
	if err := s.findExactlyThePhoto(); err != nil {
		return err
	}
	items, _ := s.found()
	e, want := items[0].ExifInfo, s.search.photo.exif
	if e == nil || !sameText(e.City, want.City) || !sameText(e.Make, want.Make) || !sameText(e.Model, want.Model) {
		return fmt.Errorf("the photo found says it was taken in %+v, and read on its own, in %+v", e, want)
	}
	return nil
}

func sameText(a, b *string) bool { return a != nil && b != nil && *a == *b }

// findNothing judges a search that finds nothing.
func (s *scenario) findNothing() error {
	items, err := s.found()
	if err != nil {
		return err
	}
	if len(items) != 0 {
		return fmt.Errorf("the search finds %s, want nothing", ids(items))
	}
	return nil
}

// ids lists the ids of assets found, for a message.
func ids(items []foundAsset) string {
	var out []string
	for _, a := range items {
		out = append(out, a.ID)
	}
	return fmt.Sprintf("%d assets %q", len(out), out)
}

// suggestionsHoldPhoto judges what the search form suggests of the
// photo: each kind holds the photo's, and suggests each value once.
func (s *scenario) suggestionsHoldPhoto(ctx context.Context) error {
	p, err := s.thePhoto()
	if err != nil {
		return err
	}
	e := p.exif
	if e.State == nil {
		return fmt.Errorf("the server read no state of the photo %s", p.id)
	}
	for _, kind := range []struct{ query, want string }{
		{"type=country", *e.Country},
		{"type=state&country=" + url.QueryEscape(*e.Country), *e.State},
		{"type=city&country=" + url.QueryEscape(*e.Country) + "&state=" + url.QueryEscape(*e.State), *e.City},
		{"type=camera-make&model=" + url.QueryEscape(*e.Model), *e.Make},
		{"type=camera-model&make=" + url.QueryEscape(*e.Make), *e.Model},
	} {
		var got []string
		if err := s.call(ctx, "asking for suggestions", http.MethodGet, "/search/suggestions?"+kind.query, s.creds, nil, &got, http.StatusOK); err != nil {
			return err
		}
		if !slices.Contains(got, kind.want) {
			return fmt.Errorf("the suggestions of %s do not hold %q: %q", kind.query, kind.want, got)
		}
		if len(slices.Compact(slices.Sorted(slices.Values(got)))) != len(got) {
			return fmt.Errorf("the suggestions of %s hold a value twice: %q", kind.query, got)
		}
	}
	return nil
}

// askSuggestions asks for suggestions of a kind.
func (s *scenario) askSuggestions(ctx context.Context, kind string) error {
	return s.sendKept(ctx, s.me, s.creds, http.MethodGet, "/search/suggestions?type="+url.QueryEscape(kind), nil)
}

// askCities asks for a picture of each city of my photos.
func (s *scenario) askCities(ctx context.Context) error {
	return s.sendKept(ctx, s.me, s.creds, http.MethodGet, "/search/cities", nil)
}

// photoCityAmongCities judges the pictures of each city.
func (s *scenario) photoCityAmongCities() error {
	p, err := s.thePhoto()
	if err != nil {
		return err
	}
	var pictures []foundAsset
	if err := s.decodeLast(http.StatusOK, &pictures); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, a := range pictures {
		if a.ExifInfo == nil || a.ExifInfo.City == nil {
			return fmt.Errorf("the picture %s of a city names no city", a.ID)
		}
		if seen[*a.ExifInfo.City] {
			return fmt.Errorf("the city %q has two pictures", *a.ExifInfo.City)
		}
		seen[*a.ExifInfo.City] = true
	}
	if !seen[*p.exif.City] {
		return fmt.Errorf("the photo's city %q is none of the %d cities pictured", *p.exif.City, len(pictures))
	}
	return nil
}

// newUserWithLisbonPhotos makes a new user, who uploads n photos taken in Lisbon.
func (s *scenario) newUserWithLisbonPhotos(ctx context.Context, n int) error {
	u, err := s.newUser(ctx)
	if err != nil {
		return err
	}
	s.search.user = u
	for range n {
		p, err := s.uploadPlaced(ctx, u, uniqueName())
		if err != nil {
			return err
		}
		s.search.photos = append(s.search.photos, p)
	}
	return nil
}

// theyExplore asks for the new user's explore page.
func (s *scenario) theyExplore(ctx context.Context) error {
	u := s.search.user
	if u == nil {
		return fmt.Errorf("no new user was made earlier in the scenario")
	}
	return s.sendKept(ctx, u, credentials{apiKey: u.apiKey}, http.MethodGet, "/search/explore", nil)
}

// cityExplored judges the explore page: the photos' city, with one of them.
func (s *scenario) cityExplored() error {
	if len(s.search.photos) == 0 {
		return fmt.Errorf("no photos were uploaded earlier in the scenario")
	}
	var fields []struct {
		FieldName string `json:"fieldName"`
		Items     []struct {
			Value string     `json:"value"`
			Data  foundAsset `json:"data"`
		} `json:"items"`
	}
	if err := s.decodeLast(http.StatusOK, &fields); err != nil {
		return err
	}
	city := *s.search.photos[0].exif.City
	for _, f := range fields {
		if f.FieldName != "exifInfo.city" {
			continue
		}
		for _, it := range f.Items {
			if it.Value == city {
				if !slices.ContainsFunc(s.search.photos, func(p *placedPhoto) bool { return p.id == it.Data.ID }) {
					return fmt.Errorf("%q is shown with %s, none of the photos taken there", city, it.Data.ID)
				}
				return nil
			}
		}
		return fmt.Errorf("the cities to explore do not hold %q: %s", city, s.last)
	}
	return fmt.Errorf("the explore page has no cities: %s", s.last)
}

// askMarkers asks for the markers of my map, of my favourites or of
// photos taken after a moment.
func (s *scenario) askMarkers(ctx context.Context, which string) error {
	path := "/map/markers"
	switch {
	case which == " of my favourites":
		path += "?isFavorite=true"
	case which != "":
		_, after, _ := strings.Cut(which, `"`)
		path += "?fileCreatedAfter=" + url.QueryEscape(strings.TrimSuffix(after, `"`))
	}
	return s.sendKept(ctx, s.me, s.creds, http.MethodGet, path, nil)
}

// newUserAsksMarkers asks for a new user's map markers.
func (s *scenario) newUserAsksMarkers(ctx context.Context) error {
	u, err := s.newUser(ctx)
	if err != nil {
		return err
	}
	return s.sendKept(ctx, u, credentials{apiKey: u.apiKey}, http.MethodGet, "/map/markers", nil)
}

// marker is a photo on the map.
type marker struct {
	ID  string  `json:"id"`
	Lat float64 `json:"lat"`
	Lon float64 `json:"lon"`
}

// markers reads the last answer's markers.
func (s *scenario) markers() ([]marker, error) {
	var out []marker
	err := s.decodeLast(http.StatusOK, &out)
	return out, err
}

// photoMarked judges the markers: the photo where it was taken, not the screenshot.
func (s *scenario) photoMarked() error {
	p, err := s.thePhoto()
	if err != nil {
		return err
	}
	ms, err := s.markers()
	if err != nil {
		return err
	}
	at := slices.IndexFunc(ms, func(m marker) bool { return m.ID == p.id })
	if at < 0 {
		return fmt.Errorf("the photo %s, taken at %v, %v, is not among the %d markers", p.id, *p.exif.Latitude, *p.exif.Longitude, len(ms))
	}
	if m := ms[at]; math.Abs(m.Lat-*p.exif.Latitude) > 1e-6 || math.Abs(m.Lon-*p.exif.Longitude) > 1e-6 {
		return fmt.Errorf("the photo is marked at %v, %v, and was taken at %v, %v", m.Lat, m.Lon, *p.exif.Latitude, *p.exif.Longitude)
	}
	if slices.ContainsFunc(ms, func(m marker) bool { return m.ID == s.search.screenshot }) {
		return fmt.Errorf("the screenshot %s, which has no position, is marked", s.search.screenshot)
	}
	return nil
}

// neitherMarked judges markers that hold neither the photo nor the screenshot.
func (s *scenario) neitherMarked() error {
	ms, err := s.markers()
	if err != nil {
		return err
	}
	for _, m := range ms {
		if (s.search.photo != nil && m.ID == s.search.photo.id) || m.ID == s.search.screenshot {
			return fmt.Errorf("%s is marked", m.ID)
		}
	}
	return nil
}

// askMapStyle asks for the map's style of a theme.
func (s *scenario) askMapStyle(ctx context.Context, theme string) error {
	return s.sendKept(ctx, s.me, s.creds, http.MethodGet, "/map/style.json?theme="+url.QueryEscape(theme), nil)
}

// isMapStyle judges a map style: MapLibre's version 8, with layers.
func (s *scenario) isMapStyle() error {
	var st struct {
		Version int            `json:"version"`
		Sources map[string]any `json:"sources"`
		Layers  []any          `json:"layers"`
	}
	if err := s.decodeLast(http.StatusOK, &st); err != nil {
		return err
	}
	if st.Version != 8 || st.Sources == nil || len(st.Layers) == 0 {
		return fmt.Errorf("the style is of version %d, with %d sources and %d layers, want version 8 and layers to draw", st.Version, len(st.Sources), len(st.Layers))
	}
	return nil
}

// searchByMeaning searches by meaning, with words or without.
func (s *scenario) searchByMeaning(ctx context.Context, query string) error {
	in := map[string]any{}
	if query != "" {
		in["query"] = query
	}
	return s.sendKept(ctx, s.me, s.creds, http.MethodPost, "/search/smart", in)
}

// smartSearchAsOffered judges a smart search by what the server says it offers.
func (s *scenario) smartSearchAsOffered(ctx context.Context) error {
	answer := s.last
	var f map[string]bool
	if err := s.call(ctx, "asking what the server offers", http.MethodGet, "/server-info/features", credentials{}, nil, &f, http.StatusOK); err != nil {
		return err
	}
	s.last = answer
	if !f["smartSearch"] {
		return s.refused(http.StatusBadRequest, []string{"Smart search is not enabled"}, false)
	}
	_, err := s.found()
	return err
}

// searchPerson searches for people by name, as me or as the new user whose people they are.
func (s *scenario) searchPerson(ctx context.Context, who, name, hidden string) error {
	path := "/search/person"
	q := url.Values{}
	if name != "" {
		q.Set("name", name)
	}
	if hidden != "" {
		q.Set("withHidden", "true")
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	if who == "I" {
		return s.sendKept(ctx, s.me, s.creds, http.MethodGet, path, nil)
	}
	return s.sendKept(ctx, s.people.owner, s.ownerCreds(), http.MethodGet, path, nil)
}

// personFound judges a search for people: it finds the scenario's person, or not.
func (s *scenario) personFound(found string) error {
	p, err := s.thatPerson()
	if err != nil {
		return err
	}
	var people []personSeen
	if err := s.decodeLast(http.StatusOK, &people); err != nil {
		return err
	}
	has := slices.ContainsFunc(people, func(q personSeen) bool { return q.ID == p.id })
	if has != (found == "found") {
		return fmt.Errorf("the search finds %d people, and the person %s (%q) %s among them", len(people), p.id, p.name, map[bool]string{true: "is", false: "is not"}[has])
	}
	return nil
}

// theyHidePerson hides the scenario's person, as their owner.
func (s *scenario) theyHidePerson(ctx context.Context) error {
	if err := s.changePerson(ctx, map[string]any{"isHidden": true}); err != nil {
		return err
	}
	return s.wantStatus(http.StatusOK)
}

// searchOperationsRefused sends each operation of search and the map with
// the scenario's credentials, and judges each refused.
func (s *scenario) searchOperationsRefused(ctx context.Context, status int, message string) error {
	return s.eachRefused(ctx, status, message, []apiRequest{
		{method: http.MethodPost, path: "/search/metadata", body: []byte(`{"originalFileName":"IMG"}`)},
		{method: http.MethodPost, path: "/search/smart", body: []byte(`{"query":"sunset"}`)},
		{method: http.MethodGet, path: "/search/explore"},
		{method: http.MethodGet, path: "/search/cities"},
		{method: http.MethodGet, path: "/search/suggestions?type=country"},
		{method: http.MethodGet, path: "/search/person?name=Ada"},
		{method: http.MethodGet, path: "/map/markers"},
		{method: http.MethodGet, path: "/map/style.json?theme=light"},
	})
}
