package sandbox

import (
	"context"
	"time"
)

// Sandbox is one stateful Python interpreter bound to one workspace, used by
// one rollout at a time. Cells run in order; state (variables, imports)
// persists between them until a cell times out or the interpreter crashes, in
// which case the next cell runs in a fresh interpreter and its Result says
// state was lost.
type Sandbox interface {
	// Exec runs one cell. A cell that raises, times out or crashes the
	// interpreter is a Result with that Status, not an error: the error is
	// reserved for infrastructure failures (the backend could not run the
	// cell at all) and for ctx being done.
	Exec(ctx context.Context, code string) (Result, error)
	// Workspace is the host path of the working directory: data/ (inputs,
	// read-only to the cell) and output/.
	Workspace() string
	// Close stops the interpreter. It removes the workspace only if the
	// backend created it (Spec.Workspace was empty). Close is idempotent.
	Close() error
}

// Halter is a Sandbox that can be stopped for good before its workspace is
// read. Halt kills every process the sandbox ran (its whole pid namespace,
// its cgroup) and returns once they are gone, so that nothing can change
// the workspace while the host collects from it; it fails if they could
// not be confirmed gone. Exec after Halt is an error; Close is still
// needed. The local backend's sandboxes are Halters.
type Halter interface {
	Halt() error
}

// Backend makes sandboxes. A backend may keep warm processes (a zygote, a
// pool); Close releases them. Open and Close are safe for concurrent use.
type Backend interface {
	Open(ctx context.Context, spec Spec) (Sandbox, error)
	Close() error
}

// Spec describes the sandbox a rollout wants.
type Spec struct {
	// Workspace is an existing directory to run in. Empty: the backend makes
	// a fresh one and removes it on Close.
	Workspace string
	// Inputs are placed under data/ before the first cell.
	Inputs []Input
	// Seed reseeds Python's, numpy's and random's state so reruns reproduce.
	Seed int64
	// Limits override the backend's defaults where non-zero.
	Limits Limits
}

// Input is a host file made visible as data/<Name>.
type Input struct {
	Name string // file name under data/
	Path string // host path to read it from; relative to Root when Root is set
	// Root, when set, is an untrusted folder (an imported benchmark) that
	// Path must lie in: it is opened without following any symlink or
	// leaving Root, and copied, never linked.
	Root string
}

// Limits bound what one cell, or one interpreter, may use. Zero means the
// backend's default.
type Limits struct {
	CellTimeout time.Duration // wall time per cell
	CPUTime     time.Duration // CPU time per interpreter
	MemoryBytes int64         // address space per process; with a cgroup, memory of the whole sandbox
	FileBytes   int64         // largest file a cell may write
	OpenFiles   int
	Processes   int // per sandbox, with a cgroup or a uid of its own
	OutputBytes int // per cell; the rest is cut with a visible marker

	// WorkspaceBytes and Inodes bound the workspace's filesystem (a tmpfs,
	// where the backend can mount one): writing past them is ENOSPC. They
	// apply to /dev/shm too. TmpBytes bounds /tmp. Memory written to any of
	// them counts against MemoryBytes where the sandbox has a cgroup.
	WorkspaceBytes int64
	Inodes         int
	TmpBytes       int64
}

// Result is what a cell produced.
type Result struct {
	Status    string        // schemas.StatusOK, StatusError, StatusTimeout, StatusCrash
	Output    string        // stdout and stderr interleaved, then the last expression's value or the traceback
	Elapsed   time.Duration // wall time
	CPU       time.Duration // CPU time the cell used, where the backend can tell
	StateLost bool          // the interpreter was restarted: earlier variables are gone
	Truncated bool          // Output was cut at the limit
	// Error is the exception that ended the cell, as a notebook client
	// sees it; nil when the cell ran through (or timed out, or crashed).
	Error *CellError
}

// CellError is a cell's exception: its class name and its str(), which
// Jupyter calls ename and evalue, and the traceback that ends Output.
type CellError struct {
	Name      string `json:"ename"`
	Value     string `json:"evalue"`
	Traceback string `json:"traceback"`
}
