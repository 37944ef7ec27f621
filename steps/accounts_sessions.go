package steps

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// accountSessionSteps are the steps of logins, logouts, tokens, passwords,
// sessions and API keys (sessions.feature).
func (s *scenario) accountSessionSteps() []step {
	return []step{
		{`^a new user who has logged in$`, s.newUserWhoHasLoggedIn},
		{`^they have logged in again from Chrome on Linux$`, s.loggedInAgainFromChrome},
		{`^they have logged in twice more$`, s.loggedInTwiceMore},
		{`^they ask with that session whether their credentials are good$`, s.askWhetherSessionIsGood},
		{`^I ask whether my credentials are good$`, s.askWhetherMyCredentialsAreGood},
		{`^(?:they are told their|I am told my) credentials are good$`, s.toldCredentialsAreGood},
		{`^they log out (of that session|with their API key)$`, s.logOut},
		{`^they are told they are logged out$`, s.toldLoggedOut},
		{`^the token of (?:that|the (first|second)) session is refused as an invalid user token$`, s.sessionTokenRefused},
		{`^the tokens of the other sessions are refused as invalid user tokens$`, s.otherSessionTokensRefused},
		{`^the token of (?:that|the (first|second)) session is still good$`, s.sessionTokenStillGood},
		{`^they list their sessions with the first session$`, s.listSessionsWithFirst},
		{`^they see both sessions, only the first marked current, the newest first$`, s.seeBothSessions},
		{`^the second session is named "([^"]*)" on "([^"]*)"$`, s.secondSessionNamed},
		{`^they end the second session from the first$`, s.endSecondSession},
		{`^they end their other sessions from the first$`, s.endOtherSessions},
		{`^their sessions list only the first, marked current$`, s.sessionsListOnlyFirst},
		{`^the other user ends that session$`, s.otherUserEndsSession},
		{`^they end the session "([^"]*)"$`, s.endSessionByID},
		{`^I list my sessions$`, s.listMySessions},
		{`^I end my other sessions$`, s.endMyOtherSessions},
		{`^I log out$`, s.logMeOut},
		{`^they change their password to a new one$`, s.changePasswordToNew},
		{`^they change their password giving a wrong current one$`, s.changePasswordWrongCurrent},
		{`^they change their password to "([^"]*)"$`, s.changePasswordTo},
		{`^they are answered with their own account$`, s.answeredWithOwnAccount},
		{`^they log in with the new password and not with the old one$`, s.logInWithNewPasswordOnly},
		{`^they still log in with their password$`, s.stillLogInWithPassword},
		{`^their API key is still good$`, s.apiKeyStillGood},
		{`^someone signs up as the server's first admin$`, s.signUpFirstAdmin},
		{`^the server has no user of that email$`, s.noUserOfSignUpEmail},
		{`^a new user who has an API key named "([^"]*)"$`, s.newUserWithAPIKey},
		{`^they make API keys named "([^"]*)" and then "([^"]*)"$`, s.makeTwoAPIKeys},
		{`^they list their API keys$`, s.listTheirAPIKeys},
		{`^they see the keys they made, the newest first, then the one they had, none with its secret$`, s.seeKeysNewestFirst},
		{`^they read the key named "([^"]*)"$`, s.readKeyNamed},
		{`^they read (?:that key|the key "([^"]*)")$`, s.readKey},
		{`^(?:they are shown|they were answered with) the key named "([^"]*)", without its secret$`, s.shownKeyNamed},
		{`^they rename that key "([^"]*)"$`, s.renameKey},
		{`^their list of keys names it "([^"]*)"$`, s.listNamesKey},
		{`^that key is still good, named "([^"]*)"$`, s.keyStillGood},
		{`^they delete that key$`, s.deleteKey},
		{`^that key is refused as an invalid API key$`, s.keyRefused},
		{`^the other user (reads|deletes) that key$`, s.otherUserReadsOrDeletesKey},
		{`^the other user renames that key "([^"]*)"$`, s.otherUserRenamesKey},
		{`^I list my API keys$`, s.listMyAPIKeys},
	}
}

