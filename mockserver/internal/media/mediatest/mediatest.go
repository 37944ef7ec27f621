// Package mediatest holds what the tests of the media folder and of the
// server share.
package mediatest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// OpenPacks is how many of the process's file descriptors are pack files
// of the media folder dir, as Linux's /proc lists them; the test is
// skipped where there is no /proc.
func OpenPacks(t *testing.T, dir string) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd to count file descriptors in")
	}
	packs := filepath.Join(dir, "packs") + string(filepath.Separator)
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink("/proc/self/fd/" + fd.Name()); err == nil && strings.HasPrefix(target, packs) {
			n++
		}
	}
	return n
}
