package runinfo

import (
	"slices"
	"strings"
	"testing"
)

func TestPinnedSpecs(t *testing.T) {
	c := []Collected{
		{Kind: "kaggle", Ref: "pub/rain/rain.csv", Version: "2", SHA256: "a"},
		{Kind: "kaggle", Ref: "pub/rain/notes/readme.txt", Version: "2", SHA256: "b"},
		{Kind: "kaggle", Ref: "competition/quiz/train.csv", SHA256: "c"},
		{Kind: "arxiv", Ref: "2101.00001v2", Version: "2", SHA256: "d"},
		{Kind: "arxiv", Ref: "2101.00001v2/main.tex", Version: "2", SHA256: "e"},
		{Kind: "arxiv", Ref: "hep-ex/0307015v1/paper.tex", Version: "1", SHA256: "f"},
	}
	specs, unpinned := PinnedSpecs(c)
	if want := []string{"kaggle:pub/rain@2", "arxiv:2101.00001v2,hep-ex/0307015v1"}; !slices.Equal(specs, want) {
		t.Errorf("specs = %q, want %q", specs, want)
	}
	if want := []string{"kaggle:competition/quiz"}; !slices.Equal(unpinned, want) {
		t.Errorf("unpinned = %q, want %q", unpinned, want)
	}
}

func TestCheckCollected(t *testing.T) {
	want := []Collected{{Kind: "kaggle", Ref: "pub/rain/rain.csv", SHA256: "aaaa"}, {Kind: "kaggle", Ref: "pub/rain/old.csv", SHA256: "bbbb"}}
	if err := CheckCollected(want, append(want, Collected{Kind: "kaggle", Ref: "pub/rain/new.csv"})); err != nil {
		t.Errorf("the same bytes (and one more file): %v", err)
	}
	err := CheckCollected(want, []Collected{{Kind: "kaggle", Ref: "pub/rain/rain.csv", SHA256: "cccc"}})
	if err == nil || !strings.Contains(err.Error(), "changed: kaggle:pub/rain/rain.csv") || !strings.Contains(err.Error(), "missing: kaggle:pub/rain/old.csv") {
		t.Errorf("changed and missing bytes: %v", err)
	}
}
