package steps

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// userProfileSteps are the steps of users as others see them, their own
// profile, preferences and picture, and what an admin does to a user
// (users.feature, accounts.feature).
func (s *scenario) userProfileSteps() []step {
	return append([]step{
		{`^another new user$`, s.anotherNewUser},
		{`^I list the users$`, s.listUsers},
		{`^the list holds that user by name, email and avatar colour, and nothing of their account$`, s.listHoldsUserAsOthersSee},
		{`^I read (?:that user|the user "([^"]*)")$`, s.readUser},
		{`^I see them by name, email and avatar colour, and nothing of their account$`, s.seeUserAsOthersSee},
		{`^they change their name to "([^"]*)"$`, s.changeTheirName},
		{`^they are told their name is "([^"]*)"$`, s.toldName},
		{`^I see that user named "([^"]*)"$`, s.seeUserNamed},
		{`^they change their email to a new one in capitals$`, s.changeEmailInCapitals},
		{`^they are told their new email, in lower case$`, s.toldNewEmailLowerCase},
		{`^they log in with their new email and not with the old one$`, s.logInWithNewEmailOnly},
		{`^they change their email to the other new user's$`, s.changeEmailToOthers},
		{`^they change their email to "([^"]*)"$`, s.changeEmailTo},
		{`^they see themselves unchanged$`, s.seeThemselvesUnchanged},
		{`^they read their preferences$`, s.readTheirPreferences},
		{`^memories are on, and the avatar's colour is their own$`, s.defaultPreferences},
		{`^they choose another avatar colour and turn memories off$`, s.chooseColourMemoriesOff},
		{`^they turn memories on again$`, s.turnMemoriesOn},
		{`^they choose the avatar colour "([^"]*)"$`, s.chooseColour},
		{`^their preferences show that colour, and memories (on|off)$`, s.preferencesShow},
		{`^their preferences are unchanged$`, s.preferencesUnchanged},
		{`^I see that user with that colour$`, s.seeUserWithColour},
		{`^they upload the profile picture "([^"]*)"$`, s.uploadProfilePicture},
		{`^they upload a profile picture under the part "([^"]*)"$`, s.uploadProfilePictureAs},
		{`^a new user who has a profile picture$`, s.newUserWithPicture},
		{`^they are told the picture's path, which is now their profile image's$`, s.toldPicturePath},
		{`^I get their profile image, the bytes of that picture$`, s.getTheirProfileImage},
		{`^they remove their profile picture$`, s.removeProfilePicture},
		{`^they have no profile image$`, s.haveNoProfileImage},
		{`^I ask for their profile image$`, s.askForTheirProfileImage},
		{`^I read my preferences$`, s.readMyPreferences},
		{`^I change my name to "([^"]*)"$`, s.changeMyName},
		{`^I remove my profile picture$`, s.removeMyProfilePicture},
	}, s.userAdminSteps()...)
}

// anotherNewUser makes another user, who is no admin.
func (s *scenario) anotherNewUser(ctx context.Context) error {
	u, err := s.newUser(ctx)
	s.identity.other = u
	return err
}

// listUsers lists the users, with the scenario's credentials.
func (s *scenario) listUsers(ctx context.Context) error {
	return s.sendAs(ctx, s.me, s.creds, http.MethodGet, "/users", nil)
}

// asOthersSee judges a user as others see them: the new user, by name,
// email and avatar colour, and no field of their account.
func (s *scenario) asOthersSee(u map[string]any) error {
	want := s.identity.before
	if u["name"] != want.Name || u["email"] != want.Email || u["avatarColor"] != want.AvatarColor {
		return fmt.Errorf("want the user named %q, %q, in %q: %v", want.Name, want.Email, want.AvatarColor, u)
	}
	for _, f := range accountOnly {
		if _, ok := u[f]; ok {
			return fmt.Errorf("others see the user's %q: %v", f, u)
		}
	}
	return nil
}

// listHoldsUserAsOthersSee judges the list of users: it holds the new user
// as others see them.
func (s *scenario) listHoldsUserAsOthersSee() error {
	var list []map[string]any
	if err := s.decodeLast(http.StatusOK, &list); err != nil {
		return err
	}
	for _, u := range list {
		if u["id"] == s.identity.user.id {
			return s.asOthersSee(u)
		}
	}
	return fmt.Errorf("the list of %d users does not hold the new user %s", len(list), s.identity.user.id)
}

// readUser reads the new user, or the user of an id as written, as others
// see them.
func (s *scenario) readUser(ctx context.Context, id string) error {
	if id == "" {
		u, err := s.theNewUser()
		if err != nil {
			return err
		}
		id = u.id
	}
	return s.sendAs(ctx, s.me, s.creds, http.MethodGet, "/users/"+id, nil)
}

