package geonames

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"
)

// A pack is the cities of a GeoNames folder as Load keeps them, in a few
// bytes: what the binary carries of the reference's own folder
// (cities500.pack, written by internal/citygen). It is
//
//	the magic, packMagic
//	uvarint length, the date (geodata-date.txt's text)
//	uvarint n, the cities' count
//	a gzip stream of columns, each city in the file's order:
//	  uvarint count, the country codes, 2 bytes each
//	  uvarint count, the states, each a uvarint length and its name
//	  uvarint, the length of the names together (less their '\n')
//	  n names, each ended by '\n'
//	  n uvarints, the index of each city's country
//	  n uvarints, each city's state: 0 for none, else 1 + its index
//	  the latitudes, then the longitudes, in 1e-5 degrees: each the
//	  zigzag of its difference from the city before's, 4 bytes little
//	  end first, written a plane at a time (the n lowest bytes, then
//	  the n next...)
//
// The columns and the planes put like bytes together, which deflate packs
// best: 2.0 MB for cities500.txt's 193,000 cities, where the folder is 32
// MB and its text alone, gzipped, 2.7 MB.
const packMagic = "mediaspec geonames pack 1\n"

// coordScale is the pack's unit of latitude and longitude, in 1/degree:
// cities500.txt writes at most 5 decimals.
const coordScale = 1e5

// Pack writes the cities of a folder of GeoNames files, as Load reads
// them, as a pack. A position finer than 1e-5 degrees, which the pack
// would not keep exactly, is an error naming the file and line.
func Pack(w io.Writer, dir string) error {
	p := packer{countryIndex: map[[2]byte]uint64{}}
	date, states, err := readFolder(dir, 0, p.add)
	if err != nil {
		return err
	}
	head := binary.AppendUvarint([]byte(packMagic), uint64(len(date)))
	head = binary.AppendUvarint(append(head, date...), uint64(len(p.lats)))
	if _, err := w.Write(head); err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tables := binary.AppendUvarint(nil, uint64(len(p.countries)))
	for _, c := range p.countries {
		tables = append(tables, c[:]...)
	}
	tables = binary.AppendUvarint(tables, uint64(len(states)))
	for _, s := range states {
		tables = append(binary.AppendUvarint(tables, uint64(len(s))), s...)
	}
	tables = binary.AppendUvarint(tables, uint64(len(p.names)-len(p.lats)))
	for _, part := range [][]byte{tables, p.names, p.countryColumn, p.stateColumn, planes(p.lats), planes(p.lons)} {
		if _, err := zw.Write(part); err != nil {
			return err
		}
	}
	return zw.Close()
}

// packer gathers the columns of a pack, a city at a time.
type packer struct {
	names                      []byte
	countries                  [][2]byte
	countryIndex               map[[2]byte]uint64
	countryColumn, stateColumn []byte
	lats, lons                 []int32 // each the difference from the city before's, in 1e-5 degrees
	lastLat, lastLon           int32
}

// add is readFolder's fn: it keeps a city's row.
func (p *packer) add(r row) error {
	lat, okLat := fixed(r.lat)
	lon, okLon := fixed(r.lon)
	if !okLat || !okLon {
		which, text := "latitude", r.latText
		if okLat {
			which, text = "longitude", r.lonText
		}
		return fmt.Errorf("the %s %q is finer than %g degrees, which a pack keeps", which, text, 1/coordScale)
	}
	var code [2]byte
	copy(code[:], r.country) // as Index.add keeps it
	i, ok := p.countryIndex[code]
	if !ok {
		i = uint64(len(p.countries))
		p.countries, p.countryIndex[code] = append(p.countries, code), i
	}
	p.names = append(append(p.names, r.name...), '\n')
	p.countryColumn = binary.AppendUvarint(p.countryColumn, i)
	p.stateColumn = binary.AppendUvarint(p.stateColumn, uint64(r.state))
	p.lats, p.lons = append(p.lats, lat-p.lastLat), append(p.lons, lon-p.lastLon)
	p.lastLat, p.lastLon = lat, lon
	return nil
}

