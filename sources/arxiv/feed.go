package arxiv

import (
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// feed is the Atom answer of the export API (the parts synth reads).
type feed struct {
	TotalResults int     `xml:"http://a9.com/-/spec/opensearch/1.1/ totalResults"`
	StartIndex   int     `xml:"http://a9.com/-/spec/opensearch/1.1/ startIndex"`
	Entries      []entry `xml:"http://www.w3.org/2005/Atom entry"`
}

type entry struct {
	ID        string   `xml:"http://www.w3.org/2005/Atom id"`
	Title     string   `xml:"http://www.w3.org/2005/Atom title"`
	Summary   string   `xml:"http://www.w3.org/2005/Atom summary"`
	Published string   `xml:"http://www.w3.org/2005/Atom published"`
	Updated   string   `xml:"http://www.w3.org/2005/Atom updated"`
	Authors   []author `xml:"http://www.w3.org/2005/Atom author"`
	Links     []link   `xml:"http://www.w3.org/2005/Atom link"`
	Primary   struct {
		Term string `xml:"term,attr"`
	} `xml:"http://arxiv.org/schemas/atom primary_category"`
	Categories []struct {
		Term string `xml:"term,attr"`
	} `xml:"http://www.w3.org/2005/Atom category"`
	License string `xml:"http://arxiv.org/schemas/atom license"`
}

type author struct {
	Name string `xml:"http://www.w3.org/2005/Atom name"`
}

type link struct {
	Href  string `xml:"href,attr"`
	Rel   string `xml:"rel,attr"`
	Title string `xml:"title,attr"`
	Type  string `xml:"type,attr"`
}

// Paper is an arXiv paper as the feed describes it.
type Paper struct {
	ID       string // 2101.00001 or hep-ex/0307015, without version
	Version  string // v2
	Title    string // whitespace collapsed
	Authors  []string
	Category string // primary category
	PDFURL   string
	AbsURL   string
	License  string // SPDX id where known; read over OAI-PMH when the feed has none
	Abstract string // whitespace collapsed
	// Published is when the paper's first version appeared (zero when the
	// answer does not say: a harvest's records).
	Published time.Time
}

// idPattern matches new-style (2101.00001v2) and old-style (hep-ex/0307015v1) ids.
var idPattern = regexp.MustCompile(`^((?:\d{4}\.\d{4,5})|(?:[a-z\-]+(?:\.[A-Z]{2})?/\d{7}))(v\d+)?$`)

// parseFeed decodes a feed. An API error comes back as a feed whose one
// entry has an id under arxiv.org/api/errors; that is returned as an error.
func parseFeed(r io.Reader) (*feed, error) {
	var f feed
	if err := xml.NewDecoder(r).Decode(&f); err != nil {
		return nil, fmt.Errorf("malformed feed: %w", err)
	}
	if len(f.Entries) == 1 && strings.Contains(f.Entries[0].ID, "/api/errors") {
		return nil, fmt.Errorf("arXiv API error: %s", strings.TrimSpace(f.Entries[0].Summary))
	}
	return &f, nil
}

// paper turns an entry into a Paper, or says why it cannot.
func (e entry) paper() (Paper, error) {
	raw := strings.TrimSpace(e.ID)
	i := strings.Index(raw, "/abs/")
	if i < 0 {
		return Paper{}, fmt.Errorf("entry id %q is not an arxiv.org/abs/ URL", raw)
	}
	m := idPattern.FindStringSubmatch(raw[i+len("/abs/"):])
	if m == nil {
		return Paper{}, fmt.Errorf("entry id %q has no arXiv identifier", raw)
	}
	p := Paper{ID: m[1], Version: m[2], Title: strings.Join(strings.Fields(e.Title), " "), Category: e.Primary.Term, License: e.License,
		Abstract: strings.Join(strings.Fields(e.Summary), " ")}
	p.Published, _ = time.Parse(time.RFC3339, strings.TrimSpace(e.Published))
	if p.Title == "" {
		return Paper{}, fmt.Errorf("entry %s has no title", p.ID)
	}
	for _, a := range e.Authors {
		if n := strings.TrimSpace(a.Name); n != "" {
			p.Authors = append(p.Authors, n)
		}
	}
	for _, l := range e.Links {
		switch {
		case l.Title == "pdf" || l.Type == "application/pdf":
			p.PDFURL = l.Href
		case l.Rel == "alternate":
			p.AbsURL = l.Href
		}
	}
	if p.AbsURL == "" {
		p.AbsURL = raw
	}
	if p.PDFURL == "" {
		p.PDFURL = strings.Replace(p.AbsURL, "/abs/", "/pdf/", 1)
	}
	// The feed links over http; arxiv.org serves https.
	p.PDFURL = strings.Replace(p.PDFURL, "http://arxiv.org/", "https://arxiv.org/", 1)
	p.AbsURL = strings.Replace(p.AbsURL, "http://arxiv.org/", "https://arxiv.org/", 1)
	return p, nil
}

// oaiRecord is the part of an OAI-PMH GetRecord answer (arXiv metadata
// format) that carries the license.
type oaiRecord struct {
	XMLName xml.Name
	Error   string `xml:"http://www.openarchives.org/OAI/2.0/ error"`
	License string `xml:"GetRecord>record>metadata>arXiv>license"`
}
