package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// guard is one function the blind mode mutates, and the tests that must
// notice any change to it.
type guard struct {
	File string // slash path from the repository's root
	Func string // "Name", or "Type.Name" for a method
	target
}

// parseGuards reads the list of guards: one per line, "FILE FUNC PKG RUN",
// "#" starting a comment line.
func parseGuards(r io.Reader, name string) ([]guard, error) {
	var out []guard
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("%s:%d: want \"FILE FUNC PKG RUN\", got %q", name, n, line)
		}
		out = append(out, guard{File: f[0], Func: f[1], target: target{Pkg: f[2], Run: f[3]}})
	}
	return out, sc.Err()
}

// parseEquivalents reads the blind mutants marked equivalent: "NAME
// reason" per line, "#" starting a comment line.
func parseEquivalents(r io.Reader, name string) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, why, ok := strings.Cut(line, " ")
		if !ok || strings.TrimSpace(why) == "" {
			return nil, fmt.Errorf("%s:%d: want \"NAME reason\", got %q", name, n, line)
		}
		out[id] = strings.TrimSpace(why)
	}
	return out, sc.Err()
}

// negated maps each comparison to its negation.
var negated = map[token.Token]string{
	token.EQL: "!=", token.NEQ: "==", token.LSS: ">=", token.GEQ: "<", token.GTR: "<=", token.LEQ: ">",
}

// blindMutants makes the mutants of each guard's function in the tree at
// root: every comparison negated (a < b becomes a >= b), and every if
// without an else whose block ends in a return made dead (its condition
// becomes false && (cond)), which deletes an early return. Each is named
// FILE:FUNC#cmpN or #retN, counted in source order within the function,
// so that a name survives edits elsewhere in the file.
func blindMutants(root string, gs []guard) ([]mutant, error) {
	var out []mutant
	for _, g := range gs {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(g.File)))
		if err != nil {
			return nil, fmt.Errorf("guard %s %s: %w", g.File, g.Func, err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, g.File, src, 0)
		if err != nil {
			return nil, fmt.Errorf("guard %s: %w", g.File, err)
		}
		fn := findFunc(f, g.Func)
		if fn == nil || fn.Body == nil {
			return nil, fmt.Errorf("guard %s: no function %s", g.File, g.Func)
		}
		off := func(p token.Pos) int { return fset.Position(p).Offset }
		ncmp, nret := 0, 0
		add := func(kind string, n int, at token.Pos, start, end int, repl string) {
			out = append(out, mutant{
				Name: fmt.Sprintf("%s:%s#%s%d", g.File, g.Func, kind, n), File: g.File,
				Old: string(src[start:end]), New: repl, Pkg: g.Pkg, Run: g.Run,
				start: start, end: end, line: fset.Position(at).Line,
			})
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return true
			case *ast.BinaryExpr:
				if neg, ok := negated[x.Op]; ok {
					ncmp++
					s := off(x.OpPos)
					add("cmp", ncmp, x.OpPos, s, s+len(x.Op.String()), neg)
				}
			case *ast.IfStmt:
				if x.Else == nil && len(x.Body.List) > 0 {
					if _, ok := x.Body.List[len(x.Body.List)-1].(*ast.ReturnStmt); ok {
						nret++
						s, e := off(x.Cond.Pos()), off(x.Cond.End())
						add("ret", nret, x.Pos(), s, e, "false && ("+string(src[s:e])+")")
					}
				}
			}
			return true
		})
	}
	return out, nil
}

// findFunc finds the function (or "Type.Method") named name in f.
func findFunc(f *ast.File, name string) *ast.FuncDecl {
	typ, method, isMethod := strings.Cut(name, ".")
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if !isMethod && fd.Recv == nil && fd.Name.Name == name {
			return fd
		}
		if isMethod && fd.Recv != nil && fd.Name.Name == method && recvType(fd.Recv) == typ {
			return fd
		}
	}
	return nil
}

// recvType is a method's receiver type name, without * or type arguments.
func recvType(fl *ast.FieldList) string {
	if len(fl.List) == 0 {
		return ""
	}
	t := fl.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			return id.Name
		}
	}
	return ""
}

// loadList reads the hand-written list of mutants at root/list.
func loadList(root, list string) ([]mutant, error) {
	f, err := os.Open(filepath.Join(root, list))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseMutants(f, list)
}

// loadBlind makes the blind mutants of the guards at root/guards and marks
// those root/equivs names equivalent. With all (no -only), a mark that
// names no generated mutant is an error: the list went stale.
func loadBlind(root, guards, equivs string, all bool) ([]mutant, error) {
	f, err := os.Open(filepath.Join(root, guards))
	if err != nil {
		return nil, err
	}
	gs, err := parseGuards(f, guards)
	f.Close()
	if err != nil {
		return nil, err
	}
	ms, err := blindMutants(root, gs)
	if err != nil {
		return nil, err
	}
	eq := map[string]string{}
	if f, err := os.Open(filepath.Join(root, equivs)); err == nil {
		eq, err = parseEquivalents(f, equivs)
		f.Close()
		if err != nil {
			return nil, err
		}
	} else if !os.IsNotExist(err) {
		return nil, err
	}
	used := map[string]bool{}
	for i := range ms {
		if why, ok := eq[ms[i].Name]; ok {
			ms[i].Equivalent, used[ms[i].Name] = why, true
		}
	}
	for name := range eq {
		if all && !used[name] {
			return nil, fmt.Errorf("%s: %s names no blind mutant of %s: drop or rename the mark", equivs, name, guards)
		}
	}
	return ms, nil
}
