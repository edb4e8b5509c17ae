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
