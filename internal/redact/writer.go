package redact

import (
	"io"
	"sort"
	"strings"
	"sync"
)

// Writer redacts secrets from everything written through it, as Secret
// does for one text, even when a secret arrives split across writes (a
// model's streamed answer): it holds back only the end of the text that
// could be the start of a secret, and Flush writes it. It is safe for
// concurrent use.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	secrets []Secret
	pending string // written to the Writer, not yet to w
	context string // the last bytes passed on, for the left word boundary
}

// NewWriter returns a Writer on w redacting each of secrets.
func NewWriter(w io.Writer, secrets ...Secret) *Writer {
	return &Writer{w: w, secrets: secrets}
}

// Write implements io.Writer; it reports all of p written.
func (rw *Writer) Write(p []byte) (int, error) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.pending += string(p)
	hold := 0
	for _, s := range rw.secrets {
		for _, f := range s.forms {
			hold = max(hold, partialSuffix(rw.pending, f))
		}
	}
	return len(p), rw.emit(len(rw.pending) - hold)
}

// Flush writes what Write held back.
func (rw *Writer) Flush() error {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	return rw.emit(len(rw.pending))
}

// emit passes pending[:cut] on, redacted, keeping the rest; a secret that
// starts before cut and ends after it moves the cut to its start.
func (rw *Writer) emit(cut int) error {
	if cut <= 0 {
		return nil
	}
	text := rw.context + rw.pending
	off := len(rw.context)
	cut += off
	var ms [][2]int
	for _, s := range rw.secrets {
		for _, f := range s.forms {
			ms = append(ms, tokenMatches(text, f)...)
		}
	}
	// Earliest first, the longest of those starting together.
	sort.Slice(ms, func(i, j int) bool {
		if ms[i][0] != ms[j][0] {
			return ms[i][0] < ms[j][0]
		}
		return ms[i][1] > ms[j][1]
	})
	for _, m := range ms {
		if m[0] < cut && m[1] > cut {
			cut = m[0]
		}
	}
	if cut <= off {
		return nil
	}
	var b strings.Builder
	last := off
	for _, m := range ms {
		if m[0] < last || m[1] > cut {
			continue
		}
		b.WriteString(text[last:m[0]])
		b.WriteString(Marker)
		last = m[1]
	}
	b.WriteString(text[last:cut])
	rw.pending = text[cut:]
	rw.context = text[max(0, cut-2):cut]
	_, err := io.WriteString(rw.w, b.String())
	return err
}

// partialSuffix is the length of the longest end of text that is the
// start of f (all of f included: its right boundary is not known yet).
func partialSuffix(text, f string) int {
	for k := min(len(f), len(text)); k > 0; k-- {
		if strings.HasSuffix(text, f[:k]) {
			return k
		}
	}
	return 0
}

// tokenMatches are the [start, end) of each occurrence of f in text that
// stands as a whole token.
func tokenMatches(text, f string) [][2]int {
	var out [][2]int
	if f == "" {
		return nil
	}
	for from := 0; ; {
		i := strings.Index(text[from:], f)
		if i < 0 {
			return out
		}
		i += from
		end := i + len(f)
		if !continuesLeft(text, i) && !continuesRight(text, end) {
			out = append(out, [2]int{i, end})
		}
		from = i + 1
	}
}
