package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/sandbox"
)

func TestLoadStrict(t *testing.T) {
	tests := []struct {
		name, yaml, wantErr string
		check               func(t *testing.T, c Config)
	}{
		{name: "empty file is the quickstart", yaml: "", check: func(t *testing.T, c Config) {
			if c.Teacher.Kind != "reference" || c.Sources.Specs[0] != "sample" {
				t.Errorf("defaults lost: %+v", c)
			}
		}},
		{name: "overrides keep other defaults", yaml: "seed: 7\nteacher:\n  max_turns: 4\n", check: func(t *testing.T, c Config) {
			if c.Seed != 7 || c.Teacher.MaxTurns != 4 || c.Teacher.Kind != "reference" {
				t.Errorf("got %+v", c.Teacher)
			}
		}},
		{name: "typo in a nested list", yaml: "llm:\n  endpoints:\n    - model: m\n      base_ur1: http://x\n", wantErr: `synth.yaml:4: unknown key "llm.endpoints.base_ur1" (did you mean base_url?)`},
		{name: "unknown top-level key", yaml: "seed: 1\nteachr:\n  kind: openai\n", wantErr: `synth.yaml:2: unknown key "teachr" (did you mean teacher?)`},
		{name: "no close key lists the known ones", yaml: "sandbox:\n  zzzzzzzz: 1\n", wantErr: "known keys here: artifacts, isolation, limits"},
		{name: "wrong type", yaml: "seed: many\n", wantErr: "line 1: cannot unmarshal"},
		{name: "bad yaml", yaml: "teacher: [\n", wantErr: "config"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "synth.yaml")
			if err := os.WriteFile(p, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := Load(p)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, c)
		})
	}
}

func TestStarterLoadsAsDefaults(t *testing.T) {
	p := filepath.Join(t.TempDir(), "synth.yaml")
	if err := os.WriteFile(p, []byte(Starter), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(p)
	if err != nil {
		t.Fatalf("the starter config does not load: %v", err)
	}
	d := Default()
	if c.Teacher.Kind != d.Teacher.Kind || c.Teacher.MaxTurns != d.Teacher.MaxTurns || c.Bench.Fraction != d.Bench.Fraction || c.Seed != d.Seed {
		t.Fatalf("starter differs from the defaults:\n%+v\n%+v", c, d)
	}
	lim, err := c.Sandbox.ParsedLimits()
	if err != nil || lim != sandbox.DefaultLimits() {
		t.Errorf("starter sandbox.limits %+v (%v), want the defaults %+v", lim, err, sandbox.DefaultLimits())
	}
	art, err := c.Sandbox.ParsedCollectLimits()
	want := sandbox.CollectLimits{Files: sandbox.DefaultArtifactFiles, Bytes: sandbox.DefaultArtifactBytes, Depth: sandbox.DefaultArtifactDepth, Path: sandbox.DefaultArtifactPath}
	if err != nil || art != want {
		t.Errorf("starter sandbox.artifacts %+v (%v), want the defaults %+v", art, err, want)
	}
}

func TestValidateNamesTheKey(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"teacher:\n  kind: opnai\n", `teacher.kind "opnai" is not known (want reference, openai, replay, empty or sloppy)`},
		{"teacher:\n  kind: openai\n", "need an endpoint: pass --model M"},
		{"llm:\n  endpoints:\n    - base_url: http://127.0.0.1:8000/v1\n", "llm.endpoints[0] needs a model"},
		{"bench:\n  fraction: 1.5\n", "bench.fraction 1.5: want a share from 0 to 1"},
		{"tasks:\n  composed:\n    share: 2\n", "tasks.composed.share 2: want a share from 0 to 1"},
		{"tasks:\n  composed:\n    depth: 2\n", "tasks.composed.depth 2: want 3 to 5 steps"},
		{"sources:\n  specs: [s3:bucket]\n", `unknown source kind "s3"`},
		{"sandbox:\n  limits:\n    cell_timeout: soon\n", "sandbox.limits.cell_timeout"},
		{"teacher:\n  kind: replay\n", "needs teacher.replay"},
		{"sources:\n  idle_timeout: soon\n", `sources.idle_timeout "soon"`},
	}
	for _, tc := range tests {
		p := filepath.Join(t.TempDir(), "synth.yaml")
		os.WriteFile(p, []byte(tc.yaml), 0o644)
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want it to contain %q", tc.yaml, err, tc.want)
		}
	}
}

// TestConfigHashSurvivesYAML: a config written as YAML (as synth launch
// does for its plan job) reads back with the same hash, though empty lists
// come back as [] rather than nil.
func TestConfigHashSurvivesYAML(t *testing.T) {
	cfg := Default()
	cfg.Tasks.Templates = []string{"table.sort"}
	cfg.Sources.Licenses = []string{}
	p := filepath.Join(t.TempDir(), "synth.yaml")
	if err := os.WriteFile(p, []byte(cfg.YAML()), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash() != cfg.Hash() {
		t.Fatalf("hash %s after YAML, %s before", back.Hash(), cfg.Hash())
	}
	other := cfg
	other.Tasks.Templates = []string{"table.dedup"}
	if other.Hash() == cfg.Hash() {
		t.Fatal("another template list hashes the same")
	}
}
