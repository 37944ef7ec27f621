package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store/storetest"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// downloadsView runs f on a store holding storetest.DownloadsDataset, with
// the principal of a credential: a user's API key or a link's key.
func downloadsView(t *testing.T, f func(v *View, as func(cred string) Principal)) {
	t.Helper()
	db, err := New(storetest.DownloadsDataset(), storetest.Now)
	require.NoError(t, err)
	db.Read(func(v *View) {
		f(v, func(cred string) Principal {
			for _, u := range v.Users() {
				if u.APIKey == cred {
					return Principal{User: u}
				}
			}
			for _, l := range v.st.links {
				if l.Key == cred {
					return Principal{User: v.User(l.UserID), Link: l}
				}
			}
			t.Fatalf("no credential %q in the dataset", cred)
			return Principal{}
		})
	})
}

// TestWhoMayDownloadAnAsset: asset.download, row by row, as the reference's
// access rules say; each row asks for one asset, and for it beside one the
// principal may take (one refused id refuses the whole request).
func TestWhoMayDownloadAnAsset(t *testing.T) {
	const (
		alice = storetest.KeyAlice
		bob   = storetest.KeyBob   // a viewer of Alice's album
		carol = storetest.KeyCarol // no album of Alice's
	)
	for _, tt := range []struct {
		name, cred, id string
		may            bool
	}{
		{"the owner, an asset in no album", alice, storetest.LooseID, true},
		{"the owner, a trashed asset", alice, storetest.TrashedID, true},
		{"the owner, a live photo's hidden video", alice, storetest.LiveVideoID, true},
		{"an album user, an asset of the album", bob, storetest.AliceAssetID, true},
		{"an album user, a live photo of the album", bob, storetest.LiveStillID, true},
		{"an album user, the video of a live photo of the album", bob, storetest.LiveVideoID, true},
		{"an album user, a trashed asset of the album", bob, storetest.TrashedID, false},
		{"an album user, the owner's asset in no album", bob, storetest.LooseID, false},
		{"another user", carol, storetest.AliceAssetID, false},
		{"an unknown asset", alice, "00000000-0000-4000-8000-00000000dead", false},
		{"an album link that allows downloads, an album asset", storetest.LinkUpload, storetest.AliceAssetID, true},
		{"an album link that allows downloads, the video of a live photo of the album", storetest.LinkUpload, storetest.LiveVideoID, true},
		{"an album link that allows downloads, a trashed album asset", storetest.LinkUpload, storetest.TrashedID, false},
		{"an album link that allows downloads, an asset not in it", storetest.LinkUpload, storetest.LooseID, false},
		{"an album link that allows no downloads, an album asset", storetest.LinkNoDL, storetest.AliceAssetID, false},
		{"an individual link that allows downloads, its asset", storetest.LinkDownload, storetest.NoExifID, true},
		{"an individual link that allows downloads, an asset not in it", storetest.LinkDownload, storetest.AliceAssetID, false},
		{"an individual link that allows no downloads, its asset", storetest.LinkView, storetest.AliceAssetID, false},
		{"an individual link carrying an album, an asset of the album", storetest.LinkAlbumSide, storetest.LiveStillID, true},
		{"an individual link carrying an album, its own archived asset", storetest.LinkAlbumSide, storetest.ArchivedID, true},
		{"a link of another user, an asset of its owner's", "link-bob", storetest.AliceAssetID, false},
		{"a partner, an asset of the library shared with them", alice, storetest.BobAssetID, true},
		{"a partner, an archived asset of that library", alice, storetest.BobArchivedID, false},
		{"a partner, a trashed asset of that library", alice, storetest.BobTrashedID, false},
		{"the partner who shares, an asset of the one shared with", bob, storetest.LooseID, false},
		{"a link of the partner shared with, a partner's asset", storetest.LinkUpload, storetest.BobAssetID, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			downloadsView(t, func(v *View, as func(string) Principal) {
				p := as(tt.cred)
				got, err := v.DownloadableAssets(p, []string{tt.id})
				if !tt.may {
					assert.Equal(t, errNoAssetDownload, err)
					assert.Nil(t, got)
					return
				}
				require.NoError(t, err)
				require.Len(t, got, 1)
				assert.Equal(t, tt.id, got[0].ID)
				// Beside an asset the principal may take, the answer is the same.
				var other string
				for _, id := range []string{storetest.AliceAssetID, storetest.LooseID, "00000000-0000-4000-8000-000000b0a5e7"} {
					if _, err := v.DownloadableAssets(p, []string{id}); err == nil && id != tt.id {
						other = id
						break
					}
				}
				if other != "" {
					got, err := v.DownloadableAssets(p, []string{other, tt.id, other})
					require.NoError(t, err)
					assert.Equal(t, []string{other, tt.id, other}, ids(got), "in the order asked, repeats kept")
				}
			})
		})
	}
	t.Run("one refused id refuses all", func(t *testing.T) {
		downloadsView(t, func(v *View, as func(string) Principal) {
			_, err := v.DownloadableAssets(as(bob), []string{storetest.AliceAssetID, storetest.LooseID})
			assert.Equal(t, errNoAssetDownload, err)
		})
	})
}

