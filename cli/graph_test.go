package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestREADMEGraph: the README's Mermaid picture is what gramc graph
// prints for the example it names, byte for byte (the README cannot
// drift; the browser test renders the same text with mermaid).
func TestREADMEGraph(t *testing.T) {
	rest := readmeAfter(t, "\n```mermaid\n", "mermaid block")
	block, _, ok := strings.Cut(rest, "```\n")
	if !ok {
		t.Fatal("the README's mermaid block has no end")
	}
	var stdout, stderr bytes.Buffer
	if code := Do([]string{"graph", "../examples/weather"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("gramc graph: exit %d: %s", code, stderr.String())
	}
	if block != stdout.String() {
		t.Errorf("the README's mermaid block is not gramc graph examples/weather's output; paste it again:\n%s", stdout.String())
	}
}
