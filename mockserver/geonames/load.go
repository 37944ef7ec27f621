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
	ix := &Index{}
	date, states, err := readFolder(dir, maxCities, func(r row) error {
		ix.add(r.name, r.lat, r.lon, r.country, r.state)
		return nil
	})
	if err != nil {
		return nil, err
	}
	ix.date, ix.states = date, states
	ix.sort()
	return ix, nil
}

// row is a city of cities500.txt as the index keeps it. Its bytes are the
// line's, valid until the next row is read.
type row struct {
	name             []byte
	lat, lon         float64
	latText, lonText []byte // the position as the file writes it
	country          []byte // its ISO 3166-1 code as the file gives it
	state            uint32 // 1 + its index in the folder's states; 0 for none
}

// readFolder reads a folder of GeoNames files as Load describes, handing
// each city kept to fn in the file's order; date is geodata-date.txt's
// text and states the admin1 names the rows' state numbers refer to.
func readFolder(dir string, maxCities int, fn func(row) error) (date string, states []string, err error) {
	if maxCities <= 0 {
		maxCities = DefaultMaxCities
	}
	if date, err = readDate(filepath.Join(dir, DateFile)); err != nil {
		return "", nil, err
	}
	admin1 := map[string]uint32{} // "US.CO" → 1 + its index in states
	err = eachLine(filepath.Join(dir, Admin1File), func(fields [][]byte) error {
		return addState(&states, admin1, fields)
	})
	if err != nil {
		return "", nil, err
	}
	admin2 := 0
	err = eachLine(filepath.Join(dir, Admin2File), func(fields [][]byte) error {
		_, err := adminLine(&admin2, fields)
		return err
	})
	if err != nil {
		return "", nil, err
	}
	var key []byte
	cities, names := 0, 0
	err = eachLine(filepath.Join(dir, CitiesFile), func(fields [][]byte) error {
		if len(fields) > 7 && string(fields[7]) == "PPLX" {
			return nil // as the reference's import skips them
		}
		if cities == maxCities {
			return fmt.Errorf("more than %d cities", maxCities)
		}
		r, err := readCity(fields)
		if err != nil {
			return err
		}
		if names += len(r.name); names > maxNameBytes {
			return fmt.Errorf("the names pass %d MiB together", maxNameBytes>>20)
		}
		key = append(append(append(key[:0], fields[8]...), '.'), fields[10]...)
		r.state = admin1[string(key)]
		cities++
		return fn(r)
	})
	if err != nil {
		return "", nil, err
	}
	return date, states, nil
}

// add keeps a city, after those kept before it.
func (ix *Index) add(name []byte, lat, lon float64, country []byte, state uint32) {
	c := city{state: state}
	c.x, c.y, c.z = earthPoint(lat, lon)
	c.name, c.nameLen = uint32(len(ix.names)), uint16(len(name))
	ix.names = append(ix.names, name...)
	copy(c.country[:], country)
	ix.cities = append(ix.cities, c)
}

// sort orders the cities kept along the Earth's axis, the order a query
// reads them in; cities at the same height keep the order they were added
// in, which decides between two equally near. (A stable sort of the
// cities themselves, moving 40 bytes a swap, took 0.15 s of 0.2 s to
// read the embedded index; sorting their heights and places is quicker.)
func (ix *Index) sort() {
	type key struct {
		z float64
		i int32
	}
	keys := make([]key, len(ix.cities))
	for i, c := range ix.cities {
		keys[i] = key{c.z, int32(i)}
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Or(cmp.Compare(a.z, b.z), cmp.Compare(a.i, b.i)) })
	// The permutation applied in place, a cycle at a time: no second copy
	// of the cities. A key whose i is its own place is done.
	for j := range keys {
		if keys[j].i == int32(j) {
			continue
		}
		first, k := ix.cities[j], j
		for {
			next := int(keys[k].i)
			keys[k].i = int32(k)
			if next == j {
				ix.cities[k] = first
				break
			}
			ix.cities[k], k = ix.cities[next], next
		}
	}
	ix.cities = slices.Clip(ix.cities)
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
func addState(states *[]string, admin1 map[string]uint32, fields [][]byte) error {
	lines := len(*states)
	if ok, err := adminLine(&lines, fields); !ok {
		return err
	}
	if !utf8.Valid(fields[1]) {
		return errors.New("the name is not UTF-8")
	}
	if i, ok := admin1[string(fields[0])]; ok {
		(*states)[i-1] = string(fields[1])
		return nil
	}
	*states = append(*states, string(fields[1]))
	admin1[string(fields[0])] = uint32(len(*states))
	return nil
}

// readCity reads a row of cities500.txt: the columns the reference keeps,
// checked as its table would check them (an integer id, a name of at most
// 200 characters, numbers for the position, a country code of at most 2
// characters, codes of admin1 and admin2 of at most 20 and 80).
func readCity(f [][]byte) (row, error) {
	if len(f) < citiesFields {
		return row{}, fmt.Errorf("%d columns, not %d", len(f), citiesFields)
	}
	if _, err := strconv.ParseInt(string(f[0]), 10, 32); err != nil {
		return row{}, fmt.Errorf("the id %q is not an integer", f[0])
	}
	name := f[1]
	if !utf8.Valid(name) || utf8.RuneCount(name) > 200 {
		return row{}, fmt.Errorf("the name is not UTF-8 of at most 200 characters")
	}
	lat, errLat := strconv.ParseFloat(string(f[4]), 64)
	lon, errLon := strconv.ParseFloat(string(f[5]), 64)
	if errLat != nil || errLon != nil || math.Abs(lat) > 90 || math.Abs(lon) > 180 {
		return row{}, fmt.Errorf("the position %q, %q is not a latitude and a longitude", f[4], f[5])
	}
	if utf8.RuneCount(f[8]) > 2 || utf8.RuneCount(f[10]) > 20 || utf8.RuneCount(f[11]) > 80 {
		return row{}, errors.New("a country code past 2 characters, or an admin code past 20 (admin1) or 80 (admin2)")
	}
	return row{name: name, lat: lat, lon: lon, latText: f[4], lonText: f[5], country: f[8]}, nil
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
