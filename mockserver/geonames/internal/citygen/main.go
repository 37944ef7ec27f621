// Command citygen packs the cities of a folder of GeoNames files, as
// package geonames reads them, into the pack the binary carries
// (`go generate ./mockserver/geonames`): the reference's own folder
// (IMMICH_REVERSE_GEOCODING_ROOT, /usr/src/resources in its image at
// 66fced40e: cities500.txt, admin1CodesASCII.txt, admin2Codes.txt and
// geodata-date.txt of 2023-03-05), copied beside it as geodata:
//
//	docker cp immich_server:/usr/src/resources geodata
//	go run ./internal/citygen -in geodata -out cities500.pack
//
// The same folder writes the same bytes. The GeoNames data is © GeoNames
// (geonames.org), under CC BY 4.0.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/mediaspec/mediaspec/mockserver/geonames"
)

func main() {
	in := flag.String("in", "geodata", "the folder of GeoNames files")
	out := flag.String("out", "cities500.pack", "the pack to write")
	flag.Parse()
	var b bytes.Buffer
	if err := geonames.Pack(&b, *in); err != nil {
		fmt.Fprintln(os.Stderr, "citygen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "citygen:", err)
		os.Exit(1)
	}
}
