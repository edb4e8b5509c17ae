package duckdbtest

import "testing"

func TestQueryTypes(t *testing.T) {
	Need(t)
	rows := Query(t, `SELECT 42::BIGINT AS n, 'it''s' AS s, [1, 2] AS l, {'role': 'user', 'content': 'hi'} AS m, NULL AS z`)
	if len(rows) != 1 {
		t.Fatalf("got %d rows, want 1", len(rows))
	}
	r := rows[0]
	if r["n"] != float64(42) || r["s"] != "it's" || r["z"] != nil {
		t.Errorf("scalars: %#v", r)
	}
	if l, ok := r["l"].([]any); !ok || len(l) != 2 {
		t.Errorf("list: %#v", r["l"])
	}
	if m, ok := r["m"].(map[string]any); !ok || m["role"] != "user" {
		t.Errorf("struct: %#v", r["m"])
	}
}

func TestQueryQuote(t *testing.T) {
	Need(t)
	rows := Query(t, "SELECT "+Quote("a'b")+" AS s")
	if rows[0]["s"] != "a'b" {
		t.Errorf("got %#v", rows[0]["s"])
	}
}
