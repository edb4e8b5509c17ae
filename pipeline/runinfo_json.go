package pipeline

import (
	"encoding/json"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// run.json shows the config under the keys of synth.yaml (snake_case, as
// synth init writes it), not Go's field names: the config goes through its
// YAML form on the way in and out.

// MarshalJSON implements json.Marshaler.
func (ri RunInfo) MarshalJSON() ([]byte, error) {
	type plain RunInfo
	cfg, err := configJSON(ri.Config)
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		plain
		Config json.RawMessage `json:"config"`
	}{plain(ri), cfg})
}

// UnmarshalJSON implements json.Unmarshaler. A config written by an older
// synth under Go's field names reads as empty; the run's hash, which is
// what resuming checks, is unaffected.
func (ri *RunInfo) UnmarshalJSON(b []byte) error {
	type plain RunInfo
	var v struct {
		plain
		Config json.RawMessage `json:"config"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*ri = RunInfo(v.plain)
	if len(v.Config) == 0 || string(v.Config) == "null" {
		return nil
	}
	var m any
	if err := json.Unmarshal(v.Config, &m); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	y, err := yaml.Marshal(m)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := yaml.Unmarshal(y, &ri.Config); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

func configJSON(c Config) (json.RawMessage, error) {
	y, err := yaml.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	var m any
	if err := yaml.Unmarshal(y, &m); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return json.Marshal(m)
}
