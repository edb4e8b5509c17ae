package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlindMutants: the blind mode negates every comparison and deletes
// every early return of the named function (or method), and of nothing
// else; a guard that names no function is an error.
func TestBlindMutants(t *testing.T) {
	root := t.TempDir()
	src := "package m\n\nfunc Clamp(x, hi int) int {\n\tif x > hi {\n\t\treturn hi\n\t}\n\tif x == 0 {\n\t\tx = 1\n\t}\n\treturn x\n}\n\n" +
		"type T struct{}\n\nfunc (T) Other(a int) bool { return a < 3 }\n"
	if err := os.WriteFile(filepath.Join(root, "m.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ms, err := blindMutants(root, []guard{{File: "m.go", Func: "Clamp", target: target{"./", "."}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.Name+": "+m.Old+" -> "+m.New)
	}
	want := []string{"m.go:Clamp#ret1", "m.go:Clamp#cmp1", "m.go:Clamp#cmp2"}
	if len(ms) != len(want) {
		t.Fatalf("mutants %q, want %v", got, want)
	}
	changes := map[string]string{"m.go:Clamp#ret1": "false && (x > hi)", "m.go:Clamp#cmp1": "<=", "m.go:Clamp#cmp2": "!="}
	for i, m := range ms {
		if m.Name != want[i] || m.New != changes[m.Name] || src[m.start:m.end] != m.Old || m.Pkg != "./" {
			t.Errorf("mutant %d: %+v, want %s changing to %q", i, m, want[i], changes[want[i]])
		}
	}
	if ms, err := blindMutants(root, []guard{{File: "m.go", Func: "T.Other", target: target{"./", "."}}}); err != nil || len(ms) != 1 || ms[0].New != ">=" {
		t.Errorf("the method T.Other: %+v, %v", ms, err)
	}
	if _, err := blindMutants(root, []guard{{File: "m.go", Func: "Missing", target: target{"./", "."}}}); err == nil || !strings.Contains(err.Error(), "no function Missing") {
		t.Errorf("a missing guard: %v", err)
	}
}

// TestGuardsListParses: the blind mode's guards name functions that
// exist, and every equivalence mark names one of its mutants with a reason.
func TestGuardsListParses(t *testing.T) {
	ms, err := loadBlind(filepath.Join("..", ".."), "internal/mutate/guards.txt", "internal/mutate/equivalents.txt", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) < 50 {
		t.Errorf("the guards make only %d blind mutants", len(ms))
	}
}
