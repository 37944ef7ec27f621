package main

import (
	"io"

	"github.com/mediaspec/mediaspec/openapi"
)

func runSpec(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("spec")
	asJSON := fs.Bool("json", false, "print the document as JSON instead of YAML")
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	doc := openapi.YAML()
	if *asJSON {
		doc = openapi.JSON()
	}
	_, err := stdout.Write(doc)
	return err
}
