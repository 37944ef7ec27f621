//go:build !unix

package mockserver

// fileLimit cannot be read here.
func fileLimit() (int64, bool) { return 0, false }
