package sources

import (
	"strings"
	"testing"
)

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		in, kind, arg, err string
	}{
		{"sample", "sample", "", ""},
		{"local:./data", "local", "./data", ""},
		{"local:C:/x", "local", "C:/x", ""},
		{"kaggle: titanic survival ", "kaggle", "titanic survival", ""},
		{"arxiv:ti:transformer AND cat:cs.CL", "arxiv", "ti:transformer AND cat:cs.CL", ""},
		{"s3:x", "", "", `unknown source kind "s3" in --source s3:x (want sample, local:PATH, kaggle:QUERY or arxiv:QUERY)`},
		{"", "", "", "empty --source"},
		{"local:", "", "", "local needs a folder"},
		{"kaggle:", "", "", "kaggle needs a search query"},
		{"sample:x", "", "", "sample takes no argument"},
		{"Sample", "", "", `unknown source kind "Sample"`},
	} {
		s, err := ParseSpec(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSpec(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || s.Kind != tc.kind || s.Arg != tc.arg {
			t.Errorf("ParseSpec(%q) = %+v, %v", tc.in, s, err)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"": 0, "1000": 1000, "512KB": 512000, "2GiB": 2 << 30, "1.5 MB": 1500000, "2g": 2 << 30} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"-1", "ten", "5 parsecs"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) succeeded", bad)
		}
	}
}

func TestLicenses(t *testing.T) {
	for in, want := range map[string]string{
		"CC0: Public Domain":                                  "CC0-1.0",
		"Attribution 4.0 International (CC BY 4.0)":           "CC-BY-4.0",
		"http://creativecommons.org/licenses/by-nc-sa/4.0/":   "CC-BY-NC-SA-4.0",
		"http://arxiv.org/licenses/nonexclusive-distrib/1.0/": "LicenseRef-arXiv-nonexclusive-distrib-1.0",
		"MIT":             "MIT",
		"Something Else ": "Something Else",
	} {
		if got := NormalizeLicense(in); got != want {
			t.Errorf("NormalizeLicense(%q) = %q, want %q", in, got, want)
		}
	}
	allow := []string{"CC0-1.0", "cc-by-4.0"}
	if !LicenseAllowed("CC0: Public Domain", allow) || !LicenseAllowed("https://creativecommons.org/licenses/by/4.0", allow) {
		t.Error("allowed licenses refused")
	}
	if LicenseAllowed("GPL 2", allow) || LicenseAllowed("", allow) || !LicenseAllowed("", nil) {
		t.Error("allow-list wrong")
	}
}

func TestMatchGlob(t *testing.T) {
	for _, tc := range []struct {
		pat, path string
		want      bool
	}{
		{"*.csv", "a/b/c.csv", true},
		{"*.csv", "c.tsv", false},
		{"data/*.csv", "data/x.csv", true},
		{"data/*.csv", "data/sub/x.csv", false},
		{"data/**/*.csv", "data/sub/deep/x.csv", true},
		{"data/**", "data/x", true},
		{"**/tmp/*", "a/tmp/x", true},
	} {
		if got := MatchGlob(tc.pat, tc.path); got != tc.want {
			t.Errorf("MatchGlob(%q, %q) = %v", tc.pat, tc.path, got)
		}
	}
}
