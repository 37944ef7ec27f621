package conformance_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxFuncLines is the most lines a function of the harness may have, from
// its func to its closing brace: one longer is split into named pieces a
// reviewer can follow.
const maxFuncLines = 80

// TestNoLongFunctions: no function of the steps or of the runner, their
// tests included, and no non-test function of the mock (mockserver and
// every package under it) is over maxFuncLines lines.
func TestNoLongFunctions(t *testing.T) {
	t.Parallel()
	var long []string
	fset := token.NewFileSet()
	check := func(name string) {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		long = append(long, longFunctions(fset, f)...)
	}
	for _, dir := range []string{"../steps", "."} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files, dir)
		for _, name := range files {
			check(name)
		}
	}
	mock := 0
	require.NoError(t, filepath.WalkDir("../mockserver", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			mock++
			check(name)
		}
		return err
	}))
	require.Greater(t, mock, 50, "the mock's sources are found")
	assert.Empty(t, long, "functions over %d lines: split them into named pieces", maxFuncLines)
}

// longFunctions lists the functions of f over maxFuncLines lines, as
// "file:line name (N lines)", function literals included.
func longFunctions(fset *token.FileSet, f *ast.File) []string {
	var long []string
	ast.Inspect(f, func(n ast.Node) bool {
		name := "a function literal"
		switch fn := n.(type) {
		case *ast.FuncDecl:
			name = fn.Name.Name
		case *ast.FuncLit:
		default:
			return true
		}
		start, end := fset.Position(n.Pos()), fset.Position(n.End())
		if lines := end.Line - start.Line + 1; lines > maxFuncLines {
			long = append(long, fmt.Sprintf("%s:%d %s (%d lines)", filepath.ToSlash(start.Filename), start.Line, name, lines))
		}
		return true
	})
	return long
}

// TestLongFunctionsAreFound: a function of maxFuncLines lines passes, one
// line more is named, and so is a long function literal.
func TestLongFunctionsAreFound(t *testing.T) {
	t.Parallel()
	body := func(lines int) string { // a function of that many lines
		return "{\n" + strings.Repeat("\t_ = 0\n", lines-2) + "}\n"
	}
	src := "package p\n\nfunc short() " + body(maxFuncLines) +
		"\nfunc long() " + body(maxFuncLines+1) +
		"\nvar literal = func() " + body(maxFuncLines+1)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{
		fmt.Sprintf("p.go:%d long (%d lines)", maxFuncLines+4, maxFuncLines+1),
		fmt.Sprintf("p.go:%d a function literal (%d lines)", 2*maxFuncLines+6, maxFuncLines+1),
	}, longFunctions(fset, f))
}
