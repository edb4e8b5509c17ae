package template

import (
	"context"
	"fmt"
	"testing"

	"synth/checks/checkstest"
)

func TestTmpComposedAll(t *testing.T) {
	ins, paths := corpus(t)
	all, err := New(composedOpts).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	ts := composedTasks(all)
	fmt.Println("all", len(all), "composed", len(ts))
	v, err := Validate(context.Background(), checkstest.Backend(t, 2), ts, paths, 2)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("kept", len(v.Kept), v.Dropped)
	for id, w := range v.Why {
		for _, x := range ts {
			if x.ID == id {
				fmt.Println(TemplateName(&x), x.Steps, x.Files[0].Name, "::", w[:min(len(w), 400)])
			}
		}
	}
}
