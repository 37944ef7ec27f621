package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
)

// Faces, people merged or given faces, duplicates, places by name, and
// what a device backed up. Without machine learning a server finds no
// face and no duplicate: the scenarios move faces only of users the
// harness makes (where there are none to move), and read the given
// user's faces and duplicates.

// facesState is what the faces steps keep within a scenario.
type facesState struct {
	photo    string   // the new user's photo
	file     *file    // its file
	next     *file    // the file it was given in its place
	copyID   string   // the asset the replacement named
	deviceID string   // the device the new user backed up from
	photos   []string // the ids of the photos from it
	devIDs   []string // their device's ids, in the same order
}

// faceSeen is a face as the harness reads one.
type faceSeen struct {
	ID            string      `json:"id"`
	ImageWidth    int         `json:"imageWidth"`
	ImageHeight   int         `json:"imageHeight"`
	BoundingBoxX1 int         `json:"boundingBoxX1"`
	BoundingBoxX2 int         `json:"boundingBoxX2"`
	BoundingBoxY1 int         `json:"boundingBoxY1"`
	BoundingBoxY2 int         `json:"boundingBoxY2"`
	Person        *personSeen `json:"person"`
}

// mergeResult is what became of one person of a merge.
type mergeResult struct {
	ID      string `json:"id"`
	Success bool   `json:"success"`
	Error   string `json:"error"`
}

// facesSteps are the steps about faces, merges, duplicates, places and devices.
func (s *scenario) facesSteps() []step {
	return []step{
		{`^each face of the photos of the first people listed lies within its picture, and one of them is that person's$`, s.listedPeoplesFaces},
		{`^a new user who has uploaded a photo$`, s.newUserWithOnePhoto},
		{`^that photo shows no face$`, s.photoShowsNoFace},
		{`^I ask for the faces of that photo$`, s.askFacesOfThatPhoto},
		{`^a new user who has made an unnamed person and a person named "([^"]*)", born on (\d{4}-\d{2}-\d{2})$`, s.newUserWithUnnamedAndNamed},
		{`^they merge "([^"]*)" and someone who is no one into the unnamed person$`, s.theyMerge},
		{`^"([^"]*)" is merged, and the one who is no one is not, for want of permission$`, s.mergedButNoOne},
		{`^"([^"]*)" is no longer there$`, s.personGone},
		{`^a new user who has uploaded a photo and made people named "([^"]*)" and "([^"]*)"$`, s.newUserWithPhotoAndPeople},
		{`^they give "([^"]*)" the faces of "([^"]*)" in that photo$`, s.theyReassign},
		{`^the answer names "([^"]*)" once$`, s.answerNamesOnce},
		{`^"([^"]*)" and "([^"]*)" are seen in no photo$`, s.bothInNoPhoto},
		{`^they give "([^"]*)" a face that is no one's$`, s.theyGiveNoOnesFace},
		{`^I (merge someone who is no one into|give the faces of someone who is no one to|give a face that is no one's to) that person$`, s.iMoveFacesOfThatPerson},
		{`^I (ask for the faces of the photo|merge into someone who is no one the person|give someone who is no one the face|give someone who is no one the faces of no one in photo) "([^"]*)"$`, s.iNameByValue},
		{`^each operation on faces is refused with status (\d+) and the message "([^"]*)"$`, s.facesOperationsRefused},

		{`^I list my groups of duplicates$`, s.listMyDuplicates},
		{`^each group holds photos of mine out of the trash, marked with its id, and no photo is in two groups$`, s.duplicateGroupsHold},
		{`^they list their groups of duplicates$`, s.theyListDuplicates},
		{`^no group holds that photo$`, s.noGroupHoldsPhoto},
		{`^a new user who has uploaded three photos$`, s.newUserWithThreePhotos},
		{`^they put the three photos in one group of duplicates$`, s.theyGroupThree},
		{`^one group holds the (three photos|first two photos)$`, s.oneGroupHolds},
		{`^they move the third photo to the trash$`, s.theyTrashThird},
		{`^they take the first two photos out of their group$`, s.theyUngroupTwo},
		{`^they have no group of duplicates$`, s.theyHaveNoGroup},

		{`^I look for places without a name$`, s.lookForPlacesWithoutName},
		{`^I look for places named "([^"]*)"(?: and "([^"]*)")?$`, s.lookForPlaces},
		{`^the first place found is "([^"]*)", within a tenth of a degree of latitude (-?[\d.]+) and longitude (-?[\d.]+)$`, s.firstPlaceIs},

		{`^a new user who has uploaded two photos from one device$`, s.newUserWithDevicePhotos},
		{`^the server lists the device ids of both as that device's$`, s.deviceListsBoth},
		{`^the server says that it holds one of those two and not a third$`, s.serverHoldsOne},
		{`^they move one of the photos to the trash$`, s.theyTrashOne},
		{`^another device has nothing backed up$`, s.anotherDeviceHasNothing},
		{`^I have nothing backed up from that device$`, s.iHaveNothingFromDevice},
		{`^I ask which photos the server holds of (no device and no photo|an empty device and an empty list|a device)$`, s.askWhichExist},
		{`^I list the photos of a device$`, s.listPhotosOfDevice},

		{`^(they|I) replace(?:s)? that photo's file with (another photo|the same photo)$`, s.replaceThatPhoto},
		{`^I replace the file of a photo that is no one's, without its fields$`, s.replaceWithoutFields},
		{`^the file is replaced, and the answer names another asset$`, s.fileReplaced},
		{`^that photo, read again, has the new file's checksum and name, and is not in the trash$`, s.photoHasNewFile},
		{`^the asset the answer names is in the trash, with the old file's checksum and name$`, s.copyHasOldFile},
		{`^the replacement is a duplicate of that photo itself$`, s.replacementDuplicatesItself},
	}
}

