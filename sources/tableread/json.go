package tableread

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// JSON orientations: how a table's rows lie in a JSON document.
const (
	// OrientRecords is an array of objects, one a row: pandas reads it with
	// json_normalize, nested objects flattened to "a.b" columns.
	OrientRecords = "records"
	// OrientIndex is an object of objects keyed by each row's id: pandas
	// reads it with DataFrame.from_dict(orient="index"), the ids its index.
	OrientIndex = "index"
)

// minJSONRecords is the fewest rows a JSON table candidate needs; the
// templates' own too-small rule applies after.
const minJSONRecords = 2

// ErrNoJSONTable is the error of a JSON document holding no table: no
// array of objects and no object of objects anywhere along its objects.
var ErrNoJSONTable = errors.New("no array of records or object of records in it")

// ReadJSON reads a JSON document (a whole file) as the table it holds: the
// largest array of objects (or object of objects keyed by id) found at the
// root or under a path of object keys. Layout.Path names where it lies and
// Layout.Orient how. Two candidates of the same size make the choice a
// guess: an *Ambiguous error names them. Arrays inside arrays are not
// searched (their path would need an index).
func ReadJSON(b []byte) (*Table, error) {
	enc := EncUTF8
	if len(b) >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf {
		enc = EncUTF8BOM
	}
	root, err := ParseJSON(b)
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	var cands []jsonCandidate
	findTables(root, nil, &cands)
	if len(cands) == 0 {
		return nil, ErrNoJSONTable
	}
	best := cands[0]
	for _, c := range cands[1:] {
		if c.rows() > best.rows() {
			best = c
		}
	}
	var tied []string
	for _, c := range cands {
		if c.rows() == best.rows() {
			tied = append(tied, c.where())
		}
	}
	if len(tied) > 1 {
		return nil, &Ambiguous{Reason: fmt.Sprintf("%d tables of %d records each (%s): which one is meant cannot be told", len(tied), best.rows(), strings.Join(tied, ", "))}
	}
	t := best.table()
	t.Layout.Encoding = enc
	return t, nil
}

// jsonCandidate is a table found in a JSON document.
type jsonCandidate struct {
	path   []string
	orient string
	node   *Node
}

func (c jsonCandidate) rows() int { return len(c.node.Values) }

// where names the candidate's place as a query does: "the root" or its
// key path.
func (c jsonCandidate) where() string {
	if len(c.path) == 0 {
		return "the root"
	}
	return strings.Join(c.path, ".")
}

// findTables adds to out every table candidate at n (whose path is path)
// or under its object keys.
func findTables(n *Node, path []string, out *[]jsonCandidate) {
	switch {
	case isRecords(n):
		*out = append(*out, jsonCandidate{path: path, orient: OrientRecords, node: n})
		return
	case isIndexed(n):
		*out = append(*out, jsonCandidate{path: path, orient: OrientIndex, node: n})
	}
	if n.Kind != JSONObject {
		return
	}
	for i, k := range n.Keys {
		findTables(n.Values[i], append(append([]string(nil), path...), k), out)
	}
}

// isRecords reports an array of objects, at least minJSONRecords of them.
func isRecords(n *Node) bool {
	if n.Kind != JSONArray || len(n.Values) < minJSONRecords {
		return false
	}
	for _, item := range n.Values {
		if item.Kind != JSONObject {
			return false
		}
	}
	return true
}

// isIndexed reports an object of objects that all share a key (rows
// keyed by id), at least minJSONRecords of them. An empty object shares
// none: pandas would leave its row out.
func isIndexed(n *Node) bool {
	if n.Kind != JSONObject || len(n.Values) < minJSONRecords {
		return false
	}
	shared := map[string]int{}
	for _, v := range n.Values {
		if v.Kind != JSONObject {
			return false
		}
		for _, k := range v.Keys {
			shared[k]++
		}
	}
	for _, c := range shared {
		if c == len(n.Values) {
			return true
		}
	}
	return false
}

