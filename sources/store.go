package sources

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"synth/schemas"
)

// DefaultMaxFileBytes is the file size limit when none is configured.
const DefaultMaxFileBytes = 1 << 30

// ErrTooLarge is wrapped by Put's error for a file over the size limit.
var ErrTooLarge = errors.New("file over the size limit")

// ErrEmpty is wrapped by Put's error for a file with no content.
var ErrEmpty = errors.New("empty file")

// StoreOptions tune a Store. The zero value is usable.
type StoreOptions struct {
	// MaxFileBytes rejects larger files (0: DefaultMaxFileBytes; <0: no limit).
	MaxFileBytes int64
	// NoPreview skips previews (Put then leaves File.Preview nil).
	NoPreview bool
	// Now stamps Source.RetrievedAt when the item leaves it zero (nil: time.Now).
	Now func() time.Time
}

// Store keeps collected files content-addressed under its root:
// <root>/<aa>/<sha256>/<name>, where aa is the hash's first two hex digits.
// Identical content is stored once, under the first name it arrived with;
// every provenance is kept, each once. A Store is safe for concurrent use;
// several processes may share a root (a rename is atomic, and a second copy
// of the same content is dropped).
type Store struct {
	root string
	opt  StoreOptions

	mu    sync.Mutex
	files map[string]*entry // by id
}

// entry is what the store knows of one content: its first record and every
// provenance, first first, each once.
type entry struct {
	first schemas.File // Sources nil
	srcs  []schemas.Source
	seen  map[schemas.Source]bool // provenances without their retrieval time
}

// OpenStore opens (creating it if needed) the store rooted at dir, the run's
// files/ directory, with default options.
func OpenStore(dir string) (*Store, error) {
	return OpenStoreWith(dir, StoreOptions{})
}

