package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// attack is one kind of hostile client the soak keeps running beside the
// normal load: conns connections, each sending what send writes and then
// holding on until the server closes it, then opening again.
type attack struct {
	name  string
	conns int
	// send writes the attacker's bytes; it returns once it has sent them
	// (or the connection broke).
	send func(c net.Conn, host string) error
	// drain reads the answer, if the attacker reads at all.
	drain bool
}

// attacks are those of issue-style hostile clients: bodies that never
// come, headers that never end, answers never read.
func attacks(scale int) []attack {
	return []attack{
		{name: "half-sent uploads", conns: 40 * scale, send: func(c net.Conn, host string) error {
			const boundary = "soakattack"
			head := fmt.Sprintf("POST /api/asset/upload HTTP/1.1\r\nHost: %s\r\nx-api-key: mediaspec-dev-key\r\nContent-Type: multipart/form-data; boundary=%s\r\nContent-Length: 1048576\r\n\r\n", host, boundary)
			body := fmt.Sprintf("--%s\r\nContent-Disposition: form-data; name=\"assetData\"; filename=\"stall.jpg\"\r\n\r\n%s", boundary, strings.Repeat("x", 8<<10))
			_, err := io.WriteString(c, head+body)
			return err
		}},
		{name: "unread bodies", conns: 20 * scale, drain: true, send: func(c net.Conn, host string) error {
			_, err := fmt.Fprintf(c, "GET /api/shared-links HTTP/1.1\r\nHost: %s\r\nx-api-key: wrong\r\nContent-Length: 1000\r\n\r\n", host)
			return err
		}},
		{name: "endless headers", conns: 20 * scale, send: func(c net.Conn, host string) error {
			_, err := fmt.Fprintf(c, "GET /api/shared-links HTTP/1.1\r\nHost: %s\r\nx-slow: ", host)
			return err
		}},
		{name: "unread datasets", conns: 2 * scale, send: func(c net.Conn, host string) error {
			_, err := fmt.Fprintf(c, "GET /__mock/dataset HTTP/1.1\r\nHost: %s\r\n\r\n", host)
			return err
		}},
		{name: "unread listings", conns: 2 * scale, send: func(c net.Conn, host string) error {
			_, err := fmt.Fprintf(c, "GET /api/shared-links HTTP/1.1\r\nHost: %s\r\nx-api-key: mediaspec-dev-key\r\n\r\n", host)
			return err
		}},
	}
}

// attackStats counts an attack's rounds: connections the server closed.
type attackStats struct {
	name            string
	rounds, refused atomic.Int64
}

// runAttacks runs every attack against addr until ctx ends, and returns
// their counts once all its connections are closed.
func runAttacks(ctx context.Context, addr string, as []attack) func() []*attackStats {
	var wg sync.WaitGroup
	stats := make([]*attackStats, len(as))
	for i, a := range as {
		st := &attackStats{name: a.name}
		stats[i] = st
		for range a.conns {
			wg.Go(func() {
				for ctx.Err() == nil {
					if !attackOnce(ctx, addr, a) {
						st.refused.Add(1)
						select {
						case <-ctx.Done():
						case <-time.After(200 * time.Millisecond):
						}
						continue
					}
					st.rounds.Add(1)
				}
			})
		}
	}
	return func() []*attackStats {
		wg.Wait()
		return stats
	}
}

// attackOnce opens a connection, sends the attack and holds the connection
// until the server closes it (or ctx ends); false if it could not connect.
func attackOnce(ctx context.Context, addr string, a attack) bool {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	defer c.Close()
	if err := a.send(c, addr); err != nil {
		return true
	}
	if a.drain {
		_, _ = io.Copy(io.Discard, c)
		return true
	}
	// Read nothing until the server gives up: a peek of one byte at a time
	// with a tiny window, so that the answer stays in the socket.
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4 << 10)
	}
	var one [1]byte
	if _, err := c.Read(one[:]); err != nil {
		return true
	}
	// The server answered something (a 408, the head of an answer): hold
	// on without reading further, as a client that stopped reading would,
	// for longer than any of the server's deadlines, then begin again.
	select {
	case <-ctx.Done():
	case <-time.After(attackHold):
	}
	return true
}

// attackHold is how long an attacker holds a connection the server has
// begun to answer: past the body (30 s) and write (10 s and more) deadlines.
const attackHold = 45 * time.Second
