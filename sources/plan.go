package sources

import (
	"context"

	"synth/schemas"
)

// Planned is a file a source would collect, as a dry run lists it.
type Planned struct {
	Name   string         `json:"name"`
	Size   int64          `json:"size"` // bytes; 0 if the source cannot tell before downloading
	Source schemas.Source `json:"source"`
}

// Planner is a Source that can list what it would collect without
// downloading content (--dry-run). Kaggle, arXiv and local sources are
// Planners.
type Planner interface {
	Plan(ctx context.Context) ([]Planned, error)
}
