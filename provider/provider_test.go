package provider

import (
	"path"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/docs"
)

// TestDocsListEveryProvider: docs/runtime.md names every provider with its
// key and base-URL variables, so the docs cannot fall behind the table.
func TestDocsListEveryProvider(t *testing.T) {
	data := docs.Page("runtime.md")
	rows := map[string]string{}
	for _, line := range strings.Split(data, "\n") {
		if name, ok := strings.CutPrefix(line, "| `"); ok {
			name, _, _ = strings.Cut(name, "`")
			rows[name] = line
		}
	}
	for _, p := range Table {
		row, ok := rows[p.Name]
		if !ok {
			t.Errorf("docs/runtime.md's provider table has no row for %s", p.Name)
			continue
		}
		words := append(append([]string{p.BaseURL}, p.KeyEnv...), p.Aliases...)
		if p.BaseURLEnv != "" {
			words = append(words, p.BaseURLEnv)
		}
		for _, w := range words {
			if !strings.Contains(row, "`"+w+"`") {
				t.Errorf("docs/runtime.md's row for %s does not name %s", p.Name, w)
			}
		}
	}
}

func TestLookup(t *testing.T) {
	for name, want := range map[string]string{"openai": "OpenAI", "Google": "Gemini", "GEMINI": "Gemini", "ollama": "Ollama"} {
		if p, ok := Lookup(name); !ok || p.Name != want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", name, p.Name, ok, want)
		}
	}
	if _, ok := Lookup("vllm"); ok {
		t.Error("an unknown provider was found")
	}
	if p, ok := Of("gpt-4o"); !ok || p.Name != "OpenAI" {
		t.Errorf("a model without a provider: %v", p)
	}
}

// TestOutputModes holds the structured-output facts of each row: which
// modes a model honours with and without function tools, and what auto
// picks (docs/language.md §2.6).
func TestOutputModes(t *testing.T) {
	for _, c := range []struct {
		model     string // as an agent writes it
		withTools bool
		want      []OutputMode
	}{
		{"OpenAI/gpt-4o-mini", false, []OutputMode{OutputNative, OutputTool, OutputPrompted}},
		{"OpenAI/gpt-4o-mini", true, []OutputMode{OutputNative, OutputTool, OutputPrompted}},
		{"gpt-4.1", true, []OutputMode{OutputNative, OutputTool, OutputPrompted}},
		{"OpenAI/gpt-4-turbo", false, []OutputMode{OutputTool, OutputPrompted}},
		{"OpenAI/gpt-4", false, []OutputMode{OutputTool, OutputPrompted}},
		{"OpenAI/gpt-3.5-turbo", true, []OutputMode{OutputTool, OutputPrompted}},
		{"OpenAI/gpt-4o-2024-05-13", false, []OutputMode{OutputTool, OutputPrompted}},
		{"Anthropic/claude-sonnet-4-5", true, []OutputMode{OutputNative, OutputTool, OutputPrompted}},
		{"Anthropic/claude-3-5-haiku-latest", false, []OutputMode{OutputTool, OutputPrompted}},
		{"Anthropic/claude-sonnet-4-20250514", false, []OutputMode{OutputTool, OutputPrompted}},
		{"Gemini/gemini-2.5-flash", false, []OutputMode{OutputNative, OutputTool, OutputPrompted}},
		{"Gemini/gemini-2.5-flash", true, []OutputMode{OutputTool, OutputPrompted}},
		{"Google/gemini-2.0-flash", false, []OutputMode{OutputTool, OutputPrompted}},
		{"Gemini/gemini-3-pro-preview", true, []OutputMode{OutputNative, OutputTool, OutputPrompted}},
		{"Ollama/llama3.2", false, []OutputMode{OutputNative, OutputTool, OutputPrompted}},
		{"Ollama/llama3.2", true, []OutputMode{OutputTool, OutputPrompted}},
	} {
		p, ok := Of(c.model)
		if !ok {
			t.Fatalf("no provider for %s", c.model)
		}
		got := p.OutputModes(c.model, c.withTools)
		if strings.Join(modeStrings(got), ",") != strings.Join(modeStrings(c.want), ",") {
			t.Errorf("%s (tools %v): modes %v, want %v", c.model, c.withTools, got, c.want)
		}
		if auto := p.AutoOutputMode(c.model, c.withTools); auto != c.want[0] {
			t.Errorf("%s (tools %v): auto is %s, want %s", c.model, c.withTools, auto, c.want[0])
		}
		if !p.Honours(OutputAuto, c.model, c.withTools) || !p.Honours(OutputPrompted, c.model, c.withTools) {
			t.Errorf("%s: auto and prompted are always honoured", c.model)
		}
		native := p.Honours(OutputNative, c.model, c.withTools)
		if native != (c.want[0] == OutputNative) {
			t.Errorf("%s (tools %v): Honours(native) = %v", c.model, c.withTools, native)
		}
		if !native && p.OutputSupportFor(c.model).Why == "" {
			t.Errorf("%s (tools %v): native is missing and no reason is given", c.model, c.withTools)
		}
	}
}

