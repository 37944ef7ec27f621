//go:build !unix

package media

// noFollow: elsewhere, the real path's check alone.
const noFollow = 0
