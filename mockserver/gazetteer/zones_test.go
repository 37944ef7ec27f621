package gazetteer

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestZonesAreBuiltIn checks that mediaspec carries the rules of every zone
// of the gazetteer, and no others.
func TestZonesAreBuiltIn(t *testing.T) {
	zones, err := embeddedZones()
	require.NoError(t, err)
	want := map[string]bool{}
	for _, p := range Places() {
		want[p.Zone] = true
	}
	for name := range want {
		assert.Contains(t, zones, name, "zoneinfo.zip lacks %s: run go generate ./mockserver/gazetteer", name)
	}
	assert.Len(t, zones, len(want), "zoneinfo.zip holds the gazetteer's zones and no others")
}

// TestZonesIgnoreTheMachine runs, in a process of its own, on a machine
// whose zone files (ZONEINFO) put Lisbon at India's UTC+5:30: the generator
// still follows the built-in rules, where time.LoadLocation follows the
// machine.
func TestZonesIgnoreTheMachine(t *testing.T) {
	if os.Getenv("GAZETTEER_ZONES_CHILD") == "1" {
		machine, err := time.LoadLocation("Europe/Lisbon")
		require.NoError(t, err)
		_, off := time.Date(2024, 7, 1, 12, 0, 0, 0, machine).Zone()
		require.Equal(t, 5*3600+1800, off, "the machine's own Lisbon")
		builtIn, err := Location("Europe/Lisbon")
		require.NoError(t, err)
		_, off = time.Date(2024, 7, 1, 12, 0, 0, 0, builtIn).Zone()
		assert.Equal(t, 3600, off, "the built-in Lisbon: UTC+1 in summer")
		return
	}
	zones, err := embeddedZones()
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "Europe"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Europe", "Lisbon"), zones["Asia/Kolkata"], 0o644))
	cmd := exec.Command(os.Args[0], "-test.run=^TestZonesIgnoreTheMachine$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GAZETTEER_ZONES_CHILD=1", "ZONEINFO="+dir)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// TestZoneAtOmaha: where the gazetteer's cities lie far apart, the zone
// still follows the position, as the reference's does (the upstream's
// IMG_2682.heic was taken near Omaha: America/Chicago).
func TestZoneAtOmaha(t *testing.T) {
	zone, ok := ZoneAt(41.2203, -96.071625)
	if !ok || zone != "America/Chicago" {
		t.Fatalf("ZoneAt(Omaha) = %q, %v; want America/Chicago", zone, ok)
	}
}