// seeUserAsOthersSee judges the answer that is the new user as others see
// them.
func (s *scenario) seeUserAsOthersSee() error {
	var u map[string]any
	if err := s.decodeLast(http.StatusOK, &u); err != nil {
		return err
	}
	if u["id"] != s.identity.user.id {
		return fmt.Errorf("want the user %s: %s", s.identity.user.id, s.last)
	}
	return s.asOthersSee(u)
}

// changeTheirName has the new user change their name.
func (s *scenario) changeTheirName(ctx context.Context, name string) error {
	return s.asThem(ctx, http.MethodPut, "/users/me", map[string]string{"name": name})
}

// lastAccount reads the last answer as the new user's account.
func (s *scenario) lastAccount() (*accountSeen, error) {
	var me accountSeen
	if err := s.decodeLast(http.StatusOK, &me); err != nil {
		return nil, err
	}
	if me.ID != s.identity.user.id {
		return nil, fmt.Errorf("want the account of the new user %s: %s", s.identity.user.id, s.last)
	}
	return &me, nil
}

// toldName judges the new user's account in the last answer: its name.
func (s *scenario) toldName(name string) error {
	me, err := s.lastAccount()
	if err != nil {
		return err
	}
	if me.Name != name {
		return fmt.Errorf("the answer names the user %q, want %q", me.Name, name)
	}
	return nil
}

// userAsOthersSee reads the new user as the scenario's credentials see them.
func (s *scenario) userAsOthersSee(ctx context.Context) (*accountSeen, error) {
	u, err := s.theNewUser()
	if err != nil {
		return nil, err
	}
	var seen accountSeen
	err = s.call(ctx, "reading the user as others see them", http.MethodGet, "/users/"+u.id, s.creds, nil, &seen, http.StatusOK)
	return &seen, err
}

// seeUserNamed judges the new user's name as others see it.
func (s *scenario) seeUserNamed(ctx context.Context, name string) error {
	seen, err := s.userAsOthersSee(ctx)
	if err != nil {
		return err
	}
	if seen.Name != name {
		return fmt.Errorf("others see the user named %q, want %q", seen.Name, name)
	}
	return nil
}

// changeEmailInCapitals has the new user change their email to a new one,
// written in capitals.
func (s *scenario) changeEmailInCapitals(ctx context.Context) error {
	email := "MediaSpec-" + randomHex(6) + "@Example.COM"
	s.identity.newEmail = strings.ToLower(email)
	return s.asThem(ctx, http.MethodPut, "/users/me", map[string]string{"email": email})
}

// toldNewEmailLowerCase judges the new user's account in the last answer:
// the new email, in lower case.
func (s *scenario) toldNewEmailLowerCase() error {
	me, err := s.lastAccount()
	if err != nil {
		return err
	}
	if me.Email != s.identity.newEmail {
		return fmt.Errorf("the answer's email is %q, want %q", me.Email, s.identity.newEmail)
	}
	return nil
}

// logInWithNewEmailOnly judges that the new email logs in and the old one
// no longer does.
func (s *scenario) logInWithNewEmailOnly(ctx context.Context) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	resp, err := s.loginAs(ctx, s.identity.newEmail, u.password)
	if err := judgeNow(resp, err, http.StatusCreated); err != nil {
		return fmt.Errorf("the new email does not log in: %w", err)
	}
	resp, err = s.loginAs(ctx, s.identity.oldEmail, u.password)
	if err := refusedNow(resp, err, http.StatusUnauthorized, "Incorrect email or password"); err != nil {
		return fmt.Errorf("the old email still logs in: %w", err)
	}
	return nil
}

// changeEmailToOthers has the new user change their email to the other
// new user's.
func (s *scenario) changeEmailToOthers(ctx context.Context) error {
	if s.identity.other == nil {
		return fmt.Errorf("no other new user was made earlier in the scenario")
	}
	return s.asThem(ctx, http.MethodPut, "/users/me", map[string]string{"email": s.identity.other.email})
}

// changeEmailTo has the new user change their email to one as written.
func (s *scenario) changeEmailTo(ctx context.Context, email string) error {
	return s.asThem(ctx, http.MethodPut, "/users/me", map[string]string{"email": email})
}

// seeThemselvesUnchanged judges that the new user sees themselves as when
// they were made.
func (s *scenario) seeThemselvesUnchanged(ctx context.Context) error {
	me, err := s.newUserAccount(ctx)
	if err != nil {
		return err
	}
	was := s.identity.before
	if me.Name != was.Name || me.Email != was.Email || me.AvatarColor != was.AvatarColor ||
		!samePtr(me.StorageLabel, was.StorageLabel) || !samePtr(me.QuotaSizeInBytes, was.QuotaSizeInBytes) || me.IsAdmin != was.IsAdmin {
		return fmt.Errorf("the user changed: they were %+v, and are %+v", *was, *me)
	}
	return nil
}

