package openapi

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestYAMLAndJSONAreTheSameDocument(t *testing.T) {
	yamlDoc, jsonDoc := YAML(), JSON()
	require.True(t, json.Valid(jsonDoc), "JSON() is valid JSON")
	assert.YAMLEq(t, string(yamlDoc), string(jsonDoc))
	assert.True(t, bytes.HasPrefix(jsonDoc, []byte(`{"openapi":"3.0.3","info":`)), "keys keep the YAML's order")

	// Both load to the same document.
	fromYAML, err := openapi3.NewLoader().LoadFromData(yamlDoc)
	require.NoError(t, err)
	fromJSON, err := openapi3.NewLoader().LoadFromData(jsonDoc)
	require.NoError(t, err)
	assert.JSONEq(t, string(encode(t, fromYAML)), string(encode(t, fromJSON)))

	// Callers get their own copies.
	YAML()[0] = 'X'
	assert.Equal(t, yamlDoc, YAML())
}

func encode(t *testing.T, doc *openapi3.T) []byte {
	t.Helper()
	b, err := json.Marshal(doc)
	require.NoError(t, err)
	return b
}
