package httpx

import (
	"net/http"
	"strconv"
	"time"
)

// SetCookie sets a cookie as the reference's web framework (Express)
// writes it, attributes in its order: name=value; Max-Age; Path=/;
// Expires; HttpOnly (when asked); SameSite=Lax. Clients that read
// Set-Cookie as text (the upstream's own tests do) find it as there.
func SetCookie(w http.ResponseWriter, name, value string, age time.Duration, httpOnly bool, now time.Time) {
	v := name + "=" + value + "; Max-Age=" + strconv.Itoa(int(age/time.Second)) + "; Path=/; Expires=" +
		now.Add(age).UTC().Format(http.TimeFormat)
	if httpOnly {
		v += "; HttpOnly"
	}
	w.Header().Add("Set-Cookie", v+"; SameSite=Lax")
}

// ClearCookie clears a cookie, as Express's clearCookie writes it.
func ClearCookie(w http.ResponseWriter, name string) {
	w.Header().Add("Set-Cookie", name+"=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT")
}
