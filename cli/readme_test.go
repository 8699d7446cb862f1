package cli

import (
	"bufio"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/internal/shellwords"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// TestREADME runs every `$ gramc ...` command of the README's console
// examples, in a copy of the repository, against a fake OpenAI server where
// a command needs a model, and checks it succeeds (or fails, when the README
// shows it reporting errors) and prints what the README shows. The README
// cannot drift from what gramc does.
//
// The README's conventions, which this test enforces:
//   - An output line the README shows must appear in the command's output,
//     in order; "..." in a shown line stands for any text (" ..." at the
//     end of a line for any text or none).
//   - A command may continue on the next line after a backslash.
//   - A command succeeds unless its shown output has an "error:" line, in
//     which case it must exit 1.
//   - `export NAME=value` lines set the environment of later commands (an
//     API key stays a dummy: the fake server takes any).
//   - --base-url points at the fake server whatever the README says, so the
//     Ollama example runs too; --model Anthropic/... and Gemini/... get the
//     base URL of that provider's fake; --responses goes to the OpenAI
//     fake, which serves the Responses API beside Chat Completions as
//     OpenAI does (and as the README's fakeopenai does).
//   - A path under /tmp/gramc-tour/ (where the tour writes its output, so
//     that it leaves nothing in the clone) is the test's temporary directory;
//     the test fails if a command leaves a new file in the copy of the
//     repository.
func TestREADME(t *testing.T) { runDocCommands(t, "../README.md", 10) }

// TestDocCommands runs the console examples of the pages under docs/ that
// have them as TestREADME runs the README's, by the same conventions:
// each page's `$ gramc ...` commands run in a copy of the repository and
// print what the page shows.
func TestDocCommands(t *testing.T) {
	for _, page := range []string{"runtime.md", "observability.md"} {
		t.Run(page, func(t *testing.T) { runDocCommands(t, filepath.Join("..", "docs", page), 1) })
	}
}

// runDocCommands runs the console commands of the page at path (at
// least `least` of them, or the extraction is broken).
func runDocCommands(t *testing.T, path string, least int) {
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(string(readme))
	if len(cmds) < least {
		t.Fatalf("found %d commands in %s's console examples; the extraction is broken", len(cmds), path)
	}

	srv := fakeServer(t)
	fakes := map[string]string{}
	for _, p := range []string{runtimetest.Anthropic, runtimetest.Gemini} {
		fakes[p] = runtimetest.NewProviderServer(t, p, runtimetest.Echo).URL
	}
	dir := t.TempDir()
	copyRepo(t, "..", dir)
	before := repoFiles(t, dir)
	tourOut := t.TempDir()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir(wd) })
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	t.Setenv("NO_COLOR", "1")

	for _, c := range cmds {
		if c.export != "" {
			name, value, _ := strings.Cut(c.export, "=")
			if !docExports[name] {
				t.Errorf("%s line %d: export of %s: the test does not know what it is for", path, c.line, name)
			}
			t.Setenv(name, value)
			continue
		}
		args := c.args
		for i := range args {
			if args[i] == "--base-url" && i+1 < len(args) {
				args[i+1] = srv.URL
			}
			if args[i] == "--model" && i+1 < len(args) {
				if p, _, ok := strings.Cut(strings.ToLower(args[i+1]), "/"); ok && fakes[p] != "" {
					args = append(args, "--base-url", fakes[p])
				}
			}
			if rest, ok := strings.CutPrefix(args[i], readmeTourDir); ok {
				args[i] = filepath.Join(tourOut, rest)
			}
			if args[i] == "..." {
				t.Errorf("%s line %d: %q has a bare ... argument: show a command that runs as written", path, c.line, c.text)
			}
		}
		// Without a redirect both streams go to one buffer, interleaved as
		// a terminal shows them.
		var stdout, stderr bytes.Buffer
		out := io.Writer(&stdout)
		if c.redirect != "" {
			out = &stderr
		}
		code := Do(args, strings.NewReader(""), &stdout, out)
		if c.redirect != "" {
			if err := os.WriteFile(c.redirect, stdout.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout.Reset()
		}
		wantCode := ExitOK
		for _, w := range c.want {
			if strings.Contains(w, "error:") {
				wantCode = ExitProblem
			}
		}
		if code != wantCode {
			t.Errorf("%s line %d: %s\nexit status %d, want %d\nstdout:\n%s\nstderr:\n%s", path, c.line, c.text, code, wantCode, clip(stdout.String()), clip(stderr.String()))
			continue
		}
		if missing := missingLines(c.want, stdout.String()+stderr.String()); missing != "" {
			t.Errorf("%s line %d: %s\nthe page shows %q, which the output lacks (in that order)\noutput:\n%s%s", path, c.line, c.text, missing, clip(stdout.String()), clip(stderr.String()))
		}
	}
	for _, f := range repoFiles(t, dir) {
		if !slices.Contains(before, f) {
			t.Errorf("%s's commands left %s in the clone: write under %s instead", path, f, readmeTourDir)
		}
	}
}

