package arxiv

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"
	"unicode"

	"synth/sources"
)

// harvestPrefix is the OAI-PMH metadata format synth harvests: arXivRaw
// carries each paper's versions and license beside its title, authors,
// categories and abstract.
const harvestPrefix = "arXivRaw"

// maxHarvestPages bounds one harvest (arXiv pages a thousand records).
const maxHarvestPages = 10000

// checkHarvest checks the harvest's dates.
func checkHarvest(cfg sources.ArxivConfig) error {
	for _, d := range []struct{ key, v string }{{"from", cfg.From}, {"until", cfg.Until}} {
		if d.v == "" {
			continue
		}
		if _, err := time.Parse("2006-01-02", d.v); err != nil {
			return fmt.Errorf("sources.arxiv.%s: %q is not a date (want YYYY-MM-DD)", d.key, d.v)
		}
	}
	if cfg.From == "" && (cfg.Until != "" || cfg.Set != "") {
		return fmt.Errorf("sources.arxiv.until and set narrow a harvest: set sources.arxiv.from too")
	}
	if cfg.Until != "" && cfg.Until < cfg.From {
		return fmt.Errorf("sources.arxiv.until %s is before from %s", cfg.Until, cfg.From)
	}
	return nil
}

// oaiList is a ListRecords answer (the parts synth reads).
type oaiList struct {
	XMLName xml.Name
	Error   struct {
		Code string `xml:"code,attr"`
		Text string `xml:",chardata"`
	} `xml:"error"`
	Records []struct {
		Header struct {
			Status     string `xml:"status,attr"`
			Identifier string `xml:"identifier"`
		} `xml:"header"`
		Raw *rawRecord `xml:"metadata>arXivRaw"`
	} `xml:"ListRecords>record"`
	Token struct {
		Value    string `xml:",chardata"`
		Complete int    `xml:"completeListSize,attr"`
	} `xml:"ListRecords>resumptionToken"`
}

// rawRecord is one paper in arXivRaw.
type rawRecord struct {
	ID       string `xml:"id"`
	Versions []struct {
		Version string `xml:"version,attr"`
	} `xml:"version"`
	Title      string `xml:"title"`
	Authors    string `xml:"authors"`
	Categories string `xml:"categories"`
	License    string `xml:"license"`
	Abstract   string `xml:"abstract"`
}

// harvest lists the papers of sources.arxiv.from..until (and set) with
// OAI-PMH ListRecords, following resumption tokens, each request paced
// like every other to the host. Licenses come with the records, so no
// paper costs a GetRecord, and they go into the license cache. It keeps
// papers whose title or abstract holds every word of the query and whose
// categories meet sources.arxiv.categories, up to max_results.
func (s *Source) harvest(ctx context.Context) ([]Paper, error) {
	var out []Paper
	words := strings.Fields(strings.ToLower(s.query))
	q := url.Values{"verb": {"ListRecords"}, "metadataPrefix": {harvestPrefix}, "from": {s.cfg.From}}
	if s.cfg.Until != "" {
		q.Set("until", s.cfg.Until)
	}
	if s.cfg.Set != "" {
		q.Set("set", s.cfg.Set)
	}
	records := 0
	for page := 0; page < maxHarvestPages && len(out) < s.cfg.MaxResults; page++ {
		list, err := s.listRecords(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("arxiv: harvest %s..%s: %w", s.cfg.From, s.cfg.Until, err)
		}
		for _, r := range list.Records {
			if r.Raw == nil || r.Header.Status == "deleted" {
				continue
			}
			records++
			p, ok := r.Raw.paper(s.pdfBase())
			if !ok {
				s.log.Warn("skip malformed record", "source", "arxiv", "identifier", r.Header.Identifier)
				continue
			}
			if p.License != "" {
				s.licenses[p.ID] = p.License
				s.harvested++
			}
			if !matches(p, r.Raw.Categories, words, s.cfg.Categories) || !s.admit(ctx, &p) {
				continue
			}
			if len(out) < s.cfg.MaxResults {
				out = append(out, p)
			}
		}
		token := strings.TrimSpace(list.Token.Value)
		if token == "" {
			break
		}
		q = url.Values{"verb": {"ListRecords"}, "resumptionToken": {token}}
	}
	s.log.Info("harvested", "source", "arxiv", "from", s.cfg.From, "until", s.cfg.Until, "set", s.cfg.Set, "records", records, "papers", len(out))
	return out, nil
}

