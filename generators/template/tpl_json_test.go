package template

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/checks"
	"synth/checks/checkstest"
	"synth/generators"
	"synth/proof"
	"synth/pyenv/pyenvtest"
	"synth/sources/tableread"
)

// mostLeaves is the top-level key of doc holding the most leaves, and
// the one holding the second most.
func mostLeaves(doc *tableread.Node) (top, second string) {
	best, next := -1, -1
	for i, k := range doc.Keys {
		switch n := doc.Values[i].Leaves(); {
		case n > best:
			second, next, top, best = top, best, k, n
		case n > next:
			second, next = k, n
		}
	}
	return top, second
}

// nodes counts the values of n's tree, n and its containers among them.
func nodes(n *tableread.Node) int {
	s := 1
	for _, v := range n.Values {
		s += nodes(v)
	}
	return s
}

// JSON documents in the shapes real ones come in, written here.

// apiEnvelopeJSON is an API response: metadata, then the records under
// "data", each with a nested object, a boolean and a list. (13 records:
// the battery's perturbed copy keeps 9, not the 8 columns, which a stale
// shape would state by chance.)
func apiEnvelopeJSON() string {
	var recs []string
	cities := []string{"Oslo", "Rome", "Lima", "Pune", "Kobe", "Graz"}
	for i := range 13 {
		recs = append(recs, fmt.Sprintf(`{"id": %d, "name": "user%d", "plan": "%s", "spend": %d.%d, "verified": %v, "tags": ["t%d"], "address": {"city": "%s", "zip": "0%d1"}}`,
			i+1, i+1, []string{"free", "pro", "team"}[i%3], 10+i*7%23, i%10, i%4 == 0, i%3, cities[i%6], i))
	}
	return `{"status": "ok", "count": 13, "page": {"number": 1, "size": 50}, "data": [` + strings.Join(recs, ",\n") + `]}`
}

// idKeyedJSON is rows keyed by id.
func idKeyedJSON() string {
	var rows []string
	for i := range 8 {
		rows = append(rows, fmt.Sprintf(`"sku-%d": {"name": "item %d", "price": %d.5, "stock": %d, "category": "%s"}`, 100+i, i, 3+i*2, 40-i*3, []string{"tools", "food"}[i%2]))
	}
	return "{" + strings.Join(rows, ", ") + "}"
}

// geoJSON is a FeatureCollection of points.
func geoJSON() string {
	var fs []string
	for i := range 7 {
		fs = append(fs, fmt.Sprintf(`{"type": "Feature", "geometry": {"type": "Point", "coordinates": [%d.25, %d.5]}, "properties": {"name": "site %d", "visitors": %d, "kind": "%s"}}`,
			10+i, 50-i, i, 100+i*37, []string{"park", "museum"}[i%2]))
	}
	return `{"type": "FeatureCollection", "features": [` + strings.Join(fs, ", ") + `]}`
}

// schemaJSON is a JSON Schema: nested property definitions, no table of
// five rows.
const schemaJSON = `{"$schema": "http://json-schema.org/draft-07/schema#", "title": "Study", "type": "object",
"required": ["id", "title"],
"properties": {
  "id": {"type": "integer", "description": "accession number"},
  "title": {"type": "string", "description": "display title"},
  "brief": {"type": "object", "properties": {"text": {"type": "string"}, "html": {"type": "boolean", "default": false}}},
  "sites": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "country": {"type": "string", "enum": ["NO", "IT", "PE"]}}}}
}}`

// ambiguousJSON holds two tables of the same size and two top-level keys
// of the same number of leaves: neither question has one answer.
const ambiguousJSON = `{"users": [{"id": 1, "n": "a"}, {"id": 2, "n": "b"}, {"id": 3, "n": "c"}, {"id": 4, "n": "d"}, {"id": 5, "n": "e"}],
"groups": [{"id": 1, "g": "x"}, {"id": 2, "g": "y"}, {"id": 3, "g": "z"}, {"id": 4, "g": "w"}, {"id": 5, "g": "v"}]}`

