package steps

import (
	"context"
	"fmt"
	"net/http"
)

// The count of a user's albums, as a new user makes, shares and deletes
// theirs: a user the harness was given has albums of their own, and other
// scenarios make more of them meanwhile.

// albumCountSteps are the steps of the count of albums.
func (s *scenario) albumCountSteps() []step {
	return []step{
		{`^I count my albums$`, s.countMyAlbums},
		{`^they make an album$`, s.theyMakeAlbum},
		{`^they share that album in a link$`, s.theyShareAlbum},
		{`^they delete that album$`, s.theyDeleteAlbum},
		{`^their albums count (\d+) owned, (\d+) shared and (\d+) not shared$`, s.theirAlbumsCount},
	}
}

// countMyAlbums counts my albums, with the scenario's credentials.
func (s *scenario) countMyAlbums(ctx context.Context) error {
	return s.sendJSON(ctx, http.MethodGet, "/albums/count", s.creds, nil)
}

// newcomer is the new user of the scenario.
func (s *scenario) newcomer() (*user, error) {
	if s.changes.them == nil {
		return nil, fmt.Errorf("no new user was made earlier in the scenario")
	}
	return s.changes.them, nil
}

// theyMakeAlbum makes an empty album of the new user.
func (s *scenario) theyMakeAlbum(ctx context.Context) error {
	u, err := s.newcomer()
	if err != nil {
		return err
	}
	return s.makeAlbumOf(ctx, u, nil)
}

// theyShareAlbum shares the new user's album in a link of theirs.
func (s *scenario) theyShareAlbum(ctx context.Context) error {
	u, err := s.newcomer()
	if err != nil {
		return err
	}
	return s.shareAlbumInLink(ctx, u)
}

// theyDeleteAlbum deletes the new user's album.
func (s *scenario) theyDeleteAlbum(ctx context.Context) error {
	u, err := s.newcomer()
	if err != nil {
		return err
	}
	path, err := s.albumPath("")
	if err != nil {
		return err
	}
	return s.call(ctx, "deleting the album", http.MethodDelete, path, credentials{apiKey: u.apiKey}, nil, nil, http.StatusOK)
}

// theirAlbumsCount judges the new user's count of albums.
func (s *scenario) theirAlbumsCount(ctx context.Context, owned, shared, notShared int) error {
	u, err := s.newcomer()
	if err != nil {
		return err
	}
	var n struct {
		Owned     *int `json:"owned"`
		Shared    *int `json:"shared"`
		NotShared *int `json:"notShared"`
	}
	if err := s.call(ctx, "counting their albums", http.MethodGet, "/albums/count", credentials{apiKey: u.apiKey}, nil, &n, http.StatusOK); err != nil {
		return err
	}
	if n.Owned == nil || n.Shared == nil || n.NotShared == nil || *n.Owned != owned || *n.Shared != shared || *n.NotShared != notShared {
		return fmt.Errorf("their albums count %s owned, %s shared and %s not shared; want %d, %d and %d",
			intOrNull(int64p(n.Owned)), intOrNull(int64p(n.Shared)), intOrNull(int64p(n.NotShared)), owned, shared, notShared)
	}
	return nil
}

func int64p(n *int) *int64 {
	if n == nil {
		return nil
	}
	v := int64(*n)
	return &v
}