// table is the candidate as pandas reads it: json_normalize's columns for
// records, from_dict's for an index.
func (c jsonCandidate) table() *Table {
	t := &Table{Layout: Layout{Format: "json", Path: c.path, Orient: c.orient}}
	var recs []map[string]*Node
	col := map[string]int{}
	for _, r := range c.node.Values {
		var keys []string
		flat := map[string]*Node{}
		if c.orient == OrientRecords {
			flatten(r, "", &keys, flat)
		} else {
			for i, k := range r.Keys {
				keys = append(keys, k)
				flat[k] = r.Values[i]
			}
		}
		for _, k := range keys {
			if _, ok := col[k]; !ok {
				col[k] = len(t.Header)
				t.Header = append(t.Header, k)
			}
		}
		recs = append(recs, flat)
	}
	t.Objects = make([]bool, len(t.Header))
	t.Strings = make([]bool, len(t.Header))
	for _, flat := range recs {
		row := make([]string, len(t.Header))
		for k, v := range flat {
			i := col[k]
			row[i] = cell(v)
			t.Objects[i] = t.Objects[i] || v.Container() || v.Kind == JSONBool
			t.Strings[i] = t.Strings[i] || v.Kind == JSONString
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// flatten lists an object's keys as pandas.json_normalize names its
// columns: the keys whose values are not objects first, in order, then
// each object-valued key's own keys, depth first in their order, joined
// with "." (an empty object gives none).
func flatten(obj *Node, prefix string, keys *[]string, flat map[string]*Node) {
	for i, k := range obj.Keys {
		if v := obj.Values[i]; prefix != "" || v.Kind != JSONObject {
			if v.Kind == JSONObject {
				flatten(v, prefix+k+".", keys, flat)
				continue
			}
			*keys = append(*keys, prefix+k)
			flat[prefix+k] = v
		}
	}
	if prefix != "" {
		return
	}
	for i, k := range obj.Keys {
		if v := obj.Values[i]; v.Kind == JSONObject {
			flatten(v, k+".", keys, flat)
		}
	}
}

// cell is a value as a table cell: "" for null, a number as written,
// True/False as Python prints them, a list or object as its JSON.
func cell(v *Node) string {
	switch v.Kind {
	case JSONNull:
		return ""
	case JSONString:
		return v.Text
	case JSONNumber:
		if strings.ContainsAny(v.Text, ".eE") {
			if f, err := strconv.ParseFloat(v.Text, 64); err == nil {
				return strconv.FormatFloat(f, 'f', -1, 64)
			}
		}
		return v.Text
	case JSONBool:
		if v.Bool {
			return "True"
		}
		return "False"
	}
	return v.compact()
}

// compact writes a container back as compact JSON.
func (n *Node) compact() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *Node) write(b *strings.Builder) {
	switch n.Kind {
	case JSONObject, JSONArray:
		open, close := "[", "]"
		if n.Kind == JSONObject {
			open, close = "{", "}"
		}
		b.WriteString(open)
		for i, v := range n.Values {
			if i > 0 {
				b.WriteString(",")
			}
			if n.Kind == JSONObject {
				b.WriteString(strconv.Quote(n.Keys[i]) + ":")
			}
			v.write(b)
		}
		b.WriteString(close)
	case JSONString:
		b.WriteString(strconv.Quote(n.Text))
	case JSONNull:
		b.WriteString("null")
	case JSONBool:
		b.WriteString(strconv.FormatBool(n.Bool))
	default:
		b.WriteString(n.Text)
	}
}

// PathExpr is the Python subscripts that reach the table from the loaded
// document: ["schema"]["fields"], "" for the root.
func (l Layout) PathExpr() string {
	var b strings.Builder
	for _, k := range l.Path {
		b.WriteString("[" + strconv.Quote(k) + "]")
	}
	return b.String()
}

// Where names the table's place in a JSON document for a query: "the
// records under schema.fields", "the entries of properties (one row per
// key)", or "" for an array of records at the root, which needs no
// naming.
func (l Layout) Where() string {
	if l.Format != "json" || len(l.Path) == 0 && l.Orient != OrientIndex {
		return ""
	}
	at := strings.Join(l.Path, ".")
	if l.Orient == OrientIndex {
		if at == "" {
			return "the top-level object's entries, one row per key"
		}
		return "the entries of " + at + ", one row per key"
	}
	return "the records under " + at
}

// WhereZh is Where in Chinese.
func (l Layout) WhereZh() string {
	if l.Format != "json" || len(l.Path) == 0 && l.Orient != OrientIndex {
		return ""
	}
	at := strings.Join(l.Path, ".")
	if l.Orient == OrientIndex {
		if at == "" {
			return "顶层对象的各个条目（每个键一行）"
		}
		return at + " 的各个条目（每个键一行）"
	}
	return at + " 下的记录"
}

// jsonCall is the pandas expression that reads a JSON table at path.
func (l Layout) jsonCall(path string) string {
	if l.Format == "jsonl" {
		return fmt.Sprintf("pd.json_normalize([json.loads(line) for line in open(%s, encoding=%s) if line.strip()])", strconv.Quote(path), strconv.Quote(l.Encoding))
	}
	doc := fmt.Sprintf("json.load(open(%s, encoding=%s))%s", strconv.Quote(path), strconv.Quote(l.Encoding), l.PathExpr())
	if l.Orient == OrientIndex {
		return "pd.DataFrame.from_dict(" + doc + `, orient="index")`
	}
	return "pd.json_normalize(" + doc + ")"
}

// NeedsJSON reports whether Call's expression uses Python's json module,
// which the code around it imports.
func (l Layout) NeedsJSON() bool { return l.Format == "json" || l.Format == "jsonl" }

// ReadJSONLines reads a JSON Lines file (one JSON object a line; blank
// lines skipped) as a table of records, as pandas.json_normalize reads the
// list of its objects. A line that is not a JSON object makes it no table.
func ReadJSONLines(b []byte) (*Table, error) {
	enc := EncUTF8
	if len(b) >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf {
		enc = EncUTF8BOM
		b = b[3:]
	}
	recs := &Node{Kind: JSONArray}
	for i, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		rec, err := ParseJSON([]byte(line))
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		if rec.Kind != JSONObject {
			return nil, fmt.Errorf("line %d is a JSON %s, not an object: %w", i+1, rec.Kind, ErrNoJSONTable)
		}
		recs.Values = append(recs.Values, rec)
	}
	t := jsonCandidate{orient: OrientRecords, node: recs}.table()
	t.Layout.Format, t.Layout.Encoding = "jsonl", enc
	return t, nil
}
