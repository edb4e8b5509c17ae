package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"synth": func() { os.Exit(run(os.Args[1:])) },
	})
}

// TestScripts runs the command-line scripts in testdata/script: each is a
// session of a user at a shell, with the files it needs.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
