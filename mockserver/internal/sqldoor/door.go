// Package sqldoor is a door to the mock's state for callers that arrange
// it as they would a real server's database: a listener speaking the
// Postgres frontend/backend protocol (version 3.0, the simple and the
// extended query) that takes a small subset of SQL (DELETE, UPDATE and
// INSERT of named tables, with literals and $n parameters) and hands each
// statement to an Executor. The upstream's API test suite empties tables
// and writes faces and people's thumbnails this way between its calls of
// the API; with this door it runs against the mock unchanged.
//
// It is a door, not a database: no SELECT, no transactions beyond one
// query, no rows answered. Every connection is bounded (its messages, its
// prepared statements, its deadlines) and so is the number of connections.
package sqldoor

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"log/slog"
	"net"
	"sync"
	"time"
)

// Executor carries out statements on the mock's state.
type Executor interface {
	// Exec carries out the statements of one query in order, all bound,
	// and answers each one's command tag ("DELETE 3", "INSERT 0 1"). An
	// error (an *Error, where it is Postgres's to say) stops the query; the
	// tags of the statements done before it are answered first.
	Exec(stmts []Statement) (tags []string, err error)
}

// Config is a door's bounds and credentials.
type Config struct {
	// Password is what a client must prove it knows (MD5 authentication,
	// as Postgres's md5 method); any user name is taken.
	Password string
	// MaxConnections is how many clients may be connected at once; one
	// more is refused at once (default 32: the upstream's e2e suite
	// leaves the connection of each spec file open until it ends, 22 of
	// them in a whole run).
	MaxConnections int
	// IdleTimeout is how long a connection may wait for its next message
	// (default 15 minutes: a test suite holds its one connection between
	// files).
	IdleTimeout time.Duration
	// Logger, when set, tells of each query carried out (what it did, or
	// why not) and of refused connections.
	Logger *slog.Logger
}

// Bounds of a connection.
const (
	// MaxMessage is the largest message a client may send (a query with
	// its parameters; a face's embedding of 512 numbers is about 10 KiB).
	MaxMessage = 64 << 10
	// maxStartup is the largest startup message, as Postgres's.
	maxStartup = 10000
	// maxPrepared is how many named statements, and how many portals, a
	// connection may hold.
	maxPrepared = 64
	// maxHeld bounds the bytes of the queries and parameters of the
	// statements and portals a connection holds: what they are read into
	// takes a multiple of that (a value written in two bytes is 32 once
	// read), so a connection holds a few hundred KiB at most, whatever it
	// sends. A face's statement and parameters take about 10 KiB.
	maxHeld = 16 << 10
	// startupTimeout is how long a client has to start and authenticate.
	startupTimeout = 10 * time.Second
	// writeTimeout is how long an answer may take to be taken.
	writeTimeout = 30 * time.Second
)

// Serve answers the clients of ln until ctx ends or ln is closed, then
// closes their connections and returns once they are gone.
func Serve(ctx context.Context, ln net.Listener, ex Executor, cfg Config) error {
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = 32
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 15 * time.Minute
	}
	slots := make(chan struct{}, cfg.MaxConnections)
	var (
		mu    sync.Mutex
		conns = map[net.Conn]bool{}
		wg    sync.WaitGroup
	)
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	defer func() {
		mu.Lock()
		for c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
	}()
	for {
		nc, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			return err
		}
		select {
		case slots <- struct{}{}:
		default:
			refuse(nc, cfg.Logger)
			continue
		}
		mu.Lock()
		conns[nc] = true
		mu.Unlock()
		wg.Go(func() {
			defer func() {
				mu.Lock()
				delete(conns, nc)
				mu.Unlock()
				_ = nc.Close()
				<-slots
			}()
			c := newConn(nc, ex, cfg)
			c.serve()
		})
	}
}

// refuse answers a client past the bound of connections as Postgres does,
// without reading what it sent.
func refuse(nc net.Conn, log *slog.Logger) {
	defer nc.Close()
	if log != nil {
		log.Warn("sql door: a connection past the bound is refused", "remote", nc.RemoteAddr().String())
	}
	_ = nc.SetDeadline(time.Now().Add(time.Second))
	w := newWriter(nc)
	w.error("FATAL", Errorf(CodeTooMany, "sorry, too many clients already"))
	_ = w.flush()
}

// md5Password is what a client sends for password under Postgres's md5
// method: "md5" and md5(md5(password user) salt) in hex.
func md5Password(user, password string, salt [4]byte) string {
	inner := md5.Sum([]byte(password + user))
	h := hex.EncodeToString(inner[:])
	outer := md5.Sum(append([]byte(h), salt[:]...))
	return "md5" + hex.EncodeToString(outer[:])
}

// newSalt is a fresh salt for a challenge.
func newSalt() [4]byte {
	var s [4]byte
	_, _ = rand.Read(s[:])
	return s
}

// samePassword compares what a client sent with what it should have, in
// time that does not tell how much of it was right.
func samePassword(got, want string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
