package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServeImportRefusals(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.jpg")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	for name, args := range map[string][]string{
		"no such folder":    {"serve", "--addr", "127.0.0.1:0", "--import", filepath.Join(dir, "none")},
		"a file":            {"serve", "--addr", "127.0.0.1:0", "--import", file},
		"no user to own it": {"serve", "--addr", "127.0.0.1:0", "--empty", "--import", dir},
	} {
		t.Run(name, func(t *testing.T) {
			assert.ErrorIs(t, run(t.Context(), args, io.Discard, io.Discard), errUsage)
		})
	}
}
