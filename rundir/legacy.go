package rundir

import (
	"encoding/json"
	"reflect"
	"strings"
)

// Before run.json had snake_case keys, its config was written under Go's
// field names (Seed, MaxTurns, ...). legacyConfigKeys renames such a
// config's keys to the json keys of t's fields, so a run planned by an
// earlier synth still reads whole (its hash, taken over Go's names, is
// the same). Keys it does not know are left as they are.
func legacyConfigKeys(v any, t reflect.Type) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch x := v.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Struct:
			fields := map[string]reflect.StructField{}
			goFields(t, fields)
			out := make(map[string]any, len(x))
			for k, val := range x {
				f, ok := fields[k]
				if !ok {
					out[k] = val
					continue
				}
				out[jsonKey(f)] = legacyConfigKeys(val, f.Type)
			}
			return out
		case reflect.Map:
			for k, val := range x {
				x[k] = legacyConfigKeys(val, t.Elem())
			}
		}
	case []any:
		if t.Kind() == reflect.Slice {
			for i := range x {
				x[i] = legacyConfigKeys(x[i], t.Elem())
			}
		}
	}
	return v
}

// goFields maps t's field names to its fields, those of embedded structs
// promoted.
func goFields(t reflect.Type, into map[string]reflect.StructField) {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct && jsonKey(f) == "" {
			goFields(f.Type, into)
			continue
		}
		if f.IsExported() {
			into[f.Name] = f
		}
	}
}

func jsonKey(f reflect.StructField) string {
	return strings.Split(f.Tag.Get("json"), ",")[0]
}

// readLegacyConfig decodes a config written under Go's field names into
// cfg, a pointer, which it zeroes first.
func readLegacyConfig(raw json.RawMessage, cfg reflect.Value) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	b, err := json.Marshal(legacyConfigKeys(v, cfg.Type().Elem()))
	if err != nil {
		return err
	}
	cfg.Elem().SetZero()
	return json.Unmarshal(b, cfg.Interface())
}
