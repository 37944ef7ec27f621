package store

import (
	"fmt"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// MaxListedAssets bounds the assets one user's listing (GET /shared-links)
// shows, counted as the answer lists them: a link's own assets, and an
// ALBUM link's album assets twice (in the album and in the link). An asset
// takes about 2 KiB of JSON, and at most about 4 KiB with every text at its
// limit, so the largest listing stays near 200 MiB (400 MiB at worst),
// however the links were made; it is encoded a link at a time, and kept
// only within the answers' budget. A write that would pass it is refused.
// MaxListed (serve --max-listed-assets) sets another bound.
const MaxListedAssets = 100_000

// linkListed is how many assets the listing shows for l: at most its own
// and twice its album's.
func (st *state) linkListed(l *model.SharedLinkRecord) int {
	n := len(l.AssetIDs)
	if l.AlbumID != nil {
		if al := st.albumByID[*l.AlbumID]; al != nil {
			n += 2 * len(al.AssetIDs)
		}
	}
	return n
}

// listed is how many assets a user's listing shows.
func (st *state) listed(userID string) int {
	n := 0
	for _, l := range st.linksByUser[userID] {
		n += st.linkListed(l)
	}
	return n
}

// tooManyListed is the answer to a write after which a user's listing would
// show n assets, or nil when n is within the bound.
func (st *state) tooManyListed(n int) error {
	if n <= st.maxListed {
		return nil
	}
	return &Error{Code: Invalid, Message: fmt.Sprintf("Too many shared assets: the owner's shared links would list %d assets, and a listing holds at most %d", n, st.maxListed),
		cause: &ListingTooLarge{Listed: n, Bound: st.maxListed}}
}

// ListingTooLarge is why a write, or a dataset, is refused when a user's
// listing would show more assets than the bound: errors.As finds it in
// the store's error.
type ListingTooLarge struct{ Listed, Bound int }

func (e *ListingTooLarge) Error() string {
	return fmt.Sprintf("a listing of %d assets, past the bound of %d", e.Listed, e.Bound)
}

// albumGrowthListed checks that every listing showing the album al, about
// to hold n assets, stays within the bound.
func (st *state) albumGrowthListed(al *model.AlbumRecord, n int) error {
	if st.albumLinks[al.ID] == 0 || n <= len(al.AssetIDs) {
		return nil
	}
	grow := map[string]int{}
	for _, l := range st.links {
		if l.AlbumID != nil && *l.AlbumID == al.ID {
			grow[l.UserID] += 2 * (n - len(al.AssetIDs))
		}
	}
	for user, g := range grow {
		if err := st.tooManyListed(st.listed(user) + g); err != nil {
			return err
		}
	}
	return nil
}
