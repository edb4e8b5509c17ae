package config_test

import (
	"testing"

	"synth/config"
	"synth/config/configtest"
	"synth/generators"
)

// TestConfigHashStable: the hash of a config does not depend on run.json's
// keys: it is the one earlier synth versions computed, so their runs
// resume. (Both hashes changed once since, when the default config gained
// tasks.composed: a default run writes other tasks, so it does not resume
// an earlier one; a config without it hashes as before.)
func TestConfigHashStable(t *testing.T) {
	for name, c := range map[string]struct {
		cfg  config.Config
		want string
	}{
		"default": {config.Default(), "4f631249fb5faedc"},
		"rich":    {configtest.Rich(), "ad7df1a5b87af1d5"},
		"default without composed tasks": {func() config.Config {
			c := config.Default()
			c.Tasks.Composed = generators.ComposedConfig{}
			return c
		}(), "34445ef10e559e44"},
	} {
		if got := c.cfg.Hash(); got != c.want {
			t.Errorf("%s: hash %s, want %s (as before run.json had snake_case keys)", name, got, c.want)
		}
	}
}

// TestConfigHashIgnoresHowSourcesAreReached: the contact, the idle
// timeout and the legacy Kaggle address change how files are fetched, not
// which, so a run resumes with them changed.
func TestConfigHashIgnoresHowSourcesAreReached(t *testing.T) {
	cfg := configtest.Rich()
	cfg.Sources.Contact, cfg.Sources.IdleTimeout, cfg.Sources.Kaggle.LegacyURL = "ann@example.org", "5s", "http://127.0.0.1:1/api/v1"
	if got, want := cfg.Hash(), configtest.Rich().Hash(); got != want {
		t.Errorf("hash %s with the contact, idle timeout and legacy URL set, %s without", got, want)
	}
}
