// Package features holds the conformance harness's Gherkin features: the
// behaviour of the media-asset API in business language, one capability per
// file. They are embedded, so the mediaspec binary carries them.
package features

import (
	"embed"
	"io/fs"
)

//go:embed *.feature
var files embed.FS

// FS returns the feature files, at the root of the file system.
func FS() fs.FS { return files }
