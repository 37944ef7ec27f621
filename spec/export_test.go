package spec

import (
	"context"
	"net/http"
	"os"

	"github.com/getkin/kin-openapi/openapi3filter"
)

// ValidateRequest, for the tests, checks r's parameters and body against its operation.
// Credentials are not checked. The body is read and put back, so r can still
// be sent or served. It returns *Violations when r does not conform, and an
// error wrapping ErrNoOperation when no operation matches r.
func (v *Validator) ValidateRequest(ctx context.Context, r *http.Request) error {
	route, params, err := v.route(r)
	if err != nil {
		return err
	}
	err = openapi3filter.ValidateRequest(ctx, &openapi3filter.RequestValidationInput{
		Request:    r,
		PathParams: params,
		Route:      route,
		Options:    v.requestOptions,
	})
	if err == nil {
		return nil
	}
	return &Violations{List: dedupe(collect(nil, "", err))}
}

// LoadFile, for the tests, returns a Validator for the document at path.
func LoadFile(ctx context.Context, path string) (*Validator, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return LoadDocument(ctx, data)
}
