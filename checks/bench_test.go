package checks

import (
	"context"
	"testing"

	"synth/schemas"
)

// BenchmarkVerify measures one verification of a typical task (a table, an
// image and an answer check) in a warm sandbox.
func BenchmarkVerify(b *testing.B) {
	dir := workspace(b)
	sb := openSandbox(b, dir)
	cs := []schemas.Check{
		{Kind: "table", Path: "output/clean.csv", Rows: intp(3), NoDuplicates: true, NoNulls: true},
		{Kind: "image", Path: "output/rot.png", Compare: &schemas.ImageCompare{Ref: "data/shapes.png", Transform: "rotate:90", MinSimilarity: 0.9}},
		{Kind: "answer", Number: &schemas.NumberMatch{Value: 3, AbsTol: 0.01}},
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rs, err := Verify(ctx, sb, cs, "Finished: 3 rows", nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range rs {
			if !r.OK {
				b.Fatal(r.Message)
			}
		}
	}
}
