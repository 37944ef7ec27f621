package steps

import (
	"context"
	"fmt"
)

// credentialsSteps are the steps that choose how the next requests
// authenticate: my API key, a session, a link's key, or nothing.
func (s *scenario) credentialsSteps() []step {
	return []step{
		{`^I use my API key$`, s.useMyAPIKey},
		{`^I use my API key as a bearer token$`, s.useMyAPIKeyAsBearer},
		{`^I use a session of mine as a bearer token$`, s.useMySession},
		{`^I use no credentials$`, s.useNoCredentials},
		{`^I use the API key "([^"]*)"$`, s.useAPIKey},
		{`^I use the bearer token "([^"]*)"( beside my API key)?$`, s.useBearerToken},
		{`^I use the shared link key "([^"]*)"( beside my API key as a bearer token)?$`, s.useLinkKey},
		{`^I use the key of that link$`, s.useKeyOfThatLink},
	}
}

// useMyAPIKey authenticates as me, with my API key in its header.
func (s *scenario) useMyAPIKey() {
	s.creds = credentials{apiKey: s.me.apiKey}
}

// useMyAPIKeyAsBearer sends my API key as a bearer token, where a session
// token belongs.
func (s *scenario) useMyAPIKeyAsBearer() {
	s.creds = credentials{bearer: s.me.apiKey}
}

// useMySession logs me in and authenticates with the session's token.
func (s *scenario) useMySession(ctx context.Context) error {
	token, err := s.session(ctx)
	if err != nil {
		return err
	}
	s.creds = credentials{bearer: token}
	return nil
}

// useNoCredentials sends the next requests without credentials.
func (s *scenario) useNoCredentials() {
	s.creds = credentials{}
}

// useAPIKey authenticates with the API key the scenario names.
func (s *scenario) useAPIKey(key string) {
	s.creds = credentials{apiKey: key}
}

// useBearerToken authenticates with the bearer token the scenario names,
// beside my API key when it says so.
func (s *scenario) useBearerToken(token, beside string) {
	s.creds = credentials{bearer: token}
	if beside != "" {
		s.creds.apiKey = s.me.apiKey
	}
}

// useLinkKey authenticates with the shared link key the scenario names,
// beside my API key as a bearer token when it says so.
func (s *scenario) useLinkKey(key, beside string) {
	s.creds = credentials{linkKey: key}
	if beside != "" {
		s.creds.bearer = s.me.apiKey
	}
}

// useKeyOfThatLink authenticates with the key of the link made earlier in
// the scenario.
func (s *scenario) useKeyOfThatLink() error {
	if s.link == nil {
		return fmt.Errorf("no link was made earlier in the scenario")
	}
	s.creds = credentials{linkKey: s.link.Key}
	return nil
}
