package store

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
)

// newUUID returns a random (version 4) UUID for an object created at run time.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// newSecret returns n random bytes as base64url without padding: how the
// reference writes shared link keys (n = 50).
func newSecret(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
