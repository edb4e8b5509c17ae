package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// Resident is a Python module the zygote compiles and runs once, after its
// preloads and before it forks any interpreter, so that every sandbox starts
// with it in sys.modules. A library a sandbox runs over and over (the
// checks) then costs nothing per sandbox to compile or to import what it
// needs.
//
// Whoever builds a backend gives its residents in Config.Residents. The
// zygote never runs rollout code, so a resident module in a fresh sandbox
// is the one given there; it carries __synth_sha256__, the digest of its
// source, for a cell to confirm that before it trusts it.
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

// checkResidents refuses a list the zygote could not hold as given: a
// module without a name, or two of one name.
func checkResidents(list []Resident) error {
	seen := map[string]bool{}
	for _, r := range list {
		switch {
		case r.Name == "":
			return errors.New("sandbox: a resident module has no name")
		case seen[r.Name]:
			return fmt.Errorf("sandbox: resident module %s is given twice", r.Name)
		}
		seen[r.Name] = true
	}
	return nil
}

// residentPipe returns the read end of a pipe that carries list to the
// zygote as one JSON list, written by a goroutine that closes the write end
// when done (the zygote reads to EOF).
func residentPipe(list []Resident) (*os.File, error) {
	if list == nil {
		list = []Resident{} // [], not null
	}
	data, err := json.Marshal(list)
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
