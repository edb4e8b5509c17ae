package sources

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"

	"synth/schemas"
)

// Limits are the per-source collection rules of a Config.
type Limits struct {
	MaxFiles int      // stop the source after this many stored files (0: no limit)
	Licenses []string // allow-list; empty allows all
	Types    []string // keep only these detected types; empty keeps all
	// Archive bounds what a compressed file (.gz, .bz2, .xz, .zst) unpacks to.
	Archive ArchiveLimits
}

// LimitsFrom reads the collection rules of a Config. An archive section
// that does not parse leaves the archive defaults (opening the sources
// reports it).
func LimitsFrom(c Config) Limits {
	arch, _ := ArchiveLimitsFrom(c.Archive)
	return Limits{MaxFiles: c.MaxFiles, Licenses: c.Licenses, Types: c.Types, Archive: arch}
}

// StoreOptionsFrom reads the store options of a Config.
func StoreOptionsFrom(c Config) (StoreOptions, error) {
	n, err := ParseSize(c.MaxFileBytes)
	if err != nil {
		return StoreOptions{}, fmt.Errorf("sources.max_file_bytes: %w", err)
	}
	return StoreOptions{MaxFileBytes: n}, nil
}

// Stats counts what a collection did.
type Stats struct {
	Stored     int            `json:"stored"`     // new content
	Duplicates int            `json:"duplicates"` // content already stored (provenance added)
	Skipped    map[string]int `json:"skipped,omitempty"`
	// Refused names the files a collection left out (the first MaxRefused),
	// so a run's report can say why each got no task.
	Refused []Refused `json:"refused,omitempty"`
}

// Refused is a file a collection left out, and why: Reason is a Skipped
// key (license, type, too_large, empty, unreadable, archive_entry) and
// Detail says what about it.
type Refused struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// MaxRefused caps Stats.Refused: a source of many files of unwanted types
// is counted whole but named only so far.
const MaxRefused = 1000

func (s *Stats) skip(reason string) {
	if s.Skipped == nil {
		s.Skipped = map[string]int{}
	}
	s.Skipped[reason]++
}

// refuse counts a file left out and names it.
func (s *Stats) refuse(name, reason, detail string) {
	s.skip(reason)
	if len(s.Refused) < MaxRefused {
		s.Refused = append(s.Refused, Refused{Name: name, Reason: reason, Detail: detail})
	}
}

var errEnough = errors.New("enough files")

// Collect runs src, streaming each item into st as it arrives (a file
// compressed as one gzip, bzip2, xz or zstd stream is unpacked first, within
// lim.Archive: see EachDecompressed), and calls
// emit with each stored file's record (see Store.Put: new content and
// duplicates alike; File.DuplicateOf tells a new provenance of content
// stored before, and a record without it may be one the store knew). It applies lim: an item under a license
// outside the allow-list is dropped before its body is read, an item of
// another type after its head is read, and the source is stopped once
// MaxFiles files are stored. A file the store rejects (empty, too large,
// unreadable) is logged and skipped. The error is the source's (or emit's).
func Collect(ctx context.Context, src Source, st *Store, lim Limits, log *slog.Logger, emit func(schemas.File) error) (Stats, error) {
	if log == nil {
		log = slog.Default()
	}
	var stats Stats
	seen := map[string]bool{}
	take := func(it Item) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !LicenseAllowed(it.Source.License, lim.Licenses) {
			log.Info("skip file: license not allowed", "source", src.Kind(), "file", it.Name, "license", it.Source.License)
			stats.refuse(it.Name, "license", "license "+it.Source.License+" is not in sources.licenses")
			return nil
		}
		if len(lim.Types) > 0 && it.Body != nil {
			br := bufio.NewReaderSize(it.Body, HeadSize)
			head, _ := br.Peek(HeadSize)
			if t := Detect(head, it.Name); !slices.Contains(lim.Types, t) && !(t == "zip" && slices.ContainsFunc(lim.Types, isZipType)) {
				log.Info("skip file: type not wanted", "source", src.Kind(), "file", it.Name, "type", t)
				stats.refuse(it.Name, "type", "type "+t+" is not in sources.types")
				return nil
			}
			it.Body = br
		}
		f, err := st.Put(it)
		if err != nil {
			log.Warn("skip file", "source", src.Kind(), "file", it.Name, "err", err)
			switch {
			case errors.Is(err, ErrTooLarge):
				stats.refuse(it.Name, "too_large", err.Error())
			case errors.Is(err, ErrEmpty):
				stats.refuse(it.Name, "empty", err.Error())
			default:
				stats.refuse(it.Name, "unreadable", err.Error())
			}
			return nil
		}
		if len(lim.Types) > 0 && !slices.Contains(lim.Types, f.Type) {
			stats.refuse(it.Name, "type", "type "+f.Type+" is not in sources.types")
			return nil
		}
		if f.DuplicateOf != "" || seen[f.ID] {
			stats.Duplicates++
		} else {
			stats.Stored++
		}
		seen[f.ID] = true
		if err := emit(f); err != nil {
			return err
		}
		if lim.MaxFiles > 0 && stats.Stored >= lim.MaxFiles {
			return errEnough
		}
		return nil
	}
	err := src.Collect(ctx, func(it Item) error {
		var taken error
		rest, handled, skipped, err := EachDecompressed(it, lim.Archive, func(inner Item) error {
			taken = take(inner)
			return taken
		})
		for _, sk := range skipped {
			log.Warn("skip archive entry", "source", src.Kind(), "file", it.Name, "entry", sk.Path, "reason", sk.Reason)
			stats.refuse(it.Name+"/"+sk.Path, "archive_entry", sk.Reason)
		}
		switch {
		case !handled && err == nil:
			return take(rest)
		case taken != nil:
			return taken
		case err != nil:
			log.Warn("skip compressed file", "source", src.Kind(), "file", it.Name, "err", err)
			stats.refuse(it.Name, "unreadable", err.Error())
		}
		return nil
	})
	if errors.Is(err, errEnough) {
		log.Info("source reached its file limit", "source", src.Kind(), "max_files", lim.MaxFiles)
		err = nil
	}
	return stats, err // the caller names the source, with its spec
}

func isZipType(t string) bool { return t == "xlsx" || t == "docx" || t == "pptx" }
