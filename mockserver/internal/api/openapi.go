package api

import (
	"net/http"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
)

// specJSON serves the project's OpenAPI document as JSON, without credentials.
func (s *server) specJSON(c *call) error {
	httpx.WriteTagged(c.w, http.StatusOK, s.openapiJSON, s.openapiETag)
	return nil
}

// specYAML serves the project's OpenAPI document as YAML, without credentials.
func (s *server) specYAML(c *call) error {
	c.w.Header().Set("Content-Type", "application/yaml")
	_, _ = c.w.Write(s.openapiYAML)
	return nil
}
