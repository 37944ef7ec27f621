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

// MaxMadeRecords bounds the records callers make beside those the store
// was loaded with (users, API keys, sessions, albums, links, people,
// partners, activities, tags, memories, libraries; not assets, which the media folder holds): each
// costs memory for as long as it is kept, and the control API makes users
// for anyone. About 1 KiB each at most, 100 MiB in all.
const MaxMadeRecords = 100_000

// records is how many records of the kinds MaxMadeRecords counts the
// state holds.
func (st *state) records() int {
	return len(st.users) + len(st.apiKeys) + len(st.sessions) + len(st.albums) + len(st.links) + len(st.people) + len(st.partners) + len(st.activities) +
		len(st.tags) + len(st.memories) + len(st.libraries)
}

// room refuses a record more once the state holds the records it was
// loaded with and maxMade more; loading a dataset is never refused.
func (tx *Tx) room() error {
	st := tx.st
	if tx.loading || st.maxMade <= 0 || st.records()-st.base < st.maxMade {
		return nil
	}
	return Fail(Full, "The mock holds as many records as it may: %d made since it started, beside its dataset (users, API keys, sessions, albums, shared links, people, partners, activities, tags, memories). Delete some, or reset it (POST /__mock/reset)", st.maxMade)
}
