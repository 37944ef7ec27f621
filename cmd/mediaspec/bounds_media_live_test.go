package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The bursts of issue 32 against `mediaspec serve`, built (bounds_test.go):
// profile images by the dozen, and live-event connections without
// credentials by the thousand.

// idlePacks is how many pack files the media folder keeps open when no
// one uses them (media.MaxIdlePacks, in mockserver/internal/media).
const idlePacks = 4

// openPacks is how many of process pid's descriptors are pack files of
// its media folder.
func openPacks(pid int) int {
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); err == nil && strings.Contains(target, "/packs/") {
			n++
		}
	}
	return n
}

// zeros reads as zeros, without end.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// postProfileImage sends a profile image of size bytes, streamed, as the
// default user, and is the status (0: no answer).
func postProfileImage(ctx context.Context, client *http.Client, base string, size int) int {
	const boundary = "profile-image-boundary"
	head := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
	tail := "\r\n--" + boundary + "--\r\n"
	body := io.MultiReader(strings.NewReader(head), io.LimitReader(zeros{}, int64(size)), strings.NewReader(tail))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/users/profile-image", body)
	if err != nil {
		return -1
	}
	req.ContentLength = int64(len(head) + size + len(tail))
	req.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
	req.Header.Set("x-api-key", "mediaspec-dev-key")
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// TestBurstOfProfileImagesStaysSmall: 60 profile images of 16 MiB at once
// are written to the media folder as they arrive: the process stays
// under 256 MiB (such a burst once took it to 1.6 GB), and once they are
// kept its descriptors are back where they were, but for the few idle
// pack files.
func TestBurstOfProfileImagesStaysSmall(t *testing.T) {
	base, pid := serveBuilt(t)
	before := openFiles(t, pid) - openPacks(pid)
	client := &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{DisableKeepAlives: true}}
	statuses := make([]int, 60)
	burst(len(statuses), func(i int) { statuses[i] = postProfileImage(t.Context(), client, base, 16<<20) })
	for i, status := range statuses {
		assert.Equal(t, http.StatusCreated, status, "image %d", i)
	}
	requirePeakUnder(t, pid, 256<<20, "60 profile images of 16 MiB")
	assert.Eventually(t, func() bool { return openFiles(t, pid)-openPacks(pid) == before }, 5*time.Second, 20*time.Millisecond,
		"descriptors back at %d beside the packs", before)
	assert.LessOrEqual(t, openPacks(pid), idlePacks, "the writers' packs are closed")
}

// TestProfileImagesKeepToTheUploadFilesBound: with --max-upload-files 8,
// 200 profile images of 4 MiB at once never have more than 8 pack files
// open (such a burst once left 82 open); those over it are answered 503.
func TestProfileImagesKeepToTheUploadFilesBound(t *testing.T) {
	base, pid := serveBuilt(t, "--max-upload-files", "8")
	var peak atomic.Int64
	stop := make(chan struct{})
	var watching sync.WaitGroup
	watching.Go(func() {
		for {
			peak.Store(max(peak.Load(), int64(openPacks(pid))))
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	})
	client := &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{DisableKeepAlives: true}}
	statuses := make([]int, 200)
	burst(len(statuses), func(i int) { statuses[i] = postProfileImage(t.Context(), client, base, 4<<20) })
	close(stop)
	watching.Wait()
	kept := 0
	for i, status := range statuses {
		if status == http.StatusCreated {
			kept++
		} else if status != 0 { // refused before its body was read, the client may find the connection closed
			assert.Equal(t, http.StatusServiceUnavailable, status, "image %d", i)
		}
	}
	t.Logf("%d of %d kept; at most %d pack files open at once", kept, len(statuses), peak.Load())
	assert.Positive(t, kept)
	assert.LessOrEqual(t, peak.Load(), int64(8), "pack files open at once")
	assert.LessOrEqual(t, openPacks(pid), idlePacks, "the writers' packs are closed")
}

