package gramgen

import (
	"bytes"
	"strings"
	"testing"
)

func TestDocumentSizeAndDeterminism(t *testing.T) {
	a, b := Document(1000), Document(1000)
	if !bytes.Equal(a, b) {
		t.Fatal("Document is not deterministic")
	}
	if n := bytes.Count(a, []byte(":Tool {")); n != 1000 {
		t.Fatalf("Document(1000) declares %d tools", n)
	}
	if per := len(a) / 1000; per < 150 || per > 400 {
		t.Fatalf("unexpected size per tool: %d bytes", per)
	}
}

func TestPackageSplitsTools(t *testing.T) {
	files := Package(250, 10)
	if len(files) != 10 {
		t.Fatalf("got %d files", len(files))
	}
	total := 0
	for name, src := range files {
		if !strings.HasPrefix(name, "tools_") {
			t.Errorf("bad name %q", name)
		}
		total += bytes.Count(src, []byte(":Tool {"))
	}
	if total != 250 {
		t.Fatalf("package declares %d tools, want 250", total)
	}
	if bytes.Count(files["tools_000.gram"], []byte(":Enum")) != 1 || bytes.Contains(files["tools_001.gram"], []byte(":Enum")) {
		t.Fatal("shared types must be declared exactly once, in the first file")
	}
}

func TestPackageAgentsUnique(t *testing.T) {
	// Fewer than 100 tools a file used to repeat agent names across files.
	seen := map[string]string{}
	for name, src := range Package(1000, 100) {
		for _, line := range strings.Split(string(src), "\n") {
			if i := strings.Index(line, ":Agent {"); i > 0 {
				agent := strings.TrimPrefix(line[:i], "[")
				if prev, ok := seen[agent]; ok {
					t.Fatalf("agent %s declared in %s and %s", agent, prev, name)
				}
				seen[agent] = name
			}
		}
	}
	if len(seen) == 0 {
		t.Fatal("no agents generated")
	}
}

func TestMistakes(t *testing.T) {
	a := Mistakes(1000)
	if !bytes.Equal(a, Mistakes(1000)) {
		t.Fatal("Mistakes is not deterministic")
	}
	if n := bytes.Count(a, []byte(":Tool {")); n != 1000 {
		t.Fatalf("Mistakes(1000) declares %d tools", n)
	}
	if n := bytes.Count(a, []byte("(x::Strin)")); n != 1000 {
		t.Fatalf("Mistakes(1000) has %d mistakes", n)
	}
	if per := len(a) / 1000; per < 55 || per > 65 {
		t.Fatalf("unexpected size per tool: %d bytes", per)
	}
}