// fixed is a coordinate in 1e-5 degrees; ok only where that unit holds it
// exactly: where dividing it by coordScale, as unpack does, gives v back
// bit for bit.
func fixed(v float64) (n int32, ok bool) {
	f := math.Round(v * coordScale)
	return int32(f), f/coordScale == v
}

// planes is the zigzag of each number, 4 bytes little end first, a plane
// at a time.
func planes(deltas []int32) []byte {
	n := len(deltas)
	b := make([]byte, 4*n)
	for i, d := range deltas {
		z := uint32(d<<1) ^ uint32(d>>31)
		for p := range 4 {
			b[p*n+i] = byte(z >> (8 * p))
		}
	}
	return b
}

// errNotPack is a pack's first bytes that are not its magic.
var errNotPack = errors.New("geonames: not a pack of cities (another magic)")

// packHeader reads a pack's header: its date and count of cities, and the
// stream of columns after it.
func packHeader(data string) (date string, n int, rest string, err error) {
	rest, ok := strings.CutPrefix(data, packMagic)
	if !ok {
		return "", 0, "", errNotPack
	}
	r := strings.NewReader(rest)
	size, err := binary.ReadUvarint(r)
	if err != nil || size > maxDateBytes {
		return "", 0, "", fmt.Errorf("geonames: a pack's header: the date's length cut or past %d bytes", maxDateBytes)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil || !utf8.Valid(b) {
		return "", 0, "", errors.New("geonames: a pack's header: the date cut or not UTF-8")
	}
	cities, err := binary.ReadUvarint(r)
	if err != nil {
		return "", 0, "", fmt.Errorf("geonames: a pack's header: the count of cities: %w", err)
	}
	if cities > DefaultMaxCities {
		return "", 0, "", fmt.Errorf("geonames: a pack of more than %d cities", DefaultMaxCities)
	}
	return string(b), int(cities), rest[len(rest)-r.Len():], nil
}

// packDate is a pack's date, read from its header alone.
func packDate(data string) (string, error) {
	date, _, _, err := packHeader(data)
	return date, err
}

// unpack reads a pack into the index Load reads from the folder it was
// packed from. Data cut short, altered (gzip's checksum) or not a pack's
// is an error naming what does not read.
func unpack(data string) (*Index, error) {
	date, n, rest, err := packHeader(data)
	if err != nil {
		return nil, err
	}
	src := strings.NewReader(rest)
	zr, err := gzip.NewReader(src)
	if err != nil {
		return nil, fmt.Errorf("geonames: the packed cities: %w", err)
	}
	zr.Multistream(false)
	u := unpacker{r: bufio.NewReader(zr), ix: &Index{date: date, cities: make([]city, n)}}
	if err := u.read(); err != nil {
		return nil, fmt.Errorf("geonames: the packed cities: %w", err)
	}
	switch _, err := u.r.ReadByte(); { // at the stream's end, gzip checks its checksum
	case err == nil:
		return nil, fmt.Errorf("geonames: the packed cities: data past the %d cities", n)
	case err != io.EOF:
		return nil, fmt.Errorf("geonames: the packed cities: %w", err)
	}
	if src.Len() > 0 {
		return nil, fmt.Errorf("geonames: %d bytes after the packed cities", src.Len())
	}
	u.ix.sort()
	return u.ix, nil
}

// unpacker reads a pack's columns into an index.
type unpacker struct {
	r         *bufio.Reader
	ix        *Index
	countries [][2]byte
}

// read reads the columns, in their order.
func (u *unpacker) read() error {
	for _, column := range []func() error{u.countryCodes, u.states, u.names, u.countryColumn, u.stateColumn, u.positions} {
		if err := column(); err != nil {
			return err
		}
	}
	return nil
}

// count is a uvarint no greater than most; what and city (-1 for none)
// name it in an error.
func (u *unpacker) count(most uint64, what string, city int) (int, error) {
	v, err := binary.ReadUvarint(u.r)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if city >= 0 && (err != nil || v > most) {
		what = fmt.Sprintf("city %d: %s", city, what)
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	if v > most {
		return 0, fmt.Errorf("%s %d, past the last, %d", what, v, most)
	}
	return int(v), nil
}

// full reads len(b) bytes, all there or an error.
func (u *unpacker) full(b []byte) error {
	_, err := io.ReadFull(u.r, b)
	return err
}

func (u *unpacker) countryCodes() error {
	n, err := u.count(1<<16, "countries", -1)
	if err != nil {
		return err
	}
	u.countries = make([][2]byte, n)
	for i := range u.countries {
		if err := u.full(u.countries[i][:]); err != nil {
			return err
		}
	}
	return nil
}

func (u *unpacker) states() error {
	n, err := u.count(maxAdminLines, "states", -1)
	if err != nil {
		return err
	}
	u.ix.states = make([]string, n)
	for i := range u.ix.states {
		size, err := u.count(maxLineBytes, "a state's length", -1)
		if err != nil {
			return err
		}
		b := make([]byte, size)
		if err := u.full(b); err != nil {
			return err
		}
		u.ix.states[i] = string(b)
	}
	return nil
}

// names reads the cities' names, each checked as readCity checks a row's.
func (u *unpacker) names() error {
	total, err := u.count(maxNameBytes, "the names' length", -1)
	if err != nil {
		return err
	}
	u.ix.names = make([]byte, 0, total)
	for i := range u.ix.cities {
		line, err := u.r.ReadSlice('\n')
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return fmt.Errorf("city %d: the name: %w", i, err)
		}
		name := line[:len(line)-1]
		if !utf8.Valid(name) || utf8.RuneCount(name) > 200 || bytes.IndexByte(name, '\t') >= 0 {
			return fmt.Errorf("city %d: the name is not UTF-8 of at most 200 characters", i)
		}
		if len(u.ix.names)+len(name) > total {
			return fmt.Errorf("city %d: the names pass their length, %d", i, total)
		}
		c := &u.ix.cities[i]
		c.name, c.nameLen = uint32(len(u.ix.names)), uint16(len(name))
		u.ix.names = append(u.ix.names, name...)
	}
	if len(u.ix.names) != total {
		return fmt.Errorf("the names fall short of their length, %d", total)
	}
	return nil
}

func (u *unpacker) countryColumn() error {
	for i := range u.ix.cities {
		if len(u.countries) == 0 {
			return fmt.Errorf("city %d: no countries", i)
		}
		k, err := u.count(uint64(len(u.countries)-1), "country", i)
		if err != nil {
			return err
		}
		u.ix.cities[i].country = u.countries[k]
	}
	return nil
}

func (u *unpacker) stateColumn() error {
	for i := range u.ix.cities {
		k, err := u.count(uint64(len(u.ix.states)), "state", i)
		if err != nil {
			return err
		}
		u.ix.cities[i].state = uint32(k)
	}
	return nil
}

// positions reads the latitudes and longitudes, and places each city on
// the reference's Earth as Index.add does.
func (u *unpacker) positions() error {
	n := len(u.ix.cities)
	lats, lons := make([]int32, n), make([]int32, n)
	buf := make([]byte, 4*n)
	for axis, values := range [][]int32{lats, lons} {
		if err := u.full(buf); err != nil {
			return err
		}
		most, v := int64(90*coordScale), int64(0)
		if axis == 1 {
			most = 180 * coordScale
		}
		for i := range values {
			z := uint32(buf[i]) | uint32(buf[n+i])<<8 | uint32(buf[2*n+i])<<16 | uint32(buf[3*n+i])<<24
			v += int64(int32(z>>1) ^ -int32(z&1))
			if v < -most || v > most {
				return fmt.Errorf("city %d: %s %g is off the globe", i, [2]string{"latitude", "longitude"}[axis], float64(v)/coordScale)
			}
			values[i] = int32(v)
		}
	}
	for i := range u.ix.cities {
		c := &u.ix.cities[i]
		c.x, c.y, c.z = earthPoint(float64(lats[i])/coordScale, float64(lons[i])/coordScale)
	}
	return nil
}