// TestJSONStructureRejectsHurriedAnswers: json.structure's checks fail
// what a hurried analyst answers (top-level keys counted as the leaves,
// containers counted as leaves, the depth off by one, another key) and
// pass a walk written another way.
func TestJSONStructureRejectsHurriedAnswers(t *testing.T) {
	pyenvtest.Python(t)
	for _, tc := range []struct{ name, body string }{
		{"schema.json", schemaJSON},
		{"api.json", apiEnvelopeJSON()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ins := []generators.Input{writeFile(t, t.TempDir(), tc.name, "json", []byte(tc.body))}
			doc, err := tableread.ParseJSON([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			leaves, depth := doc.Leaves(), doc.Depth()
			top, other := mostLeaves(doc)
			say := func(name string, n, d int, key string) solution {
				return solution{name: name, own: true, steps: []string{fmt.Sprintf("print(%d, %d, %s)", n, d, py(key))},
					answer: fmt.Sprintf("The file holds %d leaf values; its deepest nesting is %d levels; the top-level key with the most leaf values is %s.", n, d, key)}
			}
			right := say("a stack", leaves, depth, top)
			right.steps = []string{`import json
doc = json.load(open(` + py("./data/"+tc.name) + `))
stack, leaves, deepest, under = [(doc, 0, None)], 0, 0, {}
while stack:
    v, d, k = stack.pop()
    if isinstance(v, (dict, list)):
        items = v.items() if isinstance(v, dict) else [(k, x) for x in v]
        for kk, x in items:
            stack.append((x, d + 1, kk if d == 0 else k))
    else:
        leaves += 1
        deepest = max(deepest, d)
        under[k] = under.get(k, 0) + 1
print(leaves, deepest, max(under, key=under.get))`}
			task := judge(t, ins, "json.structure", []solution{
				say("top-level keys for leaves", len(doc.Keys), depth, top),
				say("containers counted", nodes(doc)-1, depth, top),
				say("depth off by one", leaves, depth+1, top),
				say("another key", leaves, depth, other),
			}, []solution{right})
			if !strings.Contains(task.Query, "./data/"+tc.name) {
				t.Errorf("query %q does not name the file", task.Query)
			}
		})
	}
}

// TestJSONTablesUnderAPath: the table templates read the records under a
// key (an API's envelope, GeoJSON's features) and rows keyed by id; the
// query names where the table lies and the reference's code states it.
func TestJSONTablesUnderAPath(t *testing.T) {
	pyenvtest.Python(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name, body, where, code string
		rootCols                int    // columns of the whole document flattened: one row
		nested                  string // the dotted column the query names, if any
	}{
		{"api.json", apiEnvelopeJSON(), "the records under data", `pd.json_normalize(json.load(open("./data/api.json", encoding="utf-8"))["data"])`, 5, "address.city"},
		{"places.json", geoJSON(), "the records under features", `["features"])`, 2, "geometry.type"},
		{"stock.json", idKeyedJSON(), "the top-level object's entries, one row per key", `pd.DataFrame.from_dict(json.load(open("./data/stock.json", encoding="utf-8")), orient="index")`, 40, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ins := []generators.Input{writeFile(t, dir, tc.name, "json", []byte(tc.body))}
			tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.shape"}, Strict: true}).Generate(context.Background(), ins)
			if err != nil {
				t.Fatal(err)
			}
			if len(tasks) != 1 {
				t.Fatalf("%d table.shape tasks, want 1", len(tasks))
			}
			task := tasks[0]
			if !strings.Contains(task.Query, tc.where) {
				t.Errorf("query %q does not say the table is %s", task.Query, tc.where)
			}
			if says := strings.Contains(task.Query, "named with dots ("+tc.nested+")"); says != (tc.nested != "") {
				t.Errorf("query %q names the flattened nested fields: %v, want %q", task.Query, says, tc.nested)
			}
			if code := task.Reference.Steps[0].Code; !strings.Contains(code, tc.code) || !strings.Contains(code, "import json") {
				t.Errorf("reference reads\n%s\nwant it to state %s", code, tc.code)
			}
			whole := fmt.Sprintf("import json, pandas as pd\ndf = pd.json_normalize(json.load(open(%s)))\nprint(df.shape)", py("./data/"+tc.name))
			judgeTask(t, &task, inputPaths(ins), "table.shape", []solution{
				{name: "the whole document as one row", own: true, steps: []string{whole}, answer: fmt.Sprintf("It has 1 rows and %d columns.", tc.rootCols)},
			}, []solution{{name: "the reference's read", own: true, steps: []string{task.Reference.Steps[0].Code}}})
		})
	}
}

