package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"time"

	"github.com/cucumber/godog"
)

// Assets as their owner changes them: a favourite, archived, described,
// dated and placed, one or many at once; gathered in stacks; and what
// random picks and memory lane show of them. The photos are new uploads of
// the scenario (mine, or a new user's): a change in place touches nothing
// of a user's library but what the scenario made.

// libraryChanges is what the steps of albums and their users, assets, the
// trash and partners keep within a scenario.
type libraryChanges struct {
	owner   *user    // whose photos "those photos" are: me, or the new user
	photos  []string // their new photos, in the order uploaded
	trashed []string // those the steps moved to the trash
	outer   string   // another new photo of theirs, outside the album

	them     *user  // "a new user", "they"
	another  *user  // "another new user": a partner, or one more user
	theirs   string // a new photo of the other user (or of another new user)
	theyAdd  string // the photo the other user added to my album
	album    string // the album of the scenario, whoever's
	cover    string // the album's cover before a change was asked for
	name     string // the album's name before a change was asked for
	memories string // the day of memory lane last asked for, "14 June"
}

// ordinals name the photos of a scenario in the order they were uploaded.
var ordinals = map[string]int{"first": 0, "second": 1, "third": 2}

// photoNamed is "the first", "the second" or "the third" of those photos.
func (s *scenario) photoNamed(which string) (string, error) {
	i, ok := ordinals[which]
	if !ok {
		return "", fmt.Errorf("steps: no photo %q", which) // a bug of the features
	}
	if i >= len(s.changes.photos) {
		return "", fmt.Errorf("the scenario uploaded %d photos, not a %s", len(s.changes.photos), which)
	}
	return s.changes.photos[i], nil
}

// uploadMine uploads n new photos as u, whose photos they become.
func (s *scenario) uploadMine(ctx context.Context, u *user, n int) error {
	s.changes.owner = u
	for range n {
		id, _, err := s.uploadPhoto(ctx, u)
		if err != nil {
			return err
		}
		s.changes.photos = append(s.changes.photos, id)
	}
	return nil
}

// photosOwner is the user whose photos the scenario's steps name.
func (s *scenario) photosOwner() (*user, error) {
	if s.changes.owner == nil {
		return nil, fmt.Errorf("no photos were uploaded earlier in the scenario")
	}
	return s.changes.owner, nil
}

// photosOwnerCreds are the credentials of the photos' owner: the scenario's
// credentials when the photos are mine (a step may have changed them),
// else the new user's API key.
func (s *scenario) photosOwnerCreds() (credentials, error) {
	u, err := s.photosOwner()
	if err != nil {
		return credentials{}, err
	}
	if u == s.me {
		return s.creds, nil
	}
	return credentials{apiKey: u.apiKey}, nil
}

// seenAsset is an asset as these steps read it.
type seenAsset struct {
	ID            string  `json:"id"`
	OwnerID       string  `json:"ownerId"`
	IsFavorite    bool    `json:"isFavorite"`
	IsArchived    bool    `json:"isArchived"`
	IsTrashed     bool    `json:"isTrashed"`
	FileCreatedAt string  `json:"fileCreatedAt"`
	LocalDateTime string  `json:"localDateTime"`
	StackParentID *string `json:"stackParentId"`
	StackCount    *int    `json:"stackCount"`
	Stack         []struct {
		ID string `json:"id"`
	} `json:"stack"`
	ExifInfo *struct {
		Description      *string  `json:"description"`
		DateTimeOriginal *string  `json:"dateTimeOriginal"`
		Latitude         *float64 `json:"latitude"`
		Longitude        *float64 `json:"longitude"`
		Country          *string  `json:"country"`
	} `json:"exifInfo"`
}

// readAsset reads an asset as u: status is what GET /asset/{id} answered
// (the asset decoded when 200).
func (s *scenario) readAsset(ctx context.Context, u *user, id string) (seenAsset, int, error) {
	var a seenAsset
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/asset/" + id, creds: credentials{apiKey: u.apiKey}})
	if resp == nil {
		return a, 0, err
	}
	if err := judgeNow(resp, err, resp.status); err != nil {
		return a, 0, err // the answer breaks the document
	}
	if resp.status == http.StatusOK {
		if err := json.Unmarshal(resp.body, &a); err != nil {
			return a, 0, fmt.Errorf("reading asset %s: %s: %w", id, resp, err)
		}
	}
	return a, resp.status, nil
}