// TestOutputModesBareName: the model name without its prefix gives the
// same answer, and a prefix naming another provider is not cut.
func TestOutputModesBareName(t *testing.T) {
	g, _ := Lookup("Gemini")
	if g.AutoOutputMode("gemini-2.5-pro", true) != OutputTool {
		t.Error("gemini-2.5-pro with tools should take the final-answer tool")
	}
	if g.AutoOutputMode("Google/gemini-2.5-pro", true) != OutputTool {
		t.Error("an alias prefix should be cut")
	}
	// An unknown model of a row whose entries all name patterns has no
	// native mode, and says why.
	row := Info{Name: "Test", Output: []OutputSupport{{Models: []string{"x-*"}, Native: true}}}
	if row.AutoOutputMode("y-1", false) != OutputTool || row.OutputSupportFor("y-1").Why == "" {
		t.Error("a model no entry covers should fall back to the tool mode, with a reason")
	}
	if row.AutoOutputMode("x-1", false) != OutputNative {
		t.Error("a pattern should match")
	}
}

// TestEveryRowSaysWhy: an entry that lacks a native mode (with or without
// tools) carries the reason a diagnostic shows.
func TestEveryRowSaysWhy(t *testing.T) {
	for _, p := range Table {
		for i, o := range p.Output {
			if (!o.Native || !o.NativeWithTools) && o.Why == "" {
				t.Errorf("%s's output entry %d lacks a mode but gives no reason", p.Name, i)
			}
			for _, pattern := range o.Models {
				if _, err := path.Match(pattern, ""); err != nil {
					t.Errorf("%s: bad pattern %q: %v", p.Name, pattern, err)
				}
			}
		}
	}
}

func modeStrings(modes []OutputMode) []string {
	var out []string
	for _, m := range modes {
		out = append(out, string(m))
	}
	return out
}

// TestDocsShowOutputSupport: docs/runtime.md's table of structured output
// has a row per provider that says what auto picks with tools, as the
// rows of the table decide it for their newest models.
func TestDocsShowOutputSupport(t *testing.T) {
	data := docs.Page("runtime.md")
	_, section, _ := strings.Cut(data, "What each provider row offers")
	section, _, _ = strings.Cut(section, "\n\n- ")
	for _, p := range Table {
		var row string
		for _, line := range strings.Split(section, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "| `"+p.Name+"` |") {
				row = line
			}
		}
		if row == "" {
			t.Errorf("docs/runtime.md's output table has no row for %s", p.Name)
			continue
		}
		cells := strings.Split(row, "|")
		last := strings.TrimSpace(cells[len(cells)-2])
		if want := string(newestAuto(p)); !strings.HasSuffix(last, want) {
			t.Errorf("docs/runtime.md says auto with tools is %q on %s; the row says %s", last, p.Name, want)
		}
	}
}