// TestAmbiguousJSONNamedInReport: a document with two tables of the same
// size and no top-level key holding the most leaves gets no task, and
// tasks.report.md says why.
func TestAmbiguousJSONNamedInReport(t *testing.T) {
	ins := []generators.Input{writeFile(t, t.TempDir(), "two.json", "json", []byte(ambiguousJSON))}
	gen := New(Options{Seed: 1, Langs: []string{"en"}, FilesOnly: true, Strict: true})
	tasks, err := gen.Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 0 {
		t.Fatalf("%d tasks of an ambiguous document, first %s: %q", len(tasks), tasks[0].Generator, tasks[0].Query)
	}
	un := gen.(generators.Explainer).Untasked()
	if len(un) != 1 || !strings.Contains(un[0].Detail, "ambiguous layout: 2 tables of 5 records each (users, groups)") {
		t.Fatalf("untasked %+v, want the two tables named", un)
	}
}

// TestJSONSchemaGetsStructureNotTable: a JSON Schema whose largest table
// is too small gets the structure question and no table task.
func TestJSONSchemaGetsStructureNotTable(t *testing.T) {
	ins := []generators.Input{writeFile(t, t.TempDir(), "schema.json", "json", []byte(schemaJSON))}
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, FilesOnly: true, Strict: true}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 || tasks[0].Generator != "template:json.structure@1" {
		var gens []string
		for _, task := range tasks {
			gens = append(gens, task.Generator)
		}
		t.Fatalf("tasks %v, want json.structure alone", gens)
	}
}

// TestJSONWithoutTableStaysUsable: a document holding no table (an array
// of values, an array with a null among its objects) is read as JSON, and
// the table templates do not read it; the reason says why.
func TestJSONWithoutTableStaysUsable(t *testing.T) {
	dir := t.TempDir()
	for _, body := range []string{`[null, {"a": 1}, {"a": 2}, {"a": 3}, {"a": 4}, {"a": 5}]`, `{"a": [1, 2, 3], "b": {"c": "d"}}`} {
		in := writeFile(t, dir, "doc.json", "json", []byte(body))
		c := newCtx(1, []generators.Input{in}, nil)
		if err := usable(c); err != nil {
			t.Errorf("%s: usable: %v, want a JSON document usable", body, err)
		}
		if err := tableUsable(c, 0); err == nil || !strings.Contains(err.Error(), "no array of records") {
			t.Errorf("%s: tableUsable: %v, want no table", body, err)
		}
		for _, tm := range registry {
			if tm.accepts("json") && reads(tm, c, 0) && !tm.jsonTree {
				t.Errorf("%s: table template %s reads a document without a table", body, tm.Name)
			}
		}
		if err := os.Remove(in.Path); err != nil {
			t.Fatal(err)
		}
	}
}

// TestJSONStructureStaleAnswerFails: the battery perturbs a JSON input
// (every third item of its arrays dropped), and json.structure's answer
// as first given, judged on the perturbed document, fails on a value
// recomputed from it.
func TestJSONStructureStaleAnswerFails(t *testing.T) {
	pyenvtest.Python(t)
	b := checkstest.Backend(t, 0)
	ins := []generators.Input{writeFile(t, t.TempDir(), "api.json", "json", []byte(apiEnvelopeJSON()))}
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"json.structure"}, Strict: true}).Generate(context.Background(), ins)
	if err != nil || len(tasks) != 1 {
		t.Fatalf("%d tasks, %v; want one json.structure task", len(tasks), err)
	}
	ref, bat, err := proof.PlayBattery(context.Background(), b, &tasks[0], tasks[0].Reference,
		[]proof.Input{{Name: "api.json", Path: ins[0].Path}}, filepath.Join(t.TempDir(), "artifacts"))
	if err != nil {
		t.Fatal(err)
	}
	if ref.Failed != "" {
		t.Fatalf("the reference failed: %s", ref.Failed)
	}
	if bat.StaleAnswer == nil {
		t.Fatal("the battery has no stale answer: the JSON input was not perturbed")
	}
	rs, err := checks.Verify(context.Background(), b, []checks.Case{bat.StaleAnswer.Case})
	if err != nil {
		t.Fatal(err)
	}
	rejected := false
	for k, r := range rs[0] {
		rejected = rejected || !r.OK && recomputes(bat.StaleAnswer.Case.Checks[k])
	}
	if !rejected {
		t.Errorf("the stale answer %q passes the recomputed checks on the perturbed document", bat.StaleAnswer.Case.Answer)
	}
}

