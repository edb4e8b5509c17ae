package sources

import (
	"context"
	"io"
)

// Plan lists what src would collect: its own Plan if it is a Planner,
// else (the built-in corpus, which costs nothing to produce) by running
// Collect and counting each item's bytes without storing them.
func Plan(ctx context.Context, src Source) ([]Planned, error) {
	if p, ok := src.(Planner); ok {
		return p.Plan(ctx)
	}
	var out []Planned
	err := src.Collect(ctx, func(it Item) error {
		n := it.Size
		if it.Body != nil {
			m, err := io.Copy(io.Discard, it.Body)
			if err != nil {
				return err
			}
			n = m
		}
		out = append(out, Planned{Name: SanitizeName(it.Name), Size: n, Source: it.Source})
		return nil
	})
	return out, err
}