// samePtr says whether two optional values are alike.
func samePtr[T comparable](a, b *T) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// readTheirPreferences has the new user read their preferences.
func (s *scenario) readTheirPreferences(ctx context.Context) error {
	return s.asThem(ctx, http.MethodGet, "/users/me/preferences", nil)
}

// defaultPreferences judges the new user's preferences in the last answer:
// as a new user's are, memories on and their avatar's colour.
func (s *scenario) defaultPreferences() error {
	var p preferencesSeen
	if err := s.decodeLast(http.StatusOK, &p); err != nil {
		return err
	}
	if !p.Memories.Enabled || p.Avatar.Color != s.identity.before.AvatarColor {
		return fmt.Errorf("want memories on and the avatar colour %q, the user's: %s", s.identity.before.AvatarColor, s.last)
	}
	return nil
}

// notePreferences reads the new user's preferences before they are
// changed, once, and picks a colour for their avatar that is not theirs.
func (s *scenario) notePreferences(ctx context.Context) error {
	if s.identity.prefs != nil {
		return nil
	}
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	p, err := s.preferencesOf(ctx, credentials{apiKey: u.apiKey})
	if err != nil {
		return err
	}
	s.identity.prefs = p
	i := slices.Index(avatarColours, p.Avatar.Color)
	s.identity.colour = avatarColours[(i+1)%len(avatarColours)]
	return nil
}

// chooseColourMemoriesOff has the new user choose another avatar colour
// and turn memories off.
func (s *scenario) chooseColourMemoriesOff(ctx context.Context) error {
	if err := s.notePreferences(ctx); err != nil {
		return err
	}
	in := map[string]any{"avatar": map[string]string{"color": s.identity.colour}, "memories": map[string]bool{"enabled": false}}
	return s.asThem(ctx, http.MethodPut, "/users/me/preferences", in)
}

// turnMemoriesOn has the new user turn memories on, and nothing else.
func (s *scenario) turnMemoriesOn(ctx context.Context) error {
	return s.asThem(ctx, http.MethodPut, "/users/me/preferences", map[string]any{"memories": map[string]bool{"enabled": true}})
}

// chooseColour has the new user choose a colour as written for their avatar.
func (s *scenario) chooseColour(ctx context.Context, colour string) error {
	if err := s.notePreferences(ctx); err != nil {
		return err
	}
	return s.asThem(ctx, http.MethodPut, "/users/me/preferences", map[string]any{"avatar": map[string]string{"color": colour}})
}

// preferencesShow judges the new user's preferences, in the last answer
// and as they read them now: the colour chosen, memories on or off.
func (s *scenario) preferencesShow(ctx context.Context, memories string) error {
	check := func(p preferencesSeen, where string) error {
		if p.Avatar.Color != s.identity.colour || p.Memories.Enabled != (memories == "on") {
			return fmt.Errorf("%s the avatar colour %q and memories enabled %t, want %q and memories %s", where, p.Avatar.Color, p.Memories.Enabled, s.identity.colour, memories)
		}
		return nil
	}
	var answered preferencesSeen
	if err := s.decodeLast(http.StatusOK, &answered); err != nil {
		return err
	}
	if err := check(answered, "the answer shows"); err != nil {
		return err
	}
	now, err := s.preferencesOf(ctx, credentials{apiKey: s.identity.user.apiKey})
	if err != nil {
		return err
	}
	return check(*now, "the user reads")
}

// preferencesUnchanged judges that the new user's preferences are as they
// were before the change asked for.
func (s *scenario) preferencesUnchanged(ctx context.Context) error {
	if s.identity.prefs == nil {
		return fmt.Errorf("the user's preferences were not read before a change")
	}
	now, err := s.preferencesOf(ctx, credentials{apiKey: s.identity.user.apiKey})
	if err != nil {
		return err
	}
	if *now != *s.identity.prefs {
		return fmt.Errorf("the user's preferences changed from %+v to %+v", *s.identity.prefs, *now)
	}
	return nil
}

// seeUserWithColour judges the new user's avatar colour as others see it.
func (s *scenario) seeUserWithColour(ctx context.Context) error {
	seen, err := s.userAsOthersSee(ctx)
	if err != nil {
		return err
	}
	if seen.AvatarColor != s.identity.colour {
		return fmt.Errorf("others see the user's avatar in %q, want %q", seen.AvatarColor, s.identity.colour)
	}
	return nil
}

// sendPicture sends a profile picture of the new user's under a part.
func (s *scenario) sendPicture(ctx context.Context, part string, f *file) (*response, error) {
	u, err := s.theNewUser()
	if err != nil {
		return nil, err
	}
	body, contentType, err := (&form{files: []formFile{{part: part, file: f}}}).encode()
	if err != nil {
		return nil, err
	}
	return s.cfg.send(ctx, apiRequest{method: http.MethodPost, path: "/users/profile-image", creds: credentials{apiKey: u.apiKey}, contentType: contentType, body: body})
}

