package sqldoor

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is an Executor that keeps what it was given; a statement of
// table "fail" is refused as a Postgres error, of "broken" with an error
// of Go's.
type recorder struct {
	mu   sync.Mutex
	seen []Statement
}

func (r *recorder) Exec(stmts []Statement) ([]string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var tags []string
	for _, st := range stmts {
		switch st.Table {
		case "fail":
			return tags, Errorf(CodeUndefinedTable, `relation "fail" does not exist`)
		case "broken":
			return tags, errors.New("disk on fire")
		}
		r.seen = append(r.seen, st)
		tags = append(tags, fmt.Sprintf("DELETE %d", len(r.seen)))
	}
	return tags, nil
}

func (r *recorder) statements() []Statement {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Statement(nil), r.seen...)
}

// openDoor serves a door on a free port until the test ends: its address.
func openDoor(t *testing.T, ex Executor, cfg Config) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, ex, cfg) }()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-done)
	})
	return ln.Addr().String()
}

// connect connects as user postgres. Asking for TLS first (sslmode=prefer)
// takes a second connection once refused, which a test of the bound of
// connections must not count.
func connect(t *testing.T, addr, password string) (*pgconn.PgConn, error) {
	t.Helper()
	return connectMode(t, addr, password, "disable")
}

func connectMode(t *testing.T, addr, password, sslmode string) (*pgconn.PgConn, error) {
	t.Helper()
	c, err := pgconn.Connect(t.Context(), fmt.Sprintf("postgres://postgres:%s@%s/immich?sslmode=%s", password, addr, sslmode))
	if err == nil {
		t.Cleanup(func() { _ = c.Close(context.Background()) })
	}
	return c, err
}

func pgCode(t *testing.T, err error) string {
	t.Helper()
	var pe *pgconn.PgError
	require.True(t, errors.As(err, &pe), "%v", err)
	return pe.Code
}

// TestDoorSpeaksToAPostgresClient: pgx, a client written against real
// Postgres servers, connects (asking for TLS first, refused), proves the
// password by MD5, runs a multi-statement simple query and a prepared one
// with parameters, and gets each statement's tag and the errors as
// Postgres's.
func TestDoorSpeaksToAPostgresClient(t *testing.T) {
	rec := &recorder{}
	addr := openDoor(t, rec, Config{Password: "secret"})
	c, err := connectMode(t, addr, "secret", "prefer")
	require.NoError(t, err)
	assert.Equal(t, "UTF8", c.ParameterStatus("client_encoding"))

	results, err := c.Exec(t.Context(), `DELETE FROM activity CASCADE; DELETE FROM "system_metadata" where "key" != 'x';`).ReadAll()
	require.NoError(t, err)
	require.Len(t, results, 2)
	assert.Equal(t, "DELETE 1", results[0].CommandTag.String())
	assert.Equal(t, "DELETE 2", results[1].CommandTag.String())

	res := c.ExecParams(t.Context(), `UPDATE "person" set "thumbnailPath" = '/t.jpg' where "id" = $1`, [][]byte{[]byte("a-person")}, nil, nil, nil).Read()
	require.NoError(t, res.Err)
	assert.Equal(t, "DELETE 3", res.CommandTag.String())
	seen := rec.statements()
	require.Len(t, seen, 3)
	assert.Equal(t, []Condition{{"id", "=", Value{Text: "a-person"}}}, seen[2].Where)

	sd, err := c.Prepare(t.Context(), "face", `INSERT INTO asset_faces ("assetId", "personId") VALUES ($1, $2)`, nil)
	require.NoError(t, err)
	assert.Len(t, sd.ParamOIDs, 2)
	res = c.ExecPrepared(t.Context(), "face", [][]byte{[]byte("x"), nil}, nil, nil).Read()
	require.NoError(t, res.Err)
	assert.Equal(t, [][]Value{{{Text: "x"}, {Null: true}}}, rec.statements()[3].Rows)

	_, err = c.Exec(t.Context(), "DELETE FROM fail").ReadAll()
	assert.Equal(t, CodeUndefinedTable, pgCode(t, err))
	res = c.ExecParams(t.Context(), "DELETE FROM fail WHERE a = $1", [][]byte{[]byte("1")}, nil, nil, nil).Read()
	assert.Equal(t, CodeUndefinedTable, pgCode(t, res.Err))
	_, err = c.Exec(t.Context(), "DELETE FROM broken").ReadAll()
	assert.Equal(t, CodeInternal, pgCode(t, err))
	assert.Contains(t, err.Error(), "the mock could not carry out the statement: disk on fire")
	_, err = c.Exec(t.Context(), "SELECT 1").ReadAll()
	assert.Equal(t, CodeNotSupported, pgCode(t, err))
	_, err = c.Exec(t.Context(), "DELETE FROM t WHERE a = $1").ReadAll()
	assert.Equal(t, CodeSyntax, pgCode(t, err), "a simple query has no parameters")
	res = c.ExecParams(t.Context(), "DELETE FROM a; DELETE FROM b", nil, nil, nil, nil).Read()
	assert.Equal(t, CodeSyntax, pgCode(t, res.Err))
	res = c.ExecParams(t.Context(), "DELETE FROM t WHERE a = $1", [][]byte{{0, 0, 0, 1}}, nil, []int16{1}, nil).Read()
	assert.Equal(t, CodeNotSupported, pgCode(t, res.Err), "binary parameters")

	// After every error the connection is ready again.
	results, err = c.Exec(t.Context(), "  ; ").ReadAll()
	require.NoError(t, err)
	assert.Len(t, results, 1)
	assert.Len(t, rec.statements(), 4)
}

