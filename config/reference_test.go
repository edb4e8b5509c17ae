package config

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

var update = flag.Bool("update", false, "rewrite docs/CONFIG.md from the code")

// referencePath is the configuration reference, generated from Config's
// fields, their doc comments and the starter config's defaults.
const referencePath = "../docs/CONFIG.md"

// TestConfigReference: docs/CONFIG.md is what the code says today, every
// key of synth.yaml with its default and its field's doc comment; a key
// added, removed or re-documented without regenerating the page fails here.
// go generate ./config/ (go test -run TestConfigReference -update) rewrites it.
func TestConfigReference(t *testing.T) {
	got, err := configReference()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(referencePath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(referencePath)
	if err != nil {
		t.Fatalf("%v: run go generate ./config/", err)
	}
	if string(b) != got {
		want := map[string]bool{}
		for _, k := range referenceKeys(got) {
			want[k] = true
		}
		for _, k := range referenceKeys(string(b)) {
			delete(want, k)
		}
		var missing []string
		for k := range want {
			missing = append(missing, k)
		}
		sort.Strings(missing)
		t.Errorf("docs/CONFIG.md is stale (keys missing from it: %v); run go generate ./config/ and commit it", missing)
	}
}

// referenceKeys are the keys a reference page lists, one per table row.
func referenceKeys(page string) []string {
	var keys []string
	for _, l := range strings.Split(page, "\n") {
		if k, ok := strings.CutPrefix(l, "| `"); ok {
			k, _, _ = strings.Cut(k, "`")
			keys = append(keys, k)
		}
	}
	return keys
}

// TestEveryKeyDocumented: every synth.yaml key has a doc comment on its
// field (or a comment in the starter config) for the reference to show.
func TestEveryKeyDocumented(t *testing.T) {
	ks, err := configKeys()
	if err != nil {
		t.Fatal(err)
	}
	if len(ks) < 100 {
		t.Fatalf("found %d keys, fewer than synth.yaml has", len(ks))
	}
	for _, k := range ks {
		if k.doc == "" {
			t.Errorf("synth.yaml key %s (field %s.%s) has no doc comment", k.path, k.owner.Name(), k.field)
		}
	}
}

// configKey is one key of synth.yaml.
type configKey struct {
	path    string       // tasks.llm.per_file; [] for a list's items, <name> for a map's keys
	owner   reflect.Type // the struct holding the field
	field   string       // its Go name
	kind    string       // the YAML shape: string, integer, number, boolean, list, map
	def     string       // the default as the starter writes it, else Default()'s value
	doc     string       // the field's doc comment, else the starter's comment
	section bool         // a mapping of further keys
}

func configKeys() ([]configKey, error) {
	var starter yaml.Node
	if err := yaml.Unmarshal([]byte(Starter), &starter); err != nil {
		return nil, err
	}
	docs := fieldDocs{}
	var keys []configKey
	var walk func(t reflect.Type, v reflect.Value, prefix string, node *yaml.Node) error
	walk = func(t reflect.Type, v reflect.Value, prefix string, node *yaml.Node) error {
		for i := range t.NumField() {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			fv := reflect.Value{}
			if v.IsValid() {
				fv = v.Field(i)
			}
			if strings.Contains(opts, "inline") {
				if err := walk(f.Type, fv, prefix, node); err != nil {
					return err
				}
				continue
			}
			if name == "" {
				name = strings.ToLower(f.Name)
			}
			k := configKey{path: prefix + name, owner: t, field: f.Name}
			doc, err := docs.of(t, f.Name)
			if err != nil {
				return err
			}
			sn, comment := starterNode(node, name)
			k.doc = doc
			if k.doc == "" {
				k.doc = comment
			}
			ft := f.Type
			if st := structOf(ft); k.doc == "" && st != nil {
				if k.doc, err = docs.of(st, ""); err != nil {
					return err
				}
			}
			switch {
			case ft.Kind() == reflect.Struct:
				k.kind, k.section = "section", true
				keys = append(keys, k)
				if err := walk(ft, fv, k.path+".", sn); err != nil {
					return err
				}
				continue
			case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
				k.kind, k.section = "list of sections", true
				keys = append(keys, k)
				var item *yaml.Node
				if sn != nil && sn.Kind == yaml.SequenceNode && len(sn.Content) > 0 {
					item = sn.Content[0]
				}
				if err := walk(ft.Elem(), reflect.Value{}, k.path+"[].", item); err != nil {
					return err
				}
				continue
			case ft.Kind() == reflect.Map && ft.Elem().Kind() == reflect.Struct:
				k.kind, k.section = "map of sections", true
				keys = append(keys, k)
				if err := walk(ft.Elem(), reflect.Value{}, k.path+".<name>.", nil); err != nil {
					return err
				}
				continue
			}
			k.kind = yamlKind(ft)
			k.def = defaultOf(sn, fv)
			keys = append(keys, k)
		}
		return nil
	}
	d := Default()
	root := &starter
	if len(root.Content) > 0 {
		root = root.Content[0]
	}
	err := walk(reflect.TypeOf(d), reflect.ValueOf(d), "", root)
	return keys, err
}

// starterNode is the value of key in the starter's mapping node, and the
// comments written above and beside the key.
func starterNode(node *yaml.Node, key string) (*yaml.Node, string) {
	if node == nil || node.Kind != yaml.MappingNode {
		return nil, ""
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		if k := node.Content[i]; k.Value == key {
			var parts []string
			for _, c := range []string{k.HeadComment, k.LineComment, node.Content[i+1].LineComment} {
				for _, l := range strings.Split(c, "\n") {
					if l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "#")); l != "" {
						parts = append(parts, l)
					}
				}
			}
			return node.Content[i+1], strings.Join(parts, " ")
		}
	}
	return nil, ""
}

