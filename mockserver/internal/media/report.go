package media

import (
	"slices"
	"strings"
)

// Keys are the keys of the blobs of kind the folder keeps, sorted, but the
// posters' (shared by every video of a size, named by no record).
func (m *Folder) Keys(kind Kind) []string {
	m.mu.Lock()
	var keys []string
	for k := range m.blobs {
		if k.kind == kind && !strings.HasPrefix(k.key, "poster-") {
			keys = append(keys, k.key)
		}
	}
	m.mu.Unlock()
	slices.Sort(keys)
	return keys
}
