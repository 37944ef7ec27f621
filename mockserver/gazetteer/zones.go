package gazetteer

import (
	"archive/zip"
	"bytes"
	_ "embed" // zoneinfo.zip
	"fmt"
	"io"
	"sync"
	"time"
)

//go:generate go run ./internal/zonegen -out zoneinfo.zip

// zoneinfo holds the rules of the gazetteer's time zones (TZif files, from
// the IANA database as Go ships it), written by internal/zonegen. Generated
// local times come from these rules, never from the machine's own zone
// files, which differ from machine to machine as zones change their rules:
// so a seed gives the same localDateTime everywhere.
//
//go:embed zoneinfo.zip
var zoneinfo []byte

var embeddedZones = sync.OnceValues(func() (map[string][]byte, error) {
	r, err := zip.NewReader(bytes.NewReader(zoneinfo), int64(len(zoneinfo)))
	if err != nil {
		return nil, fmt.Errorf("gazetteer: zoneinfo.zip: %w", err)
	}
	zones := make(map[string][]byte, len(r.File))
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("gazetteer: zoneinfo.zip %s: %w", f.Name, err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("gazetteer: zoneinfo.zip %s: %w", f.Name, err)
		}
		zones[f.Name] = b
	}
	return zones, nil
})

// Location returns the named time zone: from the rules built into
// mediaspec for the gazetteer's zones, else from time.LoadLocation.
func Location(name string) (*time.Location, error) {
	zones, err := embeddedZones()
	if err != nil {
		return nil, err
	}
	if data, ok := zones[name]; ok {
		return time.LoadLocationFromTZData(name, data)
	}
	return time.LoadLocation(name)
}
