package serve

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"synth/internal/beneath"
	"synth/sandbox"
	"synth/schemas"
	"synth/sources/tableread"
)

// Preloading (Config.Preload): the episodes of a task whose table inputs
// total at least Config.PreloadMin bytes start from a template that read
// them once (sandbox.NewTemplate), made at the task's first reset and kept
// until Close. A task whose template fails (a file pandas cannot read, a
// limit passed) is logged once and served as without preloading.

// DefaultPreloadTasks bounds the templates a server keeps when
// Config.PreloadTasks is zero.
const DefaultPreloadTasks = 4

// headBytes is how much of a delimited file its layout is sniffed from.
const headBytes = 1 << 20

// template is one task's preloading: its backend once made, or why not.
type template struct {
	once sync.Once
	b    sandbox.Backend // nil when the task is served without
	note string          // what the first observation adds: the frames' names and calls
}

// templates holds a server's templates by task id.
type templates struct {
	mu     sync.Mutex
	byTask map[string]*template
	made   int
	closed bool
}

// backendFor is the backend an episode of task opens its sandbox on, and
// the note its query gets: a template's, or the server's own and "".
func (s *Server) backendFor(task *schemas.Task, inputs []sandbox.Input) (sandbox.Backend, string) {
	if s.cfg.Preload == nil || len(inputs) == 0 {
		return s.backend, ""
	}
	s.tmpl.mu.Lock()
	t := s.tmpl.byTask[task.ID]
	if t == nil {
		if s.tmpl.closed || s.tmpl.made >= s.cfg.PreloadTasks {
			s.tmpl.mu.Unlock()
			return s.backend, ""
		}
		t = &template{}
		s.tmpl.byTask[task.ID] = t
		s.tmpl.made++
	}
	s.tmpl.mu.Unlock()
	t.once.Do(func() { s.makeTemplate(t, task, inputs) })
	if t.b == nil {
		return s.backend, ""
	}
	return t.b, t.note
}

// makeTemplate makes task's template, or leaves t.b nil: the task's inputs
// are too small, hold no table, or its template failed (logged).
func (s *Server) makeTemplate(t *template, task *schemas.Task, inputs []sandbox.Input) {
	reads, size, err := preloadReads(task, inputs)
	if err != nil {
		s.logf("serve: task %q: not preloaded: %v", task.ID, err)
		return
	}
	if len(reads) == 0 || size < s.cfg.PreloadMin {
		return
	}
	b, err := s.cfg.Preload(inputs, reads)
	if err != nil {
		s.logf("serve: task %q: not preloaded, its episodes read their files themselves: %v", task.ID, err)
		return
	}
	s.tmpl.mu.Lock()
	closed := s.tmpl.closed
	if !closed {
		t.b, t.note = b, preloadNote(reads)
	}
	s.tmpl.mu.Unlock()
	if closed {
		b.Close()
	}
}

// closeTemplates tears down every template made; none is made after, and
// one being made closes itself once ready (makeTemplate), so Close does
// not wait for a read.
func (s *Server) closeTemplates() {
	s.tmpl.mu.Lock()
	s.tmpl.closed = true
	var all []sandbox.Backend
	for _, t := range s.tmpl.byTask {
		if t.b != nil {
			all = append(all, t.b)
		}
	}
	s.tmpl.mu.Unlock()
	for _, b := range all {
		b.Close()
	}
}

// preloadReads are the reads of task's table inputs, each with the pandas
// call its layout needs (tableread's Layout.Call, sniffed from the file's
// head, as typing does), and the bytes of the files read. Delimited text
// and Parquet only; a file whose layout cannot be told is left out.
func preloadReads(task *schemas.Task, inputs []sandbox.Input) ([]sandbox.Read, int64, error) {
	var reads []sandbox.Read
	var size int64
	for _, f := range task.Files {
		var in *sandbox.Input
		for i := range inputs {
			if inputs[i].Name == f.Name {
				in = &inputs[i]
			}
		}
		if in == nil {
			continue
		}
		name := "data/" + f.Name
		var call string
		switch strings.ToLower(f.Type) {
		case "csv", "tsv":
			head, n, err := readHead(*in)
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %w", name, err)
			}
			tb, ok := tableread.SniffDelimited(head)
			if !ok {
				continue
			}
			call, size = tb.Layout.Call(name), size+n
		case "parquet":
			_, n, err := readHead(*in)
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %w", name, err)
			}
			call, size = "pd.read_parquet("+strconv.Quote(name)+")", size+n
		default:
			continue
		}
		reads = append(reads, sandbox.Read{Name: name, Call: call})
	}
	return reads, size, nil
}

// readHead reads the first headBytes of in and its size, opening it as the
// sandbox places it (beneath its Root when it has one).
func readHead(in sandbox.Input) ([]byte, int64, error) {
	var f *os.File
	var err error
	if in.Root != "" {
		f, err = beneath.Open(in.Root, in.Path)
	} else {
		f, err = os.Open(in.Path)
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	head := make([]byte, min(st.Size(), headBytes))
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, 0, err
	}
	return head, st.Size(), nil
}

// preloadNote tells the model what is loaded: it ends the query of the
// first observation.
func preloadNote(reads []sandbox.Read) string {
	var b strings.Builder
	b.WriteString("\n\nThe interpreter has already read the input files into the dict `inputs`:")
	for _, r := range reads {
		fmt.Fprintf(&b, "\n- inputs[%s] is %s", strconv.Quote(r.Name), r.Call)
	}
	return b.String()
}
