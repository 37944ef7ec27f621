package libraryfs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExclusions(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		match   []string
		miss    []string
	}{
		{"**/Raw/**", []string{"/p/Raw", "/p/Raw/a.jpg", "/p/q/raw/b/c.jpg"}, []string{"/p/Rawer/a.jpg", "/p/a.jpg"}},
		{"**/directoryA", []string{"/data/temp/directoryA"}, []string{"/data/temp/directoryB", "/data/temp/directoryAB"}},
		{"**/*.jpg", []string{"/a/b.jpg", "/b.JPG"}, []string{"/a/b.jpeg", "/a.jpg/b.png"}},
		{"/p/*.png", []string{"/p/x.png"}, []string{"/p/q/x.png"}},
		{"**/IMG_????.{jpg,heic}", []string{"/p/IMG_0001.heic", "/IMG_1234.jpg"}, []string{"/p/IMG_01.jpg", "/p/IMG_0001.png"}},
		{"**/[!a]*.png", []string{"/p/b.png"}, []string{"/p/a.png"}},
		{"**/@eaDir/**", []string{"/nas/@eaDir/x.jpg"}, []string{"/nas/eaDir/x.jpg"}},
		{"**/a+b(c).jpg", []string{"/p/a+b(c).jpg"}, []string{"/p/aab(c).jpg"}},
	} {
		ex := NewExclusions([]string{tc.pattern})
		for _, p := range tc.match {
			assert.True(t, ex.Match(p), "%s matches %s", tc.pattern, p)
		}
		for _, p := range tc.miss {
			assert.False(t, ex.Match(p), "%s does not match %s", tc.pattern, p)
		}
	}
	assert.False(t, (*Exclusions)(nil).Match("/a"))
	assert.False(t, NewExclusions(nil).Match("/a"))
}

func write(t *testing.T, path string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o750))
	require.NoError(t, os.WriteFile(path, []byte("x"), 0o600))
}

func TestWalk(t *testing.T) {
	base := t.TempDir()
	dir, out := filepath.Join(base, "lib"), filepath.Join(base, "out")
	for _, f := range []string{"a.jpg", "B.MP4", "c.txt", ".d.jpg", ".e/f.jpg", "g/h.heic", "skip/i.jpg", "j.xmp"} {
		write(t, filepath.Join(dir, f))
	}
	write(t, filepath.Join(out, "secret.jpg"))
	require.NoError(t, os.Symlink(filepath.Join(out, "secret.jpg"), filepath.Join(dir, "leak.jpg")))
	require.NoError(t, os.Symlink(out, filepath.Join(dir, "leakdir")))
	require.NoError(t, os.Symlink("a.jpg", filepath.Join(dir, "k.jpg")))
	require.NoError(t, os.Symlink("g", filepath.Join(dir, "loop")))
	deep := dir
	for range MaxDepth + 2 {
		deep = filepath.Join(deep, "d")
	}
	write(t, filepath.Join(deep, "deep.jpg"))

	var found []string
	err := Walk(t.Context(), dir, NewExclusions([]string{"**/skip"}), func(f File) error {
		rel, err := filepath.Rel(dir, f.Path)
		require.NoError(t, err)
		found = append(found, rel+":"+f.Type)
		assert.Equal(t, dir, f.Root)
		return nil
	})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"a.jpg:IMAGE", "B.MP4:VIDEO", "g/h.heic:IMAGE", "k.jpg:IMAGE"}, found)

	// The import path itself may be a link: the files keep its name.
	named := filepath.Join(base, "named")
	require.NoError(t, os.Symlink(dir, named))
	var paths []string
	require.NoError(t, Walk(t.Context(), named, nil, func(f File) error { paths = append(paths, f.Path); return nil }))
	assert.Contains(t, paths, filepath.Join(named, "a.jpg"))

	stop := errors.New("stop")
	assert.ErrorIs(t, Walk(t.Context(), dir, nil, func(File) error { return stop }), stop)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	assert.ErrorIs(t, Walk(ctx, dir, nil, func(File) error { return nil }), context.Canceled)
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.jpg")
	write(t, file)
	media := filepath.Join(dir, "media")
	require.NoError(t, os.Mkdir(media, 0o750))
	for path, want := range map[string]string{
		dir:                             "",
		filepath.Join(dir, "none"):      MsgNotExist,
		file:                            MsgNotDir,
		file + "/x":                     "Error: ENOTDIR: not a directory, stat '" + file + "/x'",
		media:                           MsgMediaFolder,
		filepath.Join(media, "a/b"):     MsgMediaFolder,
		"/" + strings.Repeat("n", 5000): "Error: ENAMETOOLONG: name too long, stat '/" + strings.Repeat("n", 5000) + "'",
	} {
		assert.Equal(t, want, Check(path, media), path)
	}
}