// chromeOnLinux is the User-Agent of a browser that logs in.
const chromeOnLinux = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"

// sessionSeen is a session as its user sees it.
type sessionSeen struct {
	ID         string `json:"id"`
	Current    bool   `json:"current"`
	DeviceType string `json:"deviceType"`
	DeviceOS   string `json:"deviceOS"`
}

// newUserWhoHasLoggedIn makes the user the scenario is about, with a
// session.
func (s *scenario) newUserWhoHasLoggedIn(ctx context.Context) error {
	_, err := s.makeNewUser(ctx)
	return err
}

// logInAgain logs the new user in once more, as userAgent (none: the
// harness's own), and keeps the session's token.
func (s *scenario) logInAgain(ctx context.Context, userAgent string) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	ar := apiRequest{method: http.MethodPost, path: "/auth/login", contentType: "application/json"}
	ar.body, _ = json.Marshal(map[string]string{"email": u.email, "password": u.password})
	if userAgent != "" {
		ar.header = http.Header{"User-Agent": {userAgent}}
	}
	resp, err := s.cfg.send(ctx, ar)
	if err := judgeNow(resp, err, http.StatusCreated); err != nil {
		return fmt.Errorf("logging in again: %w", err)
	}
	var out struct {
		AccessToken string `json:"accessToken"`
	}
	if err := json.Unmarshal(resp.body, &out); err != nil || out.AccessToken == "" {
		return fmt.Errorf("logging in again: no accessToken in %s", resp)
	}
	s.identity.tokens = append(s.identity.tokens, out.AccessToken)
	return nil
}

// loggedInAgainFromChrome logs the new user in again, from a browser.
func (s *scenario) loggedInAgainFromChrome(ctx context.Context) error {
	return s.logInAgain(ctx, chromeOnLinux)
}

// loggedInTwiceMore logs the new user in two more times.
func (s *scenario) loggedInTwiceMore(ctx context.Context) error {
	if err := s.logInAgain(ctx, ""); err != nil {
		return err
	}
	return s.logInAgain(ctx, "")
}

// token is the access token of the new user's first or second session.
func (s *scenario) token(which string) (string, error) {
	i := 0
	if which == "second" {
		i = 1
	}
	if len(s.identity.tokens) <= i {
		return "", fmt.Errorf("the new user has no %s session", cmp.Or(which, "first"))
	}
	return s.identity.tokens[i], nil
}

// askWhetherSessionIsGood asks, with the new user's first session, whether
// its credentials are good.
func (s *scenario) askWhetherSessionIsGood(ctx context.Context) error {
	token, err := s.token("first")
	if err != nil {
		return err
	}
	return s.sendAs(ctx, s.identity.user, credentials{bearer: token}, http.MethodPost, "/auth/validateToken", nil)
}

// askWhetherMyCredentialsAreGood asks, with the scenario's credentials,
// whether they are good.
func (s *scenario) askWhetherMyCredentialsAreGood(ctx context.Context) error {
	return s.sendAs(ctx, s.me, s.creds, http.MethodPost, "/auth/validateToken", nil)
}

// toldCredentialsAreGood judges the answer to whether credentials are good.
func (s *scenario) toldCredentialsAreGood() error {
	var out struct {
		AuthStatus *bool `json:"authStatus"`
	}
	if err := s.decodeLast(http.StatusOK, &out); err != nil {
		return err
	}
	if out.AuthStatus == nil || !*out.AuthStatus {
		return fmt.Errorf("want authStatus true: %s", s.last)
	}
	return nil
}

// logOut logs the new user out, with their first session or their API key.
func (s *scenario) logOut(ctx context.Context, with string) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	creds := credentials{apiKey: u.apiKey}
	if with == "of that session" {
		creds = credentials{bearer: s.identity.tokens[0]}
	}
	return s.sendAs(ctx, u, creds, http.MethodPost, "/auth/logout", nil)
}

// toldLoggedOut judges the answer to a logout.
func (s *scenario) toldLoggedOut() error {
	var out struct {
		Successful  bool   `json:"successful"`
		RedirectURI string `json:"redirectUri"`
	}
	if err := s.decodeLast(http.StatusOK, &out); err != nil {
		return err
	}
	if !out.Successful {
		return fmt.Errorf("want successful true: %s", s.last)
	}
	return nil
}

