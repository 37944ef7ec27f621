package dto

import (
	"net/url"
	"strings"
	"time"
)

// More of class-validator's decorators, and a way to declare a rule of
// the mock's own.

// Check is a rule of the mock's own: check, with message ($property is
// the property's name).
func Check(check func(v any) bool, message string) Rule {
	return Rule{check: check, message: message}
}

// IsURL holds for a URL, as class-validator's IsUrl takes one near
// enough: no blanks, a host (or, with a scheme, anything after it).
func IsURL() Rule {
	return Rule{check: func(v any) bool {
		s, ok := v.(string)
		if !ok || s == "" || strings.ContainsAny(s, " \t\r\n") {
			return false
		}
		u, err := url.Parse(s)
		if err != nil {
			return false
		}
		if u.Scheme != "" && (u.Host != "" || u.Opaque != "" || u.Path != "") {
			return true
		}
		host := u.Host
		if host == "" {
			host, _, _ = strings.Cut(u.Path, "/")
		}
		return host != "" && !strings.HasPrefix(host, ".") && !strings.HasSuffix(host, ".")
	}, message: "$property must be a URL address"}
}

// MaxDate holds for a date no later than now() says, with message: the
// upstream's MaxDate(() => new Date(), {message}).
func MaxDate(now func() time.Time, message string) Rule {
	return Rule{check: func(v any) bool {
		t, ok := v.(time.Time)
		return ok && !t.After(now())
	}, message: message}
}
