package main

import (
	"bytes"
	"flag"
	"io"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"102400", 102400, true},
		{"0", 0, true},
		{"100KiB", 100 << 10, true},
		{"1 MiB", 1 << 20, true},
		{"1MiB", 1 << 20, true},
		{"64MiB", 64 << 20, true},
		{"1GiB", 1 << 30, true},
		{"5kB", 5000, true},
		{"2MB", 2_000_000, true},
		{"64B", 64, true},
		{"-5", 0, false},
		{"1.5MiB", 0, false},
		{"lots", 0, false},
		{"1MB extra", 0, false},
		{"99999999999GiB", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseSize(tt.in)
			if !tt.ok {
				require.Error(t, err)
				assert.Equal(t, `"`+tt.in+`" is not a size: write 1MiB, 64KiB, 5MB or a number of bytes`, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			back, err := parseSize(formatSize(got))
			require.NoError(t, err)
			assert.Equal(t, got, back, "formatSize writes what parseSize reads")
		})
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 1000: "1000", 64 << 20: "64MiB", 1536 << 10: "1536KiB", 8 << 20: "8MiB", 1 << 30: "1GiB"} {
		assert.Equal(t, want, formatSize(n))
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"300ms", 300 * time.Millisecond, true},
		{"2s", 2 * time.Second, true},
		{"1m30s", 90 * time.Second, true},
		{"300", 300 * time.Millisecond, true},
		{"0", 0, true},
		{"-1s", -time.Second, true},
		{"300x", 0, false},
		{"2 seconds", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseDuration(tt.in)
			if !tt.ok {
				require.Error(t, err)
				assert.Equal(t, `"`+tt.in+`" is not a duration: write 300ms, 2s or a number of milliseconds`, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestUsageMessages: every command line mistake is bad usage (exit 2) told
// in one line that says what was expected, with --flag as the README
// writes it, and a suggestion for a near miss.
func TestUsageMessages(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"serv"}, `unknown command "serv"; did you mean serve?`},
		{[]string{"chek"}, `unknown command "chek"; did you mean check?`},
		{[]string{"fixture"}, `unknown command "fixture"; did you mean fixtures?`},
		{[]string{"deploy"}, `unknown command "deploy"; mediaspec --help lists the commands`},
		{[]string{"serve", "--adr", "127.0.0.1:1"}, "unknown flag --adr; did you mean --addr?"},
		{[]string{"serve", "-adr", "127.0.0.1:1"}, "unknown flag --adr; did you mean --addr?"},
		{[]string{"serve", "--laytency", "1s"}, "unknown flag --laytency; did you mean --latency?"},
		{[]string{"serve", "--max-upload", "1"}, "unknown flag --max-upload; did you mean --max-upload-bytes or --max-upload-files?"},
		{[]string{"serve", "--colour"}, "unknown flag --colour; mediaspec serve --help lists them"},
		{[]string{"check", "--tag", "@upload"}, "unknown flag --tag; did you mean --tags?"},
		{[]string{"load", "--targt", "x"}, "unknown flag --targt; did you mean --target?"},
		{[]string{"serve", "--latency", "300x"}, `--latency: "300x" is not a duration: write 300ms, 2s or a number of milliseconds`},
		{[]string{"serve", "--max-upload-bytes", "1.5MiB"}, `--max-upload-bytes: "1.5MiB" is not a size: write 1MiB, 64KiB, 5MB or a number of bytes`},
		{[]string{"serve", "--thumbnail-cache", "lots"}, `--thumbnail-cache: "lots" is not a size`},
		{[]string{"check", "--settle", "soon"}, `--settle: "soon" is not a duration`},
		{[]string{"check", "--max-upload-bytes", "-1"}, `--max-upload-bytes: "-1" is not a size`},
		{[]string{"load", "--duration", "forever"}, `--duration: "forever" is not a duration`},
		{[]string{"load", "--timeout", "1h2"}, `--timeout: "1h2" is not a duration`},
		{[]string{"load", "--upload-size", "big"}, `--upload-size: "big" is not a size`},
		{[]string{"serve", "--links", "many"}, `--links: "many" is not a whole number`},
		{[]string{"serve", "--seed", "99999999999999999999"}, `--seed: "99999999999999999999" is out of range`},
		{[]string{"serve", "--quiet=maybe"}, `--quiet: "maybe" is not true or false`},
		{[]string{"serve", "--addr"}, "--addr needs a value"},
		{[]string{"serve", "extra"}, `unexpected argument "extra" (mediaspec serve takes flags only)`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(t.Context(), tt.args, &stdout, &stderr)
			require.ErrorIs(t, err, errUsage)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), "parse error", "the flag package's words are replaced")
			assert.NotRegexp(t, `(^|\s)-[a-z]`, strings.TrimPrefix(err.Error(), "bad usage: "), "flags are written --name")
			assert.Empty(t, stdout.String())
			assert.Empty(t, stderr.String(), "main prints the one line")
		})
	}
}

