package sqldoor

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"
)

// Protocol codes of the startup message's first word.
const (
	protocol3   = 196608   // 3.0
	sslRequest  = 80877103 // answered N: no TLS here
	gssRequest  = 80877104 // answered N: no GSSAPI encryption either
	cancelCode  = 80877102 // nothing runs long enough to cancel
	backendPID  = 4242
	unnamedName = ""
)

// conn is one client's connection.
type conn struct {
	nc  net.Conn
	r   *bufio.Reader
	w   *writer
	ex  Executor
	cfg Config

	prepared map[string]kept // by name; "" is the unnamed one
	portals  map[string]kept // bound statements, by portal name
	held     int             // the bytes of the prepared statements and portals
	failed   bool            // an extended-query error: skip to Sync
}

// kept is a statement a connection holds, and the bytes it was made of
// (its query's, and a portal's parameters'), which maxHeld bounds.
type kept struct {
	st   Statement
	size int
}

// keep holds k under name in m (prepared or portals), in place of what
// was there, within the bounds of a connection.
func (c *conn) keep(m map[string]kept, name string, k kept, what string) error {
	old, exists := m[name]
	if !exists && len(m) >= maxPrepared {
		return Errorf(CodeLimit, "a connection may hold at most %d %s", maxPrepared, what)
	}
	if c.held-old.size+k.size > maxHeld {
		return heldError()
	}
	c.held += k.size - old.size
	m[name] = k
	return nil
}

func heldError() error {
	return Errorf(CodeLimit, "a connection may hold at most %d KiB of prepared statements and portals", maxHeld>>10)
}

// drop lets go of what m holds under name.
func (c *conn) drop(m map[string]kept, name string) {
	c.held -= m[name].size
	delete(m, name)
}

func newConn(nc net.Conn, ex Executor, cfg Config) *conn {
	return &conn{
		nc: nc, r: bufio.NewReader(nc), w: newWriter(nc), ex: ex, cfg: cfg,
		prepared: map[string]kept{}, portals: map[string]kept{},
	}
}

// errClosed ends a connection quietly: the client said goodbye, or went.
var errClosed = errors.New("connection closed")

// serve runs a connection: the startup, then messages until the client
// terminates, goes, or breaks the protocol.
func (c *conn) serve() {
	_ = c.nc.SetDeadline(time.Now().Add(startupTimeout))
	if err := c.startup(); err != nil {
		c.fatal(err)
		return
	}
	for {
		_ = c.nc.SetReadDeadline(time.Now().Add(c.cfg.IdleTimeout))
		typ, body, err := c.readMessage()
		if err != nil {
			c.fatal(err)
			return
		}
		_ = c.nc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if err := c.handle(typ, body); err != nil {
			c.fatal(err)
			return
		}
	}
}

// fatal tells the client why its connection ends, where it is the
// client's doing and the connection still takes words.
func (c *conn) fatal(err error) {
	var pe *Error
	if errors.As(err, &pe) {
		_ = c.nc.SetWriteDeadline(time.Now().Add(time.Second))
		c.w.error("FATAL", pe)
	}
	_ = c.w.flush()
}

// startup reads the startup message (after any TLS or GSSAPI request,
// refused), checks the password and says the connection is ready.
func (c *conn) startup() error {
	for {
		var head [4]byte
		if _, err := io.ReadFull(c.r, head[:]); err != nil {
			return errClosed
		}
		n := int(binary.BigEndian.Uint32(head[:]))
		if n < 8 || n > maxStartup {
			return Errorf(CodeProtocol, "invalid length of startup packet")
		}
		body := make([]byte, n-4)
		if _, err := io.ReadFull(c.r, body); err != nil {
			return errClosed
		}
		switch code := binary.BigEndian.Uint32(body[:4]); code {
		case sslRequest, gssRequest:
			if _, err := c.nc.Write([]byte{'N'}); err != nil {
				return errClosed
			}
			continue
		case cancelCode:
			return errClosed
		case protocol3:
			params, ok := startupParams(body[4:])
			if !ok {
				return Errorf(CodeProtocol, "invalid startup packet layout: expected terminator as last byte")
			}
			return c.authenticate(params["user"])
		default:
			return Errorf(CodeProtocol, "unsupported frontend protocol %d.%d: server supports 3.0 to 3.0", code>>16, code&0xffff)
		}
	}
}

