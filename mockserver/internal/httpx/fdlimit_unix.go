//go:build unix

package httpx

import "syscall"

// FileLimit is the process's limit of open files.
func FileLimit() (int64, bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur == 0 || rl.Cur > 1<<30 {
		return 0, false
	}
	return int64(rl.Cur), true
}
