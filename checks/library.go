package checks

import (
	_ "embed"

	"synth/sandbox"
)

// Library is the Python checks library. Verify sends it into the sandbox;
// TestsPy copies it into the exported tests.py. Its entry points are
// run_checks(checks, answer, messages) and trajectory_answer(trajectory).
//
//go:embed checks.py
var Library string

// resident is Library as the sandbox's zygote holds it: compiled once, with
// every module a check may need imported (zygote_init), so that a
// verification sandbox forked from it starts ready. Verify uses it only when
// its digest is Library's, and compiles Library itself otherwise.
var resident = sandbox.Resident{Name: "synth_checks", Source: Library, Init: "zygote_init"}

var residentSHA256 = resident.SHA256()

// Resident is the checks library as a resident module of the sandbox.
// Whoever builds a backend that verifies gives it in sandbox.Config's
// Residents; Verify also works on a backend without it, at the cost of
// compiling the library and importing what it needs in every verification
// sandbox.
func Resident() sandbox.Resident { return resident }