// TestJSONObjectColumnsLeftAlone: a json table's columns of lists and of
// booleans, which pandas holds as Python objects and bools, are named by
// no query (a filter on "True" would match no bool), and no web page is
// asked of a table holding them (pandas writes a list as its repr).
func TestJSONObjectColumnsLeftAlone(t *testing.T) {
	ins := []generators.Input{writeFile(t, t.TempDir(), "api.json", "json", []byte(apiEnvelopeJSON()))}
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, FilesOnly: true, Strict: true}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) == 0 {
		t.Fatal("no task over the API envelope")
	}
	for _, task := range tasks {
		if TemplateName(&task) == "web.datatable" {
			t.Errorf("web.datatable asked of a table with a column of lists: %q", task.Query)
		}
		if strings.Contains(task.Query, "verified") || strings.Contains(task.Query, "tags") {
			t.Errorf("%s names a column of booleans or lists: %q", task.Generator, task.Query)
		}
	}
}

// TestJSONNoDedupOverLists: rows holding lists cannot be hashed by pandas,
// so a json table with a column of lists gets no deduplication task even
// when rows repeat.
func TestJSONNoDedupOverLists(t *testing.T) {
	rec := `{"k": "a", "n": 1, "tags": ["x"]}`
	body := `{"data": [` + strings.Join([]string{rec, rec, `{"k": "b", "n": 2, "tags": []}`, `{"k": "c", "n": 3, "tags": ["y"]}`, `{"k": "d", "n": 4, "tags": []}`, `{"k": "e", "n": 5, "tags": []}`}, ", ") + `]}`
	ins := []generators.Input{writeFile(t, t.TempDir(), "dups.json", "json", []byte(body))}
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.dedup"}, FilesOnly: true, Strict: true}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 0 {
		t.Fatalf("table.dedup asked of rows holding lists: %q", tasks[0].Query)
	}
}

// TestJSONNumericStringsStayText: a json column of strings that look like
// numbers ("version": "2.1") is text to pandas' json_normalize, so no
// template takes it for a measure.
func TestJSONNumericStringsStayText(t *testing.T) {
	var recs []string
	for i := range 8 {
		recs = append(recs, fmt.Sprintf(`{"version": "%d.%d", "stars": %d}`, 2+i%2, i%3, 1+i%5))
	}
	in := writeFile(t, t.TempDir(), "reviews.json", "json", []byte("["+strings.Join(recs, ", ")+"]"))
	tb, err := readTable(in.Path, "json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tb.columns() {
		want := c.name == "stars"
		if c.isNum != want || tb.numeric(c.idx) != want {
			t.Errorf("column %s: isNum %v, numeric %v; want %v", c.name, c.isNum, tb.numeric(c.idx), want)
		}
	}
}

// TestChainQueryReadsAsAsked: a composed task over a json table names its
// columns quoted, as a request does ('address.city'), and never glues a
// column's name into a phrase ("the per-address.city table").
func TestChainQueryReadsAsAsked(t *testing.T) {
	ins := []generators.Input{writeFile(t, t.TempDir(), "geo.json", "json", []byte(geoJSON()))}
	var body []string
	for i := range 30 {
		body = append(body, fmt.Sprintf(`{"type": "Feature", "properties": {"site.kind": "%s", "visitors": %d, "wind": %d.5}}`, []string{"park", "museum", "zoo"}[i%3], 100+i*37%90, i%7))
	}
	ins = append(ins, writeFile(t, t.TempDir(), "sites.json", "json", []byte(`{"features": [`+strings.Join(body, ", ")+`]}`)))
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.chain"}, FilesOnly: true, Strict: true, Composed: Composed{Share: 1}}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) == 0 {
		t.Fatal("no table.chain task")
	}
	for _, task := range tasks {
		if strings.Contains(task.Query, "per-") || !strings.Contains(task.Query, "'properties.") {
			t.Errorf("query %q: want quoted column names and no per-<column> phrase", task.Query)
		}
	}
}

