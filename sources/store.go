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
// every provenance is kept. A Store is safe for concurrent use; several
// processes may share a root (a rename is atomic, and a second copy of the
// same content is dropped).
type Store struct {
	root string
	opt  StoreOptions

	mu    sync.Mutex
	files map[string]*schemas.File // by id: first name, first source, all sources
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
	return &Store{root: dir, opt: opt, files: map[string]*schemas.File{}}, nil
}

// Root returns the directory the store was opened at.
func (s *Store) Root() string { return s.root }

// MaxFileBytes returns the size limit in force (<0: none).
func (s *Store) MaxFileBytes() int64 { return s.opt.MaxFileBytes }

// Path returns the host path of a stored file.
func (s *Store) Path(f schemas.File) string {
	return filepath.Join(s.root, f.ID[:2], f.ID, f.Name)
}

// Seed tells the store about a file recorded earlier (a manifest line read
// on resume), so that later duplicates add to its provenance.
func (s *Store) Seed(f schemas.File) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.files[f.ID]; ok {
		for _, src := range append([]schemas.Source{f.Source}, f.Sources...) {
			addSource(cur, src)
		}
		return
	}
	c := f
	c.Sources = append([]schemas.Source(nil), f.Sources...)
	s.files[f.ID] = &c
}

// Provenance returns every source the content with id arrived from, first first.
func (s *Store) Provenance(id string) []schemas.Source {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.files[id]
	if !ok {
		return nil
	}
	if len(f.Sources) == 0 {
		return []schemas.Source{f.Source}
	}
	return append([]schemas.Source(nil), f.Sources...)
}

// Put reads it.Body to its end, storing the content under its sha256, and
// returns the file's record: its type (by content), size, preview and
// provenance. For content seen before (in this process or recorded with
// Seed) nothing is rewritten: the record keeps the first name and first
// Source, and Sources lists every provenance (first first) once there is
// more than one. Put fails, storing nothing, for an empty file (ErrEmpty),
// a file over the size limit (ErrTooLarge), a read error (a truncated
// download) and content whose preview shows it unreadable; such an error
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

// known returns the record of content already put, adding src to it.
func (s *Store) known(id string, src schemas.Source) (schemas.File, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, ok := s.files[id]
	if !ok {
		return schemas.File{}, false
	}
	addSource(cur, src)
	return copyFile(cur), true
}

// record adds f to the index, or, if another Put of the same content won
// the race, adds f's source to that one.
func (s *Store) record(f schemas.File) schemas.File {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.files[f.ID]; ok {
		addSource(cur, f.Source)
		return copyFile(cur)
	}
	c := f
	s.files[f.ID] = &c
	return copyFile(&c)
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

func addSource(f *schemas.File, src schemas.Source) {
	if len(f.Sources) == 0 {
		f.Sources = []schemas.Source{f.Source}
	}
	for _, have := range f.Sources {
		if sameSource(have, src) {
			return
		}
	}
	f.Sources = append(f.Sources, src)
}

func sameSource(a, b schemas.Source) bool {
	a.RetrievedAt, b.RetrievedAt = time.Time{}, time.Time{}
	return a == b
}

func copyFile(f *schemas.File) schemas.File {
	c := *f
	if len(c.Sources) <= 1 {
		c.Sources = nil
	} else {
		c.Sources = append([]schemas.Source(nil), c.Sources...)
	}
	return c
}
