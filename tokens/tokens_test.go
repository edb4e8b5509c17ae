package tokens

import (
	"strings"
	"testing"

	"synth/schemas"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"Finished: the mean is 3.5", 9},
	} {
		if got := Count(tc.in); got != tc.want {
			t.Errorf("Count(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestMessagesCountsToolArguments(t *testing.T) {
	plain := []schemas.Message{{Role: "assistant", Content: "run it"}}
	withCall := []schemas.Message{{Role: "assistant", Content: "run it", ToolCalls: []schemas.ToolCall{{Name: "execute_python", Arguments: `{"code":"print(1)"}`}}}}
	if Messages(withCall) <= Messages(plain) {
		t.Errorf("tool-call arguments not counted: %d <= %d", Messages(withCall), Messages(plain))
	}
}

func BenchmarkCount(b *testing.B) {
	s := strings.Repeat("import pandas as pd\ndf = pd.read_csv('./data/a.csv')\nprint(df.describe())\n", 100)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Count(s)
	}
}

func TestMessagesMemo(t *testing.T) {
	msgs := []schemas.Message{{Role: "user", Content: strings.Repeat("count me ", 50)}}
	first := Messages(msgs)
	if again := Messages(msgs); again != first {
		t.Errorf("second count %d, first %d", again, first)
	}
	other := []schemas.Message{{Role: "user", Content: strings.Repeat("count me ", 51)}}
	if Messages(other) == first {
		t.Error("a different text got the remembered count")
	}
	// Splitting the same text differently is a different trajectory.
	split := []schemas.Message{{Content: "ab"}, {Content: "c"}}
	joined := []schemas.Message{{Content: "a"}, {Content: "bc"}}
	Messages(split)
	if Messages(joined) != int64(Count("a")+Count("bc")) {
		t.Error("memo key ignores message boundaries")
	}
	c := &memo{m: map[uint64]int64{}}
	for i := range memoSize + 10 {
		c.put(uint64(i), int64(i))
	}
	if _, ok := c.get(0); ok || len(c.m) != memoSize {
		t.Errorf("memo holds %d entries, oldest kept: %v", len(c.m), ok)
	}
}
