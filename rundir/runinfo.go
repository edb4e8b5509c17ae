package rundir

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
)

// ErrConfigChanged is returned when a run directory, or an eval's results
// folder, was made with another config: pipeline's and eval's errors wrap
// it, and the command maps it to its message and exit code.
var ErrConfigChanged = errors.New("config changed")

// ReadRunInfo decodes dir's run.json into v, a pointer to a struct whose
// fields carry run.json's keys (pipeline's RunInfo, or the few fields a
// reader wants); found is false, with no error, when there is none. A
// run.json that does not decode is an error that says to move it away.
//
// An earlier synth wrote the config under Go's field names (Seed,
// MaxTurns, ...): when run.json's "config" has a "Seed" key, the field of
// v tagged "config" is decoded from it by those names, so a run it
// planned resumes.
func ReadRunInfo(dir string, v any) (found bool, err error) {
	path := filepath.Join(dir, RunInfo)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("%s: %w (move it away to start a new run)", path, err)
	}
	var raw struct {
		Config map[string]json.RawMessage `json:"config"`
	}
	if json.Unmarshal(b, &raw) == nil && raw.Config["Seed"] != nil { // written under Go's field names
		cfg, ok := configField(v)
		if !ok {
			return true, nil
		}
		old, _ := json.Marshal(raw.Config)
		if err := readLegacyConfig(old, cfg); err != nil {
			return false, fmt.Errorf("%s: config: %w (move it away to start a new run)", path, err)
		}
	}
	return true, nil
}

// configField is a pointer to the field of *v tagged "config", if any.
func configField(v any) (reflect.Value, bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	rv = rv.Elem()
	for i := range rv.NumField() {
		if f := rv.Type().Field(i); f.IsExported() && jsonKey(f) == "config" {
			return rv.Field(i).Addr(), true
		}
	}
	return reflect.Value{}, false
}

// WriteRunInfo writes v, indented, as dir's run.json, atomically: to a
// temporary file renamed over it.
func WriteRunInfo(dir string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, RunInfo+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, RunInfo))
}

// FindRunInfo returns the run.json of the run that path belongs to: path
// itself a run directory, the run's DatasetDir or DatasetDataDir, or a
// file in one of them. "" when path is not inside a run directory.
func FindRunInfo(path string) string {
	dir := path
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		dir = filepath.Dir(path)
	}
	for range 3 {
		p := filepath.Join(dir, RunInfo)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p
		}
		dir = filepath.Dir(dir)
	}
	return ""
}
