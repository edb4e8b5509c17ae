package sandbox

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// uidBase and uidSpan bound the unprivileged uids interpreters run as, one
// per open sandbox. Every uid in the range has 7 digits, so the assignment
// an interpreter reads is as long whichever it gets (quota.go, wsPrefix).
const (
	uidBase = 1000000
	uidSpan = 1 << 20
)

// Open makes a sandbox, waiting for a free slot. A sandbox opened on the
// workspace of a sandbox that is still open (the verifier checking a
// rollout) shares its slot and its uid, so a full pool cannot deadlock on
// verification and both can write the workspace.
func (b *backend) Open(ctx context.Context, spec Spec) (Sandbox, error) {
	ws := spec.Workspace
	if ws != "" {
		if abs, err := filepath.Abs(ws); err == nil {
			ws = abs
		}
	}
	b.mu.Lock()
	use := b.openWS[ws]
	if use != nil {
		use.n++ // held until open succeeds or fails
	}
	b.mu.Unlock()
	if use == nil {
		select {
		case b.slots <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	s, err := b.open(spec, ws, use)
	if err != nil {
		b.release(ws, use)
		return nil, err
	}
	return s, nil
}

// wsUse counts the sandboxes open on one workspace and holds their uid and
// pool slot.
type wsUse struct {
	n   int
	uid int
}

func (b *backend) open(spec Spec, ws string, use *wsUse) (*session, error) {
	if _, err := b.zygote(); err != nil {
		return nil, err
	}
	s := &session{b: b, spec: spec, lim: spec.Limits.merge(b.lim), ws: ws, token: newToken()}
	inputs := spec.Inputs
	if b.shared != "" {
		if err := b.sameInputs(inputs); err != nil {
			return nil, err
		}
		if s.ws != "" {
			return nil, fmt.Errorf("sandbox: a backend with preloaded inputs opens workspaces of its own only, not %s", s.ws)
		}
		inputs = nil // data/ is a bind of the template's (bindShared)
	}
	if s.ws == "" {
		dir, _, err := makeWorkspace(s.lim, inputs, b.quota && b.treeHandoff())
		if err != nil {
			return nil, err
		}
		s.ws, s.ownWS = dir, true
	} else if st, err := os.Stat(s.ws); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("sandbox: workspace %s is not an existing directory", s.ws)
	}
	if real, err := filepath.EvalSymlinks(s.ws); err == nil {
		s.ws = real // the interpreter binds it by path, from another root
	}
	fail := func(err error) (*session, error) {
		if s.ownWS {
			removeWorkspace(s.ws)
		}
		return nil, err
	}
	first := use == nil
	if first {
		use = &wsUse{n: 1}
		if b.ownUIDs() {
			use.uid = b.allocUID()
		}
	}
	s.use, s.uid = use, use.uid
	if err := prepareWorkspace(s.ws, inputs, s.uid != 0); err != nil {
		b.freeUID(use)
		return fail(fmt.Errorf("sandbox: %w", err))
	}
	if b.shared != "" {
		if err := b.bindShared(s.ws); err != nil {
			b.freeUID(use)
			return fail(fmt.Errorf("sandbox: workspace %s: %w", s.ws, err))
		}
	}
	if s.uid != 0 && first {
		// The first sandbox on the workspace: no interpreter runs in it yet.
		if err := chownWorkspace(s.ws, s.uid); err != nil {
			b.freeUID(use)
			return fail(fmt.Errorf("sandbox: workspace %s: %w", s.ws, err))
		}
	}
	s.mu.Lock()
	err := s.start()
	s.mu.Unlock()
	if err != nil {
		b.freeUID(use)
		return fail(err)
	}
	b.mu.Lock()
	b.openWS[s.ws] = use
	b.mu.Unlock()
	return s, nil
}

func (b *backend) allocUID() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		u := uidBase + rand.IntN(uidSpan)
		if !b.uids[u] {
			b.uids[u] = true
			return u
		}
	}
}

// freeUID gives back the uid of a use that failed to open (only the first
// sandbox of a workspace owns it).
func (b *backend) freeUID(use *wsUse) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if use.n == 1 && use.uid != 0 {
		delete(b.uids, use.uid)
		use.uid = 0
	}
}

// lastUse reports whether use has a single sandbox left.
func (b *backend) lastUse(use *wsUse) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return use.n == 1
}

// release ends one sandbox's use of a workspace; the last one returns the
// uid and the pool slot. use is nil for a first sandbox that failed to open.
func (b *backend) release(ws string, use *wsUse) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if use == nil {
		<-b.slots
		return
	}
	if use.n--; use.n > 0 {
		return
	}
	delete(b.uids, use.uid)
	if b.openWS[ws] == use {
		delete(b.openWS, ws)
	}
	<-b.slots
}