// listedPeoplesFaces reads the faces of some photos of each of the first
// people listed: each inside its picture, and in each photo one of them
// is that person's.
func (s *scenario) listedPeoplesFaces(ctx context.Context) error {
	l := s.people.listed
	if l == nil {
		return fmt.Errorf("my people were not listed earlier in the scenario")
	}
	for _, p := range l.People[:min(len(l.People), peopleLooked)] {
		var photos []struct {
			ID string `json:"id"`
		}
		if err := s.call(ctx, "asking for the photos of "+p.Name, http.MethodGet, "/people/"+p.ID+"/assets", s.creds, nil, &photos, http.StatusOK); err != nil {
			return err
		}
		for _, a := range photos[:min(len(photos), 3)] {
			var faces []faceSeen
			if err := s.call(ctx, "asking for the faces of "+a.ID, http.MethodGet, "/faces?id="+a.ID, s.creds, nil, &faces, http.StatusOK); err != nil {
				return err
			}
			for _, f := range faces {
				if err := faceWithin(f); err != nil {
					return fmt.Errorf("the face %s of the photo %s %w", f.ID, a.ID, err)
				}
			}
			if !slices.ContainsFunc(faces, func(f faceSeen) bool { return f.Person != nil && f.Person.ID == p.ID }) {
				return fmt.Errorf("the photo %s of %s (%q) has no face of theirs: %+v", a.ID, p.ID, p.Name, faces)
			}
		}
	}
	return nil
}

// faceWithin says how a face's box lies outside its picture, if it does.
func faceWithin(f faceSeen) error {
	if f.ImageWidth <= 0 || f.ImageHeight <= 0 {
		return nil // a face a server found without the picture's size
	}
	if f.BoundingBoxX1 < 0 || f.BoundingBoxY1 < 0 || f.BoundingBoxX1 > f.BoundingBoxX2 || f.BoundingBoxY1 > f.BoundingBoxY2 ||
		f.BoundingBoxX2 > f.ImageWidth || f.BoundingBoxY2 > f.ImageHeight {
		return fmt.Errorf("lies outside its %d×%d picture: (%d,%d)-(%d,%d)", f.ImageWidth, f.ImageHeight,
			f.BoundingBoxX1, f.BoundingBoxY1, f.BoundingBoxX2, f.BoundingBoxY2)
	}
	return nil
}

// newUserWithOnePhoto makes a new user, and as them uploads a photo.
func (s *scenario) newUserWithOnePhoto(ctx context.Context) error {
	if err := s.newUserWithNoPeople(ctx); err != nil {
		return err
	}
	s.faces.file = newFile(uniqueName())
	id, err := s.uploadFileAs(ctx, s.people.owner, s.faces.file)
	s.faces.photo = id
	return err
}

