package conformance

import (
	"encoding/json"
	"io"
)

// WriteCoverage writes what the run's answers showed of the OpenAPI
// document as JSON: for every operation, the statuses received and those
// never received, the fields present and those never present, the enum
// values seen and those never seen; and the operations never exercised.
func WriteCoverage(w io.Writer, res Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(res.Coverage)
}
