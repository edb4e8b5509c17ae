package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"synth/generators/template"
	"synth/pyenv/pyenvtest"
)

// TestInitThenBuild is a newcomer's first run on their own files: synth
// init, then synth build with that config on two CSV files. The starter
// leaves sandbox.python to the locked environment, so every benchmark
// task's reference passes and every training rollout passes its checks.
func TestInitThenBuild(t *testing.T) {
	pyenvtest.Python(t)
	dir := t.TempDir()
	files := filepath.Join(dir, "files")
	os.MkdirAll(files, 0o755)
	var sales, staff strings.Builder
	sales.WriteString("region,product,units,price\n")
	staff.WriteString("name,team,age,salary\n")
	regions, teams := []string{"north", "south", "east", "west"}, []string{"a", "b", "c"}
	for i := range 40 {
		sales.WriteString(strings.Join([]string{regions[i%4], []string{"pen", "ink", "pad"}[i%3], strconv.Itoa(1 + i*7%50), strconv.Itoa(1+i%20) + ".5"}, ",") + "\n")
		staff.WriteString(strings.Join([]string{"p" + strconv.Itoa(i), teams[i%3], strconv.Itoa(20 + i*3%40), strconv.Itoa((30 + i*11%60) * 1000)}, ",") + "\n")
	}
	os.WriteFile(filepath.Join(files, "sales.csv"), []byte(sales.String()), 0o644)
	os.WriteFile(filepath.Join(files, "staff.csv"), []byte(staff.String()), 0o644)

	cfg := filepath.Join(dir, "synth.yaml")
	if out, code := synthStatus(t, "init", cfg); code != exitOK {
		t.Fatalf("synth init: exit %d\n%s", code, out)
	}
	starter, _ := os.ReadFile(cfg)
	if !regexp.MustCompile(`(?m)^  python: ""$`).Match(starter) || !strings.Contains(string(starter), "the locked environment") {
		t.Fatalf("synth init's config does not leave sandbox.python to the locked environment, or does not say so:\n%s", starter)
	}
	out, code := synthStatus(t, "build", "-o", filepath.Join(dir, "out"), "--config", cfg, "--source", "local:"+files)
	if code != exitOK {
		t.Fatalf("synth build from synth init's config: exit %d\n%s", code, out)
	}
	valid := regexp.MustCompile(`(?m)^\s+validate\s+(\d+)\s+(\d+)\s`).FindStringSubmatch(out)
	rolled := regexp.MustCompile(`(?m)^\s+rollout\s+(\d+)\s+(\d+)\s+trajectories .*, (\d+) passed`).FindStringSubmatch(out)
	if valid == nil || rolled == nil {
		t.Fatalf("the funnel lacks its validate or rollout line:\n%s", out)
	}
	if valid[1] == "0" || valid[1] != valid[2] {
		t.Errorf("%s of %s benchmark tasks valid: a reference failed\n%s", valid[2], valid[1], out)
	}
	if rolled[1] == "0" || rolled[3] != rolled[1] {
		t.Errorf("%s of %s reference rollouts passed\n%s", rolled[3], rolled[1], out)
	}
	if got, want := funnelStages(out), buildHelpStages(t); !slices.Equal(got, want) {
		t.Errorf("the funnel's stages %v are not the ones synth build --help lists, %v", got, want)
	}
}

// TestDoctorFlagsInterpreterWithoutPandas: a config whose sandbox.python
// cannot import the modules every template uses is named a problem, with
// the fix.
func TestDoctorFlagsInterpreterWithoutPandas(t *testing.T) {
	pyenvtest.Python(t)
	bare := "/usr/bin/python3"
	if _, err := os.Stat(bare); err != nil {
		t.Skipf("no %s to stand for an interpreter without pandas", bare)
	}
	if have, err := template.ProbeModules(t.Context(), bare, []string{"pandas"}); err != nil || have["pandas"] {
		t.Skipf("%s has pandas: it cannot stand for one without", bare)
	}
	cfg := filepath.Join(t.TempDir(), "synth.yaml")
	os.WriteFile(cfg, []byte("sandbox:\n  python: "+bare+"\n"), 0o644)
	out, code := synthStatus(t, "doctor", "--config", cfg)
	if code != exitOK {
		t.Fatalf("synth doctor: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "PROBLEM: "+bare+" lacks pandas") || !strings.Contains(out, "fix: delete sandbox.python") {
		t.Errorf("doctor does not flag %s, which lacks pandas, or names no fix:\n%s", bare, out)
	}
	out, _ = synthStatus(t, "doctor")
	if strings.Contains(out, "PROBLEM") {
		t.Errorf("doctor flags the locked environment:\n%s", out)
	}
}
