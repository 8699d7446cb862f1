package cli

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/internal/golden"
)

// TestGenCheck runs `gramc gen --check` on the repository's committed
// generated code (what `go generate` writes), so a stale file fails the
// tests. GRAMC_UPDATE=1 regenerates instead.
func TestGenCheck(t *testing.T) {
	var cases [][]string
	for _, example := range []string{"hello", "triage"} {
		if _, err := os.Stat(filepath.Join("..", "examples", example, "main.go")); err == nil {
			cases = append(cases, []string{"../examples/" + example})
		}
	}
	for _, args := range cases {
		if !golden.Update() {
			args = append([]string{"--check"}, args...)
		}
		var stdout, stderr bytes.Buffer
		if code := Do(append([]string{"gen"}, args...), nil, &stdout, &stderr); code != 0 {
			t.Errorf("gramc gen %v: exit %d (run go generate ./... or GRAMC_UPDATE=1 go test ./cli)\n%s%s", args, code, &stdout, &stderr)
		}
	}
}

// TestCompareWriter: gen --check compares the generated file with the one
// on disk as it is generated, without holding either whole.
func TestCompareWriter(t *testing.T) {
	for _, tc := range []struct {
		disk   string
		writes []string
		same   bool
	}{
		{"abcdef", []string{"abc", "def"}, true},
		{"abcdef", []string{"abc", "dxf"}, false},
		{"abcdef", []string{"abc"}, false},     // the file on disk is longer
		{"abc", []string{"abc", "def"}, false}, // shorter
		{"", nil, true},
	} {
		w := &compareWriter{r: bufio.NewReader(strings.NewReader(tc.disk)), c: io.NopCloser(nil)}
		for _, s := range tc.writes {
			w.Write([]byte(s))
		}
		if w.same() != tc.same {
			t.Errorf("disk %q, written %q: same = %v", tc.disk, tc.writes, !tc.same)
		}
	}
}
