package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// importDirs are the folders of `serve --import`, one per use of the flag.
type importDirs []string

func (d *importDirs) String() string { return fmt.Sprint([]string(*d)) }

func (d *importDirs) Set(v string) error {
	info, err := os.Stat(v)
	switch {
	case err != nil:
		return fmt.Errorf("%q: %w", v, err)
	case !info.IsDir():
		return fmt.Errorf("%q is not a folder", v)
	}
	*d = append(*d, v)
	return nil
}

// importFlag registers --import.
func importFlag(fs *flag.FlagSet) *importDirs {
	d := &importDirs{}
	fs.Var(d, "import", "a folder of your own photos and videos: an external library of the default user, scanned at start and after each reset (repeat it for more folders; nothing in them is ever written)")
	return d
}

// importLibrary adds the library of --import to d.
func importLibrary(d model.Dataset, dirs importDirs) (model.Dataset, error) {
	out, err := mockserver.WithImportedLibrary(d, dirs, time.Now())
	if err != nil {
		return d, fmt.Errorf("%w: --import needs a user to own its library: it cannot be used with --empty", errUsage)
	}
	return out, nil
}
