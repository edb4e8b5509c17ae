package main

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strings"
)

// An allowEntry names a test that may skip, and why. Test is a path.Match
// pattern over the test's name (TestX, TestX/sub, TestX/*).
type allowEntry struct {
	Package, Test, Reason string
}

// allowList is the documented list of the skips a CI run accepts.
type allowList []allowEntry

// parseAllow reads an allow-list: one "package test reason" per line, blank
// lines and lines starting with # ignored. Every entry needs a reason.
func parseAllow(r io.Reader, name string) (allowList, error) {
	var l allowList
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			return nil, fmt.Errorf("%s:%d: %q: want \"package test reason\" (a skip is allowed only with its reason)", name, n, line)
		}
		if _, err := path.Match(f[1], ""); err != nil {
			return nil, fmt.Errorf("%s:%d: test pattern %q: %v", name, n, f[1], err)
		}
		l = append(l, allowEntry{Package: f[0], Test: f[1], Reason: strings.Join(f[2:], " ")})
	}
	return l, sc.Err()
}

// allows reports whether the list names the skipped test of pkg.
func (l allowList) allows(pkg, test string) bool {
	for _, e := range l {
		if e.Package != pkg {
			continue
		}
		if ok, _ := path.Match(e.Test, test); ok {
			return true
		}
	}
	return false
}
