package template

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"synth/hostpy"
)

// Modules lists every Python module the templates may need: the core set,
// each template's Requires and the modules reading a file type needs.
func Modules() []string {
	ms := slices.Clone(CoreModules)
	add := func(m string) {
		if !slices.Contains(ms, m) {
			ms = append(ms, m)
		}
	}
	for _, t := range registry {
		for _, m := range t.Requires {
			add(m)
		}
	}
	for _, m := range typeModule {
		add(m)
	}
	slices.Sort(ms)
	return ms
}

// ProbeModules asks a Python interpreter which of the modules it can
// import; its result feeds Options.PythonModules and Available.
func ProbeModules(ctx context.Context, python string, modules []string) (map[string]bool, error) {
	names, _ := json.Marshal(modules)
	code := "import importlib.util, json\nprint(json.dumps({m: importlib.util.find_spec(m) is not None for m in json.loads('" +
		strings.ReplaceAll(string(names), "'", "") + "')}))"
	out, err := hostpy.Command(ctx, python, "-c", code).Output()
	if err != nil {
		return nil, fmt.Errorf("probe python modules with %s: %w", python, err)
	}
	have := map[string]bool{}
	if err := json.Unmarshal(out, &have); err != nil {
		return nil, fmt.Errorf("probe python modules with %s: %w", python, err)
	}
	return have, nil
}
