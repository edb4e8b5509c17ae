package template

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"synth/pyenv"
	"synth/pyenv/pyenvtest"
)

// TestYearsAgree: the years the task expects are the years its reference's
// Python finds, on text with measurements (1500 m, 2000 km, 1800%),
// numbers holding four digits (3.2000, 1,999) and Chinese years (2019年).
func TestYearsAgree(t *testing.T) {
	text := "Founded in 1888, rebuilt 1923. She ran the 1500 m in 2004 and the 5000m later; " +
		"the route is 2000 km long; growth was 1800% since 1999. Values 3.2000 and 1,999 and 2010.5 are no years. " +
		"2019年发布，2021 年更新。The 1990s are a decade."
	want := []string{"1888", "1923", "2004", "1999", "2019", "2021"}
	if got := yearsIn(text); !slices.Equal(got, want) {
		t.Errorf("Go reads %v, want %v", got, want)
	}
	pyenvtest.Python(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pyenv.Sandbox.Python(), "-c", "text = open('"+filepath.Join(dir, "t.txt")+"', encoding='utf-8').read()\n"+yearsPy).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	sorted := slices.Clone(want)
	slices.Sort(sorted)
	if got := strings.TrimSpace(string(out)); got != "['"+strings.Join(sorted, "', '")+"']" {
		t.Errorf("the reference's Python reads %s, want %v", got, sorted)
	}
}