func defaultOf(sn *yaml.Node, v reflect.Value) string {
	if sn != nil && sn.Kind == yaml.ScalarNode {
		if sn.Value == "" {
			return `""`
		}
		return sn.Value
	}
	if sn != nil {
		b, _ := yaml.Marshal(sn)
		return strings.TrimSpace(string(b))
	}
	if !v.IsValid() {
		return ""
	}
	if v.IsZero() {
		switch v.Kind() {
		case reflect.String:
			return `""`
		case reflect.Slice:
			return "[]"
		case reflect.Map:
			return "{}"
		}
	}
	b, err := yaml.Marshal(v.Interface())
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(b))
	if strings.Contains(s, "\n") {
		return ""
	}
	return s
}

// structOf is the struct a section's field holds (itself, or its list's
// or map's items), or nil.
func structOf(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		return t
	}
	return nil
}

func yamlKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		if t.PkgPath() == "time" {
			return "duration"
		}
		return "string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if t.PkgPath() == "time" && t.Name() == "Duration" {
			return "duration"
		}
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice:
		return "list of " + yamlKind(t.Elem())
	case reflect.Map:
		return "map"
	case reflect.Interface:
		return "any"
	}
	return t.Kind().String()
}

// fieldDocs reads the doc comments of struct fields from the source of
// the package that declares them, one parse per package.
type fieldDocs map[string]map[string]string // package path → "Type.Field" → doc

func (d fieldDocs) of(t reflect.Type, field string) (string, error) {
	pkg := t.PkgPath()
	if d[pkg] == nil {
		m, err := parseFieldDocs(filepath.Join("..", strings.TrimPrefix(pkg, "synth")))
		if err != nil {
			return "", err
		}
		d[pkg] = m
	}
	return d[pkg][t.Name()+"."+field], nil
}