// docExports are the variables a page's `export NAME=value` lines may set
// for the commands after them: the providers' keys (dummies: the fake
// servers take any) and OpenTelemetry's exporter settings.
var docExports = map[string]bool{
	"OPENAI_API_KEY": true, "ANTHROPIC_API_KEY": true, "GEMINI_API_KEY": true,
	"OTEL_TRACES_EXPORTER": true, "OTEL_METRICS_EXPORTER": true, "OTEL_SERVICE_NAME": true, "OTEL_EXPORTER_OTLP_ENDPOINT": true,
}

// readmeTourDir is where the README's commands write their output.
const readmeTourDir = "/tmp/gramc-tour/"

// repoFiles lists the files under dir, relative and sorted.
func repoFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files = append(files, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// readmeCommand is one `$ ...` line of a console block and the output lines
// shown under it.
type readmeCommand struct {
	line     int
	text     string
	args     []string // after "gramc"
	redirect string   // > file
	export   string   // NAME=value of an export line
	want     []string
}

func readmeCommands(readme string) []readmeCommand {
	var cmds []readmeCommand
	inConsole := false
	sc := bufio.NewScanner(strings.NewReader(readme))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		for inConsole && strings.HasPrefix(line, "$ ") && strings.HasSuffix(line, "\\") && sc.Scan() {
			n++
			line = strings.TrimSuffix(line, "\\") + " " + strings.TrimSpace(sc.Text())
		}
		switch {
		case strings.HasPrefix(line, "```"):
			inConsole = strings.TrimSpace(line) == "```console"
		case !inConsole:
		case strings.HasPrefix(line, "$ "):
			text := strings.TrimSpace(line[2:])
			l := shellwords.Split(text)
			words, redirect := l.Words, l.Redirect
			c := readmeCommand{line: n, text: text, redirect: redirect}
			switch {
			case len(words) == 2 && words[0] == "export":
				c.export = words[1]
			case len(words) > 0 && words[0] == "gramc":
				c.args = words[1:]
			default:
				continue // not gramc (go install, cd, ...)
			}
			cmds = append(cmds, c)
		case len(cmds) > 0 && strings.TrimSpace(line) != "":
			cmds[len(cmds)-1].want = append(cmds[len(cmds)-1].want, line)
		}
	}
	return cmds
}

// missingLines returns the first shown line that the output lacks, matching
// shown lines in order against output lines; "..." matches any text.
func missingLines(want []string, output string) string {
	got := strings.Split(output, "\n")
	i := 0
	for _, w := range want {
		re := shownLine(w)
		for i < len(got) && !re.MatchString(strings.TrimRight(got[i], " ")) {
			i++
		}
		if i == len(got) {
			return w
		}
		i++
	}
	return ""
}

func shownLine(w string) *regexp.Regexp {
	w = strings.TrimRight(w, " ")
	tail := ""
	if strings.HasSuffix(w, " ...") {
		w, tail = strings.TrimSuffix(w, " ..."), "(?: .*)?"
	}
	parts := strings.Split(w, "...")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + tail + "$")
}

// copyRepo copies the repository's files (not .git or build output) so the
// README's commands that write (fmt -w, gen -o, schema -o) change a copy.
func copyRepo(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() {
			// Not the clone's history, builds or npm packages (333 MB,
			// which the pages' commands never read).
			if rel == ".git" || rel == "bin" || d.Name() == "node_modules" || rel == filepath.Join("playground", "dist") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func clip(s string) string {
	if len(s) > 4000 {
		return s[:4000] + "\n[...]\n"
	}
	return s
}

func TestMissingLines(t *testing.T) {
	out := "a: error: unknown type Strng\n   ^~~~\nHello, Ada! How are you?\nHello, Bob!\n"
	if m := missingLines([]string{"a: error: ...", "Hello, Ada! ...", "Hello, Bob! ..."}, out); m != "" {
		t.Errorf("missingLines reported %q", m)
	}
	if m := missingLines([]string{"Hello, ... you?", "Hello, Bob"}, out); m != "Hello, Bob" {
		t.Errorf("missingLines matched a prefix: %q", m)
	}
	if m := missingLines([]string{"Hello, Ada! ...", "a: error: ..."}, out); m != "a: error: ..." {
		t.Errorf("missingLines out of order = %q", m)
	}
}

// TestREADMEListsEveryTarget: the README's tour of gramc schema names the
// targets in the registry's order, so a new target cannot be missing from it.
func TestREADMEListsEveryTarget(t *testing.T) {
	after := readmeAfter(t, "**schema**", "**schema** entry in its tour")
	list, _, _ := strings.Cut(after, "```")
	var listed []string
	for _, m := range regexp.MustCompile("`([a-z-]+)`").FindAllStringSubmatch(list, -1) {
		listed = append(listed, m[1])
	}
	var want []string
	for _, tg := range schema.Targets() {
		want = append(want, string(tg))
	}
	if strings.Join(listed, " ") != strings.Join(want, " ") {
		t.Errorf("the README's schema tour lists the targets %v, want %v (schema.Targets)", listed, want)
	}
}

// readmeAfter is the README's text after the first marker, for a test
// that holds a part of it to what gramc does; a README without the
// marker fails the test, naming what (the part) it lacks.
func readmeAfter(t *testing.T, marker, what string) string {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), marker)
	if !ok {
		t.Fatalf("the README has no %s", what)
	}
	return after
}