// TestJSONLinesAreTables: a JSON Lines file (one object a line, a blank
// line among them) is a table of records to the table templates; its
// reference reads each line with json.loads, and counting the file's
// lines for its rows fails.
func TestJSONLinesAreTables(t *testing.T) {
	pyenvtest.Python(t)
	var lines []string
	for i := range 9 {
		lines = append(lines, fmt.Sprintf(`{"ts": "2024-01-0%d", "user": {"id": %d}, "ms": %d, "route": "%s"}`, i+1, 10+i%3, 120+i*17%50, []string{"/a", "/b"}[i%2]))
		if i == 4 {
			lines = append(lines, "")
		}
	}
	body := strings.Join(lines, "\n") + "\n"
	ins := []generators.Input{writeFile(t, t.TempDir(), "events.jsonl", "jsonl", []byte(body))}
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.shape"}, Strict: true}).Generate(context.Background(), ins)
	if err != nil || len(tasks) != 1 {
		t.Fatalf("%d table.shape tasks, %v; want 1", len(tasks), err)
	}
	if code := tasks[0].Reference.Steps[0].Code; !strings.Contains(code, `pd.json_normalize([json.loads(line) for line in open("./data/events.jsonl", encoding="utf-8") if line.strip()])`) {
		t.Errorf("reference reads\n%s", code)
	}
	lineCount := fmt.Sprintf("print(len(open(%s).read().split(chr(10))) - 1)", py("./data/events.jsonl"))
	judgeTask(t, &tasks[0], inputPaths(ins), "table.shape", []solution{
		{name: "the file's lines for its rows", own: true, steps: []string{lineCount}, answer: "It has 10 rows and 4 columns."},
	}, []solution{{name: "pandas' own lines reader", own: true, steps: []string{"import pandas as pd\nprint(pd.read_json('./data/events.jsonl', lines=True).shape)"}, answer: "It has 9 rows and 4 columns."}})
	_, bat, err := proof.PlayBattery(context.Background(), checkstest.Backend(t, 0), &tasks[0], tasks[0].Reference,
		[]proof.Input{{Name: "events.jsonl", Path: ins[0].Path}}, filepath.Join(t.TempDir(), "artifacts"))
	if err != nil {
		t.Fatal(err)
	}
	if bat.StaleAnswer == nil {
		t.Error("the battery has no stale answer: the JSON Lines input was not perturbed")
	}
}

// TestShapeStaleAnswerWhereRowsBecomeColumns: a table of 12 rows and 8
// columns keeps 8 rows when the battery perturbs it; the shape as first
// given ("12 rows and 8 columns") states the new row count as its column
// count, and fails on the order of the values recomputed from the inputs.
func TestShapeStaleAnswerWhereRowsBecomeColumns(t *testing.T) {
	pyenvtest.Python(t)
	var b strings.Builder
	b.WriteString("id,name,plan,spend,visits,city,zip,score\n")
	for i := range 12 {
		fmt.Fprintf(&b, "%d,u%d,%s,%d.5,%d,%s,0%d1,%d\n", i+1, i, []string{"free", "pro"}[i%2], 10+i*7%23, i*3%11, []string{"Oslo", "Rome", "Lima"}[i%3], i, 50+i*13%40)
	}
	ins := []generators.Input{writeFile(t, t.TempDir(), "users.csv", "csv", []byte(b.String()))}
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.shape"}, Strict: true}).Generate(context.Background(), ins)
	if err != nil || len(tasks) != 1 {
		t.Fatalf("%d table.shape tasks, %v; want 1", len(tasks), err)
	}
	bk := checkstest.Backend(t, 0)
	_, bat, err := proof.PlayBattery(context.Background(), bk, &tasks[0], tasks[0].Reference,
		[]proof.Input{{Name: "users.csv", Path: ins[0].Path}}, filepath.Join(t.TempDir(), "artifacts"))
	if err != nil {
		t.Fatal(err)
	}
	if bat.StaleAnswer == nil {
		t.Fatal("the battery has no stale answer")
	}
	rs, err := checks.Verify(context.Background(), bk, []checks.Case{bat.StaleAnswer.Case})
	if err != nil {
		t.Fatal(err)
	}
	if msg := checks.FirstFailure(rs[0]); msg == "" {
		t.Errorf("the stale shape %q passes on the perturbed table (8 rows of 12, 8 columns)", bat.StaleAnswer.Case.Answer)
	}
}
