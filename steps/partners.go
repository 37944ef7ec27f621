package steps

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Partners: a user shares their whole library with another. Both users of
// these scenarios are made by the harness (@new-user): no user it was given
// shares their library, or is shown another's.

// partnerSteps are the steps of partners.
func (s *scenario) partnerSteps() []step {
	return []step{
		{`^another new user, who cannot read the first of those photos$`, s.anotherWhoCannotRead},
		{`^a new user who shares their library with another new user$`, s.newUserWhoShares},
		{`^they have shared their library with another new user$`, s.haveSharedLibrary},
		{`^they share their library with (the other new user|themselves|the user "[^"]*")$`, s.shareLibrary},
		{`^I share my library with the user "([^"]*)"$`, s.shareMyLibrary},
		{`^I list the users I share my library with$`, s.listMyPartners},
		{`^I show the library of the user "([^"]*)" in my timeline$`, s.showInMyTimeline},
		{`^I stop sharing my library with the user "([^"]*)"$`, s.stopSharingMine},
		{`^they list the users they share their library with$`, s.theyListShared},
		{`^the other new user lists the users who share their library with them$`, s.anotherListsSharers},
		{`^the list holds (the other new user|the new user) alone(?:, (not )?shown in their timeline)?$`, s.listHoldsPartner},
		{`^the answer names (the other new user|the new user), (?:who does not show|whose library shows) (?:that library )?in (?:their|the other new user's) timeline$`, s.answerNamesPartner},
		{`^the other new user reads the first of those photos, but neither the second nor the third$`, s.partnerReadsLive},
		{`^the other new user (?:shows|answers "([^"]*)" to showing) that library in their timeline$`, s.partnerShowsInTimeline},
		{`^they show their own library in the other new user's timeline$`, s.ownerShowsInTimeline},
		{`^they stop sharing their library with the other new user$`, s.stopSharing},
		{`^the other new user stops sharing their library with the new user$`, s.anotherStopsSharing},
		{`^the other new user's timeline and memory lane show none of those photos$`, s.partnerSeesNone},
		{`^the other new user's timeline and memory lane show the first of those photos, and only it$`, s.partnerSeesFirst},
		{`^the other new user no longer reads the first of those photos, and lists no one who shares their library with them$`, s.partnerNoLongerReads},
	}
}

// partners are the two users of a partnership: the new user, who shares,
// and the other new user.
func (s *scenario) partners() (owner, partner *user, err error) {
	if s.changes.them == nil || s.changes.another == nil {
		return nil, nil, fmt.Errorf("no two new users were made earlier in the scenario")
	}
	return s.changes.them, s.changes.another, nil
}

// anotherWhoCannotRead makes another new user and judges that they cannot
// read the new user's first photo yet.
func (s *scenario) anotherWhoCannotRead(ctx context.Context) error {
	if err := s.makeAnotherNewUser(ctx); err != nil {
		return err
	}
	return s.readsNot(ctx, s.changes.another, "first")
}

// readsNot judges that u cannot read one of the photos.
func (s *scenario) readsNot(ctx context.Context, u *user, which string) error {
	id, err := s.photoNamed(which)
	if err != nil {
		return err
	}
	_, status, err := s.readAsset(ctx, u, id)
	if err == nil && status != http.StatusBadRequest {
		err = fmt.Errorf("the other new user reads the %s of those photos, %s: status %d, want 400", which, id, status)
	}
	return err
}

// newUserWhoShares makes two new users, the first sharing their library
// with the second.
func (s *scenario) newUserWhoShares(ctx context.Context) error {
	if err := s.aNewUser(ctx); err != nil {
		return err
	}
	return s.haveSharedLibrary(ctx)
}

// haveSharedLibrary makes another new user, and shares the new user's
// library with them.
func (s *scenario) haveSharedLibrary(ctx context.Context) error {
	if err := s.makeAnotherNewUser(ctx); err != nil {
		return err
	}
	owner, partner, err := s.partners()
	if err != nil {
		return err
	}
	return s.call(ctx, "sharing the library", http.MethodPost, "/partners/"+partner.id, credentials{apiKey: owner.apiKey}, nil, nil, http.StatusCreated)
}

// shareLibrary shares the new user's library with the other new user,
// with themselves, or with the user of an id as written.
func (s *scenario) shareLibrary(ctx context.Context, with string) error {
	owner, err := s.newcomer()
	if err != nil {
		return err
	}
	id, ok := quoted(with)
	switch {
	case with == "themselves":
		id = owner.id
	case !ok:
		if s.changes.another == nil {
			return fmt.Errorf("no other new user was made earlier in the scenario")
		}
		id = s.changes.another.id
	}
	return s.sendJSON(ctx, http.MethodPost, "/partners/"+id, credentials{apiKey: owner.apiKey}, nil)
}

// shareMyLibrary shares my library with a user, with the scenario's
// credentials (none, or a link's key: refused).
func (s *scenario) shareMyLibrary(ctx context.Context, id string) error {
	return s.sendJSON(ctx, http.MethodPost, "/partners/"+id, s.creds, nil)
}

