// Command mediaspec is a mock server and a conformance harness for the
// media-asset API: `mediaspec serve` runs the in-memory reference server,
// `mediaspec check` runs the conformance features against a server (or the
// built-in mock), `mediaspec load` measures a server under load, `mediaspec
// fixtures` writes (or checks) a dataset file and `mediaspec spec` prints the
// OpenAPI document.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// errUsage marks a command line that could not be understood (exit 2).
var errUsage = errors.New("bad usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		fmt.Fprintln(os.Stderr, "mediaspec:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "mediaspec:", err)
		os.Exit(1)
	}
}

// run runs the command line args; it is main without the process around it.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		writeUsage(stderr)
		return fmt.Errorf("%w: no command", errUsage)
	}
	switch args[0] {
	case "serve":
		return runServe(ctx, args[1:], stdout, stderr)
	case "spec":
		return runSpec(args[1:], stdout, stderr)
	case "fixtures":
		return runFixtures(args[1:], stdout, stderr)
	case "check":
		return runCheck(ctx, args[1:], stdout, stderr)
	case "load":
		return runLoad(ctx, args[1:], stdout, stderr)
	case "version", "--version", "-version":
		return runVersion(args[1:], stdout)
	case "help", "-h", "--help", "-help":
		if len(args) > 1 { // mediaspec help serve
			if _, ok := lookupCommand(args[1]); ok {
				return run(ctx, []string{args[1], "--help"}, stdout, stderr)
			}
		}
		writeUsage(stdout)
		return nil
	}
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	hint := "mediaspec --help lists the commands"
	if near := nearest(strings.TrimLeft(args[0], "-"), names); len(near) > 0 {
		hint = "did you mean " + strings.Join(near, " or ") + "?"
	}
	return fmt.Errorf("%w: unknown command %q; %s", errUsage, args[0], hint)
}
