package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/schemas"
)

// TestCompareVariantsPairsByRecord proves that a twin counts only when
// variants.jsonl pairs it with the original task of its index (a variant
// folder is as untrusted as the benchmark): a twin under another task's
// id, or with no record, is left out; and that the difference is variant
// minus original, per category too.
func TestCompareVariantsPairsByRecord(t *testing.T) {
	data := schemas.CategoryData
	orig := []schemas.Task{{ID: "a", Index: "2", Category: data}, {ID: "b", Index: "3", Category: data}}
	twins := []schemas.Task{{ID: "a2", Index: "2", Category: data}, {ID: "b2", Index: "3", Category: data}, {ID: "c2", Index: "2", Category: data}}
	recs := []VariantRecord{{Index: "2", TaskID: "a", TwinID: "a2", Moved: true}, {Index: "3", TaskID: "not-b", TwinID: "b2"}}
	origRes := []Result{res("a", 0, true, "", 2, 0), res("b", 0, true, "", 2, 0)}
	twinRes := []Result{res("a2", 0, false, schemas.FailCheck, 2, 0), res("b2", 0, true, "", 2, 0), res("c2", 0, true, "", 2, 0)}
	v := CompareVariants(orig, origRes, twins, twinRes, recs, ScoreOptions{Samples: 1})
	if v.Twins != 1 || v.Moved != 1 || v.Original != 1 || v.Variant != 0 || v.Difference != -1 || v.VariantMoved != 0 {
		t.Errorf("got %+v, want task 2's twin alone: original 100%%, variant 0%%, difference -1", v)
	}
	if p := v.PerCategory[data]; p.Tasks != 1 || p.Difference != -1 {
		t.Errorf("per category %+v, want one task, difference -1", p)
	}
}

// TestVariantsRefusesALink proves that a variants.jsonl that is a symlink
// (a benchmark folder is untrusted) is refused, naming the file.
func TestVariantsRefusesALink(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, VariantDir), 0o755)
	target := filepath.Join(t.TempDir(), "elsewhere.jsonl")
	os.WriteFile(target, []byte(`{"index":"2","task_id":"a","twin_id":"b"}`+"\n"), 0o644)
	os.Symlink(target, filepath.Join(dir, VariantDir, VariantsFile))
	if _, ok, err := Variants(dir); !ok || err == nil || !strings.Contains(err.Error(), VariantsFile) {
		t.Errorf("a linked %s: ok %v, err %v; want it refused", VariantsFile, ok, err)
	}
}
