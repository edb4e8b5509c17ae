package duckdbtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNeedComesFirst holds the rule that a test never skips half-way: every
// test in the repository that reads Parquet with Query, itself or through a
// helper of its package, calls Need before its first statement of real work
// (only -short checks and other prerequisite checks may come before it).
func TestNeedComesFirst(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string][]*ast.File{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		dirs[filepath.Dir(p)] = append(dirs[filepath.Dir(p)], f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for dir, files := range dirs {
		for _, fn := range late(files) {
			rel, _ := filepath.Rel(root, dir)
			t.Errorf("%s: %s reads Parquet with duckdbtest.Query but does not call duckdbtest.Need(t) before its work: it would skip half-way", rel, fn)
		}
		checked += len(files)
	}
	if checked == 0 {
		t.Fatal("found no test files under " + root)
	}
}

// late returns the Test functions of one package's files that reach
// duckdbtest.Query without calling Need first.
func late(files []*ast.File) []string {
	funcs := map[string]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
				funcs[fd.Name.Name] = fd
			}
		}
	}
	// reaches: the functions that call Query, directly or through others.
	reaches := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for name, fd := range funcs {
			if reaches[name] {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if isCall(call, "duckdbtest", "Query") || isCall(call, "", "Query") {
					reaches[name] = true
				}
				if id, ok := call.Fun.(*ast.Ident); ok && reaches[id.Name] {
					reaches[name] = true
				}
				return true
			})
			changed = changed || reaches[name]
		}
	}
	var out []string
	for name, fd := range funcs {
		if strings.HasPrefix(name, "Test") && reaches[name] && !needFirst(fd.Body.List) {
			out = append(out, name)
		}
	}
	return out
}

// needFirst reports whether Need is called among the leading prerequisite
// statements of a test's body.
func needFirst(body []ast.Stmt) bool {
	for _, st := range body {
		switch s := st.(type) {
		case *ast.IfStmt:
			if call, ok := s.Cond.(*ast.CallExpr); ok && isCall(call, "testing", "Short") {
				continue
			}
			return false
		case *ast.ExprStmt:
			call, ok := s.X.(*ast.CallExpr)
			if !ok {
				return false
			}
			switch {
			case isCall(call, "duckdbtest", "Need"), isCall(call, "", "Need"):
				return true
			case isCall(call, "", "needPython"), isCall(call, "pyenvtest", "Python"), isCall(call, "testenv", ""), isCall(call, "t", "Helper"), isCall(call, "t", "Parallel"):
				continue
			}
			return false
		default:
			return false
		}
	}
	return false
}

// isCall reports whether call is pkg.name(...) (pkg "" for a plain name(...);
// name "" for any function of pkg).
func isCall(call *ast.CallExpr, pkg, name string) bool {
	switch f := call.Fun.(type) {
	case *ast.Ident:
		return pkg == "" && f.Name == name
	case *ast.SelectorExpr:
		x, ok := f.X.(*ast.Ident)
		return ok && x.Name == pkg && (name == "" || f.Sel.Name == name)
	}
	return false
}
