package mockserver

import (
	"net/http"

	"github.com/mediaspec/mediaspec/openapi"
)

// handleSpecJSON serves the project's OpenAPI document as JSON, without credentials.
func handleSpecJSON() http.Handler {
	doc := openapi.JSON()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeRawJSON(w, http.StatusOK, doc)
	})
}

// handleSpecYAML serves the project's OpenAPI document as YAML, without credentials.
func handleSpecYAML() http.Handler {
	doc := openapi.YAML()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/yaml")
		_, _ = w.Write(doc)
	})
}
