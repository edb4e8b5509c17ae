package sample

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"synth/schemas"
	"synth/sources"
)

// License is the license of every built-in file.
const License = "CC0-1.0"

// File is one generated file of the corpus.
type File struct {
	Name string
	Type string // the file type synth assigns by content: csv, xlsx, txt, …
	Body []byte
}

// maker writes one file from a random stream.
type maker struct {
	name, typ string
	make      func(r *rand.Rand) ([]byte, error)
}

// makers lists the corpus in the order Collect yields it.
var makers = allMakers()

func allMakers() []maker {
	ms := append([]maker(nil), baseMakers...)
	for _, d := range domainTables {
		ms = append(ms, maker{d.name, d.name[strings.LastIndex(d.name, ".")+1:], d.make})
	}
	ms = append(ms, genreFiles...)
	return append(ms, mediaFiles...)
}

// baseMakers are the first files of the corpus, each written by hand.
var baseMakers = []maker{
	{"sales.csv", "csv", makeSales},
	{"customers.csv", "csv", makeCustomers},
	{"weather.csv", "csv", makeWeather},
	{"employees.xlsx", "xlsx", makeEmployees},
	{"article.txt", "txt", makeArticle},
	{"products.json", "json", makeProducts},
	{"scores.tsv", "tsv", makeScores},
	{"flowers.csv", "csv", makeFlowers},
	{"housing.csv", "csv", makeHousing},
	{"metrics.parquet", "parquet", makeMetrics},
	{"handbook.md", "md", makeMarkdown},
	{"parks.html", "html", makeHTML},
	{"report.pdf", "pdf", makePDF},
	{"minutes.docx", "docx", makeDOCX},
	{"shapes.png", "png", makeShapes},
	{"landscape.jpeg", "jpeg", makeLandscape},
	{"bounce.gif", "gif", makeBounce},
	{"badge.webp", "webp", makeBadge},
	{"chime.wav", "wav", makeChime},
	{"speech.wav", "wav", makeSpeech},
	{"silence.mp3", "mp3", makeSilentMP3},
}

// Files generates the corpus. Each file has its own random stream derived
// from the seed and its name, so adding a file never changes the others.
func Files(seed int64) ([]File, error) {
	out := make([]File, 0, len(makers))
	for _, m := range makers {
		r := rand.New(rand.NewPCG(uint64(seed), fnv64(m.name)))
		body, err := m.make(r)
		if err != nil {
			return nil, fmt.Errorf("sample %s: %w", m.name, err)
		}
		out = append(out, File{Name: m.name, Type: m.typ, Body: body})
	}
	return out, nil
}

// fnv64 hashes a name into a stream id.
func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

type source struct{ seed int64 }

// New returns the built-in corpus as a Source. The same seed yields the same
// files, byte for byte.
func New(seed int64) sources.Source { return source{seed: seed} }

func (source) Kind() string { return "sample" }

func (s source) Collect(ctx context.Context, put func(sources.Item) error) error {
	files, err := Files(s.seed)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		item := sources.Item{
			Name:   f.Name,
			Body:   bytes.NewReader(f.Body),
			Source: schemas.Source{Kind: "sample", Ref: f.Name, License: License, Version: fmt.Sprintf("seed-%d", s.seed)},
		}
		if err := put(item); err != nil {
			return err
		}
	}
	return nil
}
