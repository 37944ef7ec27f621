package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests below send the bursts that once took the mock's memory to
// `mediaspec serve` with its defaults, built as its users build it: the
// race detector's shadow memory (the test binary's) would hide the
// process's own. Each reads the process's peak resident memory from the
// kernel (VmHWM in /proc/PID/status) after the burst, and its open
// descriptors where a burst opens files.

// built is mediaspec built once for the tests of this package, into a
// folder removed when they end.
var built struct {
	once      sync.Once
	dir, path string
	err       error
}

// builtMediaspec is the path of mediaspec built without the race detector
// and without cgo, as `make build` and the release build it.
func builtMediaspec(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skipf("this machine does not tell a process's memory (%v), which the test reads", err)
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		t.Skipf("no go command at %s to build mediaspec with (%v)", gobin, err)
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "mediaspec-bounds-"); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "mediaspec")
		cmd := exec.Command(gobin, "build", "-o", built.path, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	require.NoError(t, built.err)
	return built.path
}

// removeBuilt removes what builtMediaspec built, once the tests are done.
func removeBuilt() {
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
}

// serveBuilt starts the built mediaspec's serve with args, and returns its
// base URL and process id.
func serveBuilt(t *testing.T, args ...string) (string, int) {
	t.Helper()
	bin := builtMediaspec(t)
	return startServeCmd(t, exec.Command(bin, append([]string{"serve", "--quiet", "--addr", "127.0.0.1:0"}, args...)...))
}

// statusBytes is a memory line of /proc/PID/status (VmHWM, VmRSS), in bytes.
func statusBytes(t *testing.T, pid int, field string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Fatalf("no %s in the status of process %d", field, pid)
	return 0
}

// openFiles is how many descriptors process pid holds open.
func openFiles(t *testing.T, pid int) int {
	t.Helper()
	entries, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	require.NoError(t, err)
	return len(entries)
}

// requirePeakUnder fails the test if the process's peak resident memory
// so far passed limit.
func requirePeakUnder(t *testing.T, pid int, limit int64, what string) {
	t.Helper()
	peak := statusBytes(t, pid, "VmHWM")
	t.Logf("%s: peak resident memory %.1f MiB (bound %d MiB)", what, float64(peak)/(1<<20), limit>>20)
	require.Less(t, peak, limit, "%s: the process's peak resident memory", what)
}

// burst runs n copies of send at once and waits for them.
func burst(n int, send func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { send(i) })
	}
	wg.Wait()
}

// postBody posts body to url as JSON, with its length or (chunked)
// without, and says the status, or 0 where the server closed the
// connection before the client had sent it all (a refusal by length).
func postBody(ctx context.Context, client *http.Client, url string, body []byte, withLength bool) int {
	var r io.Reader = bytes.NewReader(body)
	if !withLength {
		r = io.MultiReader(r) // hides the length: the body goes chunked
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, r)
	if err != nil {
		return -1
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// TestBurstsOfAnonymousBodiesStaySmall: the operations anyone may call
// with a JSON body (a login, the first admin's sign-up, the control API's
// new user) each get 16 bodies of 8 MiB of empty objects at once, with
// their length and chunked, twice over: every one is refused with 413,
// and the process stays under 256 MiB. Such a burst once took it to
// 4.5 GB.
func TestBurstsOfAnonymousBodiesStaySmall(t *testing.T) {
	base, pid := serveBuilt(t)
	root := strings.TrimSuffix(base, "/api")
	body := []byte(`{"email":[` + strings.TrimSuffix(strings.Repeat(`{},`, (8<<20)/3-8), ",") + `]}`)
	client := &http.Client{Timeout: 60 * time.Second}
	targets := []string{base + "/auth/login", base + "/auth/admin-sign-up", root + "/__mock/users"}
	for round := range 2 {
		statuses := make([]int, 16*2*len(targets))
		burst(len(statuses), func(i int) {
			target := targets[i%len(targets)]
			statuses[i] = postBody(t.Context(), client, target, body, i/len(targets)%2 == 0)
		})
		for i, status := range statuses {
			if status != 0 { // a body refused by its length may find the connection closed before it is sent
				assert.Equal(t, http.StatusRequestEntityTooLarge, status, "round %d, request %d (%s)", round, i, targets[i%len(targets)])
			}
		}
		requirePeakUnder(t, pid, 256<<20, fmt.Sprintf("round %d of %d bodies of 8 MiB", round+1, len(statuses)))
	}
}

// TestStalledUploadsHoldOnlyTheirRoom: a thousand uploads that each send
// their fields and a 1 MiB sidecar, then stall, keep no more of what they
// sent than --request-memory gives them room for (the rest are answered
// 503): the process stays under 192 MiB with 16 MiB of room. Such a crowd
// once took it past 1.3 GB, and a crowd of uploads sending a hundred text
// fields of 64 KiB each could take 6 GB.
func TestStalledUploadsHoldOnlyTheirRoom(t *testing.T) {
	base, pid := serveBuilt(t, "--request-memory", "16MiB")
	host := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/api")
	var body bytes.Buffer
	for _, f := range [][2]string{{"deviceAssetId", "a"}, {"deviceId", "d"}, {"fileCreatedAt", "2024-05-30T10:00:00Z"}, {"fileModifiedAt", "2024-05-30T10:00:00Z"}} {
		fmt.Fprintf(&body, "--XyZ\r\nContent-Disposition: form-data; name=%q\r\n\r\n%s\r\n", f[0], f[1])
	}
	body.WriteString("--XyZ\r\nContent-Disposition: form-data; name=\"sidecarData\"; filename=\"x.xmp\"\r\n\r\n<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">")
	body.Write(bytes.Repeat([]byte(" "), 1<<20))
	head := fmt.Sprintf("POST /api/asset/upload HTTP/1.1\r\nHost: x\r\nx-api-key: %s\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: %d\r\n\r\n", defaultAPIKey, body.Len()+1<<20)
	conns := make([]net.Conn, 1000)
	burst(len(conns), func(i int) {
		c, err := net.Dial("tcp", host)
		if err != nil {
			return
		}
		conns[i] = c
		_ = c.SetWriteDeadline(time.Now().Add(30 * time.Second))
		_, _ = io.WriteString(c, head)
		_, _ = c.Write(body.Bytes())
	})
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close()
			}
		}
	}()
	port := portOf(t, host)
	waitForSockets(t, "the server to read what every upload sent", func(socks []tcpSocket) bool {
		for _, s := range socks {
			if s.local == port && s.state == tcpEstablished && s.rxQueue > 0 {
				return false
			}
		}
		return true
	})
	requirePeakUnder(t, pid, 192<<20, "1,000 stalled uploads of a 1 MiB sidecar")
}

