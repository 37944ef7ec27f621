package mockserver

import (
	"errors"
	"fmt"
)

// errorCode is the kind of a domain error: what went wrong, in the store's
// terms. The HTTP layer maps each code to a status in one place (answerOf).
type errorCode int

// The kinds of domain error.
const (
	// errInvalid: the request asks for something the contract refuses.
	errInvalid errorCode = iota + 1
	// errNotFound: the object named does not exist for the caller.
	errNotFound
	// errNoAccess: the object exists, but the caller may not do this to it.
	errNoAccess
	// errConflict: the request collides with what is already stored.
	errConflict
	// errUnauthenticated: the credentials name nobody, or nobody any more.
	errUnauthenticated
	// errForbidden: the principal is known but may not use this operation.
	errForbidden
	// errInternal: the mock broke one of its own invariants; a bug.
	errInternal
)

// domainError is an error of the store: its kind, and its message in the
// API's words (a string, or for field validation a list of strings). An
// internal error's message is for the log, never for the client.
type domainError struct {
	code    errorCode
	message any
}

func (e *domainError) Error() string { return fmt.Sprint(e.message) }

// fail makes a domain error with a single message.
func fail(code errorCode, format string, args ...any) *domainError {
	return &domainError{code: code, message: fmt.Sprintf(format, args...)}
}

// invalidFields is the validation error that lists every failed rule.
func invalidFields(problems []string) *domainError {
	return &domainError{code: errInvalid, message: problems}
}

// internal wraps a broken invariant of the mock as an internal error; a
// domain error that a step of the write returned stays what it is.
func internal(err error) *domainError {
	if de, ok := errors.AsType[*domainError](err); ok {
		return de
	}
	return &domainError{code: errInternal, message: err.Error()}
}
