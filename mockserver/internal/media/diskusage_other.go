//go:build !unix

package media

// DiskUsage is the size of the disk that holds dir: not read on this system.
func DiskUsage(dir string) (total, free, available int64) { return 0, 0, 0 }