// listMyPartners lists the users I share my library with.
func (s *scenario) listMyPartners(ctx context.Context) error {
	return s.sendJSON(ctx, http.MethodGet, "/partners?direction=shared-by", s.creds, nil)
}

// showInMyTimeline shows a library shared with me in my timeline.
func (s *scenario) showInMyTimeline(ctx context.Context, id string) error {
	return s.sendJSON(ctx, http.MethodPut, "/partners/"+id, s.creds, map[string]any{"inTimeline": true})
}

// stopSharingMine stops sharing my library with a user.
func (s *scenario) stopSharingMine(ctx context.Context, id string) error {
	return s.sendJSON(ctx, http.MethodDelete, "/partners/"+id, s.creds, nil)
}

// theyListShared lists the users the new user shares their library with.
func (s *scenario) theyListShared(ctx context.Context) error {
	owner, _, err := s.partners()
	if err != nil {
		return err
	}
	return s.sendJSON(ctx, http.MethodGet, "/partners?direction=shared-by", credentials{apiKey: owner.apiKey}, nil)
}

// anotherListsSharers lists, as the other new user, the users who share
// their library with them.
func (s *scenario) anotherListsSharers(ctx context.Context) error {
	_, partner, err := s.partners()
	if err != nil {
		return err
	}
	return s.sendJSON(ctx, http.MethodGet, "/partners?direction=shared-with", credentials{apiKey: partner.apiKey}, nil)
}

// seenPartner is a partner as the harness reads one.
type seenPartner struct {
	ID         string `json:"id"`
	InTimeline *bool  `json:"inTimeline"`
}

// userOf is the new user or the other new user, as a step names them.
func (s *scenario) userOf(who string) (*user, error) {
	owner, partner, err := s.partners()
	if err != nil {
		return nil, err
	}
	if who == "the new user" {
		return owner, nil
	}
	return partner, nil
}

// listHoldsPartner judges a list of partners: that user alone, shown in
// the timeline or not, when the step says.
func (s *scenario) listHoldsPartner(who, not string) error {
	u, err := s.userOf(who)
	if err != nil {
		return err
	}
	var list []seenPartner
	if err := s.decodeLast(http.StatusOK, &list); err != nil {
		return err
	}
	if len(list) != 1 || list[0].ID != u.id {
		return fmt.Errorf("the list holds %s, want %s alone (%s)", s.last, who, u.id)
	}
	if strings.Contains(s.last.request, "shared-with") && (list[0].InTimeline == nil || *list[0].InTimeline != (not == "")) {
		return fmt.Errorf("the list shows %s with inTimeline %v, want %t", who, list[0].InTimeline, not == "")
	}
	return nil
}

// answerNamesPartner judges the answer of a partnership: the user, and
// whether the library shows in the partner's timeline.
func (s *scenario) answerNamesPartner(who string) error {
	u, err := s.userOf(who)
	if err != nil {
		return err
	}
	// Shared: 201, not in the partner's timeline; put there: 200.
	put := s.last != nil && strings.HasPrefix(s.last.request, http.MethodPut)
	status := http.StatusCreated
	if put {
		status = http.StatusOK
	}
	var p seenPartner
	if err := s.decodeLast(status, &p); err != nil {
		return err
	}
	want := put
	if p.ID != u.id || p.InTimeline == nil || *p.InTimeline != want {
		return fmt.Errorf("the answer names %s with inTimeline %v, want %s (%s) with inTimeline %t", p.ID, p.InTimeline, who, u.id, want)
	}
	return nil
}

// partnerReadsLive judges what the partner reads of the library: the
// first photo, not the archived second nor the trashed third.
func (s *scenario) partnerReadsLive(ctx context.Context) error {
	_, partner, err := s.partners()
	if err != nil {
		return err
	}
	a, status, err := s.readAsset(ctx, partner, s.changes.photos[0])
	if err != nil {
		return err
	}
	if status != http.StatusOK || a.ID != s.changes.photos[0] {
		return fmt.Errorf("the partner cannot read the first of those photos, %s: status %d", s.changes.photos[0], status)
	}
	for _, which := range []string{"second", "third"} {
		if err := s.readsNot(ctx, partner, which); err != nil {
			return err
		}
	}
	return nil
}

// partnerShowsInTimeline sets, as the partner, that the library shared
// with them shows in their timeline: yes, or the answer as written.
func (s *scenario) partnerShowsInTimeline(ctx context.Context, answer string) error {
	owner, partner, err := s.partners()
	if err != nil {
		return err
	}
	var in any = true
	if answer != "" {
		in = answer
	}
	return s.sendJSON(ctx, http.MethodPut, "/partners/"+owner.id, credentials{apiKey: partner.apiKey}, map[string]any{"inTimeline": in})
}

