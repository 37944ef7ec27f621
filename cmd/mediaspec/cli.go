package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// subcommand is a command of mediaspec as its help and the top-level usage describe it.
type subcommand struct {
	name    string
	args    string // what follows the name in the usage line
	summary string // one line: what the command does
	example string // one command line a user can paste
}

// commands are the subcommands, in the order the usage lists them.
func commands() []subcommand {
	return []subcommand{
		{"serve", "[flags]", "run the in-memory mock server of the API",
			"mediaspec serve --latency 300ms --max-upload-bytes 1MiB"},
		{"check", "[flags]", "run the conformance features against a server of the API, or the built-in mock",
			"mediaspec check --target http://127.0.0.1:2283/api --api-key mediaspec-dev-key --tags '@upload'"},
		{"load", "[flags]", "send load to a server of the API on this machine and report its speed",
			"mediaspec load --target http://127.0.0.1:2283/api --scenario upload --upload-size 1MiB --duration 30s"},
		{"fixtures", "[flags]", "write a generated dataset as JSON, for serve --fixtures (or --check a dataset file)",
			"mediaspec fixtures --seed 7 --out family.json"},
		{"spec", "[flags]", "print the project's OpenAPI document",
			"mediaspec spec --json > openapi.json"},
		{"version", "", "print the version of this build (also: mediaspec --version)",
			"mediaspec version"},
	}
}

// lookupCommand finds a subcommand by name.
func lookupCommand(name string) (subcommand, bool) {
	i := slices.IndexFunc(commands(), func(c subcommand) bool { return c.name == name })
	if i < 0 {
		return subcommand{}, false
	}
	return commands()[i], true
}

// writeUsage prints the top-level usage.
func writeUsage(w io.Writer) {
	fmt.Fprint(w, "mediaspec: a mock server and conformance harness for the media-asset API.\n\nUsage:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-29s %s\n", strings.TrimSpace("mediaspec "+c.name+" "+c.args), c.summary)
	}
	fmt.Fprint(w, "\nmediaspec COMMAND --help prints a command's flags and an example.\n")
}

// newFlagSet makes the flag set of the subcommand name. It prints nothing
// itself: parseFlags prints the help and words the errors.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses a subcommand's flags. --help (or -h) prints the
// command's help on stdout and returns flag.ErrHelp; any other problem is a
// usage error (errUsage) that says what was expected, and suggests a flag
// for a near miss.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	var bad badValue
	fs.VisitAll(func(f *flag.Flag) { f.Value = recordErrors(f, &bad) })
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		writeHelp(stdout, fs)
		return err
	case bad.err != nil:
		return fmt.Errorf("%w: --%s: %s", errUsage, bad.name, bad.err)
	case err != nil:
		return fmt.Errorf("%w: %s", errUsage, flagError(fs, err))
	case fs.NArg() > 0:
		return fmt.Errorf("%w: unexpected argument %q (mediaspec %s takes flags only)", errUsage, fs.Arg(0), fs.Name())
	}
	return nil
}

// flagError words an error of the flag package as the README writes flags
// (--name), with a suggestion for an unknown flag.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		hint := fmt.Sprintf("mediaspec %s --help lists them", fs.Name())
		if near := nearest(name, names); len(near) > 0 {
			hint = "did you mean --" + strings.Join(near, " or --") + "?"
		}
		return fmt.Sprintf("unknown flag --%s; %s", name, hint)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return fmt.Sprintf("--%s needs a value", strings.TrimLeft(name, "-"))
	}
	return msg
}

// badValue is the first flag value that could not be set.
type badValue struct {
	name string
	err  error
}

// recordErrors wraps a flag's value so that the error of its Set is kept,
// worded for a user, in bad.
func recordErrors(f *flag.Flag, bad *badValue) flag.Value {
	v := &recordingValue{Value: f.Value, name: f.Name, bad: bad}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return recordingBool{v}
	}
	return v
}

type recordingValue struct {
	flag.Value
	name string
	bad  *badValue
}

func (v *recordingValue) Set(s string) error {
	err := v.Value.Set(s)
	if err != nil && v.bad.err == nil {
		v.bad.name, v.bad.err = v.name, valueError(v.Value, s, err)
	}
	return err
}

