package sandbox

import (
	"context"
	"fmt"
)

// Opening is a sandbox that is still being opened: OpenAsync returns it at
// once, so that a rollout asks its teacher for the first reply while its
// sandbox starts (a reply takes hundreds of milliseconds; a sandbox, under
// load, tens). Its methods wait for the open to end. An open that failed
// fails Exec and Halt with its error, which Err reports too; Close then has
// nothing to close.
type Opening struct {
	done chan struct{}
	sb   Sandbox
	err  error
}

// OpenAsync opens a sandbox from b in the background. Cancelling ctx
// cancels the open.
func OpenAsync(ctx context.Context, b Backend, spec Spec) *Opening {
	o := &Opening{done: make(chan struct{})}
	go func() {
		defer close(o.done)
		o.sb, o.err = b.Open(ctx, spec)
		if o.err != nil {
			o.err = fmt.Errorf("open sandbox: %w", o.err)
		}
	}()
	return o
}

// Err waits for the open to end and returns its error.
func (o *Opening) Err() error {
	<-o.done
	return o.err
}

// Exec runs code once the sandbox is open; it fails with the open's error
// if the open failed, or with ctx's if ctx ends first.
func (o *Opening) Exec(ctx context.Context, code string) (Result, error) {
	select {
	case <-o.done:
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
	if o.err != nil {
		return Result{}, o.err
	}
	return o.sb.Exec(ctx, code)
}

// Workspace is the open sandbox's workspace, or "" if the open failed.
func (o *Opening) Workspace() string {
	if o.Err() != nil {
		return ""
	}
	return o.sb.Workspace()
}

// Halt halts the open sandbox if it is a Halter.
func (o *Opening) Halt() error {
	if err := o.Err(); err != nil {
		return err
	}
	if h, ok := o.sb.(Halter); ok {
		return h.Halt()
	}
	return nil
}

// Close waits for the open to end and closes the sandbox it opened.
func (o *Opening) Close() error {
	if o.Err() != nil {
		return nil
	}
	return o.sb.Close()
}