func parseFieldDocs(dir string) (map[string]string, error) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("field docs of %s: %w", dir, err)
	}
	docs := map[string]string{}
	for _, p := range pkgs {
		for _, f := range p.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				ts, ok := n.(*ast.TypeSpec)
				if !ok {
					return true
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					return true
				}
				if gd := typeDoc(f, ts); gd != "" {
					docs[ts.Name.Name+"."] = gd
				}
				// A doc names the undocumented fields on the lines right
				// after it: "MinFoo and MaxFoo bound ...".
				var prev string
				prevEnd := -1
				for _, fl := range st.Fields.List {
					doc := strings.TrimSpace(fl.Doc.Text() + " " + fl.Comment.Text())
					doc = strings.Join(strings.Fields(doc), " ")
					adjacent := fset.Position(fl.Pos()).Line == prevEnd+1
					for _, name := range fl.Names {
						d := doc
						if d == "" && adjacent && strings.Contains(prev, name.Name) {
							d = prev
						}
						docs[ts.Name.Name+"."+name.Name] = d
					}
					if doc != "" {
						prev = doc
					} else if !adjacent {
						prev = ""
					}
					prevEnd = fset.Position(fl.End()).Line
				}
				return true
			})
		}
	}
	return docs, nil
}

// typeDoc is the doc comment of a type declaration, on the spec or on
// its single-spec declaration.
func typeDoc(f *ast.File, ts *ast.TypeSpec) string {
	doc := ts.Doc.Text()
	if doc == "" {
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && len(gd.Specs) == 1 && gd.Specs[0] == ts {
				doc = gd.Doc.Text()
			}
		}
	}
	return strings.Join(strings.Fields(doc), " ")
}

// configReference is docs/CONFIG.md.
func configReference() (string, error) {
	keys, err := configKeys()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(referenceHead)
	for _, k := range keys {
		if !strings.Contains(k.path, ".") {
			if k.section {
				fmt.Fprintf(&b, "\n## %s\n\n", k.path)
				if k.doc != "" {
					fmt.Fprintf(&b, "%s\n\n", k.doc)
				}
				b.WriteString("| key | type | default | what it sets |\n|---|---|---|---|\n")
				continue
			}
		}
		if k.section && !strings.Contains(k.path, ".") {
			continue
		}
		if !strings.Contains(k.path, ".") && !k.section {
			if !strings.HasSuffix(b.String(), "|---|---|---|---|\n") && !strings.Contains(b.String(), "\n## top level\n") {
				b.WriteString("\n## top level\n\n| key | type | default | what it sets |\n|---|---|---|---|\n")
			}
		}
		def := k.def
		if def != "" {
			def = "`" + strings.ReplaceAll(def, "|", `\|`) + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", k.path, k.kind, def, strings.ReplaceAll(k.doc, "|", `\|`))
	}
	return b.String(), nil
}

const referenceHead = `# Configuration reference: every key of synth.yaml

<!-- Generated by go generate ./config/ from the config package's Config
struct, the doc comments of its fields and the starter config (config/starter.yaml).
Do not edit: TestConfigReference fails when this page is not what the code says. -->

` + "`synth init`" + ` writes synth.yaml, which lists the common settings with their defaults
and a comment. Use it with ` + "`synth build -o out --config synth.yaml`" + `; flags override the
file (each flag's help names its key). Every key is optional: a key left out keeps its default.
Unknown keys are errors that name the line and the nearest known key:

` + "```" + `
synth: config synth.yaml:4: unknown key "teacher.max_turn" (did you mean max_turns?)
` + "```" + `

A run directory belongs to one config: building into it with another config is refused with a
message; use another ` + "`-o`" + `. ` + "`synth eval`" + ` reads the same file for its teacher, LLM
and sandbox settings.

Below, every key: ` + "`[]`" + ` stands for each item of a list, ` + "`<name>`" + ` for each key of a
map. The default is the starter's value where it writes one; 0 or an empty value often means
"the built-in default", which the description gives.
`