// TestUnitsReachTheServer: sizes and durations with units, and bare
// numbers (bytes, milliseconds), are taken by every flag that has them.
func TestUnitsReachTheServer(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--latency", "300ms", "--max-upload-bytes", "1MiB", "--thumbnail-cache", "64MiB"},
		{"serve", "--latency", "300", "--max-upload-bytes", "1048576", "--thumbnail-cache", "67108864"},
		{"check", "--settle", "5s", "--max-upload-bytes", "8MiB"},
		{"load", "--duration", "1500", "--timeout", "2s", "--upload-size", "1MB"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			// Help after the flags: they are parsed, nothing is started.
			err := run(t.Context(), append(args, "--help"), io.Discard, io.Discard)
			assert.ErrorIs(t, err, flag.ErrHelp)
		})
	}
}

// TestHelp: every subcommand's help starts with its summary, usage and an
// example, and lists each flag as --name with a placeholder made from its
// type, never a word the flag package took from backquotes in the text.
func TestHelp(t *testing.T) {
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			var stdout bytes.Buffer
			err := run(t.Context(), []string{c.name, "--help"}, &stdout, io.Discard)
			require.ErrorIs(t, err, flag.ErrHelp)
			help := stdout.String()
			assert.True(t, strings.HasPrefix(help, "mediaspec "+c.name+": "+c.summary+".\n"), help)
			assert.Contains(t, help, "\nExample:\n  "+c.example+"\n")
			assert.True(t, strings.HasPrefix(c.example, "mediaspec "+c.name), "the example runs the command")
			lines := regexp.MustCompile(`(?m)^  --([a-z-]+)(.*)$`).FindAllStringSubmatch(help, -1)
			if c.name == "version" {
				assert.Empty(t, lines, "version takes no flags")
				return
			}
			require.NotEmpty(t, lines)
			for _, m := range lines {
				placeholder := strings.TrimPrefix(m[2], " ")
				assert.NotContains(t, placeholder, " ", "--%s: a garbled placeholder", m[1])
				assert.NotContains(t, strings.ToLower(placeholder), "mediaspec", "--%s: a garbled placeholder", m[1])
				if !strings.Contains(placeholder, "|") {
					assert.Equal(t, strings.ToUpper(placeholder), placeholder, "--%s: a placeholder is a word in capitals", m[1])
				}
			}
			assert.NotRegexp(t, `(?m)^  -[a-z]`, help, "flags are written --name")
		})
	}
	t.Run("placeholders by type", func(t *testing.T) {
		var stdout bytes.Buffer
		_ = run(t.Context(), []string{"serve", "-h"}, &stdout, io.Discard)
		help := stdout.String()
		for _, want := range []string{"  --latency DURATION\n", "  --max-upload-bytes SIZE\n", "  --thumbnail-cache SIZE\n", "  --fixtures FILE\n", "  --links N\n", "  --quiet\n", "(default 64MiB)"} {
			assert.Contains(t, help, want)
		}
	})
	t.Run("mediaspec help serve", func(t *testing.T) {
		var a, b bytes.Buffer
		_ = run(t.Context(), []string{"help", "serve"}, &a, io.Discard)
		_ = run(t.Context(), []string{"serve", "--help"}, &b, io.Discard)
		assert.Equal(t, b.String(), a.String())
	})
	t.Run("mediaspec --help", func(t *testing.T) {
		var stdout bytes.Buffer
		require.NoError(t, run(t.Context(), []string{"--help"}, &stdout, io.Discard))
		for _, c := range commands() {
			assert.Contains(t, stdout.String(), "mediaspec "+c.name)
			assert.Contains(t, stdout.String(), c.summary)
		}
	})
}

func TestNearest(t *testing.T) {
	names := []string{"addr", "anchor", "api-key", "latency", "links", "max-upload-bytes", "max-upload-files", "quiet"}
	tests := []struct {
		in   string
		want []string
	}{
		{"adr", []string{"addr"}},
		{"latncy", []string{"latency"}},
		{"max-upload", []string{"max-upload-bytes", "max-upload-files"}},
		{"api_key", []string{"api-key"}},
		{"x", []string{}},
		{"colour", []string{}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, nearest(tt.in, names), tt.in)
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var stdout bytes.Buffer
		require.NoError(t, run(t.Context(), args, &stdout, io.Discard))
		assert.Regexp(t, `^mediaspec \S+.*, go1\.\d+`, stdout.String())
	}
	tests := []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"a release", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}}, "mediaspec v1.2.0, go1.26.8"},
		{"a checkout", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "71dc2bf0123456789abcdef0123456789abcdef0"}, {Key: "vcs.time", Value: "2026-11-25T10:00:00Z"}, {Key: "vcs.modified", Value: "true"},
		}}, "mediaspec (devel) 71dc2bf01234 2026-11-25T10:00:00Z (modified), go1.26.8"},
		{"no version", debug.BuildInfo{GoVersion: "go1.26.8"}, "mediaspec (devel), go1.26.8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, versionLine(&tt.info))
		})
	}
}