// newUserWithPhotoAndPeople makes a new user with two people and a photo.
func (s *scenario) newUserWithPhotoAndPeople(ctx context.Context, first, second string) error {
	if err := s.newUserWithPeople(ctx, first, second); err != nil {
		return err
	}
	id, err := s.uploadFileAs(ctx, s.people.owner, newFile(uniqueName()))
	s.faces.photo = id
	return err
}

// photoShowsNoFace reads the faces of the new user's photo, as them.
func (s *scenario) photoShowsNoFace(ctx context.Context) error {
	var faces []faceSeen
	if err := s.call(ctx, "asking for the faces of the photo", http.MethodGet, "/faces?id="+s.faces.photo, s.ownerCreds(), nil, &faces, http.StatusOK); err != nil {
		return err
	}
	if len(faces) > 0 {
		return fmt.Errorf("a new photo, with no machine learning to find them, shows faces: %+v", faces)
	}
	return nil
}

// askFacesOfThatPhoto asks for the faces of the new user's photo, as me.
func (s *scenario) askFacesOfThatPhoto(ctx context.Context) error {
	return s.sendKept(ctx, s.me, s.creds, http.MethodGet, "/faces?id="+s.faces.photo, nil)
}

// newUserWithUnnamedAndNamed makes a new user with a person without a
// name, and one with a name and a birth date.
func (s *scenario) newUserWithUnnamedAndNamed(ctx context.Context, name, born string) error {
	if err := s.newUserWithNoPeople(ctx); err != nil {
		return err
	}
	for _, in := range []map[string]any{{}, {"name": name, "birthDate": born}} {
		var p personSeen
		if err := s.call(ctx, "making a person", http.MethodPost, "/people", s.ownerCreds(), in, &p, http.StatusCreated); err != nil {
			return err
		}
		n, _ := in["name"].(string)
		s.people.people = append(s.people.people, personMade{id: p.ID, name: n})
	}
	return nil
}

// personNamed is the person the scenario made with that name.
func (s *scenario) personNamed(name string) (personMade, error) {
	i := slices.IndexFunc(s.people.people, func(p personMade) bool { return p.name == name })
	if i < 0 {
		return personMade{}, fmt.Errorf("no person named %q was made earlier in the scenario", name)
	}
	return s.people.people[i], nil
}

// theyMerge merges the named person, and someone who is no one, into the
// scenario's first person, as their owner.
func (s *scenario) theyMerge(ctx context.Context, name string) error {
	into, err := s.thatPerson()
	if err != nil {
		return err
	}
	p, err := s.personNamed(name)
	if err != nil {
		return err
	}
	return s.sendKept(ctx, s.people.owner, s.ownerCreds(), http.MethodPost, "/people/"+into.id+"/merge", map[string]any{"ids": []string{p.id, noOne}})
}

// mergedButNoOne judges the answer to the merge.
func (s *scenario) mergedButNoOne(name string) error {
	p, err := s.personNamed(name)
	if err != nil {
		return err
	}
	var results []mergeResult
	if err := s.decodeLast(http.StatusCreated, &results); err != nil {
		return err
	}
	want := []mergeResult{{ID: p.id, Success: true}, {ID: noOne, Error: "no_permission"}}
	if !slices.Equal(results, want) {
		return fmt.Errorf("want the outcomes %+v, got %+v", want, results)
	}
	return nil
}

// personGone reads the named person, who must be gone.
func (s *scenario) personGone(ctx context.Context, name string) error {
	p, err := s.personNamed(name)
	if err != nil {
		return err
	}
	if err := s.sendKept(ctx, s.people.owner, s.ownerCreds(), http.MethodGet, "/people/"+p.id, nil); err != nil {
		return err
	}
	return s.refused(http.StatusBadRequest, []string{"Not found or no person.read access"}, false)
}

// theyReassign gives the first named person the faces of the second in
// the new user's photo.
func (s *scenario) theyReassign(ctx context.Context, to, from string) error {
	a, err := s.personNamed(to)
	if err != nil {
		return err
	}
	b, err := s.personNamed(from)
	if err != nil {
		return err
	}
	body := map[string]any{"data": []map[string]string{{"personId": b.id, "assetId": s.faces.photo}}}
	return s.sendKept(ctx, s.people.owner, s.ownerCreds(), http.MethodPut, "/people/"+a.id+"/reassign", body)
}