// TestAnOfflineOriginalIsRefusedAfterAccess: the reference checks access,
// then refuses an offline asset.
func TestAnOfflineOriginalIsRefusedAfterAccess(t *testing.T) {
	downloadsView(t, func(v *View, as func(string) Principal) {
		_, err := v.DownloadableOriginal(as(storetest.KeyAlice), storetest.LooseID)
		assert.Equal(t, Fail(Invalid, "Asset is offline"), err)
		_, err = v.DownloadableOriginal(as(storetest.KeyBob), storetest.LooseID)
		assert.Equal(t, errNoAssetDownload, err)
		a, err := v.DownloadableOriginal(as(storetest.KeyAlice), storetest.AliceAssetID)
		require.NoError(t, err)
		assert.Equal(t, storetest.AliceAssetID, a.ID)
	})
}

// TestDownloadInfo: what each kind of request plans, and who is refused.
func TestDownloadInfo(t *testing.T) {
	album, alice, bob := storetest.AlbumID, storetest.AliceID, storetest.BobID
	for _, tt := range []struct {
		name, cred string
		req        DownloadRequest
		want       [][]string // the archives' assets
		sizes      []int64
		err        error
	}{
		{
			name: "assets as named, repeats collapsed, live videos after them",
			cred: storetest.KeyAlice,
			req:  DownloadRequest{AssetIDs: []string{storetest.LiveStillID, storetest.AliceAssetID, storetest.LiveStillID}},
			want: [][]string{{storetest.LiveStillID, storetest.AliceAssetID, storetest.LiveVideoID}}, sizes: []int64{3000 + 19 + 2000},
		},
		{
			name: "a video asked for is not listed again",
			cred: storetest.KeyAlice,
			req:  DownloadRequest{AssetIDs: []string{storetest.LiveVideoID, storetest.LiveStillID}},
			want: [][]string{{storetest.LiveVideoID, storetest.LiveStillID}}, sizes: []int64{5000},
		},
		{
			name: "no assets named",
			cred: storetest.KeyAlice, req: DownloadRequest{AssetIDs: []string{}},
			want: [][]string{}, sizes: []int64{},
		},
		{
			name: "an album, in its order, without its trashed asset, split at the size asked",
			cred: storetest.KeyBob, req: DownloadRequest{AlbumID: &album, ArchiveSize: 1000},
			want:  [][]string{{storetest.AliceAssetID, storetest.LiveStillID}, {storetest.LiveVideoID}},
			sizes: []int64{3019, 2000},
		},
		{
			name: "an album through a link of it",
			cred: storetest.LinkUpload, req: DownloadRequest{AlbumID: &album},
			want: [][]string{{storetest.AliceAssetID, storetest.LiveStillID, storetest.LiveVideoID}}, sizes: []int64{5019},
		},
		{
			name: "an album through an individual link that carries it",
			cred: storetest.LinkAlbumSide, req: DownloadRequest{AlbumID: &album},
			want: [][]string{{storetest.AliceAssetID, storetest.LiveStillID, storetest.LiveVideoID}}, sizes: []int64{5019},
		},
		{
			name: "the caller's timeline: visible, not archived, not trashed, oldest upload first",
			cred: storetest.KeyAlice, req: DownloadRequest{UserID: &alice},
			want:  [][]string{{storetest.AliceAssetID, storetest.LiveStillID, storetest.LooseID, storetest.NoExifID, storetest.LiveVideoID}},
			sizes: []int64{19 + 3000 + 400 + 0 + 2000},
		},
		{name: "nothing asked", cred: storetest.KeyAlice, req: DownloadRequest{}, err: Fail(Invalid, "assetIds, albumId, or userId is required")},
		{name: "an asset of another's", cred: storetest.KeyCarol, req: DownloadRequest{AssetIDs: []string{storetest.AliceAssetID}}, err: errNoAssetDownload},
		{name: "an album of another's", cred: storetest.KeyCarol, req: DownloadRequest{AlbumID: &album}, err: errNoAlbumDownload},
		{name: "an album through a link that allows no downloads", cred: storetest.LinkNoDL, req: DownloadRequest{AlbumID: &album}, err: errNoAlbumDownload},
		{name: "an album through a link of other assets", cred: storetest.LinkDownload, req: DownloadRequest{AlbumID: &album}, err: errNoAlbumDownload},
		{name: "another user's timeline", cred: storetest.KeyAlice, req: DownloadRequest{UserID: &bob}, err: errNoTimelineDownload},
		{name: "a timeline through a link", cred: storetest.LinkUpload, req: DownloadRequest{UserID: &alice}, err: errNoTimelineDownload},
	} {
		t.Run(tt.name, func(t *testing.T) {
			downloadsView(t, func(v *View, as func(string) Principal) {
				plan, err := v.DownloadInfo(as(tt.cred), tt.req)
				if tt.err != nil {
					assert.Equal(t, tt.err, err)
					return
				}
				require.NoError(t, err)
				got, sizes := [][]string{}, []int64{}
				var total int64
				for _, ar := range plan.Archives {
					got, sizes = append(got, ar.AssetIDs), append(sizes, ar.Size)
					total += ar.Size
				}
				assert.Equal(t, tt.want, got)
				assert.Equal(t, tt.sizes, sizes)
				assert.Equal(t, total, plan.TotalSize)
				assert.NotNil(t, plan.Archives, "an empty plan lists no archives, not null")
			})
		})
	}
}

