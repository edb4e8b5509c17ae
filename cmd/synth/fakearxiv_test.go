package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// arxivFixtures are arXiv's answers recorded in their shapes, kept with the
// arxiv package's tests.
const arxivFixtures = "../../sources/arxiv/testdata"

// cliArxivTotal is how many papers every query finds. Pages hold at most
// two, and the page at start 2 comes back empty on its first ask, as
// arXiv's API sometimes answers in the middle of a result set.
const cliArxivTotal = 5

// cliArxiv plays arXiv's export API (/api/query), OAI-PMH (/oai) and
// PDF host (/pdf/ID) for the command-line scripts.
type cliArxiv struct {
	ts   *testscript.TestScript
	base string

	mu        sync.Mutex
	calls     []string
	emptyOnce map[string]bool // queries whose middle page was already empty
}

func newCLIArxiv(ts *testscript.TestScript) *cliArxiv {
	return &cliArxiv{ts: ts, emptyOnce: map[string]bool{}}
}

func (a *cliArxiv) takeCalls() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	c := a.calls
	a.calls = nil
	return c
}

func (a *cliArxiv) log(format string, args ...any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls = append(a.calls, fmt.Sprintf(format, args...))
}

func (a *cliArxiv) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	switch {
	case r.URL.Path == "/api/query":
		a.search(w, r)
	case r.URL.Path == "/oai" && q.Get("verb") == "ListRecords":
		a.listRecords(w, r)
	case r.URL.Path == "/oai":
		id := strings.TrimPrefix(q.Get("identifier"), "oai:arXiv.org:")
		a.log("GET /oai %s %s", q.Get("verb"), id)
		b, err := os.ReadFile(filepath.Join(arxivFixtures, "oai_record.xml"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		s := strings.ReplaceAll(string(b), "{{ID}}", id)
		io.WriteString(w, strings.ReplaceAll(s, "{{LICENSE}}", "http://creativecommons.org/licenses/by/4.0/"))
	case strings.HasPrefix(r.URL.Path, "/pdf/"):
		id := strings.TrimPrefix(r.URL.Path, "/pdf/")
		a.log("GET /pdf/%s", id)
		b, err := os.ReadFile("../../sources/testdata/files/paper.pdf")
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(append(b, "\n% "+id+"\n%%EOF\n"...)) // each paper's bytes differ
	default:
		http.NotFound(w, r)
	}
}

// listRecords pages a harvest as arXiv does: two pages of three arXivRaw
// records each, the second reached by a resumption token.
func (a *cliArxiv) listRecords(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a.log("GET /oai ListRecords from=%s token=%s", q.Get("from"), q.Get("resumptionToken"))
	first := 1
	if q.Get("resumptionToken") == "next" {
		first = 4
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords>`)
	for i := first; i < first+3; i++ {
		topic := "tables"
		if i%2 == 0 {
			topic = "agents"
		}
		fmt.Fprintf(&b, `<record><header><identifier>oai:arXiv.org:2502.%05[1]d</identifier></header><metadata><arXivRaw xmlns="http://arxiv.org/OAI/arXivRaw/"><id>2502.%05[1]d</id><version version="v1"/><version version="v2"/><title>Harvested %[1]d on %[2]s</title><authors>Ada Lovelace</authors><categories>cs.CL</categories><license>http://creativecommons.org/licenses/by/4.0/</license><abstract>About %[2]s.</abstract></arXivRaw></metadata></record>`, i, topic)
	}
	if first == 1 {
		b.WriteString(`<resumptionToken cursor="0" completeListSize="6">next</resumptionToken>`)
	}
	b.WriteString(`</ListRecords></OAI-PMH>`)
	io.WriteString(w, b.String())
}

// known answers id_list: each paper at the version asked, else v3.
func (a *cliArxiv) known(w http.ResponseWriter, r *http.Request, list string) {
	a.log("GET /api/query id_list=%s", list)
	ids := strings.Split(list, ",")
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">%d</opensearch:totalResults>
`, len(ids))
	for _, id := range ids {
		if !strings.Contains(id, "v") {
			id += "v3"
		}
		fmt.Fprintf(w, `<entry><id>http://arxiv.org/abs/%[1]s</id><title>Known %[1]s</title><summary>Abstract of %[1]s.</summary><author><name>Ada Lovelace</name></author><link title="pdf" href="%[2]s/pdf/%[1]s" rel="related" type="application/pdf"/></entry>
`, id, a.base)
	}
	io.WriteString(w, "</feed>\n")
}

func (a *cliArxiv) search(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if list := q.Get("id_list"); list != "" {
		a.known(w, r, list)
		return
	}
	query := q.Get("search_query")
	start, _ := strconv.Atoi(q.Get("start"))
	n, _ := strconv.Atoi(q.Get("max_results"))
	a.log("GET /api/query search_query=%s start=%d max_results=%d ua=%s", query, start, n, r.Header.Get("User-Agent"))
	if query == "id:abc" {
		w.WriteHeader(http.StatusBadRequest)
		b, _ := os.ReadFile(filepath.Join(arxivFixtures, "feed_error_400.xml"))
		w.Write(b)
		return
	}
	n = min(n, 2, cliArxivTotal-start)
	a.mu.Lock()
	if start == 2 && !a.emptyOnce[query] {
		a.emptyOnce[query] = true
		n = 0
	}
	a.mu.Unlock()
	w.Header().Set("Content-Type", "application/atom+xml")
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="html">ArXiv Query: search_query=%s</title>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">%d</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">%d</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">%d</opensearch:itemsPerPage>
`, xmlEscape(query), cliArxivTotal, start, n)
	for i := start; i < start+n; i++ {
		id := fmt.Sprintf("2501.%05d", i+1)
		fmt.Fprintf(w, `  <entry>
    <id>http://arxiv.org/abs/%[1]sv1</id>
    <updated>2025-01-0%[2]dT00:00:00Z</updated>
    <published>2025-01-0%[2]dT00:00:00Z</published>
    <title>Paper %[2]d on Agents</title>
    <summary>Abstract %[2]d.</summary>
    <author><name>Ada Lovelace</name></author>
    <link href="http://arxiv.org/abs/%[1]sv1" rel="alternate" type="text/html"/>
    <link title="pdf" href="%[3]s/pdf/%[1]sv1" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
`, id, i+1, a.base)
	}
	io.WriteString(w, "</feed>\n")
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
