package mockserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

func TestWithImportedLibrary(t *testing.T) {
	d := model.Dataset{Users: []model.UserRecord{{User: model.User{ID: "u1"}}}}
	now := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	got, err := WithImportedLibrary(d, []string{"/srv/photos", "/srv/more"}, now)
	require.NoError(t, err)
	require.Len(t, got.Libraries, 1)
	l := got.Libraries[0]
	assert.Equal(t, "u1", l.OwnerID)
	assert.Equal(t, "photos", l.Name)
	assert.Equal(t, []string{"/srv/photos", "/srv/more"}, l.ImportPaths)
	assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, l.ID)
	again, err := WithImportedLibrary(got, []string{"/srv/photos", "/srv/more"}, now)
	require.NoError(t, err)
	assert.Len(t, again.Libraries, 1, "the same folders: the same library, once")
	_, err = WithImportedLibrary(model.Dataset{}, []string{"/srv"}, now)
	assert.Error(t, err, "no user to own it")
}
