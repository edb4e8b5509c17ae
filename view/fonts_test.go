package view

import (
	"regexp"
	"strings"
	"testing"
)

// TestTextFontsFallBackToCJK: every font stack of the style sheet that sets
// text (the page, queries, answers, code, tables) names the CJK faces
// before the generic family, so Chinese queries are not boxes wherever one
// of those faces is installed; synth view --help names them.
func TestTextFontsFallBackToCJK(t *testing.T) {
	b, err := assets.ReadFile("assets/view.css")
	if err != nil {
		t.Fatal(err)
	}
	css := string(b)
	if !strings.Contains(css, `"Noto Sans CJK SC"`) {
		t.Fatal("view.css names no CJK face")
	}
	stacks := regexp.MustCompile(`font(?:-family)?:\s*([^;]*(?:sans-serif|monospace))\s*;`).FindAllStringSubmatch(css, -1)
	if len(stacks) < 4 {
		t.Fatalf("found %d font stacks in view.css, want the page's, the queries', the code's and the tables'", len(stacks))
	}
	for _, s := range stacks {
		if !strings.Contains(s[1], "var(--cjk") {
			t.Errorf("font stack %q has no CJK fallback (var(--cjk) or var(--cjk-mono))", s[1])
		}
	}
}
