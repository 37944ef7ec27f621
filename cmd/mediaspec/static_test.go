package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBinaryIsStatic: built with CGO_ENABLED=0, the binary links nothing at
// run time, so it starts in an empty container. A package that opens shared
// libraries without cgo (purego, as later versions of the HEIC decoder do)
// would make it ask for the system's dynamic linker.
func TestBinaryIsStatic(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: the binary's packages cannot be listed")
	}
	cmd := exec.CommandContext(t.Context(), gobin, "list", "-deps", "-f", "{{.ImportPath}} {{len .CgoFiles}}", ".")
	cmd.Env = append(cmd.Environ(), "CGO_ENABLED=0")
	out, err := cmd.Output()
	require.NoError(t, err)
	for line := range strings.Lines(string(out)) {
		path, cgoFiles, _ := strings.Cut(strings.TrimSpace(line), " ")
		assert.False(t, strings.HasPrefix(path, "github.com/ebitengine/purego"), "%s opens shared libraries at run time", path)
		assert.NotEqual(t, "runtime/cgo", path, "the binary needs cgo")
		assert.Equal(t, "0", cgoFiles, "%s has cgo files", path)
	}
}