// uploadProfilePicture has the new user upload a new picture of that name
// as their profile picture.
func (s *scenario) uploadProfilePicture(ctx context.Context, name string) error {
	s.identity.picture = newFile(name)
	resp, err := s.sendPicture(ctx, "file", s.identity.picture)
	return s.keep(resp, s.identity.user, err)
}

// uploadProfilePictureAs has the new user upload a profile picture under
// another part than the one a server takes it in.
func (s *scenario) uploadProfilePictureAs(ctx context.Context, part string) error {
	resp, err := s.sendPicture(ctx, part, newFile(defaultName))
	return s.keep(resp, s.identity.user, err)
}

// newUserWithPicture makes the new user, with a profile picture.
func (s *scenario) newUserWithPicture(ctx context.Context) error {
	if _, err := s.makeNewUser(ctx); err != nil {
		return err
	}
	s.identity.picture = newFile(defaultName)
	resp, err := s.sendPicture(ctx, "file", s.identity.picture)
	if err := judgeNow(resp, err, http.StatusCreated); err != nil {
		return fmt.Errorf("uploading a profile picture: %w", err)
	}
	return nil
}

// toldPicturePath judges the answer to a profile picture: the path the
// user's account names from then on.
func (s *scenario) toldPicturePath(ctx context.Context) error {
	var out struct {
		UserID           string `json:"userId"`
		ProfileImagePath string `json:"profileImagePath"`
	}
	if err := s.decodeLast(http.StatusCreated, &out); err != nil {
		return err
	}
	if out.UserID != s.identity.user.id || out.ProfileImagePath == "" {
		return fmt.Errorf("want the user %s and a path: %s", s.identity.user.id, s.last)
	}
	me, err := s.accountOf(ctx, credentials{apiKey: s.identity.user.apiKey})
	if err != nil {
		return err
	}
	if me.ProfileImagePath != out.ProfileImagePath {
		return fmt.Errorf("the user's profileImagePath is %q, not the picture's path %q", me.ProfileImagePath, out.ProfileImagePath)
	}
	return nil
}

// getTheirProfileImage judges the new user's profile image as others get
// it: the bytes of the picture they uploaded last.
func (s *scenario) getTheirProfileImage(ctx context.Context) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	if s.identity.picture == nil {
		return fmt.Errorf("the user uploaded no profile picture earlier in the scenario")
	}
	resp, err := s.cfg.send(ctx, apiRequest{method: http.MethodGet, path: "/users/" + u.id + "/profile-image", creds: s.creds})
	if err := judgeNow(resp, err, http.StatusOK); err != nil {
		return err
	}
	if !bytes.Equal(resp.body, s.identity.picture.content) {
		return fmt.Errorf("the profile image is %d bytes, not the %d of the picture %s the user uploaded last", len(resp.body), len(s.identity.picture.content), s.identity.picture.name)
	}
	return nil
}

// removeProfilePicture has the new user remove their profile picture.
func (s *scenario) removeProfilePicture(ctx context.Context) error {
	return s.asThem(ctx, http.MethodDelete, "/users/profile-image", nil)
}

// haveNoProfileImage judges that the new user's account names no profile
// image.
func (s *scenario) haveNoProfileImage(ctx context.Context) error {
	me, err := s.newUserAccount(ctx)
	if err != nil {
		return err
	}
	if me.ProfileImagePath != "" {
		return fmt.Errorf("the user's profileImagePath is %q, want none", me.ProfileImagePath)
	}
	return nil
}

// askForTheirProfileImage asks for the new user's profile image, with the
// scenario's credentials.
func (s *scenario) askForTheirProfileImage(ctx context.Context) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	return s.sendAs(ctx, s.me, s.creds, http.MethodGet, "/users/"+u.id+"/profile-image", nil)
}

// readMyPreferences reads the preferences of the scenario's credentials.
func (s *scenario) readMyPreferences(ctx context.Context) error {
	return s.sendAs(ctx, s.me, s.creds, http.MethodGet, "/users/me/preferences", nil)
}

// changeMyName asks, without a user's credentials, to change the name.
func (s *scenario) changeMyName(ctx context.Context, name string) error {
	return s.asMeHarmlessly(ctx, http.MethodPut, "/users/me", map[string]string{"name": name})
}

// removeMyProfilePicture asks, without a user's credentials, to remove the
// profile picture.
func (s *scenario) removeMyProfilePicture(ctx context.Context) error {
	return s.asMeHarmlessly(ctx, http.MethodDelete, "/users/profile-image", nil)
}
