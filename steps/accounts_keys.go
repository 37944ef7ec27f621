package steps

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// The API keys a user makes for their scripts: listed and read without
// their secrets, renamed, deleted; no one else's to read or change.

// makeKey makes the new user an API key of that name, and makes it "that
// key".
func (s *scenario) makeKey(ctx context.Context, name string) error {
	u, err := s.theNewUser()
	if err != nil {
		return err
	}
	var out struct {
		Secret string `json:"secret"`
		APIKey struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"apiKey"`
	}
	if err := s.call(ctx, "making an API key", http.MethodPost, "/api-keys", credentials{apiKey: u.apiKey}, map[string]string{"name": name}, &out, http.StatusCreated); err != nil {
		return err
	}
	if out.Secret == "" || out.APIKey.ID == "" || out.APIKey.Name != name {
		return fmt.Errorf("making an API key named %q: the answer has no secret, no id, or another name: %+v", name, out.APIKey)
	}
	s.identity.keys = append(s.identity.keys, keyMade{id: out.APIKey.ID, name: name, secret: out.Secret})
	return nil
}

// thatKey is the API key the scenario made last.
func (s *scenario) thatKey() (keyMade, error) {
	if len(s.identity.keys) == 0 {
		return keyMade{}, fmt.Errorf("no API key was made earlier in the scenario")
	}
	return s.identity.keys[len(s.identity.keys)-1], nil
}

// newUserWithAPIKey makes the new user, and an API key of theirs.
func (s *scenario) newUserWithAPIKey(ctx context.Context, name string) error {
	if _, err := s.makeNewUser(ctx); err != nil {
		return err
	}
	return s.makeKey(ctx, name)
}

// makeTwoAPIKeys makes the new user two API keys, one after the other.
func (s *scenario) makeTwoAPIKeys(ctx context.Context, first, second string) error {
	if err := s.makeKey(ctx, first); err != nil {
		return err
	}
	return s.makeKey(ctx, second)
}

// listTheirAPIKeys lists the new user's API keys.
func (s *scenario) listTheirAPIKeys(ctx context.Context) error {
	return s.asThem(ctx, http.MethodGet, "/api-keys", nil)
}

// keysListed reads the last answer as a list of keys, each with every
// field it has.
func (s *scenario) keysListed() ([]map[string]any, error) {
	var list []map[string]any
	if err := s.decodeLast(http.StatusOK, &list); err != nil {
		return nil, err
	}
	for _, k := range list {
		if _, ok := k["secret"]; ok {
			return nil, fmt.Errorf("a key is listed with its secret: %s", s.last)
		}
	}
	return list, nil
}

// seeKeysNewestFirst judges the list of the new user's keys: those the
// scenario made, the newest first, then the one the harness made them with.
func (s *scenario) seeKeysNewestFirst() error {
	list, err := s.keysListed()
	if err != nil {
		return err
	}
	made := s.identity.keys
	if len(list) != len(made)+1 {
		return fmt.Errorf("want the %d keys the user made and the one they had, got %d: %s", len(made), len(list), s.last)
	}
	for i, k := range made {
		at := len(made) - 1 - i
		if list[at]["id"] != k.id || list[at]["name"] != k.name {
			return fmt.Errorf("want the key %q at %d of the list, the newest first: %s", k.name, at, s.last)
		}
	}
	return nil
}

// readKeyNamed reads the new user's key of that name.
func (s *scenario) readKeyNamed(ctx context.Context, name string) error {
	for _, k := range s.identity.keys {
		if k.name == name {
			return s.asThem(ctx, http.MethodGet, "/api-keys/"+k.id, nil)
		}
	}
	return fmt.Errorf("no API key named %q was made earlier in the scenario", name)
}

// readKey reads that key of the new user's, or the key of an id as
// written.
func (s *scenario) readKey(ctx context.Context, id string) error {
	if id == "" {
		k, err := s.thatKey()
		if err != nil {
			return err
		}
		id = k.id
	}
	return s.asThem(ctx, http.MethodGet, "/api-keys/"+id, nil)
}

// shownKeyNamed judges an answer that is one key of the new user's: the
// one of that name, without its secret.
func (s *scenario) shownKeyNamed(name string) error {
	var k map[string]any
	if err := s.decodeLast(http.StatusOK, &k); err != nil {
		return err
	}
	if _, ok := k["secret"]; ok {
		return fmt.Errorf("the key is shown with its secret: %s", s.last)
	}
	for _, made := range s.identity.keys {
		if made.id == k["id"] {
			if k["name"] != name {
				return fmt.Errorf("the key is named %v, want %q: %s", k["name"], name, s.last)
			}
			return nil
		}
	}
	return fmt.Errorf("the answer shows the key %v named %v, which is not the key asked for (the user made %v): %s", k["id"], k["name"], s.identity.keys, s.last)
}

// renameKey renames that key of the new user's.
func (s *scenario) renameKey(ctx context.Context, name string) error {
	k, err := s.thatKey()
	if err != nil {
		return err
	}
	return s.asThem(ctx, http.MethodPut, "/api-keys/"+k.id, map[string]string{"name": name})
}

// keyNamedInList says what the new user's list of keys names that key.
func (s *scenario) keyNamedInList(ctx context.Context) (string, error) {
	k, err := s.thatKey()
	if err != nil {
		return "", err
	}
	var list []struct{ ID, Name string }
	if err := s.call(ctx, "listing the user's keys", http.MethodGet, "/api-keys", credentials{apiKey: s.identity.user.apiKey}, nil, &list, http.StatusOK); err != nil {
		return "", err
	}
	for _, l := range list {
		if l.ID == k.id {
			return l.Name, nil
		}
	}
	return "", fmt.Errorf("the user's list of keys does not hold the key %s", k.id)
}

// listNamesKey judges the name the new user's list gives that key.
func (s *scenario) listNamesKey(ctx context.Context, name string) error {
	got, err := s.keyNamedInList(ctx)
	if err != nil {
		return err
	}
	if got != name {
		return fmt.Errorf("the list names the key %q, want %q", got, name)
	}
	return nil
}

// keyStillGood judges that that key still works, under that name.
func (s *scenario) keyStillGood(ctx context.Context, name string) error {
	k, err := s.thatKey()
	if err != nil {
		return err
	}
	if err := s.goodFor(ctx, credentials{apiKey: k.secret}, "the key "+k.name); err != nil {
		return err
	}
	return s.listNamesKey(ctx, name)
}

// deleteKey deletes that key of the new user's.
func (s *scenario) deleteKey(ctx context.Context) error {
	k, err := s.thatKey()
	if err != nil {
		return err
	}
	return s.asThem(ctx, http.MethodDelete, "/api-keys/"+k.id, nil)
}

// keyRefused judges that that key no longer works.
func (s *scenario) keyRefused(ctx context.Context) error {
	k, err := s.thatKey()
	if err != nil {
		return err
	}
	return s.refusedAs(ctx, credentials{apiKey: k.secret}, "Invalid API key", "the deleted key")
}

// asOtherUser sends the request under test as the other user.
func (s *scenario) asOtherUser(ctx context.Context, method, path string, in any) error {
	other, err := s.otherUser(ctx)
	if err != nil {
		return err
	}
	return s.sendAs(ctx, other, credentials{apiKey: other.apiKey}, method, path, in)
}

// otherUserReadsOrDeletesKey has the other user read or delete that key
// of the new user's.
func (s *scenario) otherUserReadsOrDeletesKey(ctx context.Context, verb string) error {
	k, err := s.thatKey()
	if err != nil {
		return err
	}
	method := http.MethodGet
	if verb == "deletes" {
		method = http.MethodDelete
	}
	return s.asOtherUser(ctx, method, "/api-keys/"+k.id, nil)
}

// otherUserRenamesKey has the other user rename that key of the new user's.
func (s *scenario) otherUserRenamesKey(ctx context.Context, name string) error {
	k, err := s.thatKey()
	if err != nil {
		return err
	}
	return s.asOtherUser(ctx, http.MethodPut, "/api-keys/"+k.id, map[string]string{"name": name})
}

// listMyAPIKeys lists the API keys of the scenario's credentials.
func (s *scenario) listMyAPIKeys(ctx context.Context) error {
	return s.sendAs(ctx, s.me, s.creds, http.MethodGet, "/api-keys", nil)
}

// String describes the key in a failure's message, without its secret.
func (k keyMade) String() string {
	b, _ := json.Marshal(map[string]string{"id": k.id, "name": k.name})
	return string(b)
}