// listRecords asks for one page. noRecordsMatch is an empty page.
func (s *Source) listRecords(ctx context.Context, q url.Values) (*oaiList, error) {
	resp, err := s.client.Get(ctx, s.cfg.OAIURL+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var list oaiList
	if err := xml.NewDecoder(io.LimitReader(resp.Body, 256<<20)).Decode(&list); err != nil {
		return nil, fmt.Errorf("%s: not an OAI-PMH answer: %w", s.cfg.OAIURL, err)
	}
	if list.XMLName.Local != "OAI-PMH" {
		return nil, fmt.Errorf("%s: not an OAI-PMH answer (root <%s>)", s.cfg.OAIURL, list.XMLName.Local)
	}
	switch code := list.Error.Code; code {
	case "":
	case "noRecordsMatch":
		return &oaiList{}, nil
	default:
		return nil, fmt.Errorf("%s: OAI-PMH error %s: %s", s.cfg.OAIURL, code, strings.TrimSpace(list.Error.Text))
	}
	return &list, nil
}

// pdfBase is where PDFs are: arxiv.org for arXiv's own API, else the host
// of sources.arxiv.base_url (a mirror or a local server).
func (s *Source) pdfBase() string {
	u, err := url.Parse(s.cfg.BaseURL)
	if err != nil || u.Host == "" || u.Host == "export.arxiv.org" || strings.HasSuffix(u.Host, ".arxiv.org") {
		return "https://arxiv.org"
	}
	return u.Scheme + "://" + u.Host
}

// paper turns a record into a Paper at its newest version.
func (r *rawRecord) paper(pdfBase string) (Paper, bool) {
	id := strings.TrimSpace(r.ID)
	if m := idPattern.FindStringSubmatch(id); m == nil || m[2] != "" {
		return Paper{}, false
	}
	p := Paper{ID: id, Title: strings.Join(strings.Fields(r.Title), " "), License: strings.TrimSpace(r.License),
		Abstract: strings.Join(strings.Fields(r.Abstract), " ")}
	if p.Title == "" {
		return Paper{}, false
	}
	newest := 0
	for _, v := range r.Versions {
		var n int
		if _, err := fmt.Sscanf(v.Version, "v%d", &n); err == nil && n > newest {
			newest = n
		}
	}
	if newest > 0 {
		p.Version = fmt.Sprintf("v%d", newest)
	}
	if cats := strings.Fields(r.Categories); len(cats) > 0 {
		p.Category = cats[0]
	}
	for _, a := range strings.Split(r.Authors, ",") {
		for _, b := range strings.Split(a, " and ") {
			if n := strings.Join(strings.Fields(b), " "); n != "" {
				p.Authors = append(p.Authors, n)
			}
		}
	}
	p.AbsURL = pdfBase + "/abs/" + p.ID + p.Version
	p.PDFURL = pdfBase + "/pdf/" + p.ID + p.Version
	return p, true
}

// matches reports whether a harvested paper holds every query word, as a
// word, in its title or abstract, and one of the wanted categories (when
// any).
func matches(p Paper, categories string, words, want []string) bool {
	have := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(p.Title+" "+p.Abstract), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	}) {
		have[w] = true
	}
	for _, w := range words {
		if !have[strings.Trim(w, ".,;:!?\"'()")] {
			return false
		}
	}
	if len(want) == 0 {
		return true
	}
	for _, c := range strings.Fields(categories) {
		for _, w := range want {
			if c == w {
				return true
			}
		}
	}
	return false
}
