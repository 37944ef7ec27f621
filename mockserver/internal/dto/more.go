package dto

import (
	"encoding/json"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// More of class-validator's and class-transformer's decorators, and a
// way to declare a rule of the mock's own.

// notANumber is what ToNumber makes of a value JavaScript's Number() reads
// as NaN: no rule on numbers holds for it.
type notANumber struct{}

// ToNumber is class-transformer's Type(() => Number): a value that is
// not null becomes Number(value), as JavaScript reads it (a numeric
// string, a boolean as 0 or 1, "" and [] as 0); anything else is NaN.
func ToNumber() Decorator {
	return Transform(func(_ string, v any) (any, error) { return jsNumber(v), nil })
}

func jsNumber(v any) any {
	switch t := v.(type) {
	case nil, json.Number:
		return v
	case bool:
		if t {
			return json.Number("1")
		}
		return json.Number("0")
	case string:
		s := strings.TrimSpace(t)
		if s == "" {
			return json.Number("0")
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !strings.ContainsAny(s, "_xXpP") && !strings.EqualFold(s, "nan") {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
	case []any:
		switch len(t) {
		case 0:
			return json.Number("0")
		case 1:
			if _, isList := t[0].([]any); !isList {
				return jsNumber(t[0])
			}
		}
	}
	return notANumber{}
}

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