// liveHandshake opens a websocket at the socket.io endpoint of the server
// at addr, with the API key ("" for none), and is the status of its
// answer: 101 with the connection, else the connection closed.
func liveHandshake(ctx context.Context, addr, key string) (net.Conn, *bufio.Reader, int, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, nil, 0, err
	}
	var nonce [16]byte
	_, _ = rand.Read(nonce[:])
	req := "GET /api/socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: " + addr +
		"\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " +
		base64.StdEncoding.EncodeToString(nonce[:]) + "\r\n"
	if key != "" {
		req += "x-api-key: " + key + "\r\n"
	}
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(c, req+"\r\n"); err != nil {
		c.Close()
		return nil, nil, 0, err
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		c.Close()
		return nil, nil, 0, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		_, _ = io.Copy(io.Discard, resp.Body)
		c.Close()
		return nil, nil, resp.StatusCode, nil
	}
	return c, br, resp.StatusCode, nil
}

// readFrame is the payload of the server's next websocket frame (text,
// unmasked, under 64 KiB, as the engine's are).
func readFrame(br *bufio.Reader) ([]byte, error) {
	var h [4]byte
	if _, err := io.ReadFull(br, h[:2]); err != nil {
		return nil, err
	}
	n := int(h[1] & 0x7f)
	if n == 126 {
		if _, err := io.ReadFull(br, h[2:4]); err != nil {
			return nil, err
		}
		n = int(h[2])<<8 | int(h[3])
	}
	b := make([]byte, n)
	_, err := io.ReadFull(br, b)
	return b, err
}

// writeText sends a short text frame, masked as a client's are.
func writeText(c net.Conn, s string) error {
	f := []byte{0x81, 0x80 | byte(len(s)), 1, 2, 3, 4}
	for i := range len(s) {
		f = append(f, s[i]^f[2+i%4])
	}
	_, err := c.Write(f)
	return err
}

// TestUserGetsInDuringAnonymousLiveFlood: while 2,000 clients without
// credentials keep opening live-event connections (each reopened as soon
// as it ends or is refused), the default user connects each time: it
// waits for no place of theirs, only its turn for the CPU (half a second,
// on two cores shared with the flood). Such a flood once refused every
// one of the user's tries.
func TestUserGetsInDuringAnonymousLiveFlood(t *testing.T) {
	base, _ := serveBuilt(t)
	u, err := url.Parse(base)
	require.NoError(t, err)
	addr := u.Host
	ctx, cancel := context.WithCancel(t.Context())
	var flood sync.WaitGroup
	defer flood.Wait()
	defer cancel()
	var opened, refused atomic.Int64
	for range 2000 {
		flood.Go(func() {
			for ctx.Err() == nil {
				c, br, status, err := liveHandshake(ctx, addr, "")
				switch {
				case err != nil:
					time.Sleep(10 * time.Millisecond)
					continue
				case status != http.StatusSwitchingProtocols:
					refused.Add(1)
					continue
				}
				opened.Add(1)
				stop := context.AfterFunc(ctx, func() { c.Close() })
				for { // held, never connecting, until the server ends it
					if _, err := readFrame(br); err != nil {
						break
					}
				}
				stop()
				c.Close()
			}
		})
	}
	time.Sleep(500 * time.Millisecond) // the flood under way
	for try := range 5 {
		start := time.Now()
		c, br, status, err := liveHandshake(t.Context(), addr, "mediaspec-dev-key")
		require.NoError(t, err, "try %d", try)
		require.Equal(t, http.StatusSwitchingProtocols, status, "try %d: the user's handshake", try)
		open, err := readFrame(br)
		require.NoError(t, err)
		require.True(t, bytes.HasPrefix(open, []byte("0{")), "the open packet: %s", open)
		require.NoError(t, writeText(c, "40"))
		for {
			f, err := readFrame(br)
			require.NoError(t, err, "try %d: the connect answer", try)
			if bytes.HasPrefix(f, []byte("40{")) {
				break
			}
		}
		took := time.Since(start)
		c.Close()
		t.Logf("try %d: connected in %v (so far %d anonymous opened, %d refused)", try, took.Round(time.Millisecond), opened.Load(), refused.Load())
		assert.Less(t, took, 5*time.Second, "try %d", try)
		time.Sleep(200 * time.Millisecond)
	}
	assert.Positive(t, refused.Load(), "the flood passed the bound of connections without credentials")
}