// startupParams reads the startup message's name, value pairs.
func startupParams(b []byte) (map[string]string, bool) {
	out := map[string]string{}
	for {
		name, rest, ok := cString(b)
		if !ok {
			return nil, false
		}
		if name == "" {
			return out, len(rest) == 0
		}
		value, rest2, ok := cString(rest)
		if !ok {
			return nil, false
		}
		out[name], b = value, rest2
	}
}

// authenticate asks for the password, md5-hashed, and checks it.
func (c *conn) authenticate(user string) error {
	if user == "" {
		return Errorf(CodeProtocol, "no PostgreSQL user name specified in startup packet")
	}
	salt := newSalt()
	c.w.begin('R')
	c.w.int32(5)
	c.w.bytes(salt[:])
	c.w.end()
	if err := c.w.flush(); err != nil {
		return errClosed
	}
	typ, body, err := c.readMessage()
	if err != nil {
		return err
	}
	sent, _, ok := cString(body)
	if typ != 'p' || !ok || !samePassword(sent, md5Password(user, c.cfg.Password, salt)) {
		return Errorf(CodePassword, "password authentication failed for user %q", user)
	}
	c.w.begin('R')
	c.w.int32(0)
	c.w.end()
	for _, kv := range [][2]string{
		{"server_version", "14.0 (mediaspec)"}, {"server_encoding", "UTF8"}, {"client_encoding", "UTF8"},
		{"DateStyle", "ISO, MDY"}, {"integer_datetimes", "on"}, {"standard_conforming_strings", "on"},
		{"TimeZone", "UTC"}, {"application_name", ""},
	} {
		c.w.begin('S')
		c.w.cstring(kv[0])
		c.w.cstring(kv[1])
		c.w.end()
	}
	c.w.begin('K')
	c.w.int32(backendPID)
	c.w.int32(0)
	c.w.end()
	c.ready()
	return c.w.flush()
}

// readMessage reads one message: its type and body, within MaxMessage.
func (c *conn) readMessage() (byte, []byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(c.r, head[:]); err != nil {
		return 0, nil, errClosed
	}
	n := int(binary.BigEndian.Uint32(head[1:]))
	if n < 4 {
		return 0, nil, Errorf(CodeProtocol, "invalid message length")
	}
	if n-4 > MaxMessage {
		return 0, nil, Errorf(CodeLimit, "a message may be at most %d bytes; this one is %d", MaxMessage, n-4)
	}
	body := make([]byte, n-4)
	if _, err := io.ReadFull(c.r, body); err != nil {
		return 0, nil, errClosed
	}
	return head[0], body, nil
}

// ready is ReadyForQuery, idle (the door holds no transaction open).
func (c *conn) ready() {
	c.w.begin('Z')
	c.w.byte('I')
	c.w.end()
}

// handle answers one message. An error it returns ends the connection.
func (c *conn) handle(typ byte, body []byte) error {
	if c.failed && typ != 'S' && typ != 'X' {
		return nil // the rest of a failed extended query, up to its Sync
	}
	var err error
	switch typ {
	case 'Q':
		return c.simpleQuery(body)
	case 'P':
		err = c.parse(body)
	case 'B':
		err = c.bind(body)
	case 'D':
		err = c.describe(body)
	case 'E':
		err = c.execute(body)
	case 'C':
		err = c.closeOne(body)
	case 'H':
		return c.w.flush()
	case 'S':
		c.failed = false
		c.ready()
		return c.w.flush()
	case 'X':
		return errClosed
	default:
		return Errorf(CodeProtocol, "invalid frontend message type %d", typ)
	}
	if pe, ok := errors.AsType[*Error](err); ok {
		c.w.error("ERROR", pe)
		c.failed = true
		return nil
	}
	return err
}

// simpleQuery runs a Query message: its statements in order, each
// answered; an error stops it.
func (c *conn) simpleQuery(body []byte) error {
	q, _, ok := cString(body)
	if !ok {
		return Errorf(CodeProtocol, "invalid string in message")
	}
	stmts, err := Parse(q)
	if err == nil && len(stmts) == 0 {
		c.w.begin('I')
		c.w.end()
	}
	for _, st := range stmts {
		if st.Params > 0 {
			err = Errorf(CodeSyntax, "there is no parameter $%d", st.Params)
			break
		}
	}
	if err == nil && len(stmts) > 0 {
		err = c.run(stmts)
	}
	if err != nil {
		c.w.error("ERROR", asError(err))
	}
	c.ready()
	return c.w.flush()
}

