package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeOpensTheSQLDoor: serve --sql-addr says where its SQL door
// listens, and what a Postgres client writes there reaches the mock's
// state: the upstream harness's reset leaves no user, so the default
// key is refused after it.
func TestServeOpensTheSQLDoor(t *testing.T) {
	cmd := command(context.Background(), "serve", "--quiet", "--addr", "127.0.0.1:0", "--sql-addr", "127.0.0.1:0", "--sql-password", "s3cret")
	base, _, line := startServeReading(t, cmd, "sql: ")
	dsn, _, _ := strings.Cut(line, " ")
	require.Regexp(t, `^postgres://postgres:s3cret@127\.0\.0\.1:\d+/immich$`, dsn)

	status, _ := send(t, http.MethodGet, base+"/users/me", "mediaspec-dev-key", nil, nil)
	require.Equal(t, http.StatusOK, status)
	c, err := pgconn.Connect(t.Context(), dsn+"?sslmode=disable")
	require.NoError(t, err)
	defer c.Close(context.Background())
	_, err = c.Exec(t.Context(), `DELETE FROM users CASCADE; DELETE FROM "system_metadata" where "key" != 'reverse-geocoding-state';`).ReadAll()
	require.NoError(t, err)
	status, _ = send(t, http.MethodGet, base+"/users/me", "mediaspec-dev-key", nil, nil)
	assert.Equal(t, http.StatusUnauthorized, status)
}

// TestServeRefusesABusySQLAddress: a --sql-addr already taken stops the
// start, saying which flag and address.
func TestServeRefusesABusySQLAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	err = run(t.Context(), []string{"serve", "--quiet", "--addr", "127.0.0.1:0", "--users", "0", "--links", "0", "--sql-addr", ln.Addr().String()}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--sql-addr: cannot listen on "+ln.Addr().String())
}
