//go:build unix

package media

import "syscall"

// noFollow opens a file only if it is no symbolic link itself.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
