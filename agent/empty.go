package agent

import (
	"context"

	"synth/schemas"
)

// Empty is a teacher that gives up at once: its only turn is "Finished:"
// with no answer and no code. A benchmark task that an empty rollout passes
// tests nothing, so benchmark validation runs it.
type Empty struct{}

// NewEmpty returns the empty teacher. Its reply parses as a final answer in
// both the pybench and the openai-tools format.
func NewEmpty() Teacher { return Empty{} }

// Info implements Teacher.
func (Empty) Info() schemas.TeacherInfo { return schemas.TeacherInfo{Kind: "empty"} }

// Reply implements Teacher.
func (Empty) Reply(context.Context, Request) (Reply, error) {
	return Reply{Message: schemas.Message{Role: schemas.RoleAssistant, Content: finishedMarker}}, nil
}