// ownAsset reads one of the photos' owner's assets, which must be there.
func (s *scenario) ownAsset(ctx context.Context, id string) (seenAsset, error) {
	u, err := s.photosOwner()
	if err != nil {
		return seenAsset{}, err
	}
	a, status, err := s.readAsset(ctx, u, id)
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("its owner cannot read the asset %s: GET /asset/%s answered %d", id, id, status)
	}
	return a, err
}

// assetSteps are the steps of assets and stacks, random picks and memory
// lane.
func (s *scenario) assetSteps() []step {
	return []step{
		{`^I have (\d+) new photos?$`, s.haveNewPhotos},
		{`^I have (\d+) new photos, stacked under the first$`, s.haveStackedPhotos},
		{`^I have stacked the (first|second|third) of those photos under the (first|second|third)$`, s.haveStacked},
		{`^(?:I|they) have shared those photos in a link$`, s.haveSharedThosePhotos},
		{`^the other user has a new photo$`, s.otherHasNewPhoto},
		{`^I mark the (first|second|third) of those photos as a favourite( and archive it)?$`, s.markFavourite},
		{`^I mark the other user's photo as a favourite$`, s.markOthersFavourite},
		{`^I mark (?:those photos|the first of those photos and the other user's) as favourites, at once$`, s.markAllFavourite},
		{`^I describe the (first|second|third) of those photos as "([^"]*)", taken at "([^"]*)" in ([-\d.]+), ([-\d.]+)$`, s.describePhoto},
		{`^I mark those photos as favourites, archive them, and say they were taken at "([^"]*)" in ([-\d.]+), ([-\d.]+), all at once$`, s.changeAllAtOnce},
		{`^I change the (first|second|third) of those photos with:$`, s.changePhotoWith},
		{`^I change the photo "([^"]*)" with:$`, s.changePhotoIDWith},
		{`^I change several photos with:$`, s.changeSeveralWith},
		{`^the answer shows the photo as a favourite, archived$`, s.answerShowsFavourite},
		{`^the (first|second|third) of those photos, read again, is (a favourite, archived|not a favourite)$`, s.photoReadsFavourite},
		{`^the other user's photo is not a favourite$`, s.othersPhotoNotFavourite},
		{`^the (first|second|third) of those photos, read again, is described as "([^"]*)", taken at "([^"]*)", in ([-\d.]+), ([-\d.]+), in "([^"]*)"$`, s.photoReadsDescribed},
		{`^each of those photos, read again, is a favourite, archived, taken at "([^"]*)", in ([-\d.]+), ([-\d.]+)$`, s.eachPhotoReadsChanged},
		{`^I stack the (second and third|second|first) of those photos under the (first|other user's photo)$`, s.stackUnder},
		{`^(I|the other user) makes? the (first|second|third) of those photos the stack's parent$`, s.makeStackParent},
		{`^I change a stack's parent with:$`, s.changeStackParentWith},
		{`^I take the (first|second|third) of those photos out of its stack$`, s.unstack},
		{`^the (first|second|third) of those photos leads a stack of (the three|the first and second|the first and third), and each of them shows it$`, s.leadsStack},
		{`^the (first|second|third) of those photos is in no stack$`, s.inNoStack},
		{`^(I ask|they ask) for (a photo|\d+ photos|"[^"]*" photos) at random$`, s.askRandom},
		{`^they get (\d+) of their photos out of the trash, none twice(, the first of those photos among them)?$`, s.gotRandom},
		{`^(I walk|they walk) down memory lane on (\d+) (\w+)$`, s.walkMemoryLane},
		{`^I walk down memory lane on day (\d+) of month (\d+)$`, s.walkMemoryLaneOn},
		{`^they see the first of those photos, and only it, as taken the years ago since 2023$`, s.seeMemory},
		{`^they see nothing$`, s.seeNoMemory},
	}
}

// haveNewPhotos uploads new photos of mine.
func (s *scenario) haveNewPhotos(ctx context.Context, n int) error {
	return s.uploadMine(ctx, s.me, n)
}

// haveStackedPhotos uploads n new photos of mine and stacks them under the
// first.
func (s *scenario) haveStackedPhotos(ctx context.Context, n int) error {
	if err := s.uploadMine(ctx, s.me, n); err != nil {
		return err
	}
	in := map[string]any{"ids": s.changes.photos[1:], "stackParentId": s.changes.photos[0]}
	return s.call(ctx, "stacking the photos", http.MethodPut, "/asset", credentials{apiKey: s.me.apiKey}, in, nil, http.StatusNoContent)
}

