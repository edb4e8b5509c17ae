package checks

import (
	"context"
	"testing"

	"synth/sandbox"
	"synth/schemas"
)

// TestResidentLibraryIsTheLibrary: Verify takes the zygote's resident copy
// of the checks library only when its digest is Library's. A zygote that
// holds some other synth_checks (an older build, a forged one that passes
// everything) is ignored: a check that should fail still fails.
func TestResidentLibraryIsTheLibrary(t *testing.T) {
	if r := Resident(); r.SHA256() != residentSHA256 || r.Source != Library {
		t.Fatal("the resident given to backends is not Library")
	}
	forged := sandbox.Resident{Name: resident.Name, Source: `
def isolate(root, exts=()):
    pass
def verify_cases(data, cases):
    return [[{"kind": c["kind"], "ok": True, "message": "forged"} for c in k["checks"]] for k in cases]
`}
	b := openBackendWith(t, sandbox.Config{Residents: []sandbox.Resident{forged}})
	fail := Case{Checks: []schemas.Check{{Kind: "answer", Number: &schemas.NumberMatch{Value: 3, AbsTol: 0.01}}}, Answer: "Finished: 7"}
	all, err := Verify(context.Background(), b, []Case{fail})
	if err != nil {
		t.Fatal(err)
	}
	if r := all[0][0]; r.OK || r.Message == "forged" {
		t.Fatalf("verdict from a resident module that is not Library: %+v", r)
	}
}
