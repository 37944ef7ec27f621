package store

// Limits on stored texts, far above any real one and far below what could
// hurt the mock. The store refuses a record past one; the HTTP layer tells
// a client the same bound in the API's words.
const (
	// MaxNameChars bounds every name (users, keys, albums, storage labels).
	MaxNameChars = 1024
	// MaxEmailChars bounds an email: the longest address mail allows.
	MaxEmailChars = 254
	// MaxPasswordChars bounds a password: hashing reads all of it.
	MaxPasswordChars = 1024
	// MaxDescriptionChars bounds every description.
	MaxDescriptionChars = 4096
	// MaxFileNameBytes bounds a file name, in bytes, as file systems count.
	MaxFileNameBytes = 255
)