// answerNamesOnce judges the answer to a reassignment: the person, once.
func (s *scenario) answerNamesOnce(name string) error {
	p, err := s.personNamed(name)
	if err != nil {
		return err
	}
	var people []personSeen
	if err := s.decodeLast(http.StatusOK, &people); err != nil {
		return err
	}
	if len(people) != 1 || people[0].ID != p.id || people[0].Name != name {
		return fmt.Errorf("want %s (%q) once, got %+v", p.id, name, people)
	}
	return nil
}

// bothInNoPhoto counts the photos of two named people: none.
func (s *scenario) bothInNoPhoto(ctx context.Context, first, second string) error {
	for _, name := range []string{first, second} {
		p, err := s.personNamed(name)
		if err != nil {
			return err
		}
		var stats struct {
			Assets int `json:"assets"`
		}
		if err := s.call(ctx, "counting the photos of "+name, http.MethodGet, "/people/"+p.id+"/statistics", s.ownerCreds(), nil, &stats, http.StatusOK); err != nil {
			return err
		}
		if stats.Assets != 0 {
			return fmt.Errorf("%s is counted in %d photos, want none", name, stats.Assets)
		}
	}
	return nil
}

// theyGiveNoOnesFace gives the named person a face that is no one's.
func (s *scenario) theyGiveNoOnesFace(ctx context.Context, name string) error {
	p, err := s.personNamed(name)
	if err != nil {
		return err
	}
	return s.sendKept(ctx, s.people.owner, s.ownerCreds(), http.MethodPut, "/faces/"+p.id, map[string]string{"id": noOne})
}

// iMoveFacesOfThatPerson tries, as me, to merge into the new user's
// person or give them faces.
func (s *scenario) iMoveFacesOfThatPerson(ctx context.Context, how string) error {
	p, err := s.thatPerson()
	if err != nil {
		return err
	}
	switch how {
	case "merge someone who is no one into":
		return s.sendKept(ctx, s.me, s.creds, http.MethodPost, "/people/"+p.id+"/merge", map[string]any{"ids": []string{noOne}})
	case "give the faces of someone who is no one to":
		body := map[string]any{"data": []map[string]string{{"personId": noOne, "assetId": noOne}}}
		return s.sendKept(ctx, s.me, s.creds, http.MethodPut, "/people/"+p.id+"/reassign", body)
	}
	return s.sendKept(ctx, s.me, s.creds, http.MethodPut, "/faces/"+p.id, map[string]string{"id": noOne})
}

// iNameByValue sends, as me, a request that names a face, a photo or a
// person by value.
func (s *scenario) iNameByValue(ctx context.Context, how, value string) error {
	switch how {
	case "ask for the faces of the photo":
		return s.sendKept(ctx, s.me, s.creds, http.MethodGet, "/faces?id="+url.QueryEscape(value), nil)
	case "merge into someone who is no one the person":
		return s.sendKept(ctx, s.me, s.creds, http.MethodPost, "/people/"+noOne+"/merge", map[string]any{"ids": []string{value}})
	case "give someone who is no one the face":
		return s.sendKept(ctx, s.me, s.creds, http.MethodPut, "/faces/"+noOne, map[string]string{"id": value})
	}
	body := map[string]any{"data": []map[string]string{{"personId": noOne, "assetId": value}}}
	return s.sendKept(ctx, s.me, s.creds, http.MethodPut, "/people/"+noOne+"/reassign", body)
}

// facesOperationsRefused sends every operation on faces and merges, each
// of which must be refused so.
func (s *scenario) facesOperationsRefused(ctx context.Context, status int, message string) error {
	return s.eachRefused(ctx, status, message, []apiRequest{
		{method: http.MethodGet, path: "/faces?id=" + noOne},
		{method: http.MethodPut, path: "/faces/" + noOne, body: []byte(`{"id":"` + noOne + `"}`)},
		{method: http.MethodPost, path: "/people/" + noOne + "/merge", body: []byte(`{"ids":[]}`)},
		{method: http.MethodPut, path: "/people/" + noOne + "/reassign", body: []byte(`{"data":[]}`)},
	})
}

// duplicateGroup is a group of duplicates as the harness reads one.
type duplicateGroup struct {
	DuplicateID string `json:"duplicateId"`
	Assets      []struct {
		ID          string  `json:"id"`
		OwnerID     string  `json:"ownerId"`
		IsTrashed   bool    `json:"isTrashed"`
		DuplicateID *string `json:"duplicateId"`
	} `json:"assets"`
}

