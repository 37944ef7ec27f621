//go:build !unix

package httpx

// FileLimit cannot be read here.
func FileLimit() (int64, bool) { return 0, false }
