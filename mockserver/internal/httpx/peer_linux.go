package httpx

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// peerClosed says whether the peer of a TCP connection has closed or reset
// it, from the kernel's view of the connection: anything but established.
func peerClosed(c syscall.Conn) bool {
	rc, err := c.SyscallConn()
	if err != nil {
		return false
	}
	closed := false
	_ = rc.Control(func(fd uintptr) {
		info, err := unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
		closed = err == nil && info.State != tcpEstablished
	})
	return closed
}

// tcpEstablished is the kernel's TCP_ESTABLISHED state (x/sys names the
// states only among its BPF constants).
const tcpEstablished = unix.BPF_TCP_ESTABLISHED
