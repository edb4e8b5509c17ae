package agent

import (
	"strings"
	"testing"
)

func TestStatements(t *testing.T) {
	code := `import os
x = f(1,
      2)
for i in range(3):
    print(i)
if x:
    pass
else:
    y = 2
s = """a
b = 3"""
# note
t = 'it''s' + "(" \
    + ")"
print(s)`
	got, ok := statements(code)
	if !ok {
		t.Fatal("not ok")
	}
	want := []string{"import os", "x = f(1,\n      2)", "for i in range(3):\n    print(i)", "if x:\n    pass\nelse:\n    y = 2",
		"s = \"\"\"a\nb = 3\"\"\"\n# note", "t = 'it''s' + \"(\" \\\n    + \")\"", "print(s)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if strings.Join(got, "\n") != code {
		t.Error("statements do not join back to the code")
	}
	if _, ok := statements("x = f(1,\n"); ok {
		t.Error("an open bracket at the end must not be ok")
	}
}