// listMyDuplicates asks for my groups of duplicates.
func (s *scenario) listMyDuplicates(ctx context.Context) error {
	return s.sendKept(ctx, s.me, s.creds, http.MethodGet, "/duplicates", nil)
}

// theyListDuplicates asks for the new user's groups of duplicates.
func (s *scenario) theyListDuplicates(ctx context.Context) error {
	return s.sendKept(ctx, s.people.owner, s.ownerCreds(), http.MethodGet, "/duplicates", nil)
}

// duplicateGroupsHold judges my groups of duplicates.
func (s *scenario) duplicateGroupsHold(ctx context.Context) error {
	var groups []duplicateGroup
	if err := s.decodeLast(http.StatusOK, &groups); err != nil {
		return err
	}
	me, err := s.myID(ctx)
	if err != nil {
		return err
	}
	seen := map[string]string{}
	for _, g := range groups {
		if len(g.Assets) == 0 {
			return fmt.Errorf("the group %s holds no photo", g.DuplicateID)
		}
		for _, a := range g.Assets {
			switch {
			case a.OwnerID != me:
				return fmt.Errorf("the group %s holds %s, a photo of %s, not mine", g.DuplicateID, a.ID, a.OwnerID)
			case a.IsTrashed:
				return fmt.Errorf("the group %s holds %s, which is in the trash", g.DuplicateID, a.ID)
			case a.DuplicateID == nil || *a.DuplicateID != g.DuplicateID:
				return fmt.Errorf("the group %s holds %s, whose duplicateId is %s", g.DuplicateID, a.ID, strOrNull(a.DuplicateID))
			case seen[a.ID] != "":
				return fmt.Errorf("the photo %s is in the groups %s and %s", a.ID, seen[a.ID], g.DuplicateID)
			}
			seen[a.ID] = g.DuplicateID
		}
	}
	return nil
}

// noGroupHoldsPhoto judges the new user's groups: their photo is in none.
func (s *scenario) noGroupHoldsPhoto() error {
	var groups []duplicateGroup
	if err := s.decodeLast(http.StatusOK, &groups); err != nil {
		return err
	}
	for _, g := range groups {
		for _, a := range g.Assets {
			if a.ID == s.faces.photo {
				return fmt.Errorf("the group %s holds the photo %s, uploaded once", g.DuplicateID, a.ID)
			}
		}
	}
	return nil
}

// lookForPlacesWithoutName asks for places with no name.
func (s *scenario) lookForPlacesWithoutName(ctx context.Context) error {
	return s.sendKept(ctx, s.me, s.creds, http.MethodGet, "/search/places", nil)
}

// lookForPlaces asks for places by one name, or two at once.
func (s *scenario) lookForPlaces(ctx context.Context, name, second string) error {
	q := url.Values{"name": {name}}
	if second != "" {
		q.Add("name", second)
	}
	return s.sendKept(ctx, s.me, s.creds, http.MethodGet, "/search/places?"+q.Encode(), nil)
}

// firstPlaceIs judges the first place found.
func (s *scenario) firstPlaceIs(name string, lat, lon float64) error {
	var places []struct {
		Name      string  `json:"name"`
		Latitude  float64 `json:"latitude"`
		Longitude float64 `json:"longitude"`
	}
	if err := s.decodeLast(http.StatusOK, &places); err != nil {
		return err
	}
	if len(places) == 0 {
		return fmt.Errorf("no place was found")
	}
	p := places[0]
	if p.Name != name || math.Abs(p.Latitude-lat) > 0.1 || math.Abs(p.Longitude-lon) > 0.1 {
		return fmt.Errorf("the first place found is %q at %g, %g; want %q near %g, %g", p.Name, p.Latitude, p.Longitude, name, lat, lon)
	}
	return nil
}

// newUserWithDevicePhotos makes a new user, who backs up two photos from
// a device of the scenario's own.
func (s *scenario) newUserWithDevicePhotos(ctx context.Context) error {
	if err := s.newUserWithNoPeople(ctx); err != nil {
		return err
	}
	s.faces.deviceID = "mediaspec-device-" + randomHex(6)
	for range 2 {
		f := newFile(uniqueName())
		form := uploadForm(f)
		devID := f.name + "-" + randomHex(4)
		form.fields[0][1], form.fields[1][1] = devID, s.faces.deviceID
		resp, err := s.upload(ctx, s.ownerCreds(), form, "")
		if err := judgeNow(resp, err, http.StatusCreated); err != nil {
			return fmt.Errorf("uploading %s: %w", f.name, err)
		}
		var up uploadResult
		if err := json.Unmarshal(resp.body, &up); err != nil || up.ID == nil {
			return fmt.Errorf("uploading %s: %s", f.name, resp)
		}
		s.faces.photos = append(s.faces.photos, *up.ID)
		s.faces.devIDs = append(s.faces.devIDs, devID)
	}
	return nil
}

