//go:build unix

package libraryfs

import "syscall"

// readable says whether the process may read the folder path, as Node's
// fs.access with R_OK asks.
func readable(path string) bool { return syscall.Access(path, 4 /* R_OK */) == nil }