// newestAuto is what auto picks with tools on a provider's newest models:
// a model none of the row's patterns names, which its catch-all entry
// decides (a row without Output, which is valid, offers tool mode).
func newestAuto(p Info) OutputMode { return p.AutoOutputMode("newest", true) }

// TestRowWithoutOutputOrHeader: Output and KeyHeader may be left out of a
// row, as documented: the row offers tool mode and prompted mode, and
// its key goes as a bearer token (DefaultKeyHeader).
func TestRowWithoutOutputOrHeader(t *testing.T) {
	p := Info{Name: "Scratch", KeyEnv: []string{"SCRATCH_API_KEY"}, Client: OpenAI, Telemetry: "scratch"}
	if got := newestAuto(p); got != OutputTool {
		t.Errorf("auto with tools on a row without Output: %s, want tool", got)
	}
	if got := p.OutputModes("m", false); len(got) != 2 || got[0] != OutputTool {
		t.Errorf("modes of a row without Output: %v", got)
	}
	if got := p.KeyHeaderName(); got != "Authorization" {
		t.Errorf("header of a row without KeyHeader: %q, want Authorization", got)
	}
}

// TestEveryRowIsComplete: a row names itself, its client and its
// telemetry name, and no two rows answer to one name; what a row may
// leave out has a documented meaning (KeyEnv: no key; KeyHeader:
// DefaultKeyHeader; BaseURL: --base-url must give one; Output: no native
// structured output).
func TestEveryRowIsComplete(t *testing.T) {
	seen := map[string]string{}
	for i, p := range Table {
		if p.Name == "" {
			t.Errorf("row %d has no Name", i)
		}
		if p.Client == "" {
			t.Errorf("%s has no Client: nothing would speak to it", p.Name)
		}
		if p.Telemetry == "" {
			t.Errorf("%s has no Telemetry: its spans would name no gen_ai.provider.name", p.Name)
		}
		if p.BaseURL == "" && p.BaseURLEnv == "" {
			t.Errorf("%s has neither BaseURL nor BaseURLEnv: only --base-url could reach it", p.Name)
		}
		if p.KeyHeader != "" && (strings.ContainsAny(p.KeyHeader, " :\r\n") || p.KeyHeader != strings.TrimSpace(p.KeyHeader)) {
			t.Errorf("%s: KeyHeader %q is not an HTTP header name", p.Name, p.KeyHeader)
		}
		for _, n := range append([]string{p.Name}, p.Aliases...) {
			if other, ok := seen[strings.ToLower(n)]; ok {
				t.Errorf("%s and %s both answer to %q", other, p.Name, n)
			}
			seen[strings.ToLower(n)] = p.Name
		}
	}
}

// proseLists are the places in the docs that list the providers in
// prose, each the line after its marker: they must name every row, in
// the table's order (gramc run --help's list is built from the table,
// and the other pages point to docs/runtime.md's table instead of
// listing).
var proseLists = []struct{ page, marker string }{
	{"language.md", "- Known model providers:"},
}

// TestProseListsEveryProvider: each prose list of the providers names
// every row of the table, backquoted, in its order (each name followed by
// its aliases: Gemini's Google), and nothing else a
// model's prefix could be mistaken for: a list left behind by a new row
// fails here, by name.
func TestProseListsEveryProvider(t *testing.T) {
	for _, l := range proseLists {
		_, rest, ok := strings.Cut(docs.Page(l.page), l.marker)
		if !ok {
			t.Errorf("docs/%s: no %q", l.page, l.marker)
			continue
		}
		line, _, _ := strings.Cut(rest, "\n")
		var want []string
		for _, p := range Table {
			for _, name := range append([]string{p.Name}, p.Aliases...) {
				want = append(want, "`"+name+"`")
			}
		}
		// The backquoted words of the line, in order.
		var got []string
		names := strings.Split(line, "`")
		for i := 1; i < len(names); i += 2 {
			got = append(got, "`"+names[i]+"`")
		}
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("docs/%s's list of providers (%s) names %s; the table has %s", l.page, l.marker, strings.Join(got, ", "), strings.Join(want, ", "))
		}
	}
}
