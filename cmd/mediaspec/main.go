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

const usage = `mediaspec: a mock server and conformance harness for the media-asset API.

Usage:
  mediaspec serve [flags]    run the in-memory mock server (mediaspec serve -h for its flags)
  mediaspec spec [--json]    print the OpenAPI document
  mediaspec fixtures [flags] write a generated dataset as JSON, for serve --fixtures
                             (--check FILE: report every broken invariant of a dataset file)
  mediaspec check [flags]    run the conformance features against a server, or the built-in mock (mediaspec check -h)
  mediaspec load [flags]     send load to a server of the API and report its speed (mediaspec load -h)
`

// run runs the command line args; it is main without the process around it.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
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
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("%w: unknown command %q", errUsage, args[0])
}

// parseFlags parses a subcommand's flags, marking errors as usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}
