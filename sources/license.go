package sources

import (
	"strings"
)

// NormalizeLicense maps the license names sources report (Kaggle's
// "CC0: Public Domain", arXiv's license URLs) to SPDX ids where one exists,
// so an allow-list can be written in SPDX. Names it does not know are
// returned trimmed.
func NormalizeLicense(name string) string {
	n := strings.TrimSpace(name)
	key := strings.ToLower(n)
	key = strings.TrimPrefix(strings.TrimPrefix(key, "https://"), "http://")
	key = strings.TrimSuffix(key, "/")
	if id, ok := licenseIDs[key]; ok {
		return id
	}
	if strings.HasPrefix(key, "creativecommons.org/licenses/") {
		// creativecommons.org/licenses/by-nc-sa/4.0 -> CC-BY-NC-SA-4.0
		parts := strings.Split(strings.TrimPrefix(key, "creativecommons.org/licenses/"), "/")
		if len(parts) >= 2 {
			return "CC-" + strings.ToUpper(parts[0]) + "-" + parts[1]
		}
	}
	if strings.HasPrefix(key, "creativecommons.org/publicdomain/zero/") {
		return "CC0-1.0"
	}
	return n
}

var licenseIDs = map[string]string{
	"cc0: public domain": "CC0-1.0",
	"cc0":                "CC0-1.0",
	"cc0-1.0":            "CC0-1.0",
	"public domain":      "CC0-1.0",
	"cc-by-4.0":          "CC-BY-4.0",
	"attribution 4.0 international (cc by 4.0)": "CC-BY-4.0",
	"cc by 4.0":    "CC-BY-4.0",
	"cc-by-sa-4.0": "CC-BY-SA-4.0",
	"cc by-sa 4.0": "CC-BY-SA-4.0",
	"attribution-sharealike 4.0 international (cc by-sa 4.0)": "CC-BY-SA-4.0",
	"cc by-sa 3.0":    "CC-BY-SA-3.0",
	"cc-by-nc-sa-4.0": "CC-BY-NC-SA-4.0",
	"cc by-nc-sa 4.0": "CC-BY-NC-SA-4.0",
	"attribution-noncommercial-sharealike 4.0 international (cc by-nc-sa 4.0)": "CC-BY-NC-SA-4.0",
	"cc by-nc 4.0":                          "CC-BY-NC-4.0",
	"cc-by-nc-4.0":                          "CC-BY-NC-4.0",
	"cc by-nd 4.0":                          "CC-BY-ND-4.0",
	"mit":                                   "MIT",
	"apache 2.0":                            "Apache-2.0",
	"apache-2.0":                            "Apache-2.0",
	"gpl 2":                                 "GPL-2.0",
	"gpl-2.0":                               "GPL-2.0",
	"gpl-3.0":                               "GPL-3.0",
	"gnu affero general public license 3.0": "AGPL-3.0",
	"gnu lesser general public license 3.0": "LGPL-3.0",
	"odbl-1.0":                              "ODbL-1.0",
	"open database license (odbl)":          "ODbL-1.0",
	"open data commons open database license (odbl) v1.0":  "ODbL-1.0",
	"database: open database, contents: database contents": "ODbL-1.0",
	"pddl": "PDDL-1.0",
	"open data commons public domain dedication and license (pddl)": "PDDL-1.0",
	"odc-by-1.0": "ODC-By-1.0",
	"community data license agreement – permissive – version 1.0": "CDLA-Permissive-1.0",
	"arxiv.org/licenses/nonexclusive-distrib/1.0":                 "LicenseRef-arXiv-nonexclusive-distrib-1.0",
	"arxiv.org/licenses/assumed-1991-2003":                        "LicenseRef-arXiv-assumed-1991-2003",
}

// LicenseAllowed reports whether license is in the allow-list (after
// NormalizeLicense on both). An empty list allows everything; an empty
// license is allowed only by an empty list.
func LicenseAllowed(license string, allow []string) bool {
	if len(allow) == 0 {
		return true
	}
	id := NormalizeLicense(license)
	if id == "" {
		return false
	}
	for _, a := range allow {
		if strings.EqualFold(NormalizeLicense(a), id) {
			return true
		}
	}
	return false
}
