package generators

import (
	"context"

	"synth/schemas"
)

// Generator writes tasks for collected files.
type Generator interface {
	// Name is the generator's name in task records and config: template, llm.
	Name() string
	// Generate returns the tasks it can write for the files (some tasks use
	// no file, some use two). Task ids are deterministic: the same files and
	// config give the same ids. An error stops the stage; a file the
	// generator has nothing for yields no task.
	Generate(ctx context.Context, files []Input) ([]schemas.Task, error)
}

// Input is a collected file and the host path of its content.
type Input struct {
	File schemas.File
	Path string
}
