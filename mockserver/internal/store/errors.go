package store

import (
	"errors"
	"fmt"
)

// Code is the kind of a domain error: what went wrong, in the store's
// terms. The HTTP layer maps each code to a status in one place.
type Code int

// The kinds of domain error.
const (
	// Invalid: the request asks for something the contract refuses.
	Invalid Code = iota + 1
	// NotFound: the object named does not exist for the caller.
	NotFound
	// NoAccess: the object exists, but the caller may not do this to it.
	NoAccess
	// Conflict: the request collides with what is already stored.
	Conflict
	// Unauthenticated: the credentials name nobody, or nobody any more.
	Unauthenticated
	// Forbidden: the principal is known but may not use this operation.
	Forbidden
	// Full: the store holds as many records as it may; nothing more is
	// made until some go.
	Full
	// Internal: the store broke one of its own invariants; a bug.
	Internal
)

// Error is an error of the store: its kind, and its message in the API's
// words (a string, or for field validation a list of strings). An
// internal error's message is for the log, never for the client.
type Error struct {
	Code    Code
	Message any
	cause   error // what lies behind it, for errors.As
}

func (e *Error) Error() string { return fmt.Sprint(e.Message) }

func (e *Error) Unwrap() error { return e.cause }

// Fail makes a domain error with a single message.
func Fail(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// InvalidFields is the validation error that lists every failed rule.
func InvalidFields(problems []string) *Error {
	return &Error{Code: Invalid, Message: problems}
}

// internal wraps a broken invariant of the store as an internal error; a
// domain error that a step of the write returned stays what it is.
func internal(err error) *Error {
	if de, ok := errors.AsType[*Error](err); ok {
		return de
	}
	return &Error{Code: Internal, Message: err.Error()}
}

// CodeOf is err's kind, or 0 when err is no domain error.
func CodeOf(err error) Code {
	if de, ok := errors.AsType[*Error](err); ok {
		return de.Code
	}
	return 0
}
