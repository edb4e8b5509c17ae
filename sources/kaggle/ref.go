package kaggle

import (
	"fmt"
	"strconv"
	"strings"
)

// datasetRef is one dataset named by a spec or by sources.kaggle.datasets,
// with the version it is pinned to (0: the current one).
type datasetRef struct {
	ref     string // owner/slug
	version int
}

// parseDatasetRef reads OWNER/DATASET, pinned or not, in the forms Kaggle's
// clients write: OWNER/DATASET@N, OWNER/DATASET/versions/N (kagglehub's
// handle) and OWNER/DATASET/N (the CLI's). ok is false for anything else,
// such as search words; err names a malformed version.
func parseDatasetRef(s string) (d datasetRef, ok bool, err error) {
	if strings.ContainsAny(s, " \t\"'") {
		return datasetRef{}, false, nil
	}
	base, ver, pinned := strings.Cut(s, "@")
	parts := strings.Split(base, "/")
	switch {
	case pinned && len(parts) == 2:
	case !pinned && len(parts) == 4 && parts[2] == "versions":
		ver, pinned = parts[3], true
	case !pinned && len(parts) == 3 && isDigits(parts[2]):
		ver, pinned = parts[2], true
	case !pinned && len(parts) == 2:
	default:
		return datasetRef{}, false, nil
	}
	if parts[0] == "" || parts[1] == "" {
		return datasetRef{}, false, nil
	}
	d.ref = parts[0] + "/" + parts[1]
	if pinned {
		n, err := strconv.Atoi(ver)
		if err != nil || n < 1 || !isDigits(ver) {
			return datasetRef{}, true, fmt.Errorf("kaggle:%s: the version %q is not a number >= 1 (want OWNER/DATASET@N or OWNER/DATASET/versions/N)", s, ver)
		}
		d.version = n
	}
	return d, true, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// String is the ref as a spec writes it: owner/slug, or owner/slug@N.
func (d datasetRef) String() string {
	if d.version > 0 {
		return fmt.Sprintf("%s@%d", d.ref, d.version)
	}
	return d.ref
}
