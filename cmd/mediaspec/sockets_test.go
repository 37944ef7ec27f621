package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The tests below wait for what the server has done with a connection by
// reading the kernel's own account of its sockets (/proc/net/tcp), polled
// with a deadline, rather than sleeping and hoping.

// tcpSocket is a line of /proc/net/tcp: a socket's ends, state, and the
// bytes (or, listening, the connections) waiting in its receive queue.
type tcpSocket struct {
	local, remote int // ports
	state         string
	rxQueue       int64
}

// tcpSockets reads the IPv4 TCP sockets of the machine, or says why not.
func tcpSockets() ([]tcpSocket, error) {
	f, err := os.Open("/proc/net/tcp")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []tcpSocket
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		port := func(addr string) int {
			_, hex, _ := strings.Cut(addr, ":")
			p, _ := strconv.ParseInt(hex, 16, 32)
			return int(p)
		}
		_, rx, _ := strings.Cut(fields[4], ":")
		q, _ := strconv.ParseInt(rx, 16, 64)
		out = append(out, tcpSocket{local: port(fields[1]), remote: port(fields[2]), state: fields[3], rxQueue: q})
	}
	return out, sc.Err()
}

// The states of tcpSocket.
const (
	tcpEstablished = "01"
	tcpListen      = "0A"
)

// waitForSockets polls the sockets until done says so, for up to 10 s; it
// skips the test where the machine does not tell (no /proc/net/tcp).
func waitForSockets(t testing.TB, what string, done func([]tcpSocket) bool) {
	t.Helper()
	if _, err := tcpSockets(); err != nil {
		t.Skipf("this machine does not tell its sockets (%v), which the test waits on", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		socks, err := tcpSockets()
		require.NoError(t, err)
		if done(socks) {
			return
		}
		require.True(t, time.Now().Before(deadline), "waited 10 s for %s", what)
		time.Sleep(5 * time.Millisecond)
	}
}

// waitAccepted waits until the server listening on port has accepted every
// connection made to it.
func waitAccepted(t testing.TB, port int) {
	waitForSockets(t, fmt.Sprintf("the server on port %d to accept its connections", port), func(socks []tcpSocket) bool {
		for _, s := range socks {
			if s.state == tcpListen && s.local == port {
				return s.rxQueue == 0
			}
		}
		return false
	})
}

// waitRead waits until the server on port has read everything the client
// connection c sent it.
func waitRead(t testing.TB, port int, c net.Conn) {
	client := c.LocalAddr().(*net.TCPAddr).Port
	waitForSockets(t, fmt.Sprintf("the server on port %d to read what port %d sent", port, client), func(socks []tcpSocket) bool {
		for _, s := range socks {
			if s.state == tcpEstablished && s.local == port && s.remote == client {
				return s.rxQueue == 0
			}
		}
		return false
	})
}

// portOf is the port of a URL's host, or of a host:port.
func portOf(t testing.TB, hostport string) int {
	t.Helper()
	hostport = strings.TrimPrefix(strings.TrimPrefix(hostport, "http://"), "https://")
	hostport, _, _ = strings.Cut(hostport, "/")
	_, p, err := net.SplitHostPort(hostport)
	require.NoError(t, err)
	n, err := strconv.Atoi(p)
	require.NoError(t, err)
	return n
}
