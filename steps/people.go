package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// The people of a library: a user names, dates and hides them, one at a
// time or several at once, and no one else reads or changes them. No
// operation deletes a person, so the harness makes people only as a user
// it makes for the scenario (@new-user): they go with that user. It reads
// the people of the user it was given, and changes none of them.

// peopleState is what the people steps keep within a scenario.
type peopleState struct {
	owner  *user          // the new user whose people the scenario made
	people []personMade   // the people they made, in order
	listed *peopleListing // the last listing of a library's people
}

// personMade is a person the scenario made, with the name it last gave.
type personMade struct {
	id, name string
}

// personSeen is a person as the harness reads one.
type personSeen struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	BirthDate *string `json:"birthDate"`
	IsHidden  bool    `json:"isHidden"`
	OwnerID   string  `json:"ownerId"`
}

// peopleListing is a library's people as GET /people lists them.
type peopleListing struct {
	People []personSeen `json:"people"`
	Total  int          `json:"total"`
	Hidden int          `json:"hidden"`
}

// peopleSteps are the steps about people.
func (s *scenario) peopleSteps() []step {
	return []step{
		{`^a new user with no people yet$`, s.newUserWithNoPeople},
		{`^a new user who has made (?:a person|people) named "([^"]*)"(?: and "([^"]*)")?$`, s.newUserWithPeople},
		{`^they make a person named "([^"]*)", born on (\d{4}-\d{2}-\d{2})$`, s.theyMakePerson},
		{`^the person is made as asked: named "([^"]*)", born on (\d{4}-\d{2}-\d{2}), not hidden$`, s.personMadeAsAsked},
		{`^that person, read again, is named "([^"]*)", (?:born on (\d{4}-\d{2}-\d{2})|with no birth date), (hidden|not hidden)$`, s.personReadAgain},
		{`^they rename that person "([^"]*)", date their birth (\d{4}-\d{2}-\d{2}) and hide them$`, s.theyRenameDateAndHide},
		{`^they clear that person's birth date and show them again$`, s.theyClearBirthDate},
		{`^they (?:date that person's birth (\d{4}-\d{2}-\d{2})|hide that person with "([^"]*)")$`, s.theyChangeWrongly},
		{`^they rename both, and someone who is no one, at once$`, s.theyRenameBothAtOnce},
		{`^both are renamed, and the one who is no one is not$`, s.bothRenamed},
		{`^each person, read again, has their new name$`, s.eachHasNewName},
		{`^that person is seen in no photo, and counted in none$`, s.personInNoPhoto},
		{`^they ask for that person's picture$`, s.theyAskForPicture},
		{`^their library lists no people, hidden or not$`, s.theirLibraryListsNoOne},
		{`^I list the people of my library( with the hidden ones)?$`, s.listMyPeople},
		{`^no one listed is hidden, and the counts hold everyone listed$`, s.noOneListedHidden},
		{`^each of the first people listed is seen in photos of mine that show them, and has a picture$`, s.listedPeopleSeen},
		{`^the hidden ones are listed too, and everyone listed before$`, s.hiddenListedToo},
		{`^I (read|rename|ask for the photos of|count the photos of|ask for the picture of) (?:that person|the person "([^"]*)")$`, s.iActOnPerson},
		{`^I rename that person among others at once$`, s.iRenameAmongOthers},
		{`^that person is not renamed$`, s.personNotRenamed},
		{`^each operation on people is refused with status (\d+) and the message "([^"]*)"$`, s.peopleOperationsRefused},
	}
}

// newUserWithNoPeople makes the user whose people the scenario makes.
func (s *scenario) newUserWithNoPeople(ctx context.Context) error {
	u, err := s.newUser(ctx)
	s.people.owner = u
	return err
}

// newUserWithPeople makes a new user, and as them one or two people.
func (s *scenario) newUserWithPeople(ctx context.Context, first, second string) error {
	if err := s.newUserWithNoPeople(ctx); err != nil {
		return err
	}
	for _, name := range []string{first, second} {
		if name == "" {
			continue
		}
		var p personSeen
		if err := s.call(ctx, "making the person "+name, http.MethodPost, "/people", s.ownerCreds(), map[string]any{"name": name}, &p, http.StatusCreated); err != nil {
			return err
		}
		s.people.people = append(s.people.people, personMade{id: p.ID, name: name})
	}
	return nil
}