// run hands statements to the executor and answers their tags.
func (c *conn) run(stmts []Statement) error {
	start := time.Now()
	tags, err := c.ex.Exec(stmts)
	for _, t := range tags {
		c.w.begin('C')
		c.w.cstring(t)
		c.w.end()
	}
	if log := c.cfg.Logger; log != nil {
		attrs := []any{"remote", c.nc.RemoteAddr().String(), "done", strings.Join(tags, ", "), "duration", time.Since(start)}
		if err != nil {
			attrs = append(attrs, "error", asError(err).Message)
		}
		log.Info("sql", attrs...)
	}
	return err
}

// asError is err as Postgres would tell it: its own *Error, or an
// internal error that says no more of Go than that something failed.
func asError(err error) *Error {
	if pe, ok := errors.AsType[*Error](err); ok {
		return pe
	}
	return Errorf(CodeInternal, "the mock could not carry out the statement: %v", err)
}

// parse is a Parse message: a statement prepared under a name.
func (c *conn) parse(body []byte) error {
	name, rest, ok := cString(body)
	q, rest, ok2 := cString(rest)
	if !ok || !ok2 || len(rest) < 2 {
		return Errorf(CodeProtocol, "invalid Parse message")
	}
	if c.held-c.prepared[name].size+len(q) > maxHeld {
		return heldError() // before reading it
	}
	stmts, err := Parse(q)
	if err != nil {
		return err
	}
	if len(stmts) > 1 {
		return Errorf(CodeSyntax, "cannot insert multiple commands into a prepared statement")
	}
	if _, exists := c.prepared[name]; exists && name != unnamedName {
		return Errorf("42P05", "prepared statement %q already exists", name)
	}
	var st Statement // an empty query prepares nothing to run
	if len(stmts) == 1 {
		st = stmts[0]
	}
	if err := c.keep(c.prepared, name, kept{st, len(q)}, "prepared statements"); err != nil {
		return err
	}
	c.w.begin('1')
	c.w.end()
	return nil
}

// bind is a Bind message: a prepared statement given its parameters, as a
// portal. Parameters come as text; a binary one is refused.
func (c *conn) bind(body []byte) error {
	m := reader{b: body}
	portal, stmtName := m.cstring(), m.cstring()
	formats := make([]int16, m.count())
	for i := range formats {
		formats[i] = m.int16()
	}
	args := make([]*string, m.count())
	for i := range args {
		n := m.int32()
		if n >= 0 {
			v := string(m.take(int(n)))
			args[i] = &v
		}
	}
	if m.bad {
		return Errorf(CodeProtocol, "invalid Bind message")
	}
	for i, f := range formats {
		if f != 0 && (len(formats) == 1 || (i < len(args) && args[i] != nil)) {
			return Errorf(CodeNotSupported, "parameters are taken as text here, not binary")
		}
	}
	prep, ok := c.prepared[stmtName]
	if !ok {
		return Errorf("26000", "prepared statement %q does not exist", stmtName)
	}
	bound, err := prep.st.Bind(args)
	if err != nil {
		return err
	}
	if err := c.keep(c.portals, portal, kept{bound, prep.size + len(body)}, "portals"); err != nil {
		return err
	}
	c.w.begin('2')
	c.w.end()
	return nil
}

// describe is a Describe message: the door's statements take text
// parameters and answer no rows.
func (c *conn) describe(body []byte) error {
	if len(body) < 2 {
		return Errorf(CodeProtocol, "invalid Describe message")
	}
	name, _, ok := cString(body[1:])
	if !ok {
		return Errorf(CodeProtocol, "invalid Describe message")
	}
	switch body[0] {
	case 'S':
		prep, ok := c.prepared[name]
		if !ok {
			return Errorf("26000", "prepared statement %q does not exist", name)
		}
		c.w.begin('t')
		c.w.int16(int16(prep.st.Params))
		for range prep.st.Params {
			c.w.int32(25) // text
		}
		c.w.end()
	case 'P':
		if _, ok := c.portals[name]; !ok {
			return Errorf("34000", "portal %q does not exist", name)
		}
	default:
		return Errorf(CodeProtocol, "invalid DESCRIBE message subtype %d", body[0])
	}
	c.w.begin('n') // NoData
	c.w.end()
	return nil
}

