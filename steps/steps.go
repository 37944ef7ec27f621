package steps

import (
	"context"
	"slices"

	"github.com/cucumber/godog"
)

// user is someone the scenario acts as.
type user struct {
	apiKey string
	id     string // known once a link of theirs was seen; "" before
	// A user the harness made has a login and a session too.
	email, password, session string
}

// scenario is the state of one scenario; every scenario gets a new one.
type scenario struct {
	cfg   Config
	creds credentials // how the next request authenticates
	me    *user
	other *user // the second user, once a step needs them
	fresh *user // a user made for the scenario, without links

	last   *response // the answer to the last request
	lastBy *user     // who sent it

	photo      *file // "the photo", "the same photo"
	photoForm  form  // how it was last uploaded
	otherPhoto *file // "the other photo"
	liveVideo  *file // the video of the last live photo
	firstID    string
	otherID    string // the other user's first upload
	races      []*response

	link      *link // the last link made through the control API
	albumLink *link
	photoLink *link
	otherLink *link

	sharedTwice string // a photo the scenario shared in two links

	links      []link // the last listing
	linksRaw   []byte
	otherLinks []link

	wf workflow    // albums, a link's life, its holder, the batch check
	dl downloading // what a link's holder downloads

	library  libraryState  // what links show as the library changes (library.go)
	accounts accountsState // users an admin deletes, restores and limits (accounts.go)
	live     liveState     // connections to the live events (live.go)
	identity identityState // logins, sessions, keys and users of the users the harness makes (accounts_state.go)

	people     peopleState     // people a new user makes and changes (people.go)
	settings   settingsState   // the server's settings an admin changes (settings.go)
	search     searchState     // photos found by search and on the map (search.go)
	activities activitiesState // comments and likes on a shared album (activities.go)
	memories   memoriesState   // memories and tags of my photos (memories.go, tags.go)
	sync       syncState       // the mobile app's sync and the audit of deletions (sync.go)
	faces      facesState      // faces, duplicates and a device's photos (faces.go)
	libraries  librariesState  // external libraries and their folders (libraries.go)

	changes libraryChanges // albums and their users, assets, the trash, partners (assets.go)

	name   string // the scenario's
	traces traces // what the scenario made, to take away when it ends (cleanup.go)

	step       string          // the id of the step that runs
	unjudged   *ViolationError // how the last answer breaks the document, until judged
	unjudgedAt string          // the step that received it
}

// Register adds the steps to sc, with a new state for its scenario. It
// fails every step when cfg cannot be used.
func Register(sc *godog.ScenarioContext, cfg Config) {
	cfg, err := cfg.check()
	s := &scenario{cfg: cfg, me: &user{apiKey: cfg.APIKey}}
	s.cfg.made = s.made
	s.creds = credentials{apiKey: cfg.APIKey}
	sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
		if err != nil {
			return ctx, err
		}
		return ctx, s.needs(p)
	})
	s.registerCleanup(sc)
	s.registerJudging(sc)
	s.registerAreas(sc)
	s.registerLive(sc)
}

// needs skips a scenario whose tags ask for what the target lacks.
func (s *scenario) needs(p *godog.Scenario) error {
	var tags []string
	for _, t := range p.Tags {
		tags = append(tags, t.Name)
	}
	if slices.Contains(tags, TagNewUser) && !s.cfg.canMakeUsers() {
		return skip("needs to make a user: give --admin-api-key, or --admin-email and --admin-password (%s)", TagNewUser)
	}
	if slices.Contains(tags, TagLibraryFolder) && s.cfg.LibraryFolder == "" {
		return skip("needs a folder the server reads where the harness writes it: give --library-folder (%s)", TagLibraryFolder)
	}
	if slices.Contains(tags, TagSecondUser) && s.cfg.SecondAPIKey == "" && !s.cfg.canMakeUsers() {
		return skip("needs a second user: give --second-api-key, or --admin-api-key to let the harness make one (%s)", TagSecondUser)
	}
	return nil
}

// otherUser is the second user: the configured one, or one the harness
// makes with the admin's credentials.
func (s *scenario) otherUser(ctx context.Context) (*user, error) {
	if s.other != nil {
		return s.other, nil
	}
	switch {
	case s.cfg.SecondAPIKey != "":
		s.other = &user{apiKey: s.cfg.SecondAPIKey}
	case s.cfg.canMakeUsers():
		u, err := s.newUser(ctx)
		if err != nil {
			return nil, err
		}
		s.other = u
	default:
		return nil, skip("needs a second user: give --second-api-key, or --admin-api-key to let the harness make one")
	}
	return s.other, nil
}
