package geonames

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Bounds of what Load reads, beside the cities.
const (
	maxLineBytes  = 1 << 20  // a line of any file (cities500's longest is under 10 KiB)
	maxNameBytes  = 64 << 20 // the cities' names together (cities500's are 2.5 MiB)
	maxAdminLines = 1 << 20  // the lines of an admin file (admin2Codes.txt has 45,000)
	maxDateBytes  = 256      // geodata-date.txt
	citiesFields  = 19       // the columns of cities500.txt, the last of which the reference keeps
)

// Load reads a folder of GeoNames files as the reference imports them at
// start: geodata-date.txt, admin1CodesASCII.txt (the states),
// admin2Codes.txt (which the reference reads too, though no answer of
// this version shows it), and cities500.txt streamed line by line, less
// its PPLX rows (sections of a city). maxCities bounds the cities kept (0
// means DefaultMaxCities). A file that is missing, or a line the
// reference's import would refuse, is an error naming the file and line.
func Load(dir string, maxCities int) (*Index, error) {
	if maxCities <= 0 {
		maxCities = DefaultMaxCities
	}
	date, err := readDate(filepath.Join(dir, DateFile))
	if err != nil {
		return nil, err
	}
	ix := &Index{date: date}
	admin1 := map[string]uint32{} // "US.CO" → 1 + its index in ix.states
	err = eachLine(filepath.Join(dir, Admin1File), func(fields [][]byte) error {
		return ix.addState(admin1, fields)
	})
	if err != nil {
		return nil, err
	}
	admin2 := 0
	err = eachLine(filepath.Join(dir, Admin2File), func(fields [][]byte) error {
		_, err := adminLine(&admin2, fields)
		return err
	})
	if err != nil {
		return nil, err
	}
	var key []byte
	err = eachLine(filepath.Join(dir, CitiesFile), func(fields [][]byte) error {
		if len(fields) > 7 && string(fields[7]) == "PPLX" {
			return nil // as the reference's import skips them
		}
		if len(ix.cities) == maxCities {
			return fmt.Errorf("more than %d cities", maxCities)
		}
		c, err := ix.readCity(fields)
		if err != nil {
			return err
		}
		key = append(append(append(key[:0], fields[8]...), '.'), fields[10]...)
		c.state = admin1[string(key)]
		ix.cities = append(ix.cities, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	ix.cities = slices.Clip(ix.cities)
	slices.SortStableFunc(ix.cities, func(a, b city) int { return cmp.Compare(a.z, b.z) })
	return ix, nil
}

// readDate is geodata-date.txt, whole, as the reference reads it.
func readDate(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxDateBytes+1))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > maxDateBytes || !utf8.Valid(b) {
		return "", fmt.Errorf("%s: not a date (more than %d bytes, or not UTF-8)", path, maxDateBytes)
	}
	return string(b), nil
}

// adminLine checks a line of an admin file, and counts it: a code and a
// name, tab apart. ok false for a blank line, which names nothing.
func adminLine(lines *int, fields [][]byte) (ok bool, err error) {
	if len(fields) == 1 && len(fields[0]) == 0 {
		return false, nil
	}
	if *lines++; *lines > maxAdminLines {
		return false, fmt.Errorf("more than %d lines", maxAdminLines)
	}
	if len(fields) < 2 {
		return false, errors.New("not a code and a name apart by a tab")
	}
	return true, nil
}

// addState keeps a line of admin1CodesASCII.txt: its code (country.admin1)
// names a state. The reference keeps the name of the last line with a
// code.
func (ix *Index) addState(admin1 map[string]uint32, fields [][]byte) error {
	lines := len(ix.states)
	if ok, err := adminLine(&lines, fields); !ok {
		return err
	}
	if !utf8.Valid(fields[1]) {
		return errors.New("the name is not UTF-8")
	}
	if i, ok := admin1[string(fields[0])]; ok {
		ix.states[i-1] = string(fields[1])
		return nil
	}
	ix.states = append(ix.states, string(fields[1]))
	admin1[string(fields[0])] = uint32(len(ix.states))
	return nil
}

// readCity reads a row of cities500.txt: the columns the reference keeps,
// checked as its table would check them (an integer id, a name of at most
// 200 characters, numbers for the position, a country code of at most 2
// characters, codes of admin1 and admin2 of at most 20 and 80).
func (ix *Index) readCity(f [][]byte) (city, error) {
	var c city
	if len(f) < citiesFields {
		return c, fmt.Errorf("%d columns, not %d", len(f), citiesFields)
	}
	if _, err := strconv.ParseInt(string(f[0]), 10, 32); err != nil {
		return c, fmt.Errorf("the id %q is not an integer", f[0])
	}
	name := f[1]
	if !utf8.Valid(name) || utf8.RuneCount(name) > 200 {
		return c, fmt.Errorf("the name is not UTF-8 of at most 200 characters")
	}
	lat, errLat := strconv.ParseFloat(string(f[4]), 64)
	lon, errLon := strconv.ParseFloat(string(f[5]), 64)
	if errLat != nil || errLon != nil || math.Abs(lat) > 90 || math.Abs(lon) > 180 {
		return c, fmt.Errorf("the position %q, %q is not a latitude and a longitude", f[4], f[5])
	}
	if utf8.RuneCount(f[8]) > 2 || utf8.RuneCount(f[10]) > 20 || utf8.RuneCount(f[11]) > 80 {
		return c, errors.New("a country code past 2 characters, or an admin code past 20 (admin1) or 80 (admin2)")
	}
	if len(ix.names)+len(name) > maxNameBytes {
		return c, fmt.Errorf("the names pass %d MiB together", maxNameBytes>>20)
	}
	c.x, c.y, c.z = earthPoint(lat, lon)
	c.name, c.nameLen = uint32(len(ix.names)), uint16(len(name))
	ix.names = append(ix.names, name...)
	copy(c.country[:], f[8])
	return c, nil
}

// eachLine streams a file's lines to fn, split at tabs, as the reference's
// readline does (a line ends at \n or \r\n). An error of fn, or a line past
// maxLineBytes, names the file and the line.
func eachLine(path string, fn func(fields [][]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxLineBytes)
	var fields [][]byte
	n := 0
	for sc.Scan() {
		n++
		fields = fields[:0]
		for rest := sc.Bytes(); ; {
			field, after, more := bytes.Cut(rest, []byte{'\t'})
			fields = append(fields, field)
			if !more {
				break
			}
			rest = after
		}
		if err := fn(fields); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%s:%d: a line longer than %d bytes", path, n+1, maxLineBytes)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
