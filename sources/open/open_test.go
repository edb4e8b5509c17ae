package open

import (
	"strings"
	"testing"

	"synth/sources"
)

func TestOpen(t *testing.T) {
	env := Env{Getenv: func(k string) string {
		return map[string]string{"KAGGLE_USERNAME": "u", "KAGGLE_KEY": "k"}[k]
	}}
	srcs, err := OpenAll([]string{"sample", "local:.", "kaggle:titanic", "arxiv:tables"}, sources.Config{}, env)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, s := range srcs {
		kinds = append(kinds, s.Kind())
	}
	if got := strings.Join(kinds, ","); got != "sample,local,kaggle,arxiv" {
		t.Errorf("kinds = %s", got)
	}
	for _, tc := range []struct {
		specs []string
		cfg   sources.Config
		want  string
	}{
		{[]string{"s3:bucket"}, sources.Config{}, `unknown source kind "s3" in --source s3:bucket (want sample, local:PATH, kaggle:QUERY or arxiv:QUERY)`},
		{[]string{"kaggle:x"}, sources.Config{Kaggle: sources.KaggleConfig{Credentials: "/nonexistent/kaggle.json"}}, "/nonexistent/kaggle.json"},
		{[]string{"local:."}, sources.Config{MaxFileBytes: "12 parsecs"}, "sources.max_file_bytes"},
		{[]string{"arxiv:x"}, sources.Config{Arxiv: sources.ArxivConfig{Sort: "random"}}, "sources.arxiv.sort"},
	} {
		e := env
		if tc.specs[0] == "kaggle:x" {
			e.Getenv = func(string) string { return "" }
		}
		_, err := OpenAll(tc.specs, tc.cfg, e)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.specs, err, tc.want)
		}
	}
}