// execute is an Execute message: a portal run.
func (c *conn) execute(body []byte) error {
	name, _, ok := cString(body)
	if !ok {
		return Errorf(CodeProtocol, "invalid Execute message")
	}
	p, ok := c.portals[name]
	if !ok {
		return Errorf("34000", "portal %q does not exist", name)
	}
	if name == unnamedName {
		c.drop(c.portals, name)
	}
	st := p.st
	if st.Kind == 0 {
		c.w.begin('I')
		c.w.end()
		return nil
	}
	return c.run([]Statement{st})
}

// closeOne is a Close message: a prepared statement or portal let go.
func (c *conn) closeOne(body []byte) error {
	if len(body) < 2 {
		return Errorf(CodeProtocol, "invalid Close message")
	}
	name, _, ok := cString(body[1:])
	if !ok {
		return Errorf(CodeProtocol, "invalid Close message")
	}
	switch body[0] {
	case 'S':
		c.drop(c.prepared, name)
	case 'P':
		c.drop(c.portals, name)
	default:
		return Errorf(CodeProtocol, "invalid CLOSE message subtype %d", body[0])
	}
	c.w.begin('3')
	c.w.end()
	return nil
}

// cString reads a NUL-terminated string at the start of b.
func cString(b []byte) (string, []byte, bool) {
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return "", nil, false
	}
	return string(b[:i]), b[i+1:], true
}

// reader reads a message's fields; past its end it reads zeros and is bad.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) take(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.bad = true
		r.b = nil
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) int16() int16 {
	b := r.take(2)
	if b == nil {
		return 0
	}
	return int16(binary.BigEndian.Uint16(b))
}

// count reads a count of what follows: an int16 that is never negative.
func (r *reader) count() int {
	n := r.int16()
	if n < 0 {
		r.bad = true
		return 0
	}
	return int(n)
}

func (r *reader) int32() int32 {
	b := r.take(4)
	if b == nil {
		return 0
	}
	return int32(binary.BigEndian.Uint32(b))
}

func (r *reader) cstring() string {
	s, rest, ok := cString(r.b)
	if !ok {
		r.bad = true
		r.b = nil
		return ""
	}
	r.b = rest
	return s
}

// writer buffers the server's messages.
type writer struct {
	bw  *bufio.Writer
	msg []byte // the message being built
	typ byte
}

func newWriter(w io.Writer) *writer { return &writer{bw: bufio.NewWriter(w)} }

func (w *writer) begin(typ byte) { w.typ, w.msg = typ, w.msg[:0] }

func (w *writer) byte(b byte)      { w.msg = append(w.msg, b) }
func (w *writer) bytes(b []byte)   { w.msg = append(w.msg, b...) }
func (w *writer) int16(v int16)    { w.msg = binary.BigEndian.AppendUint16(w.msg, uint16(v)) }
func (w *writer) int32(v int32)    { w.msg = binary.BigEndian.AppendUint32(w.msg, uint32(v)) }
func (w *writer) cstring(s string) { w.msg = append(append(w.msg, s...), 0) }

// end writes the message built since begin.
func (w *writer) end() {
	_ = w.bw.WriteByte(w.typ)
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(w.msg)+4))
	_, _ = w.bw.Write(n[:])
	_, _ = w.bw.Write(w.msg)
}

// error writes an ErrorResponse of severity (ERROR or FATAL).
func (w *writer) error(severity string, e *Error) {
	w.begin('E')
	for _, f := range []struct {
		code byte
		v    string
	}{{'S', severity}, {'V', severity}, {'C', e.Code}, {'M', strings.ReplaceAll(e.Message, "\x00", "")}} {
		w.byte(f.code)
		w.cstring(f.v)
	}
	w.byte(0)
	w.end()
}

func (w *writer) flush() error {
	if err := w.bw.Flush(); err != nil {
		return fmt.Errorf("answering: %w", err)
	}
	return nil
}