// OpenStoreWith is OpenStore with options.
func OpenStoreWith(dir string, opt StoreOptions) (*Store, error) {
	if err := os.MkdirAll(filepath.Join(dir, ".tmp"), 0o755); err != nil {
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	if opt.MaxFileBytes == 0 {
		opt.MaxFileBytes = DefaultMaxFileBytes
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &Store{root: dir, opt: opt, files: map[string]*entry{}}, nil
}

// Root returns the directory the store was opened at.
func (s *Store) Root() string { return s.root }

// MaxFileBytes returns the size limit in force (<0: none).
func (s *Store) MaxFileBytes() int64 { return s.opt.MaxFileBytes }

// Path returns the host path of a stored file.
func (s *Store) Path(f schemas.File) string {
	return filepath.Join(s.root, f.ID[:2], f.ID, f.Name)
}

// Seed tells the store about a manifest line read on resume: a file's
// record (with the provenances it lists, as manifests written before
// reference records did) or a reference record (DuplicateOf) adding one
// provenance to content recorded earlier. Later duplicates add to it.
func (s *Store) Seed(f schemas.File) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f.DuplicateOf != "" {
		if cur, ok := s.files[f.DuplicateOf]; ok {
			cur.add(f.Source)
		}
		return
	}
	cur, ok := s.files[f.ID]
	if !ok {
		first := f
		first.Sources = nil
		cur = &entry{first: first, seen: map[schemas.Source]bool{}}
		s.files[f.ID] = cur
	}
	cur.add(f.Source)
	for _, src := range f.Sources {
		cur.add(src)
	}
}

// Provenance returns every source the content with id arrived from, first first.
func (s *Store) Provenance(id string) []schemas.Source {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.files[id]
	if !ok {
		return nil
	}
	return append([]schemas.Source(nil), f.srcs...)
}

// Put reads it.Body to its end, storing the content under its sha256, and
// returns the file's record: its type (by content), size, preview and
// provenance. For content seen before (in this process or recorded with
// Seed) nothing is rewritten. If the item's provenance is new, the record
// is a duplicate's: the first record's name, type, size and preview, this
// item's Source, and DuplicateOf set to the id. If that provenance was
// recorded before too (a rerun), the record is the first record as stored,
// without DuplicateOf. Put never copies the provenance list, so n
// duplicates cost O(n). Put fails, storing nothing, for an empty file
// (ErrEmpty), a file over the size limit (ErrTooLarge), a read error (a
// truncated download) and content whose preview shows it unreadable; such an error
// names the file and is meant to skip that file only.
func (s *Store) Put(it Item) (schemas.File, error) {
	name := SanitizeName(it.Name)
	label := it.Name
	if label == "" {
		label = name
	}
	if it.Source.RetrievedAt.IsZero() {
		it.Source.RetrievedAt = s.opt.Now().UTC().Truncate(time.Second)
	}
	max := s.opt.MaxFileBytes
	if max > 0 && it.Size > max {
		return schemas.File{}, fmt.Errorf("file %s: %d bytes, over the limit of %d bytes (raise sources.max_file_bytes): %w", label, it.Size, max, ErrTooLarge)
	}
	tmp, id, size, err := s.spool(it.Body, label)
	if err != nil {
		return schemas.File{}, err
	}
	defer os.Remove(tmp) // a no-op once renamed

	if f, ok := s.known(id, it.Source); ok {
		return f, nil
	}
	typ, err := DetectFile(tmp)
	if err != nil {
		return schemas.File{}, fmt.Errorf("file %s: %w", label, err)
	}
	f := schemas.File{ID: id, Name: name, Type: typ, Size: size, Source: it.Source}
	if existing := s.onDisk(id); existing != "" {
		f.Name = existing
	} else {
		if !s.opt.NoPreview {
			p, err := Preview(tmp, typ)
			if err != nil {
				return schemas.File{}, fmt.Errorf("file %s (%s): unreadable: %w", label, typ, err)
			}
			f.Preview = p
		}
		stored, err := s.place(tmp, id, name)
		if err != nil {
			return schemas.File{}, fmt.Errorf("file %s: %w", label, err)
		}
		f.Name = stored
	}
	if f.Preview == nil && !s.opt.NoPreview {
		if p, err := Preview(s.Path(f), typ); err == nil {
			f.Preview = p
		}
	}
	return s.record(f), nil
}

// spool copies r to a temp file, hashing it, up to the size limit.
func (s *Store) spool(r io.Reader, label string) (tmp, id string, size int64, err error) {
	if r == nil {
		return "", "", 0, fmt.Errorf("file %s: no content", label)
	}
	f, err := os.CreateTemp(filepath.Join(s.root, ".tmp"), "put-*")
	if err != nil {
		return "", "", 0, fmt.Errorf("file %s: %w", label, err)
	}
	fail := func(e error) (string, string, int64, error) {
		f.Close()
		os.Remove(f.Name())
		return "", "", 0, e
	}
	h := sha256.New()
	src := r
	max := s.opt.MaxFileBytes
	if max > 0 {
		src = io.LimitReader(r, max+1)
	}
	n, err := io.Copy(io.MultiWriter(f, h), src)
	if err != nil {
		return fail(fmt.Errorf("file %s: read after %d bytes: %w", label, n, err))
	}
	if max > 0 && n > max {
		return fail(fmt.Errorf("file %s: over the limit of %d bytes (raise sources.max_file_bytes): %w", label, max, ErrTooLarge))
	}
	if n == 0 {
		return fail(fmt.Errorf("file %s: %w", label, ErrEmpty))
	}
	if err := f.Close(); err != nil {
		return fail(fmt.Errorf("file %s: %w", label, err))
	}
	return f.Name(), hex.EncodeToString(h.Sum(nil)), n, nil
}

// known returns the record of content already put (see Put), adding src
// to its provenance.
func (s *Store) known(id string, src schemas.Source) (schemas.File, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, ok := s.files[id]
	if !ok {
		return schemas.File{}, false
	}
	return cur.again(src), true
}

// record adds f to the index, or, if another Put of the same content won
// the race, adds f's source to that one (see Put).
func (s *Store) record(f schemas.File) schemas.File {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.files[f.ID]; ok {
		return cur.again(f.Source)
	}
	cur := &entry{first: f, seen: map[schemas.Source]bool{}}
	cur.add(f.Source)
	s.files[f.ID] = cur
	return f
}

// onDisk returns the name content id is stored under, or "".
func (s *Store) onDisk(id string) string {
	ents, err := os.ReadDir(filepath.Join(s.root, id[:2], id))
	if err != nil {
		return ""
	}
	for _, e := range ents {
		if e.Type().IsRegular() {
			return e.Name()
		}
	}
	return ""
}

// place moves tmp to <root>/<aa>/<id>/<name> and returns the name the
// content is stored under: if another writer placed the same content
// first, tmp is dropped and that writer's name returned.
func (s *Store) place(tmp, id, name string) (string, error) {
	dir := filepath.Join(s.root, id[:2], id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if existing := s.onDisk(id); existing != "" {
		return existing, nil
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return "", err
	}
	return name, os.Rename(tmp, filepath.Join(dir, name))
}

// add records src once (retrieval times aside) and says whether it was new.
func (e *entry) add(src schemas.Source) bool {
	key := src
	key.RetrievedAt = time.Time{}
	if e.seen[key] {
		return false
	}
	e.seen[key] = true
	e.srcs = append(e.srcs, src)
	return true
}

// again records content arriving again from src and returns its record: a
// duplicate's for a new provenance, else the first record.
func (e *entry) again(src schemas.Source) schemas.File {
	f := e.first
	if e.add(src) {
		f.Source = src
		f.DuplicateOf = f.ID
	}
	return f
}
