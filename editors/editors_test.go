// Package editors holds the editor integrations of gramc (editors/vscode)
// and the tests that keep them true to the language server and to gram.
package editors

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/codegen/schema"
)

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// The extension's manifest: the language, the grammar, the settings the
// server reads (gramc.targets as initializationOptions) and the command
// that starts it.
func TestManifest(t *testing.T) {
	var pkg struct {
		Main         string `json:"main"`
		Capabilities struct {
			UntrustedWorkspaces struct {
				Supported                string   `json:"supported"`
				RestrictedConfigurations []string `json:"restrictedConfigurations"`
			} `json:"untrustedWorkspaces"`
		} `json:"capabilities"`
		ActivationEvents []string `json:"activationEvents"`
		Dependencies     map[string]string
		Contributes      struct {
			Languages []struct {
				ID            string   `json:"id"`
				Extensions    []string `json:"extensions"`
				Configuration string   `json:"configuration"`
			} `json:"languages"`
			Grammars []struct {
				Language, ScopeName, Path string
			} `json:"grammars"`
			Configuration struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	readJSON(t, filepath.Join("vscode", "package.json"), &pkg)
	c := pkg.Contributes
	if len(c.Languages) != 1 || c.Languages[0].ID != "gram" || !slices.Equal(c.Languages[0].Extensions, []string{".gram"}) {
		t.Errorf("languages: %+v", c.Languages)
	}
	if len(c.Grammars) != 1 || c.Grammars[0].ScopeName != "source.gram" || c.Grammars[0].Language != "gram" {
		t.Errorf("grammars: %+v", c.Grammars)
	}
	for _, f := range []string{c.Languages[0].Configuration, c.Grammars[0].Path, pkg.Main} {
		if _, err := os.Stat(filepath.Join("vscode", f)); err != nil {
			t.Errorf("the manifest names %s: %v", f, err)
		}
	}
	// gramc.targets offers exactly gramc's targets (and "all").
	var targets struct {
		Items struct {
			Enum []string `json:"enum"`
		} `json:"items"`
	}
	if err := json.Unmarshal(c.Configuration.Properties["gramc.targets"], &targets); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, tg := range schema.Targets() {
		want = append(want, string(tg))
	}
	if want = append(want, "all"); !slices.Equal(targets.Items.Enum, want) {
		t.Errorf("gramc.targets enum %v, want %v (schema.Targets and \"all\")", targets.Items.Enum, want)
	}
	for _, k := range []string{"gramc.path", "gramc.targets", "gramc.trace.server"} {
		if _, ok := c.Configuration.Properties[k]; !ok {
			t.Errorf("setting %s missing", k)
		}
	}
	// In an untrusted workspace (issue 35.1) the workspace chooses no
	// command (gramc.path) and no git revision (gramc.baseline), and the
	// server is told to read no git history.
	if u := pkg.Capabilities.UntrustedWorkspaces; u.Supported != "limited" || !slices.Contains(u.RestrictedConfigurations, "gramc.path") || !slices.Contains(u.RestrictedConfigurations, "gramc.baseline") {
		t.Errorf("untrustedWorkspaces: %+v", u)
	}
	if !slices.Contains(pkg.ActivationEvents, "onLanguage:gram") || pkg.Dependencies["vscode-languageclient"] == "" {
		t.Errorf("activation %v, dependencies %v", pkg.ActivationEvents, pkg.Dependencies)
	}
	js, err := os.ReadFile(filepath.Join("vscode", pkg.Main))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"args: ['lsp']", "initializationOptions: { targets:", "untrustedWorkspace: !vscode.workspace.isTrusted", "onDidGrantWorkspaceTrust", "configurationSection: 'gramc'", "'**/*.gram'"} {
		if !strings.Contains(string(js), want) {
			t.Errorf("extension.js does not contain %q", want)
		}
	}
	// The extension's JavaScript parses (node --check), where Node is installed.
	if node, err := exec.LookPath("node"); err == nil {
		if out, err := exec.Command(node, "--check", filepath.Join("vscode", pkg.Main)).CombinedOutput(); err != nil {
			t.Errorf("node --check %s: %v\n%s", pkg.Main, err, out)
		}
	} else {
		t.Log("node not installed: extension.js not parsed")
	}
	var lc struct {
		Comments struct {
			LineComment string `json:"lineComment"`
		} `json:"comments"`
		Brackets [][]string `json:"brackets"`
	}
	readJSON(t, filepath.Join("vscode", "language-configuration.json"), &lc)
	if lc.Comments.LineComment != "//" || len(lc.Brackets) != 3 {
		t.Errorf("language configuration: %+v", lc)
	}
}

// rule is a TextMate grammar rule, as much of it as the grammar uses.
type rule struct {
	Name          string                           `json:"name"`
	Match         string                           `json:"match"`
	Begin         string                           `json:"begin"`
	End           string                           `json:"end"`
	Include       string                           `json:"include"`
	Captures      map[string]struct{ Name string } `json:"captures"`
	BeginCaptures map[string]struct{ Name string } `json:"beginCaptures"`
	Patterns      []*rule                          `json:"patterns"`

	match, begin, end *regexp.Regexp
}

type grammar struct {
	ScopeName  string           `json:"scopeName"`
	Patterns   []*rule          `json:"patterns"`
	Repository map[string]*rule `json:"repository"`
}

// loadGrammar reads the grammar and compiles every regular expression
// with Go's regexp: the grammar keeps to the syntax Oniguruma and RE2
// share (no look-around, no backreferences), so this test can run it.
func loadGrammar(t *testing.T) *grammar {
	var g grammar
	readJSON(t, filepath.Join("vscode", "syntaxes", "gram.tmLanguage.json"), &g)
	var compile func(r *rule)
	compile = func(r *rule) {
		var err error
		for _, x := range []struct {
			src string
			dst **regexp.Regexp
		}{{r.Match, &r.match}, {r.Begin, &r.begin}, {r.End, &r.end}} {
			if x.src == "" {
				continue
			}
			if *x.dst, err = regexp.Compile(x.src); err != nil {
				t.Fatalf("rule %q: %v", r.Name, err)
			}
		}
		for _, p := range r.Patterns {
			compile(p)
		}
	}
	for _, r := range g.Patterns {
		compile(r)
	}
	for _, r := range g.Repository {
		compile(r)
	}
	return &g
}

// token is a span of a line with its innermost scope.
type token struct {
	text, scope string
}

// tokenize runs the grammar over src, as an editor's TextMate engine does
// in outline: at each position the rule matching earliest wins (the first
// listed on a tie); a begin rule pushes until its end matches.
func (g *grammar) tokenize(src string) []token {
	var out []token
	type frame struct {
		r *rule
	}
	var stack []frame
	var expand func(rs []*rule) []*rule
	expand = func(rs []*rule) []*rule {
		var flat []*rule
		for _, r := range rs {
			switch {
			case r.Include != "":
				flat = append(flat, expand([]*rule{g.Repository[strings.TrimPrefix(r.Include, "#")]})...)
			case r.match == nil && r.begin == nil:
				flat = append(flat, expand(r.Patterns)...)
			default:
				flat = append(flat, r)
			}
		}
		return flat
	}
	emit := func(text, scope string) {
		if text != "" {
			out = append(out, token{text, scope})
		}
	}
	captured := func(line string, loc []int, caps map[string]struct{ Name string }, whole string) {
		if len(caps) == 0 {
			emit(line[loc[0]:loc[1]], whole)
			return
		}
		pos := loc[0]
		for i := 1; 2*i+1 < len(loc); i++ {
			if loc[2*i] < 0 {
				continue
			}
			c, ok := caps[string(rune('0'+i))]
			if !ok {
				continue
			}
			emit(line[pos:loc[2*i]], whole)
			emit(line[loc[2*i]:loc[2*i+1]], c.Name)
			pos = loc[2*i+1]
		}
		emit(line[pos:loc[1]], whole)
	}
	for _, line := range strings.Split(src, "\n") {
		pos := 0
		for pos <= len(line) {
			rules := g.Patterns
			scope := ""
			var end *regexp.Regexp
			if n := len(stack); n > 0 {
				rules, scope, end = stack[n-1].r.Patterns, stack[n-1].r.Name, stack[n-1].r.end
			}
			best, bestLoc := (*rule)(nil), []int(nil)
			endLoc := []int(nil)
			if end != nil {
				endLoc = end.FindStringIndex(line[pos:])
			}
			for _, r := range expand(rules) {
				re := r.match
				if re == nil {
					re = r.begin
				}
				loc := re.FindStringSubmatchIndex(line[pos:])
				if loc == nil || loc[1] == loc[0] {
					continue
				}
				if bestLoc == nil || loc[0] < bestLoc[0] {
					best, bestLoc = r, loc
				}
			}
			if endLoc != nil && (bestLoc == nil || endLoc[0] <= bestLoc[0]) {
				emit(line[pos:pos+endLoc[0]], scope)
				emit(line[pos+endLoc[0]:pos+endLoc[1]], scope)
				pos += endLoc[1]
				stack = stack[:len(stack)-1]
				if endLoc[1] == endLoc[0] {
					break // an end at the end of the line ($)
				}
				continue
			}
			if best == nil {
				emit(line[pos:], scope)
				break
			}
			for i := range bestLoc {
				if bestLoc[i] >= 0 {
					bestLoc[i] += pos
				}
			}
			emit(line[pos:bestLoc[0]], scope)
			if best.match != nil {
				name := best.Name
				if name == "" {
					name = scope
				}
				captured(line, bestLoc, best.Captures, name)
			} else {
				captured(line, bestLoc, best.BeginCaptures, best.Name)
				stack = append(stack, frame{best})
			}
			pos = bestLoc[1]
		}
	}
	return out
}

// The grammar classifies what gram is made of, on the repository's own
// examples.
func TestGrammar(t *testing.T) {
	g := loadGrammar(t)
	if g.ScopeName != "source.gram" {
		t.Errorf("scope %q", g.ScopeName)
	}
	var src strings.Builder
	paths, _ := filepath.Glob(filepath.Join("..", "examples", "*", "*.gram"))
	if len(paths) == 0 {
		t.Fatal("no examples")
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
		src.WriteString("\n")
	}
	src.WriteString("[t:Tool {description: \"A \\\"quoted\\\" word\", strict: true} |\n  (n::Integer {range: 1..10, default: 3})==>(::Array {elementType: String})\n]\n")
	src.WriteString("[p | (a)-->(b)<--(c)~~>(d), (e {since: date`2024-01-01`, note: 'single', size: 0x1F})]\n")
	toks := g.tokenize(src.String())
	scopes := map[string][]string{}
	for _, tk := range toks {
		scopes[strings.TrimSpace(tk.text)] = append(scopes[strings.TrimSpace(tk.text)], tk.scope)
	}
	want := []struct{ text, scope string }{
		{"// The weather tools. Parameter names are local to their tool: city and", "comment.line.double-slash.gram"},
		{"getWeather", "entity.name.function.gram"},
		{"Tool", "keyword.other.declaration.gram"},
		{"Agent", "keyword.other.declaration.gram"},
		{"String", "entity.name.type.gram"},
		{"WeatherReport", "entity.name.type.gram"},
		{"==>", "keyword.operator.arrow.gram"},
		{"description", "support.type.property-name.gram"},
		{"Current weather for a city", "string.quoted.double.gram"},
		{"3", "constant.numeric.gram"},
		{"true", "constant.language.boolean.gram"},
		{"..", "keyword.operator.range.gram"},
		{`\"`, "constant.character.escape.gram"},
		{"city", "variable.parameter.gram"},
		{"-->", "keyword.operator.arrow.gram"},
		{"<--", "keyword.operator.arrow.gram"},
		{"~~>", "keyword.operator.arrow.gram"},
		{"date", "storage.type.string-tag.gram"},
		{"2024-01-01", "string.quoted.other.backtick.gram"},
		{"single", "string.quoted.single.gram"},
		{"0x1F", "constant.numeric.gram"},
		{"since", "support.type.property-name.gram"},
	}
	for _, w := range want {
		if !slices.Contains(scopes[w.text], w.scope) {
			t.Errorf("%q: scopes %v, want %s", w.text, scopes[w.text], w.scope)
		}
	}
	// A fenced string spans lines: its inside is string, not code.
	fenced := g.tokenize("[a:Agent {instruction: ```\nUse [getWeather] -- always.\n```}]")
	for _, tk := range fenced {
		if strings.Contains(tk.text, "getWeather") && tk.scope != "string.quoted.other.fenced.gram" {
			t.Errorf("inside a fenced string: %q is %s", tk.text, tk.scope)
		}
	}
}

// The extension ships the project's licence: the manifest says MIT, and
// editors/vscode/LICENSE is the top-level LICENSE (vsce packages the one
// next to the manifest and warns when there is none).
func TestLicence(t *testing.T) {
	var pkg struct {
		License string `json:"license"`
	}
	readJSON(t, filepath.Join("vscode", "package.json"), &pkg)
	top, err := os.ReadFile(filepath.Join("..", "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	ext, err := os.ReadFile(filepath.Join("vscode", "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(top), pkg.License+" License\n") {
		t.Errorf("the manifest says %q but LICENSE begins %q", pkg.License, strings.SplitN(string(top), "\n", 2)[0])
	}
	if string(top) != string(ext) {
		t.Error("editors/vscode/LICENSE differs from the top-level LICENSE")
	}
}

// TestPackageLeavesNothingUntracked: make vscode-package (npm install, then
// vsce package) writes node_modules/, package-lock.json and the .vsix in
// editors/vscode; git ignores each, so the clone stays clean (issue 36.7).
func TestPackageLeavesNothingUntracked(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("needs git")
	}
	if out, err := exec.Command(git, "rev-parse", "--is-inside-work-tree").Output(); err != nil || strings.TrimSpace(string(out)) != "true" {
		t.Skip("not in a git work tree")
	}
	for _, p := range []string{"vscode/node_modules/vscode-languageclient/package.json", "vscode/package-lock.json", "vscode/gram-0.1.0.vsix"} {
		if err := exec.Command(git, "check-ignore", "-q", "--no-index", p).Run(); err != nil {
			t.Errorf("make vscode-package writes %s, which git does not ignore: add it to editors/vscode/.gitignore", p)
		}
	}
}

// TestREADMESettings (issue 49): the extension's README documents every
// setting its manifest declares, with its default, and no other.
func TestREADMESettings(t *testing.T) {
	var pkg struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]struct {
					Default any `json:"default"`
				} `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	readJSON(t, filepath.Join("vscode", "package.json"), &pkg)
	readme, err := os.ReadFile(filepath.Join("vscode", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(readme), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) > 3 && strings.HasPrefix(strings.TrimSpace(cells[1]), "`gramc.") {
			rows[strings.Trim(strings.TrimSpace(cells[1]), "`")] = strings.Trim(strings.TrimSpace(cells[2]), "`")
		}
	}
	props := pkg.Contributes.Configuration.Properties
	if len(props) == 0 {
		t.Fatal("the manifest declares no setting: the test is broken")
	}
	for name, p := range props {
		def, ok := rows[name]
		if !ok {
			t.Errorf("the README's settings table lacks %s", name)
			continue
		}
		want, _ := json.Marshal(p.Default)
		if s, isString := p.Default.(string); isString {
			want = []byte(s)
			if s == "" {
				want = []byte(`""`)
			}
		}
		if def != string(want) {
			t.Errorf("the README gives %s the default %s, the manifest %s", name, def, want)
		}
	}
	for name := range rows {
		if _, ok := props[name]; !ok {
			t.Errorf("the README documents %s, which the manifest does not declare", name)
		}
	}
}
