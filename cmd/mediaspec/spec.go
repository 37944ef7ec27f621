package main

import (
	"flag"
	"io"

	"github.com/mediaspec/mediaspec/openapi"
)

func runSpec(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mediaspec spec", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the document as JSON instead of YAML")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	doc := openapi.YAML()
	if *asJSON {
		doc = openapi.JSON()
	}
	_, err := stdout.Write(doc)
	return err
}
