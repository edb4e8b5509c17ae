package main

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestKaggleScripts runs the scripts in testdata/kaggle: a user with only
// an API token or only a kaggle.json, collecting from a local server that
// plays Kaggle's current API or its legacy one.
func TestKaggleScripts(t *testing.T) {
	testscript.Run(t, sourceScripts("testdata/kaggle"))
}

// TestArxivScripts runs the scripts in testdata/arxiv against a local
// server that plays arXiv's export API, OAI-PMH and PDF host.
func TestArxivScripts(t *testing.T) {
	testscript.Run(t, sourceScripts("testdata/arxiv"))
}

// sourceScripts are scripts run on a clean machine: HOME is an empty
// folder of the script's own, and no KAGGLE_ variable is set unless the
// script sets it. Their commands, besides synth:
//
//	serve kaggle current|legacy [stall-cut] [shape]
//	                 start a fake Kaggle; its address is $KAGGLE_URL
//	serve arxiv      start a fake arXiv; its address is $ARXIV_URL
//	expand FILE      write the script's variables (${KAGGLE_URL}, …) into FILE
//	calls kaggle|arxiv
//	                 print the requests the fake received since the last
//	                 calls, one a line, for stdout to match
//	publish kaggle [tamper]
//	                 make a new version of the fake's public dataset pub/rain,
//	                 or rewrite the bytes of every version
func sourceScripts(dir string) testscript.Params {
	return testscript.Params{
		Dir: dir,
		Setup: func(env *testscript.Env) error {
			env.Values[fakesKey{}] = map[string]fake{} // the servers the script starts
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			return os.MkdirAll(home, 0o755)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"serve":  cmdServe,
			"expand": cmdExpand,
			"calls":  cmdCalls,
			"publish": func(ts *testscript.TestScript, neg bool, args []string) {
				k, ok := ts.Value(fakesKey{}).(map[string]fake)["kaggle"].(*cliKaggle)
				if neg || len(args) < 1 || args[0] != "kaggle" || !ok || len(args) > 2 || len(args) == 2 && args[1] != "tamper" {
					ts.Fatalf("usage: publish kaggle [tamper] (after serve kaggle)")
				}
				k.publish(len(args) == 2)
			},
		},
	}
}

// fake is a server a script started: it keeps the requests it received.
type fake interface {
	takeCalls() []string
}

func cmdServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: serve kaggle current|legacy [stall-cut] [shape] | serve arxiv")
	}
	var f fake
	var srv *httptest.Server
	switch args[0] {
	case "kaggle":
		if len(args) < 2 || args[1] != "current" && args[1] != "legacy" {
			ts.Fatalf("usage: serve kaggle current|legacy [stall-cut] [shape]")
		}
		k := newCLIKaggle(ts, args[1], args[2:])
		srv = httptest.NewServer(k)
		k.storage = strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) // another host
		f = k
		ts.Setenv("KAGGLE_URL", srv.URL)
	case "arxiv":
		a := newCLIArxiv(ts)
		srv = httptest.NewServer(a)
		a.base = srv.URL
		f = a
		ts.Setenv("ARXIV_URL", srv.URL)
	default:
		ts.Fatalf("serve %s: want kaggle or arxiv", args[0])
	}
	ts.Defer(srv.Close)
	fakes := ts.Value(fakesKey{}).(map[string]fake)
	fakes[args[0]] = f
}

type fakesKey struct{}

func cmdExpand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: expand FILE")
	}
	p := ts.MkAbs(args[0])
	b, err := os.ReadFile(p)
	ts.Check(err)
	ts.Check(os.WriteFile(p, []byte(os.Expand(string(b), ts.Getenv)), 0o644))
}

func cmdCalls(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: calls kaggle|arxiv")
	}
	f, ok := ts.Value(fakesKey{}).(map[string]fake)[args[0]]
	if !ok {
		ts.Fatalf("calls %s: no such server started (serve %s first)", args[0], args[0])
	}
	for _, c := range f.takeCalls() {
		fmt.Fprintln(ts.Stdout(), c)
	}
}