// haveStacked stacks one of the photos under another.
func (s *scenario) haveStacked(ctx context.Context, child, parent string) error {
	c, err := s.photoNamed(child)
	if err != nil {
		return err
	}
	p, err := s.photoNamed(parent)
	if err != nil {
		return err
	}
	in := map[string]any{"ids": []string{c}, "stackParentId": p}
	return s.call(ctx, "stacking the photos", http.MethodPut, "/asset", credentials{apiKey: s.me.apiKey}, in, nil, http.StatusNoContent)
}

// haveSharedThosePhotos shares the photos in a link of their own.
func (s *scenario) haveSharedThosePhotos(ctx context.Context) error {
	u, err := s.photosOwner()
	if err != nil {
		return err
	}
	_, err = s.makeLink(ctx, u, map[string]any{"type": "INDIVIDUAL", "assetIds": s.changes.photos})
	return err
}

// otherHasNewPhoto uploads a new photo of the other user.
func (s *scenario) otherHasNewPhoto(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	s.changes.theirs, _, err = s.uploadPhoto(ctx, other)
	return err
}

// markFavourite marks one of the photos as a favourite, and archives it.
func (s *scenario) markFavourite(ctx context.Context, which, archive string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	in := map[string]any{"isFavorite": true}
	if archive != "" {
		in["isArchived"] = true
	}
	return s.sendJSON(ctx, http.MethodPut, "/asset/"+id, s.creds, in)
}

// markOthersFavourite marks the other user's photo as a favourite, as me.
func (s *scenario) markOthersFavourite(ctx context.Context) error {
	if s.changes.theirs == "" {
		return fmt.Errorf("the other user uploaded no photo earlier in the scenario")
	}
	return s.sendJSON(ctx, http.MethodPut, "/asset/"+s.changes.theirs, s.creds, map[string]any{"isFavorite": true})
}

// markAllFavourite marks the photos (and the other user's, when the
// scenario has one) as favourites in one request.
func (s *scenario) markAllFavourite(ctx context.Context) error {
	ids := slices.Clone(s.changes.photos)
	if s.changes.theirs != "" {
		ids = append(ids[:1], s.changes.theirs)
	}
	return s.sendJSON(ctx, http.MethodPut, "/asset", s.creds, map[string]any{"ids": ids, "isFavorite": true})
}

// describePhoto describes a photo, and says when and where it was taken.
func (s *scenario) describePhoto(ctx context.Context, which, description, at string, lat, lon float64) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	in := map[string]any{"description": description, "dateTimeOriginal": at, "latitude": lat, "longitude": lon}
	return s.sendJSON(ctx, http.MethodPut, "/asset/"+id, s.creds, in)
}

// changeAllAtOnce changes every photo of the scenario in one request.
func (s *scenario) changeAllAtOnce(ctx context.Context, at string, lat, lon float64) error {
	in := map[string]any{"ids": s.changes.photos, "isFavorite": true, "isArchived": true, "dateTimeOriginal": at, "latitude": lat, "longitude": lon}
	return s.sendJSON(ctx, http.MethodPut, "/asset", s.creds, in)
}

// changePhotoWith sends a change of one of the photos with the body given.
func (s *scenario) changePhotoWith(ctx context.Context, which string, body *godog.DocString) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	return s.sendRaw(ctx, http.MethodPut, "/asset/"+id, body)
}

// changePhotoIDWith sends a change of the photo of that id.
func (s *scenario) changePhotoIDWith(ctx context.Context, id string, body *godog.DocString) error {
	return s.sendRaw(ctx, http.MethodPut, "/asset/"+id, body)
}

// changeSeveralWith sends a change of several photos with the body given.
func (s *scenario) changeSeveralWith(ctx context.Context, body *godog.DocString) error {
	return s.sendRaw(ctx, http.MethodPut, "/asset", body)
}

// sendRaw sends a JSON body as the feature writes it, with the scenario's
// credentials, and keeps the answer.
func (s *scenario) sendRaw(ctx context.Context, method, path string, body *godog.DocString) error {
	if !json.Valid([]byte(body.Content)) {
		return fmt.Errorf("steps: the body is not JSON: %s", body.Content) // a bug of the features
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: method, path: path, creds: s.creds, contentType: "application/json", body: []byte(body.Content)})
	return s.keep(resp, s.me, err)
}

// answerShowsFavourite judges the answer to a change of one photo.
func (s *scenario) answerShowsFavourite() error {
	var a seenAsset
	if err := s.decodeLast(http.StatusOK, &a); err != nil {
		return err
	}
	if !a.IsFavorite || !a.IsArchived {
		return fmt.Errorf("the answer shows isFavorite %t and isArchived %t, want both true: %s", a.IsFavorite, a.IsArchived, s.last)
	}
	return nil
}

