package dataset

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"synth/schemas"
)

func TestSourceCountsAndLanguages(t *testing.T) {
	files := []schemas.File{
		{Source: schemas.Source{Kind: "sample", License: "CC0-1.0"}},
		{Source: schemas.Source{Kind: "local"}},
		{Source: schemas.Source{Kind: "sample", License: "CC0-1.0"}},
	}
	want := []SourceCount{{Kind: "sample", License: "CC0-1.0", Files: 2}, {Kind: "local", Files: 1}}
	if diff := cmp.Diff(want, SourceCounts(files)); diff != "" {
		t.Errorf("SourceCounts (-want +got):\n%s", diff)
	}
	if got := Languages(slices.Values([]string{"zh", "en", "en", ""})); !slices.Equal(got, []string{"en", "zh"}) {
		t.Errorf("Languages = %v", got)
	}
}