// ownerCreds are the credentials of the new user whose people these are.
func (s *scenario) ownerCreds() credentials {
	if s.people.owner == nil {
		return credentials{}
	}
	return credentials{apiKey: s.people.owner.apiKey}
}

// thatPerson is the person the scenario made first.
func (s *scenario) thatPerson() (personMade, error) {
	if s.people.owner == nil || len(s.people.people) == 0 {
		return personMade{}, fmt.Errorf("no person was made earlier in the scenario")
	}
	return s.people.people[0], nil
}

// sendKept sends a JSON request (in: nil for none) and keeps the answer, from who.
func (s *scenario) sendKept(ctx context.Context, who *user, creds credentials, method, path string, in any) error {
	ar := apiRequest{method: method, path: path, creds: creds}
	if in != nil {
		body, err := json.Marshal(in)
		if err != nil {
			return err
		}
		ar.body, ar.contentType = body, "application/json"
	}
	resp, err := s.cfg.send(ctx, ar)
	return s.keep(resp, who, err)
}

// theyMakePerson makes a person as the new user.
func (s *scenario) theyMakePerson(ctx context.Context, name, born string) error {
	if s.people.owner == nil {
		return fmt.Errorf("no new user was made earlier in the scenario")
	}
	return s.sendKept(ctx, s.people.owner, s.ownerCreds(), http.MethodPost, "/people", map[string]any{"name": name, "birthDate": born})
}

// personMadeAsAsked judges the answer to a person made, and keeps the person.
func (s *scenario) personMadeAsAsked(name, born string) error {
	var p personSeen
	if err := s.decodeLast(http.StatusCreated, &p); err != nil {
		return err
	}
	if !uuidPattern.MatchString(p.ID) {
		return fmt.Errorf("the person made has no id: %s", s.last)
	}
	if err := samePerson(p, name, &born, false); err != nil {
		return fmt.Errorf("the person made %w", err)
	}
	if p.OwnerID != "" && p.OwnerID != s.people.owner.id {
		return fmt.Errorf("the person made is %s's, not its maker's (%s)", p.OwnerID, s.people.owner.id)
	}
	s.people.people = append(s.people.people, personMade{id: p.ID, name: name})
	return nil
}

// samePerson says how p differs from a person named name, born on born
// (nil: with no birth date), hidden or not. A server may write the birth
// date as a day or as that day's midnight.
func samePerson(p personSeen, name string, born *string, hidden bool) error {
	switch {
	case p.Name != name:
		return fmt.Errorf("is named %q, want %q", p.Name, name)
	case born == nil && p.BirthDate != nil:
		return fmt.Errorf("is born on %s, want no birth date", *p.BirthDate)
	case born != nil && (p.BirthDate == nil || !strings.HasPrefix(*p.BirthDate, *born)):
		return fmt.Errorf("is born on %s, want %s", strOrNull(p.BirthDate), *born)
	case p.IsHidden != hidden:
		return fmt.Errorf("has isHidden %t, want %t", p.IsHidden, hidden)
	}
	return nil
}

// personReadAgain reads the scenario's first person as their owner.
func (s *scenario) personReadAgain(ctx context.Context, name, born, hidden string) error {
	p, err := s.thatPerson()
	if err != nil {
		return err
	}
	var seen personSeen
	if err := s.call(ctx, "reading the person", http.MethodGet, "/people/"+p.id, s.ownerCreds(), nil, &seen, http.StatusOK); err != nil {
		return err
	}
	var date *string
	if born != "" {
		date = &born
	}
	if err := samePerson(seen, name, date, hidden == "hidden"); err != nil {
		return fmt.Errorf("the person, read again, %w", err)
	}
	return nil
}

// changePerson changes the scenario's first person as their owner, and keeps the answer.
func (s *scenario) changePerson(ctx context.Context, in map[string]any) error {
	p, err := s.thatPerson()
	if err != nil {
		return err
	}
	return s.sendKept(ctx, s.people.owner, s.ownerCreds(), http.MethodPut, "/people/"+p.id, in)
}