// photoReadsFavourite reads one of the photos again, as its owner.
func (s *scenario) photoReadsFavourite(ctx context.Context, which, is string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	a, err := s.ownAsset(ctx, id)
	if err != nil {
		return err
	}
	want := is != "not a favourite"
	if a.IsFavorite != want || (want && !a.IsArchived) {
		return fmt.Errorf("the photo %s reads isFavorite %t and isArchived %t, want it %s", id, a.IsFavorite, a.IsArchived, is)
	}
	return nil
}

// othersPhotoNotFavourite reads the other user's photo, as they see it.
func (s *scenario) othersPhotoNotFavourite(ctx context.Context) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	a, status, err := s.readAsset(ctx, other, s.changes.theirs)
	if err != nil {
		return err
	}
	if status != http.StatusOK || a.IsFavorite {
		return fmt.Errorf("the other user's photo %s: status %d, isFavorite %t; want it theirs, not a favourite", s.changes.theirs, status, a.IsFavorite)
	}
	return nil
}

// photoReadsDescribed judges a photo's description, date and place, which
// a server may write a while after the change (it rewrites the file's
// metadata): the harness waits for them, up to --settle.
func (s *scenario) photoReadsDescribed(ctx context.Context, which, description, at string, lat, lon float64, country string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	return s.settle(ctx, func() error {
		a, err := s.ownAsset(ctx, id)
		if err != nil {
			return err
		}
		if a.ExifInfo == nil || a.ExifInfo.Description == nil || *a.ExifInfo.Description != description {
			return fmt.Errorf("the photo %s is not described as %q", id, description)
		}
		if err := takenAt(a, at, lat, lon); err != nil {
			return err
		}
		if a.ExifInfo.Country == nil || *a.ExifInfo.Country != country {
			return fmt.Errorf("the photo %s lies in the country %s, want %q", id, strOrNull(a.ExifInfo.Country), country)
		}
		return nil
	})
}

// eachPhotoReadsChanged judges every photo of the scenario after a change
// of them all.
func (s *scenario) eachPhotoReadsChanged(ctx context.Context, at string, lat, lon float64) error {
	for _, id := range s.changes.photos {
		err := s.settle(ctx, func() error {
			a, err := s.ownAsset(ctx, id)
			if err != nil {
				return err
			}
			if !a.IsFavorite || !a.IsArchived {
				return fmt.Errorf("the photo %s reads isFavorite %t and isArchived %t, want both true", id, a.IsFavorite, a.IsArchived)
			}
			return takenAt(a, at, lat, lon)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// takenAt judges when and where an asset was taken: fileCreatedAt and the
// EXIF's dateTimeOriginal are the instant of at, localDateTime its wall
// clock (as the API writes one: in UTC's notation), and the position is
// lat, lon.
func takenAt(a seenAsset, at string, lat, lon float64) error {
	want, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return fmt.Errorf("steps: %q is no date: %w", at, err) // a bug of the features
	}
	wall := time.Date(want.Year(), want.Month(), want.Day(), want.Hour(), want.Minute(), want.Second(), want.Nanosecond(), time.UTC)
	x := a.ExifInfo
	if x == nil || x.DateTimeOriginal == nil {
		return fmt.Errorf("the photo %s has no exifInfo.dateTimeOriginal", a.ID)
	}
	for _, d := range []struct{ name, got string }{{"exifInfo.dateTimeOriginal", *x.DateTimeOriginal}, {"fileCreatedAt", a.FileCreatedAt}} {
		if t, err := parseTime(d.got); err != nil || !t.Equal(want) {
			return fmt.Errorf("the photo %s has %s %s, want the instant %s", a.ID, d.name, d.got, want.UTC().Format(time.RFC3339))
		}
	}
	if t, err := parseTime(a.LocalDateTime); err != nil || !t.Equal(wall) {
		return fmt.Errorf("the photo %s has localDateTime %s, want the clock of %s: %s", a.ID, a.LocalDateTime, at, wall.Format(time.RFC3339))
	}
	if x.Latitude == nil || x.Longitude == nil || math.Abs(*x.Latitude-lat) > 1e-6 || math.Abs(*x.Longitude-lon) > 1e-6 {
		return fmt.Errorf("the photo %s lies at %v, %v; want %v, %v", a.ID, floatOrNull(x.Latitude), floatOrNull(x.Longitude), lat, lon)
	}
	return nil
}

func floatOrNull(f *float64) string {
	if f == nil {
		return "null"
	}
	return fmt.Sprint(*f)
}
