package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeGeodataRefusesABadFolder: serve --geodata stops at start on a
// GeoNames file it cannot read, naming the file and the line.
func TestServeGeodataRefusesABadFolder(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"geodata-date.txt":     "2023-03-05T00:00:00+00:00",
		"admin1CodesASCII.txt": "PT.14\tLisbon\tLisbon\t2267056\n",
		"admin2Codes.txt":      "",
		"cities500.txt":        "2267057\tLisbon\tshort\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	err := run(t.Context(), []string{"serve", "--quiet", "--addr", "127.0.0.1:0", "--users", "0", "--links", "0", "--geodata", dir}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--geodata: "+filepath.Join(dir, "cities500.txt")+":1: 3 columns, not 19")

	err = run(t.Context(), []string{"serve", "--quiet", "--addr", "127.0.0.1:0", "--geodata", filepath.Join(dir, "nowhere")}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "geodata-date.txt: no such file or directory")
}
