package template

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelpersBelowTemplates: the package's shared helpers (every file but
// the tpl_*.go ones) use nothing a template file declares, so the
// catalogue reads from the helpers up to the templates and no further.
func TestHelpersBelowTemplates(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fs := token.NewFileSet()
	parsed := map[string]*ast.File{}
	inTemplate := map[string]string{} // a package-level name a tpl_ file declares, and the file
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fs, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed[f] = af
		if !strings.HasPrefix(f, "tpl_") {
			continue
		}
		for name := range af.Scope.Objects {
			inTemplate[name] = f
		}
	}
	for f, af := range parsed {
		if strings.HasPrefix(f, "tpl_") {
			continue
		}
		for _, id := range af.Unresolved { // names from the package scope, or the universe's
			if tf, ok := inTemplate[id.Name]; ok {
				t.Errorf("%s: %s uses %s, which %s declares: move it down to a helper file", fs.Position(id.Pos()), f, id.Name, tf)
			}
		}
	}
}
