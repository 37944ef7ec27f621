// Package password hashes the mock's user passwords with Argon2id and checks
// them, in the PHC string format
// ($argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>) that other tools read.
// The mock stores only these hashes, in its state and in dataset files.
package password

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"

	"golang.org/x/crypto/argon2"
)

// The cost, OWASP's minimum for Argon2id: 19 MiB, two passes, one lane.
const (
	memoryKiB = 19 * 1024
	passes    = 2
	lanes     = 1
	keyLen    = 32
	saltLen   = 16
)

// Each hash holds its memory (19 MiB, up to maxMemoryKiB for a stored one)
// while it runs: at most one hash per CPU runs at once, so that a burst of
// logins costs time, not gigabytes. Hashing is CPU-bound: more at once
// would not end sooner.
var slots = make(chan struct{}, runtime.GOMAXPROCS(0))

// derive is argon2.IDKey, taking a slot; a test counts the hashes running.
var derive = argon2.IDKey

// derived counts the hashes made: what a caller spent, for its tests.
var derived atomic.Int64

func idKey(pw, salt []byte, passes, memory uint32, lanes uint8, n uint32) []byte {
	slots <- struct{}{}
	defer func() { <-slots }()
	derived.Add(1)
	return derive(pw, salt, passes, memory, lanes, n)
}

// Derived is how many hashes this process has made so far.
func Derived() int64 { return derived.Load() }

// CheckNone spends on pw what checking it against a hash of the mock's
// cost spends, and finds nothing: a login for an email that names no one
// takes as long as one with a wrong password, so that its time does not
// tell which emails exist.
func CheckNone(pw string) {
	_ = idKey([]byte(pw), make([]byte, saltLen), passes, memoryKiB, lanes, keyLen)
}

// ErrMalformed is a stored hash that cannot be read.
var ErrMalformed = errors.New("not an argon2id hash in the PHC string format")

// Hash hashes pw with a new random salt.
func Hash(pw string) string {
	salt := make([]byte, saltLen)
	_, _ = rand.Read(salt) // crypto/rand.Read never fails
	return HashWithSalt(pw, salt)
}

// HashWithSalt hashes pw with the given salt: the data generator derives the
// salt from its seed, so that the same seed gives the same dataset.
func HashWithSalt(pw string, salt []byte) string {
	key := idKey([]byte(pw), salt, passes, memoryKiB, lanes, keyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, memoryKiB, passes, lanes, enc.EncodeToString(salt), enc.EncodeToString(key))
}

// Check says whether pw is the password of hash. A hash that cannot be read
// is an error, so that a broken dataset is found when it is loaded.
func Check(hash, pw string) (bool, error) {
	p, err := parse(hash)
	if err != nil {
		return false, err
	}
	key := idKey([]byte(pw), p.salt, p.passes, p.memory, p.lanes, uint32(len(p.key)))
	return subtle.ConstantTimeCompare(key, p.key) == 1, nil
}

// Valid checks that hash can be read, without the cost of hashing.
func Valid(hash string) error {
	_, err := parse(hash)
	return err
}

type params struct {
	memory, passes uint32
	lanes          uint8
	salt, key      []byte
}

// Bounds on what a stored hash may ask for, so that a hand-edited dataset
// cannot make every login take seconds or gigabytes.
const (
	maxMemoryKiB = 256 * 1024
	maxPasses    = 10
)

func parse(hash string) (params, error) {
	var p params
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, ErrMalformed
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return p, fmt.Errorf("%w: version %q", ErrMalformed, parts[2])
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.memory, &p.passes, &p.lanes); err != nil {
		return p, fmt.Errorf("%w: parameters %q", ErrMalformed, parts[3])
	}
	if p.memory < 8*uint32(p.lanes) || p.memory > maxMemoryKiB || p.passes < 1 || p.passes > maxPasses || p.lanes < 1 {
		return p, fmt.Errorf("%w: parameters %q out of bounds", ErrMalformed, parts[3])
	}
	var err error
	enc := base64.RawStdEncoding
	if p.salt, err = enc.DecodeString(parts[4]); err != nil || len(p.salt) < 8 {
		return p, fmt.Errorf("%w: salt", ErrMalformed)
	}
	if p.key, err = enc.DecodeString(parts[5]); err != nil || len(p.key) < 16 || len(p.key) > 64 {
		return p, fmt.Errorf("%w: key", ErrMalformed)
	}
	return p, nil
}
