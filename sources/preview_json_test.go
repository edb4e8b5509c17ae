package sources

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreviewJSONTable: a JSON document's preview shows the table the
// templates read in it (tableread.ReadJSON): where it lies, the pandas
// call, its rows and columns; a document without a table shows its start.
func TestPreviewJSONTable(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	api := write("api.json", `{"count": 3, "data": [{"id": 1, "v": "2.1", "tags": ["a"], "geo": {"city": "Oslo"}},
{"id": 2, "v": "3.0", "tags": [], "geo": {"city": "Rome"}}, {"id": 3, "v": "3.1", "tags": [], "geo": {"city": "Lima"}}]}`)
	p, err := Preview(api, "json")
	if err != nil {
		t.Fatal(err)
	}
	if p.Rows != 3 || !strings.HasPrefix(p.Read, "the records under data: ") || !strings.Contains(p.Read, `["data"]`) {
		t.Errorf("rows %d, read %q; want 3 rows under data", p.Rows, p.Read)
	}
	var cols []string
	for _, c := range p.Columns {
		cols = append(cols, c.Name+":"+c.DType)
	}
	if got := strings.Join(cols, ","); got != "id:int,v:string,tags:object,geo.city:string" {
		t.Errorf("columns %s", got)
	}
	if p.Text == "" || !strings.Contains(p.Head, "Oslo") {
		t.Errorf("text %q, head %q; want the start and the first rows", p.Text, p.Head)
	}
	lines := write("events.jsonl", "{\"t\": 1, \"user\": {\"id\": 7}}\n{\"t\": 2}\n\n{\"t\": 3, \"user\": {\"id\": 9}}\n")
	if p, err := Preview(lines, "jsonl"); err != nil || p.Rows != 3 || !strings.HasPrefix(p.Read, "one record a line: pd.json_normalize(") || len(p.Columns) != 2 || p.Columns[1].Name != "user.id" {
		t.Errorf("JSON lines: %+v, %v; want 3 rows of t and user.id", p, err)
	}
	conf := write("conf.json", `{"name": "app", "scripts": {"build": "tsc"}}`)
	if p, err := Preview(conf, "json"); err != nil || p.Text == "" || p.Rows != 0 {
		t.Errorf("a document without a table: %+v, %v; want its start only", p, err)
	}
}