// TestPlanArchivesSplitsAsTheReference: a file joins the archive under way,
// which closes once its size passes the target.
func TestPlanArchivesSplitsAsTheReference(t *testing.T) {
	for _, tt := range []struct {
		name   string
		sizes  []int64
		target int64
		want   [][]int // indexes of the files, per archive
	}{
		{"none", nil, 10, [][]int{}},
		{"all within", []int64{3, 3, 3}, 10, [][]int{{0, 1, 2}}},
		{"exactly the target stays open", []int64{5, 5, 1}, 10, [][]int{{0, 1, 2}}},
		{"the file that passes it closes it", []int64{6, 5, 1}, 10, [][]int{{0, 1}, {2}}},
		{"a file over the target on its own", []int64{20, 1, 30}, 10, [][]int{{0}, {1, 2}}},
		{"files without a size never close one", []int64{0, 0, 0}, 1, [][]int{{0, 1, 2}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var list []*model.AssetRecord
			byID := map[string]int{}
			for i, size := range tt.sizes {
				a := &model.AssetRecord{ID: string(rune('a' + i))}
				if size > 0 {
					a.ExifInfo = &model.Exif{FileSizeInByte: &size}
				}
				list = append(list, a)
				byID[a.ID] = i
			}
			plan := planArchives(list, tt.target)
			got := [][]int{}
			var total int64
			for _, ar := range plan.Archives {
				var idx []int
				var size int64
				for _, id := range ar.AssetIDs {
					idx = append(idx, byID[id])
					size += tt.sizes[byID[id]]
				}
				assert.Equal(t, size, ar.Size)
				total += size
				got = append(got, idx)
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, total, plan.TotalSize)
		})
	}
}

func ids(as []*model.AssetRecord) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.ID
	}
	return out
}