// sessionTokenRefused judges that a session's token no longer works.
func (s *scenario) sessionTokenRefused(ctx context.Context, which string) error {
	token, err := s.token(which)
	if err != nil {
		return err
	}
	return s.refusedAs(ctx, credentials{bearer: token}, "Invalid user token", "the token of the ended session")
}

// otherSessionTokensRefused judges that the tokens of every session but
// the first no longer work.
func (s *scenario) otherSessionTokensRefused(ctx context.Context) error {
	if len(s.identity.tokens) < 2 {
		return fmt.Errorf("the new user has no other sessions")
	}
	for i, token := range s.identity.tokens[1:] {
		if err := s.refusedAs(ctx, credentials{bearer: token}, "Invalid user token", fmt.Sprintf("the token of session %d", i+2)); err != nil {
			return err
		}
	}
	return nil
}

// sessionTokenStillGood judges that a session's token still works.
func (s *scenario) sessionTokenStillGood(ctx context.Context, which string) error {
	token, err := s.token(which)
	if err != nil {
		return err
	}
	return s.goodFor(ctx, credentials{bearer: token}, "the token of the "+cmp.Or(which, "first")+" session")
}

// sessionsWith lists the new user's sessions with a token of theirs.
func (s *scenario) sessionsWith(ctx context.Context, token string) ([]sessionSeen, error) {
	var list []sessionSeen
	err := s.call(ctx, "listing the user's sessions", http.MethodGet, "/sessions", credentials{bearer: token}, nil, &list, http.StatusOK)
	return list, err
}

// sessionID is the id of the session of a token: the one its list marks
// current.
func (s *scenario) sessionID(ctx context.Context, token string) (string, error) {
	list, err := s.sessionsWith(ctx, token)
	if err != nil {
		return "", err
	}
	for _, se := range list {
		if se.Current {
			return se.ID, nil
		}
	}
	return "", fmt.Errorf("no session is marked current in the list asked for with its token: %v", list)
}

// listSessionsWithFirst lists the new user's sessions with their first.
func (s *scenario) listSessionsWithFirst(ctx context.Context) error {
	token, err := s.token("first")
	if err != nil {
		return err
	}
	return s.sendAs(ctx, s.identity.user, credentials{bearer: token}, http.MethodGet, "/sessions", nil)
}

// seeBothSessions judges the list of two sessions asked for with the
// first: the second (the newer) first, and only the first current.
func (s *scenario) seeBothSessions(ctx context.Context) error {
	var list []sessionSeen
	if err := s.decodeLast(http.StatusOK, &list); err != nil {
		return err
	}
	second, err := s.token("second")
	if err != nil {
		return err
	}
	secondID, err := s.sessionID(ctx, second)
	if err != nil {
		return err
	}
	if len(list) != 2 {
		return fmt.Errorf("want the 2 sessions of the user, got %d: %s", len(list), s.last)
	}
	if list[0].ID != secondID || list[0].Current || !list[1].Current {
		return fmt.Errorf("want the second session (%s) first and not current, then the first, current: %s", secondID, s.last)
	}
	return nil
}

// secondSessionNamed judges how the last list names the second session.
func (s *scenario) secondSessionNamed(deviceType, deviceOS string) error {
	var list []sessionSeen
	if err := json.Unmarshal(s.last.body, &list); err != nil {
		return fmt.Errorf("the answer is not a list of sessions: %s", s.last)
	}
	for _, se := range list {
		if !se.Current {
			if se.DeviceType != deviceType || se.DeviceOS != deviceOS {
				return fmt.Errorf("the session of %s on %s is named %q on %q", deviceType, deviceOS, se.DeviceType, se.DeviceOS)
			}
			return nil
		}
	}
	return fmt.Errorf("no session but the current one is listed: %s", s.last)
}

