//go:build !linux

package httpx

import "syscall"

// peerClosed cannot look at the connection's state here: a request waiting
// with its body unread ends with its wait, or when net/http notices.
func peerClosed(syscall.Conn) bool { return false }