// ownerShowsInTimeline sets, as the user who shares, that their library
// shows in the partner's timeline.
func (s *scenario) ownerShowsInTimeline(ctx context.Context) error {
	owner, partner, err := s.partners()
	if err != nil {
		return err
	}
	return s.sendJSON(ctx, http.MethodPut, "/partners/"+partner.id, credentials{apiKey: owner.apiKey}, map[string]any{"inTimeline": true})
}

// stopSharing ends the partnership, as the user who shares.
func (s *scenario) stopSharing(ctx context.Context) error {
	owner, partner, err := s.partners()
	if err != nil {
		return err
	}
	return s.sendJSON(ctx, http.MethodDelete, "/partners/"+partner.id, credentials{apiKey: owner.apiKey}, nil)
}

// anotherStopsSharing ends, as the partner, a partnership in which they
// share nothing.
func (s *scenario) anotherStopsSharing(ctx context.Context) error {
	owner, partner, err := s.partners()
	if err != nil {
		return err
	}
	return s.sendJSON(ctx, http.MethodDelete, "/partners/"+owner.id, credentials{apiKey: partner.apiKey}, nil)
}

// timelineOf is every asset of u's timeline by month, with their
// partners' (not archived, as the reference asks for them).
func (s *scenario) timelineOf(ctx context.Context, u *user) ([]string, error) {
	creds := credentials{apiKey: u.apiKey}
	const query = "size=MONTH&withPartners=true&isArchived=false"
	var buckets []struct {
		TimeBucket string `json:"timeBucket"`
		Count      int    `json:"count"`
	}
	if err := s.call(ctx, "opening the timeline", http.MethodGet, "/timeline/buckets?"+query, creds, nil, &buckets, http.StatusOK); err != nil {
		return nil, err
	}
	var ids []string
	for _, b := range buckets {
		var assets []struct {
			ID string `json:"id"`
		}
		path := "/timeline/bucket?" + query + "&timeBucket=" + url.QueryEscape(b.TimeBucket)
		if err := s.call(ctx, "opening the month "+b.TimeBucket, http.MethodGet, path, creds, nil, &assets, http.StatusOK); err != nil {
			return nil, err
		}
		if len(assets) != b.Count {
			return nil, fmt.Errorf("the timeline counts %d assets in %s, and shows %d", b.Count, b.TimeBucket, len(assets))
		}
		for _, a := range assets {
			ids = append(ids, a.ID)
		}
	}
	return ids, nil
}

// partnerSeesNone judges the partner's timeline and memory lane: none of
// the photos shared. The owner's own memory lane must show the first photo
// first: a server shows a photo there once it has read its date and made
// its pictures, and before, a partner seeing none would prove nothing.
func (s *scenario) partnerSeesNone(ctx context.Context) error {
	owner, partner, err := s.partners()
	if err != nil {
		return err
	}
	if err := s.settle(ctx, func() error { return s.memoryShowsFirst(ctx, owner) }); err != nil {
		return fmt.Errorf("the owner's own memory lane: %w", err)
	}
	ids, err := s.timelineOf(ctx, partner)
	if err != nil {
		return err
	}
	if len(ids) > 0 {
		return fmt.Errorf("the partner's timeline shows %q, want none of the library they did not ask for", ids)
	}
	var years []memoryYear
	if err := s.call(ctx, "walking down the partner's memory lane", http.MethodGet, "/asset/memory-lane"+s.memoryDay(), credentials{apiKey: partner.apiKey}, nil, &years, http.StatusOK); err != nil {
		return err
	}
	if len(years) > 0 {
		return fmt.Errorf("the partner's memory lane shows %d years, want none", len(years))
	}
	return nil
}

// partnerSeesFirst judges the partner's timeline and memory lane: the
// first photo, neither the archived one nor the trashed one.
func (s *scenario) partnerSeesFirst(ctx context.Context) error {
	_, partner, err := s.partners()
	if err != nil {
		return err
	}
	return s.settle(ctx, func() error {
		ids, err := s.timelineOf(ctx, partner)
		if err != nil {
			return err
		}
		if !slices.Equal(ids, s.changes.photos[:1]) {
			return fmt.Errorf("the partner's timeline shows %q, want the first of those photos alone, %s", ids, s.changes.photos[0])
		}
		return s.memoryShowsFirst(ctx, partner)
	})
}

// partnerNoLongerReads judges a partnership ended: the partner reads no
// photo of the library, and lists no one who shares theirs.
func (s *scenario) partnerNoLongerReads(ctx context.Context) error {
	_, partner, err := s.partners()
	if err != nil {
		return err
	}
	if err := s.readsNot(ctx, partner, "first"); err != nil {
		return err
	}
	var list []seenPartner
	if err := s.call(ctx, "listing who shares with the partner", http.MethodGet, "/partners?direction=shared-with", credentials{apiKey: partner.apiKey}, nil, &list, http.StatusOK); err != nil {
		return err
	}
	if len(list) > 0 {
		return fmt.Errorf("the partner still lists %d users who share their library with them", len(list))
	}
	return nil
}