// theyRenameDateAndHide renames, dates and hides the person at once.
func (s *scenario) theyRenameDateAndHide(ctx context.Context, name, born string) error {
	if err := s.changePerson(ctx, map[string]any{"name": name, "birthDate": born, "isHidden": true}); err != nil {
		return err
	}
	return s.wantStatus(http.StatusOK)
}

// theyClearBirthDate clears the person's birth date and shows them again.
func (s *scenario) theyClearBirthDate(ctx context.Context) error {
	if err := s.changePerson(ctx, map[string]any{"birthDate": nil, "isHidden": false}); err != nil {
		return err
	}
	return s.wantStatus(http.StatusOK)
}

// theyChangeWrongly asks for a change the server cannot make: a birth
// date, or a hidden flag that is no boolean.
func (s *scenario) theyChangeWrongly(ctx context.Context, born, hidden string) error {
	if born != "" {
		return s.changePerson(ctx, map[string]any{"birthDate": born})
	}
	return s.changePerson(ctx, map[string]any{"isHidden": hidden})
}

// noOne is an id of no person.
const noOne = "00000000-0000-4000-8000-000000000000"

// theyRenameBothAtOnce renames the two people made, and no one, in one request.
func (s *scenario) theyRenameBothAtOnce(ctx context.Context) error {
	if len(s.people.people) < 2 {
		return fmt.Errorf("two people were not made earlier in the scenario")
	}
	var items []map[string]any
	for i := range s.people.people[:2] {
		p := &s.people.people[i]
		p.name += " (renamed)"
		items = append(items, map[string]any{"id": p.id, "name": p.name})
	}
	items = append(items, map[string]any{"id": noOne, "name": "No one"})
	return s.sendKept(ctx, s.people.owner, s.ownerCreds(), http.MethodPut, "/people", map[string]any{"people": items})
}

// bothRenamed judges the outcome of each change of several at once.
func (s *scenario) bothRenamed() error {
	res, err := s.lastResults()
	if err != nil {
		return err
	}
	want := map[string]bool{s.people.people[0].id: true, s.people.people[1].id: true, noOne: false}
	if len(res) != len(want) {
		return fmt.Errorf("want a result for each of the %d people, got %d: %s", len(want), len(res), s.last)
	}
	for _, r := range res {
		ok, known := want[r.ID]
		switch {
		case !known:
			return fmt.Errorf("a result names %s, whom no change named: %s", r.ID, s.last)
		case r.Success != ok:
			return fmt.Errorf("the change of %s has success %t, want %t: %s", r.ID, r.Success, ok, s.last)
		case !ok && r.Error == "":
			return fmt.Errorf("the change of no one failed without saying why: %s", s.last)
		}
	}
	return nil
}

// eachHasNewName reads each person made and judges their name.
func (s *scenario) eachHasNewName(ctx context.Context) error {
	for _, p := range s.people.people {
		var seen personSeen
		if err := s.call(ctx, "reading the person", http.MethodGet, "/people/"+p.id, s.ownerCreds(), nil, &seen, http.StatusOK); err != nil {
			return err
		}
		if seen.Name != p.name {
			return fmt.Errorf("the person %s is named %q, want %q", p.id, seen.Name, p.name)
		}
	}
	return nil
}

// personInNoPhoto judges a person no face was seen of: in no photo, counted in none.
func (s *scenario) personInNoPhoto(ctx context.Context) error {
	p, err := s.thatPerson()
	if err != nil {
		return err
	}
	var photos []json.RawMessage
	if err := s.call(ctx, "asking for the person's photos", http.MethodGet, "/people/"+p.id+"/assets", s.ownerCreds(), nil, &photos, http.StatusOK); err != nil {
		return err
	}
	var stats struct {
		Assets *int `json:"assets"`
	}
	if err := s.call(ctx, "counting the person's photos", http.MethodGet, "/people/"+p.id+"/statistics", s.ownerCreds(), nil, &stats, http.StatusOK); err != nil {
		return err
	}
	if len(photos) != 0 || stats.Assets == nil || *stats.Assets != 0 {
		return fmt.Errorf("a person no face was seen of is in %d photos, counted in %v", len(photos), stats.Assets)
	}
	return nil
}

// theyAskForPicture asks for the person's picture, as their owner.
func (s *scenario) theyAskForPicture(ctx context.Context) error {
	p, err := s.thatPerson()
	if err != nil {
		return err
	}
	return s.sendKept(ctx, s.people.owner, s.ownerCreds(), http.MethodGet, "/people/"+p.id+"/thumbnail", nil)
}

