package gramctemporal

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"go.temporal.io/sdk/client"

	"github.com/gramc-dev/gramc/internal/shellwords"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
	"github.com/gramc-dev/gramc/temporal/devserver"
)

// TestDocsDurableCommands runs the durable commands of the README and of
// docs/durable.md as written, on a fresh server each: `gramc-temporal-dev`,
// the worker, the run, against a fake OpenAI server (issue 36.2). The
// commands become a testscript script: bin/gramc-temporal and
// bin/gramc-temporal-dev are this test's binary, `export` lines set the environment, a command ending in & runs
// in the background, lines that build or change directory are skipped.
// Two things differ from a user's shell, so that tests on one machine
// never share a server: the server's port is a free one (7233 in the
// docs; TEMPORAL_ADDRESS, or the --address the page gives, points at it),
// and a file under /tmp/ is under the script's work directory. The
// script runs in the repository's root, where the pages' paths are.
func TestDocsDurableCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Temporal servers")
	}
	fake := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Echo)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	scripts := t.TempDir()
	for _, page := range []struct{ name, path, section string }{
		{"readme", "README.md", "### Durable runs on Temporal"},
		{"durable", "docs/durable.md", "## Running a worker"},
	} {
		data, err := os.ReadFile(filepath.Join(root, page.path))
		if err != nil {
			t.Fatal(err)
		}
		cmds := durableCommands(string(data), page.section)
		script, err := docScript(cmds)
		if err != nil {
			t.Fatalf("%s: %v", page.path, err)
		}
		if err := os.WriteFile(filepath.Join(scripts, page.name+".txtar"), []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testscript.Run(t, testscript.Params{
		Dir: scripts,
		Setup: func(env *testscript.Env) error {
			port, err := devserver.FreePort()
			if err != nil {
				return err
			}
			env.Setenv("REPO", root)
			env.Setenv("PORT", fmt.Sprint(port))
			env.Setenv("TEMPORAL_ADDRESS", fmt.Sprintf("127.0.0.1:%d", port))
			env.Setenv("OPENAI_BASE_URL", fake.URL)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// waitserver ADDR waits (a minute at most) until the Temporal
			// server at ADDR answers.
			"waitserver": func(ts *testscript.TestScript, neg bool, args []string) {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				if err := devserver.Ready(ctx, args[0], client.DefaultNamespace); err != nil {
					ts.Fatalf("%v", err)
				}
			},
		},
	})
}

// durableCommands are the lines of the ```sh blocks in the section of
// page that begins with heading, backslash continuations joined.
func durableCommands(page, heading string) []string {
	i := strings.Index(page, "\n"+heading+"\n")
	if i < 0 {
		return nil
	}
	section := page[i+len(heading)+2:]
	level := heading[:strings.Index(heading, " ")+1]
	if j := strings.Index(section, "\n"+level); j >= 0 {
		section = section[:j]
	}
	var out []string
	in := false
	sc := bufio.NewScanner(strings.NewReader(section))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			in = strings.TrimSpace(line) == "```sh"
		case !in:
		default:
			for strings.HasSuffix(line, "\\") && sc.Scan() {
				line = strings.TrimSuffix(line, "\\") + " " + strings.TrimSpace(sc.Text())
			}
			out = append(out, line)
		}
	}
	return out
}

// docScript is the testscript script of the commands: see
// TestDocsDurableCommands. After the page's commands, a server started
// with --db-filename is stopped and started again on its file, and the
// last run is attached to by its ID: it is still there.
func docScript(cmds []string) (string, error) {
	var b strings.Builder
	b.WriteString("cd $REPO\n")
	var bg []string
	dev, devName, lastRun := "", "", ""
	for _, c := range cmds {
		l := shellwords.Split(c)
		words, background := l.Words, l.Background
		if len(words) == 0 {
			continue
		}
		switch {
		case words[0] == "export":
			for _, w := range words[1:] {
				if strings.HasPrefix(w, "OPENAI_BASE_URL=") {
					continue // the fake's
				}
				fmt.Fprintf(&b, "env %s\n", quote(w))
			}
			continue
		case words[0] != "bin/gramc-temporal" && words[0] != "bin/gramc-temporal-dev":
			continue // cd temporal && go build ...: this binary is the command
		}
		cmd, args := strings.TrimPrefix(words[0], "bin/"), words[1:]
		kind := "dev" // gramc-temporal-dev; else gramc-temporal's subcommand
		if cmd == "gramc-temporal" && len(args) > 0 {
			kind = args[0]
		}
		for i, a := range args {
			if strings.HasPrefix(a, "/tmp/") {
				args[i] = "$WORK" + a[len("/tmp"):]
			}
			if a == "localhost:7233" || a == "127.0.0.1:7233" {
				args[i] = "$TEMPORAL_ADDRESS"
			}
		}
		if kind == "dev" {
			args = append(args, "--port", "$PORT")
		}
		line := "exec " + cmd
		for _, a := range args {
			line += " " + quote(a)
		}
		if background {
			// A background job's name is a word: eval-worker's is
			// evalworker.
			name := fmt.Sprintf("%s%d", strings.ReplaceAll(kind, "-", ""), len(bg))
			bg = append(bg, name)
			line += " &" + name + "&"
		}
		b.WriteString(line + "\n")
		switch kind {
		case "dev":
			dev, devName = line, bg[len(bg)-1]
			b.WriteString("waitserver $TEMPORAL_ADDRESS\n")
		case "run":
			b.WriteString("stdout .\n")
			for i, a := range args {
				if a == "--id" && i+1 < len(args) {
					lastRun = args[i+1]
				}
			}
		}
	}
	if dev == "" || lastRun == "" {
		return "", fmt.Errorf("the page's commands start no server or no run with --id:\n%s", b.String())
	}
	if strings.Contains(dev, "--db-filename") {
		fmt.Fprintf(&b, "kill -INT %s\nwait %s\n", devName, devName)
		fmt.Fprintf(&b, "%s\nwaitserver $TEMPORAL_ADDRESS\n", strings.Replace(dev, "&"+devName+"&", "&again&", 1))
		fmt.Fprintf(&b, "exec gramc-temporal run --id %s\nstdout .\n", quote(lastRun))
	}
	b.WriteString("kill\n")
	return b.String(), nil
}

// quote is a word as testscript reads it: in single quotes when it has
// a space or a quote (a quote inside is written twice).
func quote(w string) string {
	if w != "" && !strings.ContainsAny(w, " '\"\t#&") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", "''") + "'"
}
