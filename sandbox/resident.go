package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"
)

// Resident is a Python module the zygote compiles and runs once, after its
// preloads and before it forks any interpreter, so that every sandbox starts
// with it in sys.modules. A library a sandbox runs over and over (the
// checks) then costs nothing per sandbox to compile or to import what it
// needs.
//
// The zygote never runs rollout code, so a resident module in a fresh
// sandbox is the one registered here; it carries __synth_sha256__, the
// digest of its source, for a cell to confirm that before it trusts it.
type Resident struct {
	Name   string `json:"name"`   // its key in sys.modules
	Source string `json:"source"` // Python source
	// Init names a function of the module the zygote calls once loaded
	// (say, to import what the module will need); "" for none.
	Init string `json:"init,omitempty"`
}

// SHA256 is the hex digest of r.Source, as the zygote records it in
// __synth_sha256__.
func (r Resident) SHA256() string {
	s := sha256.Sum256([]byte(r.Source))
	return hex.EncodeToString(s[:])
}

var residents struct {
	mu   sync.Mutex
	list []Resident
}

// RegisterResident adds r to the modules of every zygote started from now
// on (a package registers its library in init). A second registration of
// the same name replaces the first.
func RegisterResident(r Resident) {
	residents.mu.Lock()
	defer residents.mu.Unlock()
	residents.list = slices.DeleteFunc(residents.list, func(o Resident) bool { return o.Name == r.Name })
	residents.list = append(residents.list, r)
}

// residentPipe returns the read end of a pipe that carries the resident
// modules to the zygote as one JSON list, written by a goroutine that closes
// the write end when done (the zygote reads to EOF).
func residentPipe() (*os.File, error) {
	residents.mu.Lock()
	list := residents.list
	if list == nil {
		list = []Resident{} // [], not null
	}
	data, err := json.Marshal(list)
	residents.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("zygote: resident modules: %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("zygote: pipe: %w", err)
	}
	go func() {
		w.Write(data) // a zygote that died early reads nothing; its start fails on its own
		w.Close()
	}()
	return r, nil
}
