package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// runVersion is `mediaspec version` (and --version): the module version
// of this build and, for a build from a checkout, the commit and its time.
func runVersion(args []string, stdout io.Writer) error {
	fs := newFlagSet("version")
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Fprintln(stdout, "mediaspec (no build information)")
		return nil
	}
	_, err := fmt.Fprintln(stdout, versionLine(info))
	return err
}

// versionLine says which mediaspec a build is: "mediaspec v1.2.0", or from
// a checkout "mediaspec (devel) 0123abcd4567 2026-11-25T10:00:00Z (modified)",
// with the Go version it was built with.
func versionLine(info *debug.BuildInfo) string {
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	parts := []string{"mediaspec", version}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		parts = append(parts, rev[:min(12, len(rev))])
		if t := settings["vcs.time"]; t != "" {
			parts = append(parts, t)
		}
		if settings["vcs.modified"] == "true" {
			parts = append(parts, "(modified)")
		}
	}
	return strings.Join(parts, " ") + ", " + info.GoVersion
}
