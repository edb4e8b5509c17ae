package sandbox

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// slowBackend opens its sandboxes when release is closed, or fails.
type slowBackend struct {
	release chan struct{}
	fail    error
	opened  chan *fakeSandbox
}

func (b *slowBackend) Open(ctx context.Context, _ Spec) (Sandbox, error) {
	select {
	case <-b.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if b.fail != nil {
		return nil, b.fail
	}
	sb := &fakeSandbox{}
	b.opened <- sb
	return sb, nil
}

func (b *slowBackend) Close() error { return nil }

type fakeSandbox struct{ execs, closes, halts int }

func (s *fakeSandbox) Exec(_ context.Context, code string) (Result, error) {
	s.execs++
	return Result{Output: "ran " + code}, nil
}
func (s *fakeSandbox) Workspace() string { return "/ws" }
func (s *fakeSandbox) Close() error      { s.closes++; return nil }
func (s *fakeSandbox) Halt() error       { s.halts++; return nil }

func TestOpenAsyncReturnsBeforeTheOpenEnds(t *testing.T) {
	b := &slowBackend{release: make(chan struct{}), opened: make(chan *fakeSandbox, 1)}
	o := OpenAsync(context.Background(), b, Spec{})
	// The open has not ended: an Exec under a context that ends first
	// gives up with the context's error, not a result.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := o.Exec(ctx, "x"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Exec before the open ended: %v, want the context's deadline", err)
	}
	close(b.release)
	res, err := o.Exec(context.Background(), "x")
	if err != nil || res.Output != "ran x" {
		t.Fatalf("Exec after the open: %+v, %v", res, err)
	}
	sb := <-b.opened
	if o.Workspace() != "/ws" || o.Halt() != nil || sb.halts != 1 {
		t.Errorf("Workspace %q, halts %d: not the opened sandbox's", o.Workspace(), sb.halts)
	}
	if err := o.Close(); err != nil || sb.closes != 1 {
		t.Errorf("Close: %v, the sandbox closed %d times, want once", err, sb.closes)
	}
}

func TestOpenAsyncFailure(t *testing.T) {
	b := &slowBackend{release: make(chan struct{}), fail: errors.New("no zygote"), opened: make(chan *fakeSandbox, 1)}
	close(b.release)
	o := OpenAsync(context.Background(), b, Spec{})
	if _, err := o.Exec(context.Background(), "x"); err == nil || !strings.Contains(err.Error(), "open sandbox: no zygote") {
		t.Fatalf("Exec after a failed open: %v, want the open's error", err)
	}
	if err := o.Err(); err == nil || o.Workspace() != "" || o.Halt() == nil || o.Close() != nil {
		t.Errorf("after a failed open: Err %v, Workspace %q; Close must have nothing to close", err, o.Workspace())
	}
}
