//go:build unix

package media

import "syscall"

// DiskUsage is the size of the disk that holds dir, its free bytes, and
// those an unprivileged writer may use; zeros where it cannot be read.
func DiskUsage(dir string) (total, free, available int64) {
	var st syscall.Statfs_t
	if syscall.Statfs(dir, &st) != nil {
		return 0, 0, 0
	}
	bs := int64(st.Bsize) //nolint:unconvert // its type differs by system
	return int64(st.Blocks) * bs, int64(st.Bfree) * bs, int64(st.Bavail) * bs
}
