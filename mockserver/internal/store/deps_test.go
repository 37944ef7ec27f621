package store

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStoreSpeaksNoHTTP: the store speaks the domain; the HTTP layer
// answers for it. Nothing it imports, however deep, is net/http or
// encoding/json.
func TestStoreSpeaksNoHTTP(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the package's imports with")
	}
	out, err := exec.CommandContext(t.Context(), goCmd, "list", "-deps", ".").Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/mediaspec/mediaspec/mockserver/model", "the list is the store's")
	for _, forbidden := range []string{"net/http", "encoding/json"} {
		assert.NotContains(t, deps, forbidden)
	}
}
