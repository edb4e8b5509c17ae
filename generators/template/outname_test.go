package template

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"synth/generators"
	"synth/schemas"
)

func TestOutName(t *testing.T) {
	in := func(names ...string) []generators.Input {
		var out []generators.Input
		for _, n := range names {
			out = append(out, generators.Input{File: schemas.File{Name: n}})
		}
		return out
	}
	for _, c := range []struct {
		tmpl  string
		files []generators.Input
		want  string
	}{
		{"table.dropna", in("sales.csv"), "cleaned_sales"},
		{"table.monthly", in("Revenue 2024 (final).xlsx"), "monthly_revenue_2024_final"},
		{"chart.bar", in("weather.csv"), "weather_bar_chart"},
		{"audio.concat", in("chime.wav", "speech.wav"), "combined_chime_speech"},
		{"web.page", nil, "landing_page"},
		{"table.unknown", in("员工.csv"), "unknown_data"},
	} {
		if got := outName(c.tmpl, c.files); got != c.want {
			t.Errorf("outName(%s, %v) = %q, want %q", c.tmpl, c.files, got, c.want)
		}
	}
}

// Every template writing a file names it after its operation and input, in
// never a random hex stem.
func TestOutputNamesMeaningful(t *testing.T) {
	ins, _ := corpus(t)
	tasks, err := New(Options{Seed: 1, Strict: true}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	hex := regexp.MustCompile(`output/[0-9a-f]{8}\b`)
	named := 0
	for _, task := range tasks {
		if hex.MatchString(task.Query) {
			t.Errorf("%s (%s) names a hex file: %s", task.ID, task.Generator, task.Query)
		}
		for _, o := range task.Outputs {
			named++
			stem := strings.TrimPrefix(o, "output/")
			if len(task.Files) > 0 && !strings.Contains(stem, fileStem(task.Files[0].Name)) {
				t.Errorf("%s (%s): output %s does not name its input %s", task.ID, task.Generator, o, task.Files[0].Name)
			}
		}
	}
	if named == 0 {
		t.Fatal("no task has outputs")
	}
}
