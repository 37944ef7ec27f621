package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Logins, sessions, API keys and users, as a user and an admin manage
// them (sessions.feature, users.feature, accounts.feature). What these
// steps change they change only on users the harness makes (@new-user):
// they end no session, change no password, name, preference or picture,
// and delete no key of a user the harness was given. Such a user is
// deleted with everything of theirs when the run ends.

// identityState is what the steps of logins, sessions, keys and users keep
// within a scenario.
type identityState struct {
	user  *user // the new user the scenario is about ("they", "that user")
	other *user // another new user, who is no admin ("the other new user")
	// before is the user as they saw themselves when made: what "unchanged"
	// compares with.
	before *accountSeen
	// tokens are the access tokens of the user's logins, the first made
	// first: the first is the one the harness made them with.
	tokens []string
	// oldPassword and newPassword are the user's password before and after
	// a change (by them or by an admin).
	oldPassword, newPassword string
	oldEmail, newEmail       string

	keys    []keyMade        // the API keys the scenario made for the user, the first made first
	prefs   *preferencesSeen // the user's preferences before a change
	colour  string           // the avatar colour chosen for them
	label   string           // the storage label an admin gave them, as the server should store it
	changed *accountSeen     // the user as an admin changed them: name, quota and storage label
	picture *file            // the last profile picture they uploaded
	signUp  string           // the email someone signed up with as the first admin
}

// keyMade is an API key the scenario made: its id, name and secret.
type keyMade struct {
	id, name, secret string
}

// accountSeen is a user as they and admins see them (UserAdminResponseDto).
type accountSeen struct {
	ID                   string  `json:"id"`
	Name                 string  `json:"name"`
	Email                string  `json:"email"`
	AvatarColor          string  `json:"avatarColor"`
	ProfileImagePath     string  `json:"profileImagePath"`
	StorageLabel         *string `json:"storageLabel"`
	QuotaSizeInBytes     *int64  `json:"quotaSizeInBytes"`
	ShouldChangePassword bool    `json:"shouldChangePassword"`
	IsAdmin              bool    `json:"isAdmin"`
	DeletedAt            *string `json:"deletedAt"`
	Status               string  `json:"status"`
}

// preferencesSeen is a user's preferences.
type preferencesSeen struct {
	Avatar struct {
		Color string `json:"color"`
	} `json:"avatar"`
	Memories struct {
		Enabled bool `json:"enabled"`
	} `json:"memories"`
}

// avatarColours are the colours of a user's avatar, in the order the API
// names them.
var avatarColours = []string{"primary", "pink", "red", "yellow", "blue", "green", "purple", "orange", "gray", "amber"}

// accountOnly are the fields of a user's account that only they and admins
// see: others see a user by name, email, avatar and picture.
var accountOnly = []string{
	"storageLabel", "quotaSizeInBytes", "quotaUsageInBytes", "shouldChangePassword", "isAdmin",
	"oauthId", "status", "deletedAt", "createdAt", "updatedAt", "password",
}

// theNewUser is the user the scenario made for these steps.
func (s *scenario) theNewUser() (*user, error) {
	if s.identity.user == nil {
		return nil, fmt.Errorf("no new user was made earlier in the scenario")
	}
	return s.identity.user, nil
}

// makeNewUser makes the user the scenario is about, and notes how they see
// themselves.
func (s *scenario) makeNewUser(ctx context.Context) (*user, error) {
	u, err := s.newUser(ctx)
	if err != nil {
		return nil, err
	}
	s.identity.user, s.identity.tokens = u, []string{u.session}
	s.identity.oldPassword, s.identity.oldEmail = u.password, u.email
	me, err := s.accountOf(ctx, credentials{apiKey: u.apiKey})
	s.identity.before = me
	return u, err
}

// newUserAccount is the new user's account, as they read it now.
func (s *scenario) newUserAccount(ctx context.Context) (*accountSeen, error) {
	u, err := s.theNewUser()
	if err != nil {
		return nil, err
	}
	return s.accountOf(ctx, credentials{apiKey: u.apiKey})
}

// accountOf reads the user of creds as they see themselves.
func (s *scenario) accountOf(ctx context.Context, creds credentials) (*accountSeen, error) {
	var me accountSeen
	if err := s.call(ctx, "reading the user as they see themselves", http.MethodGet, "/users/me", creds, nil, &me, http.StatusOK); err != nil {
		return nil, err
	}
	return &me, nil
}

// preferencesOf reads the preferences of the user of creds.
func (s *scenario) preferencesOf(ctx context.Context, creds credentials) (*preferencesSeen, error) {
	var p preferencesSeen
	if err := s.call(ctx, "reading the user's preferences", http.MethodGet, "/users/me/preferences", creds, nil, &p, http.StatusOK); err != nil {
		return nil, err
	}
	return &p, nil
}

// sendAs sends the request under test with creds, on who's behalf, and
// keeps its answer for the steps that judge it.
func (s *scenario) sendAs(ctx context.Context, who *user, creds credentials, method, path string, in any) error {
	ar := apiRequest{method: method, path: path, creds: creds}
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		ar.body, ar.contentType = b, "application/json"
	}
	resp, err := s.cfg.send(ctx, ar)
	return s.keep(resp, who, err)
}

// asThem sends the request under test as the new user, with their API key.
func (s *scenario) asThem(ctx context.Context, method, path string, in any) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	return s.sendAs(ctx, u, credentials{apiKey: u.apiKey}, method, path, in)
}

// asMeHarmlessly sends a request that would change the user of the
// scenario's credentials, when they carry no user's credentials (none, or
// a shared link's key): one the server must refuse. The harness changes
// nothing of a user it was given.
func (s *scenario) asMeHarmlessly(ctx context.Context, method, path string, in any) error {
	if s.creds.apiKey != "" || s.creds.bearer != "" {
		return fmt.Errorf("the harness changes nothing of a user it was given: this step sends only what a server refuses, without a user's credentials or with a shared link's key")
	}
	return s.sendAs(ctx, nil, s.creds, method, path, in)
}

// refusedNow judges an answer a step needs at once: a refusal with that
// status and message.
func refusedNow(resp *response, err error, status int, message string) error {
	if err := judgeNow(resp, err, status); err != nil {
		return err
	}
	var e errorBody
	if err := json.Unmarshal(resp.body, &e); err != nil {
		return fmt.Errorf("the error is not JSON: %w: %s", err, resp)
	}
	var one string
	var many []string
	switch {
	case json.Unmarshal(e.Message, &one) == nil:
	case json.Unmarshal(e.Message, &many) == nil:
		one = strings.Join(many, "; ")
	}
	if one != message {
		return fmt.Errorf("want the message %q, got %s", message, resp)
	}
	return nil
}

// goodFor judges that creds are the new user's: the server answers who
// they are.
func (s *scenario) goodFor(ctx context.Context, creds credentials, what string) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	me, err := s.accountOf(ctx, creds)
	if err != nil {
		return fmt.Errorf("%s is not good: %w", what, err)
	}
	if me.ID != u.id {
		return fmt.Errorf("%s is good for the user %s, not for %s, whose it is", what, me.ID, u.id)
	}
	return nil
}

// refusedAs judges that creds are refused with that 401 message.
func (s *scenario) refusedAs(ctx context.Context, creds credentials, message, what string) error {
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/users/me", creds: creds})
	if err := refusedNow(resp, err, http.StatusUnauthorized, message); err != nil {
		return fmt.Errorf("%s should be refused: %w", what, err)
	}
	return nil
}
