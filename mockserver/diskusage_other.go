//go:build !unix

package mockserver

// diskUsage is the size of the disk that holds dir: not read on this system.
func diskUsage(dir string) (total, free, available int64) { return 0, 0, 0 }