// theirLibraryListsNoOne judges the new user's people, with and without the hidden.
func (s *scenario) theirLibraryListsNoOne(ctx context.Context) error {
	for _, path := range []string{"/people", "/people?withHidden=true"} {
		var l peopleListing
		if err := s.call(ctx, "listing the new user's people", http.MethodGet, path, s.ownerCreds(), nil, &l, http.StatusOK); err != nil {
			return err
		}
		if len(l.People) != 0 || l.Total != 0 || l.Hidden != 0 {
			return fmt.Errorf("GET %s lists %d people, counting %d (%d hidden), want no one: people made by hand have no face", path, len(l.People), l.Total, l.Hidden)
		}
	}
	return nil
}

// listMyPeople lists the people of my library, and keeps the answer.
func (s *scenario) listMyPeople(ctx context.Context, withHidden string) error {
	path := "/people"
	if withHidden != "" {
		path += "?withHidden=true"
	}
	if err := s.sendKept(ctx, s.me, s.creds, http.MethodGet, path, nil); err != nil {
		return err
	}
	var l peopleListing
	if err := s.decodeLast(http.StatusOK, &l); err != nil {
		return err
	}
	if withHidden == "" {
		s.people.listed = &l
	}
	return nil
}

// noOneListedHidden judges the listing without the hidden.
func (s *scenario) noOneListedHidden() error {
	l := s.people.listed
	if l == nil {
		return fmt.Errorf("my people were not listed earlier in the scenario")
	}
	for _, p := range l.People {
		if p.IsHidden {
			return fmt.Errorf("the hidden person %s (%q) is listed, though the hidden were not asked for", p.ID, p.Name)
		}
	}
	if l.Hidden > l.Total || len(l.People) > l.Total-l.Hidden {
		return fmt.Errorf("%d people are listed, and the library counts %d, %d of them hidden", len(l.People), l.Total, l.Hidden)
	}
	return nil
}

// peopleLooked is how many of the people listed the harness looks at
// closely: their photos and pictures.
const peopleLooked = 3

// listedPeopleSeen judges the first people listed: each is seen in
// photos of mine that show them, and has a picture.
func (s *scenario) listedPeopleSeen(ctx context.Context) error {
	l := s.people.listed
	if l == nil {
		return fmt.Errorf("my people were not listed earlier in the scenario")
	}
	me, err := s.myID(ctx)
	if err != nil {
		return err
	}
	for _, p := range l.People[:min(len(l.People), peopleLooked)] {
		if err := s.personShownInMyPhotos(ctx, p, me); err != nil {
			return err
		}
		resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/people/" + p.ID + "/thumbnail", creds: s.creds})
		if err := judgeNow(resp, err, http.StatusOK); err != nil {
			return fmt.Errorf("the picture of %s (%q): %w", p.ID, p.Name, err)
		}
		if ct := resp.header.Get("Content-Type"); !strings.HasPrefix(ct, "image/") || len(resp.body) == 0 {
			return fmt.Errorf("the picture of %s (%q) is %d bytes of %q, not an image", p.ID, p.Name, len(resp.body), ct)
		}
	}
	return nil
}

// personShownInMyPhotos judges the photos a person listed is seen in:
// some, each mine, each showing them.
func (s *scenario) personShownInMyPhotos(ctx context.Context, p personSeen, me string) error {
	var photos []struct {
		ID      string       `json:"id"`
		OwnerID string       `json:"ownerId"`
		People  []personSeen `json:"people"`
	}
	if err := s.call(ctx, "asking for the photos of "+p.Name, http.MethodGet, "/people/"+p.ID+"/assets", s.creds, nil, &photos, http.StatusOK); err != nil {
		return err
	}
	if len(photos) == 0 {
		return fmt.Errorf("%s (%q) is listed among my people, and seen in none of my photos", p.ID, p.Name)
	}
	for _, a := range photos {
		shows := slices.ContainsFunc(a.People, func(q personSeen) bool { return q.ID == p.ID })
		if a.OwnerID != me || !shows {
			return fmt.Errorf("the photo %s, among those of %q, is %s's (I am %s) and shows them: %t", a.ID, p.Name, a.OwnerID, me, shows)
		}
	}
	return nil
}

