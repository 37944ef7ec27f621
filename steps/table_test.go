package steps

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"

	"github.com/cucumber/godog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefinitionsAreEveryStep: the steps Register gives godog are those of
// the areas' tables and no other, in their order, so Definitions (what
// `mediaspec check --list-steps` lists) is every step a feature can use.
func TestDefinitionsAreEveryStep(t *testing.T) {
	var out bytes.Buffer
	godog.TestSuite{
		ScenarioInitializer: func(sc *godog.ScenarioContext) { Register(sc, Config{}) },
		Options:             &godog.Options{ShowStepDefinitions: true, Output: &out, NoColors: true, Format: "progress"},
	}.Run()
	// godog writes each definition as its pattern, spaces, and "# " its
	// place, coloured whatever it is told.
	colour := regexp.MustCompile("\x1b\\[[0-9;]*m")
	var registered []string
	for line := range strings.SplitSeq(strings.TrimSpace(colour.ReplaceAllString(out.String(), "")), "\n") {
		pattern, _, ok := strings.Cut(line, " # ")
		require.True(t, ok, "a definition and its place: %q", line)
		registered = append(registered, strings.TrimSpace(pattern))
	}
	var defined []string
	for _, d := range Definitions() {
		defined = append(defined, d.Pattern)
	}
	require.NotEmpty(t, defined)
	assert.Equal(t, defined, registered)
}

// TestEveryStepIsADocumentedMethod: each step of an area's table is a
// named method of the scenario (s.doSomething, not a closure written in
// the table), and the method has a doc comment saying what it does.
func TestEveryStepIsADocumentedMethod(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", nil, parser.ParseComments|parser.SkipObjectResolution)
	require.NoError(t, err)
	documented := map[string]bool{}
	var used []*ast.SelectorExpr
	for _, f := range pkgs["steps"].Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
				documented[fd.Name.Name] = fd.Doc != nil
			}
		}
		for _, do := range tableSteps(f) {
			sel, ok := do.(*ast.SelectorExpr)
			if !assert.True(t, ok, "%s: a step that is no named method", fset.Position(do.Pos())) {
				continue
			}
			used = append(used, sel)
		}
	}
	require.NotEmpty(t, used)
	for _, sel := range used {
		assert.True(t, documented[sel.Sel.Name], "%s: the step method %s has no doc comment", fset.Position(sel.Pos()), sel.Sel.Name)
	}
}

// tableSteps are the expressions that do the steps of the []step tables
// of f: the second field of each entry.
func tableSteps(f *ast.File) []ast.Expr {
	var out []ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		table, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		if at, ok := table.Type.(*ast.ArrayType); !ok || !isIdent(at.Elt, "step") {
			return true
		}
		for _, e := range table.Elts {
			if entry, ok := e.(*ast.CompositeLit); ok && len(entry.Elts) == 2 {
				out = append(out, entry.Elts[1])
			}
		}
		return false
	})
	return out
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}