// TestDoorRefusesWrongPasswords: a wrong password, or none, ends the
// connection with Postgres's invalid_password.
func TestDoorRefusesWrongPasswords(t *testing.T) {
	addr := openDoor(t, &recorder{}, Config{Password: "secret"})
	_, err := connect(t, addr, "guess")
	require.Error(t, err)
	assert.Equal(t, CodePassword, pgCode(t, err))
	assert.Contains(t, err.Error(), `password authentication failed for user "postgres"`)
}

// TestDoorBoundsItsClients: one client past MaxConnections is refused at
// once with too_many_connections; a message past MaxMessage ends its
// connection without being read; a client that never starts is cut off.
func TestDoorBoundsItsClients(t *testing.T) {
	rec := &recorder{}
	addr := openDoor(t, rec, Config{Password: "p", MaxConnections: 2})
	_, err := connect(t, addr, "p")
	require.NoError(t, err)
	c2, err := connect(t, addr, "p")
	require.NoError(t, err)
	_, err = connect(t, addr, "p")
	require.Error(t, err)
	assert.Equal(t, CodeTooMany, pgCode(t, err))

	// A message announcing more than MaxMessage bytes.
	nc := c2.Conn()
	var head [5]byte
	head[0] = 'Q'
	binary.BigEndian.PutUint32(head[1:], MaxMessage+5)
	_, err = nc.Write(head[:])
	require.NoError(t, err)
	answer, err := io.ReadAll(nc)
	require.NoError(t, err)
	assert.Contains(t, string(answer), fmt.Sprintf("a message may be at most %d bytes", MaxMessage))
	assert.Empty(t, rec.statements())

	// The slot is free again once that connection is gone.
	require.Eventually(t, func() bool {
		c, err := connect(t, addr, "p")
		if err == nil {
			_ = c.Close(t.Context())
		}
		return err == nil
	}, 5*time.Second, 20*time.Millisecond)
}

// TestDoorTakesAWholeSuitesConnections: the upstream's e2e suite leaves
// the connection of each of its 22 spec files open until its run ends;
// the default bound lets them all in.
func TestDoorTakesAWholeSuitesConnections(t *testing.T) {
	addr := openDoor(t, &recorder{}, Config{Password: "p"})
	for i := range 22 {
		_, err := connect(t, addr, "p")
		require.NoError(t, err, "connection %d", i+1)
	}
}

