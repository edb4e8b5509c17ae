package harbor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"synth/schemas"
)

func TestFolderName(t *testing.T) {
	for _, tc := range []struct{ index, want string }{
		{"2", "task-2"},
		{"../../etc", "task-etc"},
		{"a b/c", "task-a_b_c"},
		{".hidden", "task-hidden"},
		{"", "task-n4"},
		{"///", "task-n4"},
		{strings.Repeat("x", 100), "task-" + strings.Repeat("x", 58)},
	} {
		t.Run(tc.index, func(t *testing.T) {
			if got := FolderName(tc.index, 3); got != tc.want {
				t.Errorf("FolderName(%q) = %q, want %q", tc.index, got, tc.want)
			}
		})
	}
}

func TestLocalName(t *testing.T) {
	for _, ok := range []string{"a.csv", "sub/a.csv", "数据.xlsx", "a b.txt"} {
		if err := localName(ok); err != nil {
			t.Errorf("localName(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"", "../a.csv", "sub/../../a", "/etc/passwd", `a\b.csv`, "a\nb.csv", "a//b", "./a", "sub/.", "\xff.csv", "a\x7fb"} {
		if err := localName(bad); err == nil {
			t.Errorf("localName(%q) = nil, want an error", bad)
		}
	}
}

// TestTOMLString decodes every encoded string as JSON, whose escapes are
// TOML's (\" \\ \b \t \n \f \r \uXXXX): the value comes back whole and no
// control character is left raw to end a string or a line.
func TestTOMLString(t *testing.T) {
	for _, s := range []string{"plain", `quote " and \ backslash`, "new\nline\r\n", "tab\tbell\a nul\x00 del\x7f",
		"\u0085 \u2028 \u2029", `"]` + "\n[agent]\nuser = \"root\"", "中文 🙂"} {
		checkTOMLString(t, s)
	}
}

func FuzzTOMLString(f *testing.F) {
	f.Add(`x"` + "\n[a]")
	f.Add("\x00\x1f\x7f\u0085\u2028")
	f.Fuzz(func(t *testing.T, s string) {
		if utf8.ValidString(s) {
			checkTOMLString(t, s)
		}
	})
}

func checkTOMLString(t *testing.T, s string) {
	t.Helper()
	enc := tomlString(s)
	for _, r := range enc {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 {
			t.Fatalf("tomlString(%q) = %q holds the raw control %U", s, enc, r)
		}
	}
	var back string
	if err := json.Unmarshal([]byte(enc), &back); err != nil || back != s {
		t.Fatalf("tomlString(%q) = %s, which reads back as %q (%v)", s, enc, back, err)
	}
}

// bench writes a benchmark folder holding tasks and the data files named.
func writeBench(t *testing.T, tasks []schemas.Task, data map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bench")
	for name, body := range data {
		p := filepath.Join(dir, "data", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	for _, tk := range tasks {
		line, _ := json.Marshal(tk)
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, "tasks.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func task(index string, files ...string) schemas.Task {
	t := schemas.Task{ID: "t" + index, Index: index, Category: schemas.CategoryData, Query: "Sum ./data/x.csv.", Lang: "en",
		Checks:    []schemas.Check{{Kind: schemas.CheckAnswer, ContainsAll: []string{"6"}}},
		Reference: &schemas.Reference{Steps: []schemas.RefStep{{Code: "print(6)"}}, Answer: "6"}, Generator: "fixture"}
	for _, f := range files {
		t.Files = append(t.Files, schemas.TaskFile{ID: "id-" + f, Name: f, Type: "csv"})
	}
	return t
}

// TestWriteTasksContainsHostileInput writes a benchmark whose tasks name
// inputs outside data/, behind links, or nothing at all: only the sound
// tasks are written, every file lands inside its folder, and no link is
// followed.
func TestWriteTasksContainsHostileInput(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.csv")
	os.WriteFile(secret, []byte("secret"), 0o644)
	noQuery := task("7", "x.csv")
	noQuery.Query = "  "
	noRef := task("8")
	noRef.Reference = nil
	dir := writeBench(t, []schemas.Task{
		task("2", "x.csv", "sub/y.csv"), task("3", "../escape.csv"), task("4", "link.csv"), task("5", "sub/../x.csv"),
		task("../6", "x.csv"), noQuery, noRef, task("2", "x.csv"),
	}, map[string]string{"x.csv": "v\n1\n2\n3\n", "sub/y.csv": "v\n1\n"})
	if err := os.Symlink(secret, filepath.Join(dir, "data", "link.csv")); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(filepath.Dir(dir), "bench-harbor")
	rep, err := WriteTasks(dir, dst, Options{Lock: []byte("pandas==2.3.0 \\\n    --hash=sha256:00\n")})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"task-2", "task-6", "task-8"}; strings.Join(rep.Tasks, ",") != strings.Join(want, ",") {
		t.Errorf("wrote %v, want %v (skipped %v)", rep.Tasks, want, rep.Skipped)
	}
	skipped := map[string]string{}
	for _, s := range rep.Skipped {
		skipped[s.Index] = s.Reason
	}
	for index, reason := range map[string]string{"3": "plain relative path", "4": "symlink", "5": "dot part", "7": "query is empty", "2": "taken"} {
		if !strings.Contains(skipped[index], reason) {
			t.Errorf("task %s: skipped for %q, want a reason with %q", index, skipped[index], reason)
		}
	}
	err = filepath.WalkDir(filepath.Dir(dir), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&os.ModeSymlink != 0 {
			if p != filepath.Join(dir, "data", "link.csv") {
				t.Errorf("%s is a link", p)
			}
			return nil
		}
		if b, _ := os.ReadFile(p); !d.IsDir() && string(b) == "secret" && p != secret {
			t.Errorf("%s holds the linked file's content", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"task-2/environment/data/x.csv", "task-2/environment/data/sub/y.csv", "task-2/solution/solve.sh",
		"task-2/tests/test.sh", "task-2/tests/synth_checks.py", "task-2/tests/checks.json", "task-8/tests/test.sh", ReadmeFile} {
		if _, err := os.Stat(filepath.Join(dst, want)); err != nil {
			t.Errorf("%s: %v", want, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dst, "task-8", SolutionDir)); err == nil {
		t.Error("a task without a reference has a solution/ folder")
	}
	if _, err := os.Stat(filepath.Join(dst, "task-8", EnvironmentDir, "data")); err == nil {
		t.Error("a task without inputs has a data/ folder")
	}
	df, _ := os.ReadFile(filepath.Join(dst, "task-8", EnvironmentDir, "Dockerfile"))
	if strings.Contains(string(df), "COPY data/") {
		t.Error("the Dockerfile of a task without inputs copies data/")
	}
	if fi, err := os.Stat(filepath.Join(dst, "task-2", "tests", "test.sh")); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("tests/test.sh is not executable (%v)", err)
	}
}

// TestWriteTasksReplacesOnlyAnExport: an earlier export is replaced whole,
// a folder holding anything else is refused and left as it was.
func TestWriteTasksReplacesOnlyAnExport(t *testing.T) {
	dir := writeBench(t, []schemas.Task{task("2", "x.csv")}, map[string]string{"x.csv": "v\n6\n"})
	dst := filepath.Join(t.TempDir(), "out")
	if _, err := WriteTasks(dir, dst, Options{}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dst, "task-2", "stale"), []byte("x"), 0o644)
	if _, err := WriteTasks(dir, dst, Options{}); err != nil {
		t.Fatalf("replacing an earlier export: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dst, "task-2", "stale")); err == nil {
		t.Error("the earlier export's files are still there")
	}
	mine := t.TempDir()
	os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("keep"), 0o644)
	if _, err := WriteTasks(dir, mine, Options{}); err == nil || !strings.Contains(err.Error(), "notes.txt") {
		t.Errorf("writing over a folder of other files: %v, want a refusal naming notes.txt", err)
	}
	if b, _ := os.ReadFile(filepath.Join(mine, "notes.txt")); string(b) != "keep" {
		t.Error("the refused folder was changed")
	}
}

// TestTaskTOMLCarriesHostileMetadata: a task whose fields hold TOML syntax
// still gives one [metadata] table with the values as strings, and the
// agent runs as AgentUser.
func TestTaskTOMLCarriesHostileMetadata(t *testing.T) {
	tk := task("2")
	tk.Generator = "x\"\n[agent]\nuser = \"root\""
	tk.Subcategory = "a\\\"b"
	out := TaskTOML(&tk)
	var tables, users []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "[") {
			tables = append(tables, line)
		}
		if strings.HasPrefix(line, "user") {
			users = append(users, line)
		}
	}
	if got := strings.Join(tables, " "); got != "[metadata] [verifier] [agent] [environment]" {
		t.Errorf("task.toml's tables are %s:\n%s", got, out)
	}
	if len(users) != 1 || users[0] != `user = "agent"` {
		t.Errorf("task.toml's user lines are %q:\n%s", users, out)
	}
}