// TestBurstOfResetsBuildsOneStateAtATime: the control API's reset, which
// anyone may ask for, builds the new state beside the current one; 16 at
// once of a large dataset (--links 5000) build them one after the other,
// and the process stays under 224 MiB (they once took it to 365 MiB, and
// the more the larger the dataset).
func TestBurstOfResetsBuildsOneStateAtATime(t *testing.T) {
	base, pid := serveBuilt(t, "--links", "5000")
	root := strings.TrimSuffix(base, "/api")
	client := &http.Client{Timeout: 2 * time.Minute}
	statuses := make([]int, 16)
	burst(len(statuses), func(i int) { statuses[i] = postBody(t.Context(), client, root+"/__mock/reset", []byte(`{}`), true) })
	for i, status := range statuses {
		assert.Equal(t, http.StatusOK, status, "reset %d", i)
	}
	requirePeakUnder(t, pid, 224<<20, "16 resets of a dataset of 5,000 links at once")
}

// TestACrowdHasTheListingMadeOnce: 32 requests at once for a listing of
// about 100 MiB that a write has just changed wait for the one that makes
// it anew and share it (16 are written at once, the rest answered 503):
// the process stays under 512 MiB. Each once made its own, and such a
// crowd took it to 5.3 GB.
func TestACrowdHasTheListingMadeOnce(t *testing.T) {
	base, pid := serveBuilt(t, "--links", "10000")
	client := &http.Client{Timeout: 2 * time.Minute}
	status, body := send(t, http.MethodPost, base+"/albums", defaultAPIKey, []byte(`{"albumName":"a write"}`), http.Header{"Content-Type": {"application/json"}})
	require.Equal(t, http.StatusCreated, status, "%s", body)
	var written atomic.Int32
	burst(32, func(int) {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, base+"/shared-links", nil)
		if !assert.NoError(t, err) {
			return
		}
		req.Header.Set("x-api-key", defaultAPIKey)
		resp, err := client.Do(req)
		if !assert.NoError(t, err) {
			return
		}
		defer resp.Body.Close()
		n, _ := io.Copy(io.Discard, resp.Body)
		if resp.StatusCode == http.StatusOK {
			written.Add(1)
			assert.Greater(t, n, int64(50<<20), "a listing of the large dataset")
		} else {
			assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
		}
	})
	assert.Positive(t, written.Load())
	requirePeakUnder(t, pid, 512<<20, fmt.Sprintf("32 requests at once for a listing just changed (%d written)", written.Load()))
}
