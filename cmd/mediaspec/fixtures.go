package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// runFixtures writes a generated dataset as JSON: the document that
// GET /__mock/dataset answers and `serve --fixtures` loads. With --check, it
// reads such a file instead and reports every broken invariant.
func runFixtures(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("fixtures")
	var df datasetFlags
	df.register(fs)
	out := fs.String("out", "", "write to this file instead of standard output")
	check := fs.String("check", "", "check the dataset in this file, as a hand-edited one needs, and report every broken invariant")
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if *check != "" {
		var others []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name != "check" {
				others = append(others, "--"+f.Name)
			}
		})
		if len(others) > 0 {
			return fmt.Errorf("%w: --check reads a dataset; %s cannot be used with it", errUsage, strings.Join(others, ", "))
		}
		return checkFixtures(*check, stdout)
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

// checkFixtures reports every way the dataset in path breaks what the mock
// needs of it (it loads, every reference resolves) and what the generator
// promises of its data (fake.Check), one line each.
func checkFixtures(path string, stdout io.Writer) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("fixtures --check: %w", err)
	}
	var problems []string
	d, err := mockserver.ReadDataset(data)
	if err != nil {
		problems = append(problems, err.Error())
		// Still list what the generator's checks find, where the file is JSON.
		if json.Unmarshal(data, &d) != nil {
			d = model.Dataset{}
		}
	}
	if len(d.Users) > 0 || err == nil {
		for _, v := range fake.Check(d) {
			problems = append(problems, v.Error())
		}
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintf(stdout, "%s: %s\n", path, p)
		}
		return fmt.Errorf("%s: %d broken invariants", path, len(problems))
	}
	fmt.Fprintf(stdout, "%s: %d users, %d assets, %d albums, %d shared links: every invariant holds\n", path, len(d.Users), len(d.Assets), len(d.Albums), len(d.SharedLinks))
	return nil
}