// myID is the id of the user the scenario acts as.
func (s *scenario) myID(ctx context.Context) (string, error) {
	if s.me.id != "" {
		return s.me.id, nil
	}
	var me struct {
		ID string `json:"id"`
	}
	if err := s.call(ctx, "reading my user", http.MethodGet, "/users/me", credentials{apiKey: s.me.apiKey}, nil, &me, http.StatusOK); err != nil {
		return "", err
	}
	s.me.id = me.ID
	return me.ID, nil
}

// hiddenListedToo judges the listing with the hidden against the one without.
func (s *scenario) hiddenListedToo() error {
	var all peopleListing
	if err := s.decodeLast(http.StatusOK, &all); err != nil {
		return err
	}
	before := s.people.listed
	if before == nil {
		return fmt.Errorf("my people were not listed without the hidden earlier in the scenario")
	}
	hidden := 0
	for _, p := range all.People {
		if p.IsHidden {
			hidden++
		}
	}
	if hidden > all.Hidden || len(all.People) > all.Total {
		return fmt.Errorf("%d people are listed, %d of them hidden, and the library counts %d, %d of them hidden", len(all.People), hidden, all.Total, all.Hidden)
	}
	for _, p := range before.People {
		if !slices.ContainsFunc(all.People, func(q personSeen) bool { return q.ID == p.ID }) {
			return fmt.Errorf("%s (%q) is listed without the hidden, and not with them", p.ID, p.Name)
		}
	}
	return nil
}

// iActOnPerson asks, with the scenario's credentials, to read or change a
// person: the one the scenario made, or the one of that id.
func (s *scenario) iActOnPerson(ctx context.Context, act, id string) error {
	if id == "" {
		p, err := s.thatPerson()
		if err != nil {
			return err
		}
		id = p.id
	}
	method, path, in := http.MethodGet, "/people/"+id, any(nil)
	switch act {
	case "rename":
		method, in = http.MethodPut, map[string]any{"name": "Mallory"}
	case "ask for the photos of":
		path += "/assets"
	case "count the photos of":
		path += "/statistics"
	case "ask for the picture of":
		path += "/thumbnail"
	}
	return s.sendKept(ctx, s.me, s.creds, method, path, in)
}

// iRenameAmongOthers renames the scenario's person, and no one, in one request.
func (s *scenario) iRenameAmongOthers(ctx context.Context) error {
	p, err := s.thatPerson()
	if err != nil {
		return err
	}
	items := []map[string]any{{"id": p.id, "name": "Mallory"}, {"id": noOne, "name": "No one"}}
	return s.sendKept(ctx, s.me, s.creds, http.MethodPut, "/people", map[string]any{"people": items})
}

// personNotRenamed judges the outcome of a change of another user's person.
func (s *scenario) personNotRenamed() error {
	p, err := s.thatPerson()
	if err != nil {
		return err
	}
	res, err := s.lastResults()
	if err != nil {
		return err
	}
	for _, r := range res {
		if r.ID == p.id {
			if r.Success || r.Error == "" {
				return fmt.Errorf("another user's person was renamed, or failed without saying why: %s", s.last)
			}
			return nil
		}
	}
	return fmt.Errorf("no result names the person %s: %s", p.id, s.last)
}

// peopleOperationsRefused sends each operation on people with the
// scenario's credentials, and judges each refused.
func (s *scenario) peopleOperationsRefused(ctx context.Context, status int, message string) error {
	p := "/people/" + noOne
	return s.eachRefused(ctx, status, message, []apiRequest{
		{method: http.MethodGet, path: "/people"},
		// A birth date to come: a server that let it past without
		// credentials makes no person all the same.
		{method: http.MethodPost, path: "/people", body: []byte(`{"name":"Ada Lovelace","birthDate":"2990-01-01"}`)},
		{method: http.MethodPut, path: "/people", body: []byte(`{"people":[]}`)},
		{method: http.MethodGet, path: p},
		{method: http.MethodPut, path: p, body: []byte(`{"name":"Mallory"}`)},
		{method: http.MethodGet, path: p + "/assets"},
		{method: http.MethodGet, path: p + "/statistics"},
		{method: http.MethodGet, path: p + "/thumbnail"},
	})
}
