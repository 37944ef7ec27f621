package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// parseSize reads a byte count: a whole number of bytes, optionally
// followed by a unit (102400, 100KiB, 1 MiB, 5MB). Zero is a size; a
// negative number is not.
func parseSize(s string) (int64, error) {
	// Binary and decimal units, "B" last so that "KiB" is not read as it.
	units := [...]struct {
		suffix string
		factor int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	num, factor := strings.TrimSpace(s), int64(1)
	for _, u := range units {
		if strings.HasSuffix(num, u.suffix) {
			num, factor = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.factor
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/factor {
		return 0, fmt.Errorf("%q is not a size: write 1MiB, 64KiB, 5MB or a number of bytes", s)
	}
	return n * factor, nil
}

// formatSize writes n in the largest binary unit that holds it whole, as
// parseSize reads it back: 64MiB, 1536KiB, 1000.
func formatSize(n int64) string {
	for _, u := range [...]struct {
		suffix string
		factor int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n != 0 && n%u.factor == 0 {
			return strconv.FormatInt(n/u.factor, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// parseDuration reads a duration as Go writes it (300ms, 2s, 1m30s), or a
// bare whole number of milliseconds (300).
func parseDuration(s string) (time.Duration, error) {
	v := strings.TrimSpace(s)
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil {
		if ms > int64(1<<63-1)/int64(time.Millisecond) || ms < -int64(1<<63-1)/int64(time.Millisecond) {
			return 0, fmt.Errorf("%q is too long a duration", s)
		}
		return time.Duration(ms) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration: write 300ms, 2s or a number of milliseconds", s)
	}
	return d, nil
}

// sizeValue is a flag.Value of bytes, written with or without a unit.
type sizeValue int64

// sizeFlag defines a size flag on fs, as fs.Int64 would a number.
func sizeFlag(fs *flag.FlagSet, name string, value int64, usage string) *int64 {
	p := new(int64)
	*p = value
	fs.Var((*sizeValue)(p), name, usage)
	return p
}

func (v *sizeValue) String() string { return formatSize(int64(*v)) }
func (v *sizeValue) Get() any       { return int64(*v) }

func (v *sizeValue) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*v = sizeValue(n)
	return nil
}

// durationValue is a flag.Value of a duration, a bare number being
// milliseconds.
type durationValue time.Duration

// durationFlag defines a duration flag on fs, as fs.Duration would, but
// one that also reads a bare number as milliseconds.
func durationFlag(fs *flag.FlagSet, name string, value time.Duration, usage string) *time.Duration {
	p := new(time.Duration)
	durationFlagVar(fs, p, name, value, usage)
	return p
}

// durationFlagVar is durationFlag storing into p.
func durationFlagVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var((*durationValue)(p), name, usage)
}

func (v *durationValue) String() string { return time.Duration(*v).String() }
func (v *durationValue) Get() any       { return time.Duration(*v) }

func (v *durationValue) Set(s string) error {
	d, err := parseDuration(s)
	if err != nil {
		return err
	}
	*v = durationValue(d)
	return nil
}