// TestDoorBoundsWhatAConnectionHolds: prepared statements are refused
// past maxPrepared of them or maxHeld bytes, and what is let go makes
// room again.
func TestDoorBoundsWhatAConnectionHolds(t *testing.T) {
	addr := openDoor(t, &recorder{}, Config{Password: "p"})
	c, err := connect(t, addr, "p")
	require.NoError(t, err)
	for i := range maxPrepared {
		_, err := c.Prepare(t.Context(), fmt.Sprint("s", i), "DELETE FROM t", nil)
		require.NoError(t, err)
	}
	_, err = c.Prepare(t.Context(), "one-more", "DELETE FROM t", nil)
	assert.Equal(t, CodeLimit, pgCode(t, err))
	for i := range maxPrepared {
		require.NoError(t, c.Deallocate(t.Context(), fmt.Sprint("s", i)))
	}

	// A statement of many values: each of its few bytes becomes a value.
	big := "INSERT INTO t (a, b, c, d) VALUES " + strings.Repeat("(1, 2, 3, 4),", 299) + "(1, 2, 3, 4)"
	n := 0
	for ; n < 2*maxHeld/len(big); n++ {
		if _, err = c.Prepare(t.Context(), fmt.Sprint("big", n), big, nil); err != nil {
			break
		}
	}
	assert.Equal(t, CodeLimit, pgCode(t, err))
	assert.Contains(t, err.Error(), fmt.Sprintf("a connection may hold at most %d KiB of prepared statements and portals", maxHeld>>10))
	assert.Equal(t, maxHeld/len(big), n, "as many as the bytes allow")
	require.NoError(t, c.Deallocate(t.Context(), "big0"))
	_, err = c.Prepare(t.Context(), "again", big, nil)
	assert.NoError(t, err, "room once one is let go")
}

// TestDoorAnswersBrokenStartups: startups that are not Postgres 3.0 are
// told so, in Postgres's words, and closed.
func TestDoorAnswersBrokenStartups(t *testing.T) {
	addr := openDoor(t, &recorder{}, Config{Password: "p"})
	for _, tc := range []struct {
		name  string
		bytes []byte
		want  string
	}{
		{"too long", []byte{0, 1, 0, 0, 0, 3, 0, 0}, "invalid length of startup packet"},
		{"protocol 2", []byte{0, 0, 0, 8, 0, 2, 0, 0}, "unsupported frontend protocol 2.0"},
		{"no terminator", append([]byte{0, 0, 0, 13, 0, 3, 0, 0}, "user\x00"...), "invalid startup packet layout"},
		{"no user", []byte{0, 0, 0, 9, 0, 3, 0, 0, 0}, "no PostgreSQL user name specified"},
	} {
		nc, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		_, err = nc.Write(tc.bytes)
		require.NoError(t, err)
		got, _ := io.ReadAll(nc)
		_ = nc.Close()
		assert.True(t, strings.Contains(string(got), tc.want), "%s: %q", tc.name, got)
	}
}

// FuzzDoorMessages: after a good startup, no run of bytes a client sends
// makes the door panic; it answers or closes.
func FuzzDoorMessages(f *testing.F) {
	f.Add([]byte("Q\x00\x00\x00\x15DELETE FROM a;\x00S\x00\x00\x00\x04"))
	f.Add([]byte("P\x00\x00\x00\x20\x00DELETE FROM a WHERE b = $1\x00\x00\x00B\x00\x00\x00\x12\x00\x00\x00\x00\x00\x01\x00\x00\x00\x01xE\x00\x00\x00\x09\x00\x00\x00\x00\x00S\x00\x00\x00\x04"))
	f.Add([]byte("D\x00\x00\x00\x06S\x00C\x00\x00\x00\x06P\x00H\x00\x00\x00\x04X\x00\x00\x00\x04"))
	f.Fuzz(func(t *testing.T, data []byte) {
		server, client := net.Pipe()
		c := newConn(server, &recorder{}, Config{Password: "p", IdleTimeout: time.Second})
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				typ, body, err := c.readMessage()
				if err != nil {
					c.fatal(err)
					break
				}
				if err := c.handle(typ, body); err != nil {
					c.fatal(err)
					break
				}
			}
			_ = server.Close()
		}()
		go func() { _, _ = io.Copy(io.Discard, client) }()
		_ = client.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = client.Write(data)
		_ = client.Close()
		<-done
	})
}
