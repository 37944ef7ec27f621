// Command perf runs the load measurements that need servers of their own,
// for the Makefile:
//
//	perf compare   (make compare) loads Stoplight Prism and `mediaspec serve`
//	               alike, one after the other, and prints both and the ratios
//	perf soak      (make soak) runs mixed load on `mediaspec serve` and checks
//	               that its memory stays flat
//	perf floor     (make bench) measures `mediaspec serve` against a bare
//	               server (perf bare) that writes the mock's listing bytes
//	               and only hashes upload bodies, and its memory and scale
//
// Both start the servers they measure as child processes on free loopback
// ports and stop them when done, on an error, or on SIGINT/SIGTERM (each in
// a process group of its own, so a server's children go too; and with a
// parent-death signal, so they go even if perf itself is killed). The load
// is the load package, the same code as `mediaspec load`.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "perf:", err)
		os.Exit(1)
	}
}

const usage = `usage: perf compare|soak|floor [flags] (perf compare -h, perf soak -h, perf floor -h)`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "compare":
		return runCompare(ctx, args[1:], stdout, stderr)
	case "soak":
		return runSoak(ctx, args[1:], stdout, stderr)
	case "floor":
		return runFloor(ctx, args[1:], stdout, stderr)
	case "bare":
		return runBare(ctx, args[1:], stderr)
	}
	return fmt.Errorf("unknown command %q; %s", args[0], usage)
}

// process is a server started as a child process.
type process struct {
	name    string
	cmd     *exec.Cmd
	logPath string
	exited  chan struct{} // closed once the process has exited
	waitErr error
}

// startProcess starts argv with its output in logDir/name.log.
func startProcess(name, logDir string, argv ...string) (*process, error) {
	logPath := filepath.Join(logDir, name+".log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, logPath: logPath, exited: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		logFile.Close()
		close(p.exited)
	}()
	return p, nil
}

// pid returns the process's id.
func (p *process) pid() int { return p.cmd.Process.Pid }

// stop ends the process and its group: SIGTERM, then SIGKILL after 5 s.
func (p *process) stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = syscall.Kill(-p.pid(), syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-p.pid(), syscall.SIGKILL)
		<-p.exited
	}
}

// logTail returns the end of the process's output, for error messages.
func (p *process) logTail() string {
	b, err := os.ReadFile(p.logPath)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(len(lines)-10, 0):], "\n")
}

// waitReady waits until url gets an HTTP answer, whatever its status.
func (p *process) waitReady(ctx context.Context, url string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-p.exited:
			return fmt.Errorf("%s exited before answering (%v); its output ends:\n%s", p.name, p.waitErr, p.logTail())
		case <-ctx.Done():
			return fmt.Errorf("%s did not answer %s within %s: %w; its output ends:\n%s", p.name, url, timeout, ctx.Err(), p.logTail())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// freePort returns a loopback port that was free a moment ago.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// startMediaspec starts `bin serve --quiet` on a free loopback port and
// returns it with its base URL once it answers.
func startMediaspec(ctx context.Context, bin, logDir string, extra ...string) (*process, string, error) {
	return startServe(ctx, "mediaspec", bin, logDir, append([]string{"--quiet"}, extra...)...)
}

// startServe starts `bin serve args...` on a free loopback port, its output
// in logDir under name, and returns it with its base URL once it answers.
func startServe(ctx context.Context, name, bin, logDir string, args ...string) (*process, string, error) {
	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	p, err := startProcess(name, logDir, append([]string{bin, "serve", "--addr", addr}, args...)...)
	if err != nil {
		return nil, "", err
	}
	base := "http://" + addr + "/api"
	if err := p.waitReady(ctx, base+"/openapi.json", 30*time.Second); err != nil {
		p.stop()
		return nil, "", err
	}
	return p, base, nil
}

// loadAverage returns the machine's load average over the last minute, as
// /proc/loadavg gives it ("?" if it cannot be read): the measures are only
// as good as the machine is quiet.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