// endSecondSession ends the new user's second session, with their first.
func (s *scenario) endSecondSession(ctx context.Context) error {
	second, err := s.token("second")
	if err != nil {
		return err
	}
	id, err := s.sessionID(ctx, second)
	if err != nil {
		return err
	}
	return s.sendAs(ctx, s.identity.user, credentials{bearer: s.identity.tokens[0]}, http.MethodDelete, "/sessions/"+id, nil)
}

// endOtherSessions ends every other session of the new user, with their
// first.
func (s *scenario) endOtherSessions(ctx context.Context) error {
	token, err := s.token("first")
	if err != nil {
		return err
	}
	return s.sendAs(ctx, s.identity.user, credentials{bearer: token}, http.MethodDelete, "/sessions", nil)
}

// sessionsListOnlyFirst judges that the new user has one session left:
// the first, which lists it.
func (s *scenario) sessionsListOnlyFirst(ctx context.Context) error {
	token, err := s.token("first")
	if err != nil {
		return err
	}
	list, err := s.sessionsWith(ctx, token)
	if err != nil {
		return err
	}
	if len(list) != 1 || !list[0].Current {
		return fmt.Errorf("want only the session the list was asked for with, marked current: %v", list)
	}
	return nil
}

// otherUserEndsSession has the other user end the new user's first session.
func (s *scenario) otherUserEndsSession(ctx context.Context) error {
	token, err := s.token("first")
	if err != nil {
		return err
	}
	id, err := s.sessionID(ctx, token)
	if err != nil {
		return err
	}
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	return s.sendAs(ctx, other, credentials{apiKey: other.apiKey}, http.MethodDelete, "/sessions/"+id, nil)
}

// endSessionByID has the new user end the session of an id as written.
func (s *scenario) endSessionByID(ctx context.Context, id string) error {
	return s.asThem(ctx, http.MethodDelete, "/sessions/"+id, nil)
}

// listMySessions lists the sessions of the scenario's credentials.
func (s *scenario) listMySessions(ctx context.Context) error {
	return s.sendAs(ctx, s.me, s.creds, http.MethodGet, "/sessions", nil)
}

// endMyOtherSessions asks, without a user's credentials, to end the
// other sessions.
func (s *scenario) endMyOtherSessions(ctx context.Context) error {
	return s.asMeHarmlessly(ctx, http.MethodDelete, "/sessions", nil)
}

// logMeOut asks, without a user's credentials, to log out.
func (s *scenario) logMeOut(ctx context.Context) error {
	return s.asMeHarmlessly(ctx, http.MethodPost, "/auth/logout", nil)
}

// changePassword has the new user change their password, with their
// first session; newPassword is theirs from then on if it is accepted.
func (s *scenario) changePassword(ctx context.Context, current, next string) error {
	token, err := s.token("first")
	if err != nil {
		return err
	}
	s.identity.newPassword = next
	return s.sendAs(ctx, s.identity.user, credentials{bearer: token}, http.MethodPost, "/auth/change-password",
		map[string]string{"password": current, "newPassword": next})
}

// changePasswordToNew has the new user change their password to a new one.
func (s *scenario) changePasswordToNew(ctx context.Context) error {
	return s.changePassword(ctx, s.identity.oldPassword, "mediaspec-"+randomHex(12))
}

// changePasswordWrongCurrent has the new user change their password,
// giving a wrong current one.
func (s *scenario) changePasswordWrongCurrent(ctx context.Context) error {
	return s.changePassword(ctx, "not-"+s.identity.oldPassword, "mediaspec-"+randomHex(12))
}

// changePasswordTo has the new user change their password to one given.
func (s *scenario) changePasswordTo(ctx context.Context, next string) error {
	return s.changePassword(ctx, s.identity.oldPassword, next)
}

// answeredWithOwnAccount judges an answer that is the new user's account.
func (s *scenario) answeredWithOwnAccount() error {
	var me accountSeen
	if err := s.decodeLast(http.StatusOK, &me); err != nil {
		return err
	}
	if me.ID != s.identity.user.id || me.Email != s.identity.user.email {
		return fmt.Errorf("want the account of %s (%s): %s", s.identity.user.id, s.identity.user.email, s.last)
	}
	return nil
}

