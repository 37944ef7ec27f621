package live

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
)

// The few frames of engine.io 4 and socket.io 5 that the reference's
// clients (socket.io-client 4.7, websocket transport) exchange with it.
// An engine.io packet is one websocket text message: its type as one
// digit, then its data. A socket.io packet rides in an engine.io message
// (type 4): its type as one digit, a namespace other than "/" as "/nsp,",
// then its JSON data.
const (
	engineOpen    = '0'
	engineClose   = '1'
	enginePing    = '2'
	enginePong    = '3'
	engineMessage = '4'
	engineUpgrade = '5'
	engineNoop    = '6'

	socketConnect    = '0'
	socketDisconnect = '1'
	socketEvent      = '2'
	socketError      = '4'
)

// The engine's timings and bound, as the reference announces them in its
// open packet: a ping every 25 s, a pong due within 20 s, messages of at
// most 1,000,000 bytes.
const (
	defaultPingInterval = 25_000 // milliseconds
	defaultPingTimeout  = 20_000
	maxPayload          = 1_000_000
)

// Frames that never change.
const (
	pingFrame         = "2"
	disconnectFrame   = "41"
	unauthorizedFrame = `42["error","unauthorized"]`
)

// openFrame is the engine's open packet: the session's id, no upgrades
// (the reference serves the websocket transport only), its timings and
// bound.
func openFrame(sid string, pingInterval, pingTimeout int64) []byte {
	b, _ := json.Marshal(struct {
		SID          string   `json:"sid"`
		Upgrades     []string `json:"upgrades"`
		PingInterval int64    `json:"pingInterval"`
		PingTimeout  int64    `json:"pingTimeout"`
		MaxPayload   int      `json:"maxPayload"`
	}{sid, []string{}, pingInterval, pingTimeout, maxPayload})
	return append([]byte{engineOpen}, b...)
}

// connectFrame is socket.io's answer to a connect to the main namespace:
// the socket's id.
func connectFrame(sid string) []byte {
	return fmt.Appendf(nil, `40{"sid":%q}`, sid)
}

// invalidNamespaceFrame refuses a connect to any namespace but "/", in the
// reference's words.
func invalidNamespaceFrame(nsp string) []byte {
	b, _ := json.Marshal(nsp)
	if len(b) < 2 {
		return nil
	}
	// The namespace as the client sent it (it ends at the first comma and
	// is plain text); JSON-escaped, then unquoted, so that no control
	// character or quote of a hostile client comes back raw.
	return fmt.Appendf(nil, `%c%c%s,{"message":"Invalid namespace"}`, engineMessage, socketError, b[1:len(b)-1])
}

// eventFrame is an event as socket.io sends it: 42["name",payload].
func eventFrame(event string, payload any) ([]byte, error) {
	b, err := json.Marshal([]any{event, payload})
	if err != nil {
		return nil, err
	}
	return append([]byte{engineMessage, socketEvent}, b...), nil
}

// namespace is the namespace of a socket.io packet's rest (after its type):
// "/" unless it starts with "/name,".
func namespace(rest []byte) string {
	if len(rest) == 0 || rest[0] != '/' {
		return "/"
	}
	if i := bytes.IndexByte(rest, ','); i >= 0 {
		return string(rest[:i])
	}
	return string(rest)
}

// newID is a session or socket id as engine.io makes them: 15 random
// bytes, base64url, 20 characters.
func newID() string {
	var b [15]byte
	_, _ = rand.Read(b[:])
	return base64.URLEncoding.EncodeToString(b[:])
}
