// Package openapi holds the project's OpenAPI document: written by hand
// from the contract, embedded in the binary, served by the mock at
// /api/openapi.json and /api/openapi.yaml, printed by `mediaspec spec`, and
// read by package spec to validate responses.
package openapi

import (
	"bytes"
	_ "embed" // openapi.yaml
	"encoding/json"
	"fmt"
	"sync"

	"go.yaml.in/yaml/v3"
)

//go:embed openapi.yaml
var document []byte

// YAML returns the project's OpenAPI document as written, in YAML.
func YAML() []byte { return bytes.Clone(document) }

// JSON returns the project's OpenAPI document converted to JSON, keys in the
// order of the YAML. It panics if the embedded document is not valid YAML,
// which the package's tests rule out.
func JSON() []byte { return bytes.Clone(documentJSON()) }

// documentJSON converts the embedded document once per process: every mock
// a process starts serves it, and converting it costs more than starting one.
var documentJSON = sync.OnceValue(func() []byte {
	b, err := yamlToJSON(document)
	if err != nil {
		panic(fmt.Sprintf("openapi: embedded openapi.yaml: %v", err))
	}
	return b
})

// yamlToJSON converts a YAML document to JSON, keeping the order of mapping
// keys (a map round trip would sort them).
func yamlToJSON(in []byte) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(in, &root); err != nil {
		return nil, fmt.Errorf("parse yaml: %w", err)
	}
	var buf bytes.Buffer
	if err := writeJSON(&buf, &root); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

func writeJSON(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return fmt.Errorf("line %d: a document holds %d nodes, want 1", n.Line, len(n.Content))
		}
		return writeJSON(buf, n.Content[0])
	case yaml.AliasNode:
		return writeJSON(buf, n.Alias)
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				buf.WriteByte(',')
			}
			key := n.Content[i]
			if key.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: a mapping key is not a scalar", key.Line)
			}
			if err := writeValue(buf, key.Value); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := writeJSON(buf, n.Content[i+1]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSON(buf, item); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		return writeValue(buf, v)
	default:
		return fmt.Errorf("line %d: unexpected yaml node kind %d", n.Line, n.Kind)
	}
	return nil
}

func writeValue(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encode %v: %w", v, err)
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	return nil
}
