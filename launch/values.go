package launch

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// value is one user-given value that reaches a script or a manifest, with
// the flag that set it, for the error.
type value struct {
	flag, v string
}

// noControl fails for the first value holding a control character (a
// newline, a carriage return, a tab, NUL, DEL, or a Unicode line or
// paragraph separator): in a script, a newline starts a new command.
func noControl(engine string, vals ...value) error {
	for _, x := range vals {
		if i := strings.IndexFunc(x.v, isControl); i >= 0 {
			r := []rune(x.v[i:])[0]
			return fmt.Errorf("%s: %s %q holds the control character %U, which would break the written script: remove it", engine, x.flag, x.v, r)
		}
	}
	return nil
}

func isControl(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}

// noSpace fails for the first value holding a space: an #SBATCH line ends
// its value at the first blank.
func noSpace(engine string, vals ...value) error {
	for _, x := range vals {
		if strings.ContainsAny(x.v, " \t") {
			return fmt.Errorf("%s: %s %q has a space, which #SBATCH lines cannot carry: use a value without one", engine, x.flag, x.v)
		}
	}
	return nil
}

// dnsLabel is a Kubernetes object name part (RFC 1123 label).
var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// dnsSubdomain is a Kubernetes object name that may hold dots (RFC 1123
// subdomain), as a PersistentVolumeClaim's.
var dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`)
