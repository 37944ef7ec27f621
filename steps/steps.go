package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cucumber/godog"
)

// user is someone the scenario acts as.
type user struct {
	apiKey string
	id     string // known once a link of theirs was seen; "" before
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

	links      []link // the last listing
	linksRaw   []byte
	otherLinks []link
}

// Register adds the steps to sc, with a new state for its scenario. It
// fails every step when cfg cannot be used.
func Register(sc *godog.ScenarioContext, cfg Config) {
	cfg, err := cfg.check()
	s := &scenario{cfg: cfg, me: &user{apiKey: cfg.APIKey}}
	s.creds = credentials{apiKey: cfg.APIKey}
	sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
		if err != nil {
			return ctx, err
		}
		return ctx, s.needs(p)
	})
	s.registerCredentials(sc)
	s.registerUploads(sc)
	s.registerRobustness(sc)
	s.registerLinks(sc)
}

// needs skips a scenario whose tags ask for what the target lacks.
func (s *scenario) needs(p *godog.Scenario) error {
	var tags []string
	for _, t := range p.Tags {
		tags = append(tags, t.Name)
	}
	if slices.Contains(tags, TagControl) && !s.cfg.Control {
		return skip("needs the mock's control API (%s), which the target does not have", TagControl)
	}
	if slices.Contains(tags, TagSecondUser) && s.cfg.SecondAPIKey == "" && !s.cfg.Control {
		return skip("needs a second user: give --second-api-key, or use a target with the control API (%s)", TagSecondUser)
	}
	return nil
}

// otherUser is the second user: the configured one, or one made through the
// control API.
func (s *scenario) otherUser(ctx context.Context) (*user, error) {
	if s.other != nil {
		return s.other, nil
	}
	switch {
	case s.cfg.SecondAPIKey != "":
		s.other = &user{apiKey: s.cfg.SecondAPIKey}
	case s.cfg.Control:
		u, err := s.newUser(ctx)
		if err != nil {
			return nil, err
		}
		s.other = u
	default:
		return nil, skip("needs a second user")
	}
	return s.other, nil
}

// session logs in as the scenario's user and returns the session's
// access token.
func (s *scenario) session(ctx context.Context) (string, error) {
	if s.cfg.Password == "" {
		return "", skip("needs the login of the API key's user (--email and --password) to start a session")
	}
	email := s.cfg.Email
	if email == "" {
		resp, err := s.cfg.send(ctx, apiRequest{method: "GET", path: "/users/me", creds: credentials{apiKey: s.me.apiKey}})
		if err != nil {
			return "", err
		}
		var me struct {
			Email string `json:"email"`
		}
		if resp.status != 200 || json.Unmarshal(resp.body, &me) != nil || me.Email == "" {
			return "", fmt.Errorf("finding the email of the API key's user: %s", resp)
		}
		email = me.Email
	}
	body, err := json.Marshal(map[string]string{"email": email, "password": s.cfg.Password})
	if err != nil {
		return "", err
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: "POST", path: "/auth/login", contentType: "application/json", body: body})
	if err != nil {
		return "", err
	}
	var login struct {
		AccessToken string `json:"accessToken"`
	}
	if resp.status != 201 || json.Unmarshal(resp.body, &login) != nil || login.AccessToken == "" {
		return "", fmt.Errorf("logging in as %s: %s", email, resp)
	}
	return login.AccessToken, nil
}

// newUser makes a user through the control API.
func (s *scenario) newUser(ctx context.Context) (*user, error) {
	var out struct {
		User struct {
			ID string `json:"id"`
		} `json:"user"`
		APIKey string `json:"apiKey"`
	}
	suffix := randomHex(6)
	in := map[string]any{"name": "Conformance " + suffix, "email": "conformance-" + suffix + "@example.com"}
	if err := s.cfg.control(ctx, "POST", "/users", "", in, &out, 201); err != nil {
		return nil, err
	}
	if out.APIKey == "" {
		return nil, fmt.Errorf("control API: the new user has no apiKey")
	}
	return &user{apiKey: out.APIKey, id: out.User.ID}, nil
}

func (s *scenario) registerCredentials(sc *godog.ScenarioContext) {
	sc.Step(`^I use my API key$`, func() {
		s.creds = credentials{apiKey: s.me.apiKey}
	})
	sc.Step(`^I use my API key as a bearer token$`, func() {
		s.creds = credentials{bearer: s.me.apiKey}
	})
	sc.Step(`^I use a session of mine as a bearer token$`, func(ctx context.Context) error {
		token, err := s.session(ctx)
		if err != nil {
			return err
		}
		s.creds = credentials{bearer: token}
		return nil
	})
	sc.Step(`^I use no credentials$`, func() {
		s.creds = credentials{}
	})
	sc.Step(`^I use the API key "([^"]*)"$`, func(key string) {
		s.creds = credentials{apiKey: key}
	})
	sc.Step(`^I use the bearer token "([^"]*)"( beside my API key)?$`, func(token, beside string) {
		s.creds = credentials{bearer: token}
		if beside != "" {
			s.creds.apiKey = s.me.apiKey
		}
	})
	sc.Step(`^I use the shared link key "([^"]*)"( beside my API key as a bearer token)?$`, func(key, beside string) {
		s.creds = credentials{linkKey: key}
		if beside != "" {
			s.creds.bearer = s.me.apiKey
		}
	})
	sc.Step(`^I use the key of that link$`, func() error {
		if s.link == nil {
			return fmt.Errorf("no link was made earlier in the scenario")
		}
		s.creds = credentials{linkKey: s.link.Key}
		return nil
	})
}
