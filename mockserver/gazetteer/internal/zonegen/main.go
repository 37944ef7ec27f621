// Command zonegen writes the rules of the gazetteer's time zones into a zip
// for package gazetteer to embed (`go generate ./mockserver/gazetteer`): the
// TZif files of the cities' zones, taken from the zoneinfo.zip of the Go toolchain that runs
// it, in name order and with no timestamps, so the same toolchain writes the
// same bytes.
package main

import (
	"archive/zip"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/gazetteer"
)

func main() {
	out := flag.String("out", "zoneinfo.zip", "the zip to write")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "zonegen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	src, err := zip.OpenReader(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "time", "zoneinfo.zip"))
	if err != nil {
		return err
	}
	defer src.Close()

	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	var missing []string
	for _, name := range zones() {
		f, err := src.Open(name)
		if err != nil {
			missing = append(missing, name)
			continue
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		zw, err := w.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
		if err != nil {
			return err
		}
		if _, err := zw.Write(data); err != nil {
			return err
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("zones not in Go's zoneinfo.zip: %s", strings.Join(missing, ", "))
	}
	if err := w.Close(); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// zones is the gazetteer's time zones, sorted, each once.
func zones() []string {
	var names []string
	for _, p := range gazetteer.Places() {
		names = append(names, p.Zone)
	}
	slices.Sort(names)
	return slices.Compact(names)
}
