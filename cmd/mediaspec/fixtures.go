package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

// runFixtures writes a generated dataset as JSON: the document that
// GET /__mock/dataset answers and `serve --fixtures` loads.
func runFixtures(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mediaspec fixtures", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var df datasetFlags
	df.register(fs)
	out := fs.String("out", "", "write to this file instead of standard output")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	d, err := df.generate(time.Now())
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the dataset: %w", err)
	}
	b = append(b, '\n')
	if *out == "" {
		_, err = stdout.Write(b)
		return err
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		return fmt.Errorf("writing the dataset: %w", err)
	}
	fmt.Fprintf(stderr, "wrote %s: seed %d, %d users, %d assets, %d shared links\n", *out, d.Seed, len(d.Users), len(d.Assets), len(d.SharedLinks))
	return nil
}
