package config

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// checkKeys walks a YAML mapping against the struct it decodes into and
// reports the first unknown key with its line and the nearest known key.
func checkKeys(path string, node *yaml.Node, v any) error {
	return walkKeys(path, node, reflect.TypeOf(v), "")
}

func walkKeys(path string, node *yaml.Node, t reflect.Type, at string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Struct && node.Kind == yaml.MappingNode:
		fields := yamlFields(t)
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, val := node.Content[i], node.Content[i+1]
			ft, ok := fields[k.Value]
			if !ok {
				msg := fmt.Sprintf("config %s:%d: unknown key %q", path, k.Line, at+k.Value)
				if s := nearest(k.Value, keysOf(fields)); s != "" {
					msg += fmt.Sprintf(" (did you mean %s?)", s)
				} else {
					msg += fmt.Sprintf(" (known keys here: %s)", strings.Join(keysOf(fields), ", "))
				}
				return fmt.Errorf("%s", msg)
			}
			if err := walkKeys(path, val, ft, at+k.Value+"."); err != nil {
				return err
			}
		}
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && node.Kind == yaml.SequenceNode:
		for _, item := range node.Content {
			if err := walkKeys(path, item, t.Elem(), at); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Map && node.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(node.Content); i += 2 {
			if err := walkKeys(path, node.Content[i+1], t.Elem(), at+node.Content[i].Value+"."); err != nil {
				return err
			}
		}
	}
	return nil
}

func yamlFields(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		if strings.Contains(opts, "inline") {
			for k, v := range yamlFields(f.Type) {
				fields[k] = v
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		fields[name] = f.Type
	}
	return fields
}

func keysOf(m map[string]reflect.Type) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// nearest returns the candidate closest to s by edit distance, if it is
// close enough to be a likely typo.
func nearest(s string, candidates []string) string {
	best, bestD := "", len(s)/2+2
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