// loginAs logs in with an email and password, and says how the server
// answered.
func (s *scenario) loginAs(ctx context.Context, email, password string) (*response, error) {
	ar := apiRequest{method: http.MethodPost, path: "/auth/login", contentType: "application/json"}
	ar.body, _ = json.Marshal(map[string]string{"email": email, "password": password})
	return s.cfg.send(ctx, ar)
}

// loginAnswer logs in as the new user with a password, and says how the
// server answered.
func (s *scenario) loginAnswer(ctx context.Context, password string) (*response, error) {
	return s.loginAs(ctx, s.identity.user.email, password)
}

// logInWithNewPasswordOnly judges that the new password logs in and the
// old one no longer does.
func (s *scenario) logInWithNewPasswordOnly(ctx context.Context) error {
	if _, err := s.theNewUser(); err != nil {
		return err
	}
	resp, err := s.loginAnswer(ctx, s.identity.newPassword)
	if err := judgeNow(resp, err, http.StatusCreated); err != nil {
		return fmt.Errorf("the new password does not log in: %w", err)
	}
	resp, err = s.loginAnswer(ctx, s.identity.oldPassword)
	if err := refusedNow(resp, err, http.StatusUnauthorized, "Incorrect email or password"); err != nil {
		return fmt.Errorf("the old password still logs in: %w", err)
	}
	return nil
}

// stillLogInWithPassword judges that the new user's password, unchanged,
// still logs in.
func (s *scenario) stillLogInWithPassword(ctx context.Context) error {
	if _, err := s.theNewUser(); err != nil {
		return err
	}
	resp, err := s.loginAnswer(ctx, s.identity.oldPassword)
	if err := judgeNow(resp, err, http.StatusCreated); err != nil {
		return fmt.Errorf("the password no longer logs in: %w", err)
	}
	return nil
}

// apiKeyStillGood judges that the new user's API key still works.
func (s *scenario) apiKeyStillGood(ctx context.Context) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	return s.goodFor(ctx, credentials{apiKey: u.apiKey}, "their API key")
}

// signUpFirstAdmin asks to sign up as the server's first admin, once the
// admin's credentials have shown that the server has an admin: the
// harness never makes a server's first admin. Should a server make a
// second one all the same, the harness tries to delete it (a server
// refuses to delete an admin: it is then named as left on the target).
func (s *scenario) signUpFirstAdmin(ctx context.Context) error {
	admin, err := s.admin(ctx)
	if err != nil {
		return err
	}
	me, err := s.accountOf(ctx, admin)
	if err != nil {
		return err
	}
	if !me.IsAdmin {
		return fmt.Errorf("the admin's credentials are not an admin's: the harness asks for no sign-up on a server whose admin it does not know")
	}
	s.identity.signUp = "mediaspec-" + randomHex(6) + "@example.com"
	in := map[string]string{"email": s.identity.signUp, "password": "mediaspec-" + randomHex(12), "name": "Conformance admin"}
	err = s.sendAs(ctx, nil, credentials{}, http.MethodPost, "/auth/admin-sign-up", in)
	if s.last != nil && s.last.status == http.StatusCreated {
		var made struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(s.last.body, &made) == nil && made.ID != "" {
			s.later("the admin a sign-up made", s.removing(admin, http.MethodDelete, "/admin/users/"+made.ID, map[string]any{"force": true}))
		}
	}
	return err
}

// noUserOfSignUpEmail judges that no user, deleted ones included, has the
// email someone signed up with.
func (s *scenario) noUserOfSignUpEmail(ctx context.Context) error {
	if s.identity.signUp == "" {
		return fmt.Errorf("no one signed up earlier in the scenario")
	}
	admin, err := s.admin(ctx)
	if err != nil {
		return err
	}
	var users []accountSeen
	if err := s.call(ctx, "listing every user", http.MethodGet, "/admin/users?withDeleted=true", admin, nil, &users, http.StatusOK); err != nil {
		return err
	}
	for _, u := range users {
		if strings.EqualFold(u.Email, s.identity.signUp) {
			return fmt.Errorf("the server has a user of the email signed up with: %s (admin: %t)", u.ID, u.IsAdmin)
		}
	}
	return nil
}
