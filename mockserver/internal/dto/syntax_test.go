package dto

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The messages below are the reference server's answers to the same
// bodies (Node.js 20, body-parser in strict mode).
func TestSyntaxMessagesAreTheReferences(t *testing.T) {
	for body, want := range map[string]string{
		`{"email":"a"}}`:                 "Unexpected non-whitespace character after JSON at position 13",
		`{"email":"a",}`:                 "Expected double-quoted property name in JSON at position 13",
		`{"email":`:                      "Unexpected end of JSON input",
		`{x}`:                            "Expected property name or '}' in JSON at position 1",
		`x`:                              `Unexpected token 'x', "x" is not valid JSON`,
		`"x"`:                            `Unexpected token '"', ""x"" is not valid JSON`,
		`nul`:                            `Unexpected token 'n', "nul" is not valid JSON`,
		`   `:                            "Unexpected end of JSON input",
		`{"a":1 "b":2}`:                  "Expected ',' or '}' after property value in JSON at position 7",
		`[1 2]`:                          "Expected ',' or ']' after array element in JSON at position 3",
		`{"a" 1}`:                        "Expected ':' after property name in JSON at position 5",
		`{"a":01}`:                       "Unexpected number in JSON at position 6",
		`{"a":-}`:                        "No number after minus sign in JSON at position 6",
		`{"a":1.}`:                       "Unterminated fractional number in JSON at position 7",
		`{"a":1e}`:                       "Exponent part is missing a number in JSON at position 7",
		`{"a":"\x"}`:                     "Bad escaped character in JSON at position 7",
		`{"a":"\u12"}`:                   "Bad Unicode escape in JSON at position 10",
		"{\"a\":\"\x01\"}":               "Bad control character in string literal in JSON at position 6",
		`{"a":"b`:                        "Unterminated string in JSON at position 7",
		`{"albumName":tru}`:              `Unexpected token '}', "{"albumName":tru}" is not valid JSON`,
		`{"albumName":[1,]}`:             `Unexpected token ']', "{"albumName":[1,]}" is not valid JSON`,
		`{"albumName":"Lisbon","x":tru}`: `Unexpected token '}', ..."n","x":tru}" is not valid JSON`,
		`{"albumName":"Lisbon and Porto","assetIds":[1,]}`: `Unexpected token ']', ..."etIds":[1,]}" is not valid JSON`,
		`[object Object]`: `"[object Object]" is not valid JSON`,
	} {
		got, bad := SyntaxMessage([]byte(body))
		assert.True(t, bad, "%s", body)
		assert.Equal(t, want, got, "%s", body)
	}
	for _, body := range []string{``, `{}`, `[]`, `{"a":[1,-2.5e+3,true,false,null,"\u00e9\n"]}`, " {\"a\":{}} \n"} {
		msg, bad := SyntaxMessage([]byte(body))
		assert.False(t, bad, "%s: %s", body, msg)
	}
}

// TestSyntaxMessagesAreNodes sends thousands of broken bodies to Node.js's
// own JSON.parse, behind body-parser's strict check, and compares every
// message; it skips where there is no node.
func TestSyntaxMessagesAreNodes(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the messages are checked against the reference's cases only")
	}
	r := rand.New(rand.NewPCG(1, 2))
	seeds := []string{`{"albumName":"Lisbon","assetIds":["00000000-0000-4000-8000-000000000001"],"albumUsers":[{"userId":"x","role":"viewer"}]}`,
		`[1, -2.5e+10, true, false, null, "é\u00e9\n", {"a": {}}]`, `{"x": "日本語 🎉", "n": 0.5}`}
	var bodies [][]byte
	for range 4000 {
		b := []byte(seeds[r.IntN(len(seeds))])
		for range 1 + r.IntN(3) {
			i := r.IntN(len(b) + 1)
			switch r.IntN(3) {
			case 0: // cut
				b = b[:i]
			case 1: // insert a character that matters to JSON
				c := []byte(`{}[],:"\ 0-1.eE+tfnxu` + "\t\x01")[r.IntN(23)]
				b = append(b[:i:i], append([]byte{c}, b[i:]...)...)
			default: // drop a byte
				if i < len(b) {
					b = append(b[:i:i], b[i+1:]...)
				}
			}
		}
		bodies = append(bodies, b)
	}
	encoded := make([]string, len(bodies))
	for i, b := range bodies {
		encoded[i] = base64.StdEncoding.EncodeToString(b)
	}
	in, err := json.Marshal(encoded)
	require.NoError(t, err)
	script := filepath.Join(t.TempDir(), "parse.js")
	require.NoError(t, os.WriteFile(script, []byte(nodeParse), 0o600))
	cmd := exec.CommandContext(t.Context(), node, script)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	require.NoError(t, err)
	var want []*string
	require.NoError(t, json.Unmarshal(out, &want))
	require.Len(t, want, len(bodies))
	differ := 0
	for i, b := range bodies {
		got, bad := SyntaxMessage(b)
		switch {
		case want[i] == nil && bad:
			t.Errorf("%q: node parses it; the mock says %q", b, got)
		case want[i] != nil && got != *want[i]:
			t.Errorf("%q: node says %q; the mock says %q", b, *want[i], got)
		default:
			continue
		}
		if differ++; differ > 20 {
			t.Fatal("too many differences")
		}
	}
}

// nodeParse is body-parser's strict JSON parsing, as the reference runs it.
const nodeParse = `const fs = require('fs');
const inputs = JSON.parse(fs.readFileSync(0, 'utf8'));
const FIRST = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d])/;
function strict(str, char) {
  const index = str.indexOf(char);
  let partial = '';
  if (index !== -1) {
    partial = str.substring(0, index) + '#';
    for (let i = index + 1; i < str.length; i++) partial += '#';
  }
  try { JSON.parse(partial); return 'strict violation'; }
  catch (e) { return e.message.replace(/#+/g, (p) => str.substring(index, index + p.length)); }
}
process.stdout.write(JSON.stringify(inputs.map((b64) => {
  const body = Buffer.from(b64, 'base64').toString('utf8');
  if (body.length === 0) return null;
  const m = FIRST.exec(body);
  const first = m ? m[1] : undefined;
  if (first !== '{' && first !== '[') return strict(body, first);
  try { JSON.parse(body); return null; } catch (e) { return e.message; }
})));
`
