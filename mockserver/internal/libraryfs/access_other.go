//go:build !unix

package libraryfs

import "os"

// readable says whether the process may read the folder path.
func readable(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