// recordingBool keeps a bool flag a bool flag (--quiet takes no value).
type recordingBool struct{ *recordingValue }

func (recordingBool) IsBoolFlag() bool { return true }

// valueError words the error of the flag package's own values, which say
// only "parse error" or "value out of range".
func valueError(v flag.Value, s string, err error) error {
	if msg := err.Error(); msg != "parse error" && msg != "value out of range" {
		return err // one of mediaspec's own values, which says what it expects
	}
	var kind any
	if g, ok := v.(flag.Getter); ok {
		kind = g.Get()
	}
	switch kind.(type) {
	case bool:
		return fmt.Errorf("%q is not true or false", s)
	case int, int64, uint, uint64:
		if strings.Contains(err.Error(), "range") {
			return fmt.Errorf("%q is out of range", s)
		}
		return fmt.Errorf("%q is not a whole number", s)
	}
	return err
}

// writeHelp prints a subcommand's help: its summary, usage, an example and
// its flags, as --name, each with a placeholder for its value.
func writeHelp(w io.Writer, fs *flag.FlagSet) {
	c, _ := lookupCommand(fs.Name())
	fmt.Fprintf(w, "mediaspec %s: %s.\n\nUsage:\n  mediaspec %s %s\n\nExample:\n  %s\n", c.name, c.summary, c.name, c.args, c.example)
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprint(w, "\nFlags:\n")
			first = false
		}
		line := "  --" + f.Name
		if p := placeholder(f); p != "" {
			line += " " + p
		}
		usage := f.Usage
		if d := f.DefValue; d != "" && d != "0" && d != "false" && d != "0s" {
			usage += fmt.Sprintf(" (default %s)", d)
		}
		fmt.Fprintln(w, line)
		for _, l := range wrap(usage, 72) {
			fmt.Fprintln(w, "        "+l)
		}
	})
}

// placeholder names what a flag's value is, for its help line; "" for a
// flag that takes none.
func placeholder(f *flag.Flag) string {
	v := f.Value
	if r, ok := v.(recordingBool); ok {
		v = r.Value
	} else if r, ok := v.(*recordingValue); ok {
		v = r.Value
	}
	switch v.(type) {
	case *sizeValue:
		return "SIZE"
	case *durationValue:
		return "DURATION"
	case *formatList:
		return "FORMAT[:FILE]"
	}
	if g, ok := v.(flag.Getter); ok {
		switch g.Get().(type) {
		case bool:
			return ""
		case int, int64, uint, uint64:
			return "N"
		case time.Duration:
			return "DURATION"
		}
	}
	switch f.Name {
	case "addr":
		return "HOST:PORT"
	case "target":
		return "URL"
	case "api-key", "second-api-key", "admin-api-key":
		return "KEY"
	case "fixtures", "out", "check":
		return "FILE"
	case "media-dir":
		return "DIR"
	case "anchor":
		return "DATE"
	case "tags":
		return "EXPR"
	case "checksum-header":
		return "NAME"
	case "email", "admin-email":
		return "EMAIL"
	case "password", "admin-password":
		return "PASSWORD"
	case "control-origin":
		return "ORIGIN"
	case "log-format":
		return "text|json"
	case "scenario":
		return "list|upload|mixed|album|thumbnail|file"
	}
	return "VALUE"
}

// wrap cuts text into lines of at most width bytes, between words.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}

// nearest returns the names near name: those within an edit distance of 2
// (1 for a name of up to 3 characters), closest first, and those name is a
// prefix of; at most three.
func nearest(name string, names []string) []string {
	type candidate struct {
		name string
		dist int
	}
	limit := 2
	if len(name) <= 3 {
		limit = 1
	}
	var near []candidate
	for _, n := range names {
		d := editDistance(name, n)
		switch {
		case d <= limit:
			near = append(near, candidate{n, d})
		case len(name) >= 2 && strings.HasPrefix(n, name):
			near = append(near, candidate{n, limit + 1})
		}
	}
	slices.SortStableFunc(near, func(a, b candidate) int { return a.dist - b.dist })
	out := make([]string, 0, 3)
	for _, c := range near[:min(3, len(near))] {
		out = append(out, c.name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