// deviceIDsOf lists the device's ids of the photos of a device, with creds.
func (s *scenario) deviceIDsOf(ctx context.Context, creds credentials, device string) ([]string, error) {
	var ids []string
	err := s.call(ctx, "listing the photos of a device", http.MethodGet, "/asset/device/"+url.PathEscape(device), creds, nil, &ids, http.StatusOK)
	return ids, err
}

// deviceListsBoth judges the new user's device's photos: both.
func (s *scenario) deviceListsBoth(ctx context.Context) error {
	ids, err := s.deviceIDsOf(ctx, s.ownerCreds(), s.faces.deviceID)
	if err != nil {
		return err
	}
	got, want := slices.Sorted(slices.Values(ids)), slices.Sorted(slices.Values(s.faces.devIDs))
	if !slices.Equal(got, want) {
		return fmt.Errorf("the device lists %q, want %q", got, want)
	}
	return nil
}

// serverHoldsOne asks which of the first photo and a third the server
// holds: the first only. The reference answers null for its id (its query
// does not read it): a server may, but an id must be the photo's.
func (s *scenario) serverHoldsOne(ctx context.Context) error {
	var out struct {
		ExistingIDs []*string `json:"existingIds"`
	}
	in := map[string]any{"deviceAssetIds": []string{s.faces.devIDs[0], "third-" + randomHex(4)}, "deviceId": s.faces.deviceID}
	if err := s.call(ctx, "asking which photos the server holds", http.MethodPost, "/asset/exist", s.ownerCreds(), in, &out, http.StatusOK); err != nil {
		return err
	}
	if len(out.ExistingIDs) != 1 || (out.ExistingIDs[0] != nil && *out.ExistingIDs[0] != s.faces.photos[0]) {
		return fmt.Errorf("want the first photo (%s) alone among the existing, got %d: %v", s.faces.photos[0], len(out.ExistingIDs), out.ExistingIDs)
	}
	return nil
}

// theyTrashOne moves the new user's first photo to the trash.
func (s *scenario) theyTrashOne(ctx context.Context) error {
	in := map[string]any{"ids": []string{s.faces.photos[0]}}
	return s.call(ctx, "moving a photo to the trash", http.MethodDelete, "/asset", s.ownerCreds(), in, nil, http.StatusNoContent)
}

// anotherDeviceHasNothing lists the photos of another device of the new user.
func (s *scenario) anotherDeviceHasNothing(ctx context.Context) error {
	ids, err := s.deviceIDsOf(ctx, s.ownerCreds(), s.faces.deviceID+"-another")
	if err == nil && len(ids) > 0 {
		err = fmt.Errorf("a device nothing came from lists %q", ids)
	}
	return err
}

// iHaveNothingFromDevice lists, as me, the photos of the new user's device.
func (s *scenario) iHaveNothingFromDevice(ctx context.Context) error {
	ids, err := s.deviceIDsOf(ctx, s.creds, s.faces.deviceID)
	if err == nil && len(ids) > 0 {
		err = fmt.Errorf("another user's device lists %q of mine", ids)
	}
	return err
}

// askWhichExist asks, as me, which photos of a device the server holds.
func (s *scenario) askWhichExist(ctx context.Context, what string) error {
	var in map[string]any
	switch what {
	case "no device and no photo":
		in = map[string]any{}
	case "an empty device and an empty list":
		in = map[string]any{"deviceAssetIds": []string{}, "deviceId": ""}
	default:
		in = map[string]any{"deviceAssetIds": []string{"a-photo"}, "deviceId": "a-device"}
	}
	return s.sendKept(ctx, s.me, s.creds, http.MethodPost, "/asset/exist", in)
}

// listPhotosOfDevice lists, as me, the photos of a device.
func (s *scenario) listPhotosOfDevice(ctx context.Context) error {
	return s.sendKept(ctx, s.me, s.creds, http.MethodGet, "/asset/device/a-device", nil)
}
