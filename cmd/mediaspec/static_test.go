package main

import (
	"debug/elf"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBinaryIsStatic: built with CGO_ENABLED=0, as the Dockerfile builds
// it, the binary links nothing at run time, so it starts on a distroless
// or scratch image. A package that opens shared libraries without cgo
// (purego, as later versions of the HEIC decoder do) would make it ask for
// the system's dynamic linker: the packages are checked first, to name the
// culprit, then the built binary itself.
func TestBinaryIsStatic(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: the binary cannot be built")
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

	if runtime.GOOS != "linux" {
		t.Skipf("the built binary's ELF headers are read on Linux only, not %s", runtime.GOOS)
	}
	bin := filepath.Join(t.TempDir(), "mediaspec")
	build := exec.CommandContext(t.Context(), gobin, "build", "-o", bin, ".")
	build.Env = append(build.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	require.NoError(t, err)
	defer f.Close()
	for _, p := range f.Progs {
		assert.NotEqual(t, elf.PT_INTERP, p.Type, "the binary asks for a dynamic linker")
	}
	libs, err := f.ImportedLibraries()
	require.NoError(t, err)
	assert.Empty(t, libs, "the binary needs shared libraries")
}
