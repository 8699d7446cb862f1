package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/agenttest"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/junit"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/cassette"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/toolcmd"
)

func init() { register(newTestCmd) }

type testOptions struct {
	record      bool
	rerecord    bool
	scripted    bool
	run         string
	format      string
	tools       []string
	baseURL     string
	toolTimeout time.Duration
}

// testFormats are the values of gramc test --format.
var testFormats = []string{"text", "json", "junit"}

// Parallel to check.go's newCheckCmd: a command with an options struct and
// its --format values opens the same way (root.go's convention).
func newTestCmd(e *env) *cobra.Command {
	var opts testOptions
	cmd := &cobra.Command{
		Use:   "test [--scripted | --record | --rerecord] [-run REGEXP] " + formatUsage(testFormats) + " [--tool NAME=COMMAND]... [path ...]",
		Short: "Run the :Test declarations of gram packages, offline from their cassettes",
		Long: `Test runs every :Test of the packages (default: the current directory):
each runs its agent on its input, talking to the model through the test's
cassette, and checks the tool calls made and the answer (docs/language.md
§2.5). One line per test; exit status 1 when a test fails.

--scripted runs every test with no provider, no cassette and no key: a
scripted model makes exactly the test's expected calls, with their args,
and answers with what the test expects, so the tools, the validation of
their arguments, their results and the test's assertions run in CI with
nothing recorded (write the tests first, record later).

Otherwise every cassette is replayed: no network and no key, the same
answers every time, and a request that differs from the recorded one (a
changed instruction, tool declaration, model or input) fails the test with
the first difference. --record runs the tests against the real providers
(their key variables, as gramc run) and rewrites the cassettes.
--rerecord rewrites them from themselves, with no provider and no key: the
requests the tests make now, with the answers (and tool results) recorded
before — for an edit that changes only the requests (an instruction, a
tool's description, an input).

Tool results come from each call's returns (results: "mock", the default),
from the tools' implementations (results: "bound": --tool NAME=COMMAND as in
gramc run, or the built-in sayHello and sayGoodbye), or from the cassette
(results: "cassette": recorded from the implementations, replayed without
running them). Tool calls run one at a time, in call order.

Formats:
  text   a --- PASS or --- FAIL line per test, each failure under it,
         then a summary line
  json   an object: tests (each test's calls, answer and failures),
         passed, failed
  junit  JUnit XML, one testsuite per package, for CI

Exit status: 0 when every test passes (or there is none), 1 when one fails
or the packages have errors, 2 for usage errors.`,
		Example: `  gramc test --scripted ./...       # no key, no cassette
  gramc test ./...
  gramc test -run 'greets.*' examples/hellogoodbye
  gramc test --record ./agents          # re-record against the providers
  gramc test --format junit ./... > report.xml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.scripted && (opts.record || opts.rerecord) {
				return usageErrorf("--scripted and --record or --rerecord: a scripted run talks to no provider, so it records nothing")
			}
			if opts.record && opts.rerecord {
				return usageErrorf("--record and --rerecord: --record asks the providers, --rerecord keeps the recorded answers; give one")
			}
			if opts.toolTimeout < 0 {
				return usageErrorf("--tool-timeout must not be negative (0 means no limit)")
			}
			var runRE *regexp.Regexp
			if opts.run != "" {
				re, err := regexp.Compile(opts.run)
				if err != nil {
					return usageErrorf("-run: %v", err)
				}
				runRE = re
			}
			if len(args) == 0 {
				args = []string{"."}
			}
			return redacted(e, func(e *env) error { return runTests(cmd.Context(), e, opts, runRE, args) })
		},
	}
	f := cmd.Flags()
	addDisableFlag(cmd, e)
	f.BoolVar(&opts.scripted, "scripted", false, "run with a scripted model that makes each test's expected calls and gives its expected answer: no provider, no cassette, no key")
	f.BoolVar(&opts.rerecord, "rerecord", false, "rewrite the cassettes from themselves: the tests' requests now, with the recorded answers (no provider, no key)")
	f.BoolVar(&opts.record, "record", false, "run against the real providers and rewrite the cassettes (no key is written)")
	f.StringVar(&opts.run, "run", "", "run only the tests whose name matches `REGEXP` (also -run, as go test)")
	formatFlag(cmd, &opts.format, testFormats, "text")
	f.StringArrayVar(&opts.tools, "tool", nil, "bind tool NAME to a shell command, for results \"bound\" and \"cassette\": NAME=COMMAND (repeatable)")
	f.StringVar(&opts.baseURL, "base-url", "", "with --record: the provider's base URL (default: the provider's, or its *_BASE_URL variable)")
	f.DurationVar(&opts.toolTimeout, "tool-timeout", 30*time.Second, "time limit for each tool call (0: none)")
	return cmd
}

// goStyleFlags rewrites go test's single-dash -run (which the flag parser
// reads as -r -u -n) for gramc test and gramc eval.
func goStyleFlags(args []string) []string {
	if len(args) == 0 || args[0] != "test" && args[0] != "eval" {
		return args
	}
	out := append([]string(nil), args...)
	for i, a := range out {
		if a == "--" {
			break
		}
		if a == "-run" || strings.HasPrefix(a, "-run=") {
			out[i] = "-" + a
		}
	}
	return out
}

func runTests(ctx context.Context, e *env, opts testOptions, runRE *regexp.Regexp, paths []string) error {
	pkgs, err := loadPackages(e, paths)
	if err != nil {
		return err
	}
	var tests []*check.Test
	for _, p := range pkgs {
		for _, t := range p.Tests {
			if runRE == nil || runRE.MatchString(t.Name) {
				tests = append(tests, t)
			}
		}
	}
	runner := toolcmd.NewRunner(os.Environ())
	defer runner.Close()
	tools, err := testTools(e, tests, opts.tools, runner)
	if err != nil {
		return err
	}
	o := agenttest.Options{Tools: tools, ToolTimeout: opts.toolTimeout, Scripted: opts.scripted, Rerecord: opts.rerecord, BindHint: "bind it with --tool NAME=COMMAND"}
	if opts.record {
		o.Mode = cassette.Record
	}
	if opts.baseURL != "" {
		o.ClientOptions = append(o.ClientOptions, clientopt.WithBaseURL(opts.baseURL))
	}
	ctx, interrupted, stopSignals := stopOnSignal(ctx, runner)
	defer stopSignals()
	var results []*agenttest.Result
	for _, t := range tests {
		r := agenttest.Run(ctx, t, o)
		results = append(results, r)
		if opts.format == "text" {
			writeTestLine(e.stdout, r)
		}
		if ctx.Err() != nil {
			break
		}
	}
	if err := interrupted(nil); err != nil {
		return err
	}
	failed := 0
	for _, r := range results {
		if !r.Passed() {
			failed++
		}
	}
	switch opts.format {
	case "text":
		switch {
		case len(tests) == 0 && runRE != nil:
			fmt.Fprintf(e.stdout, "no test matches -run %s\n", termsafe.Line(opts.run, 200))
		case len(tests) == 0:
			fmt.Fprintln(e.stdout, "no tests")
		case failed > 0:
			fmt.Fprintf(e.stdout, "FAIL: %d of %d failed\n", failed, len(results))
		default:
			fmt.Fprintf(e.stdout, "PASS: %d passed\n", len(results))
		}
	case "json":
		if err := writeTestJSON(e.stdout, results); err != nil {
			return err
		}
	case "junit":
		if err := writeJUnit(e.stdout, results); err != nil {
			return err
		}
	}
	if failed > 0 {
		return exitCode(ExitProblem)
	}
	return nil
}

// testTools are the tool implementations tests may run: the --tool
// commands, the Go tools of DoWithTools and the built-in seed tools.
func testTools(e *env, tests []*check.Test, toolFlags []string, runner *toolcmd.Runner) (map[string]runtime.ToolFunc, error) {
	tools := map[string]runtime.ToolFunc{}
	for name, f := range builtinTools {
		tools[name] = f
	}
	for name, f := range e.goTools {
		tools[name] = f
	}
	names := toolNames(tests)
	for _, tf := range toolFlags {
		name, command, err := parseToolFlag(tf)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(names, name) {
			return nil, usageErrorf("--tool %s: no tested agent has a tool %s%s", name, name, suggest.Hint(name, names, "tools"))
		}
		tools[name] = runner.Tool(command)
	}
	return tools, nil
}

// writeTestLine prints one test's outcome as go test -v does, with each
// failure under it.
func writeTestLine(w io.Writer, r *agenttest.Result) {
	status := "PASS"
	if !r.Passed() {
		status = "FAIL"
	}
	fmt.Fprintf(w, "--- %s: %s (%.2fs)\n", status, r.Test.Name, r.Elapsed.Seconds())
	for _, f := range r.Failures {
		fmt.Fprintf(w, "    %s\n", termsafe.Line(f.String(), 2000))
	}
}

type testReport struct {
	Name     string          `json:"name"`
	Agent    string          `json:"agent,omitempty"`
	File     string          `json:"file"`
	Line     int             `json:"line"`
	Passed   bool            `json:"passed"`
	Seconds  float64         `json:"seconds"`
	Cassette string          `json:"cassette"`
	Answer   string          `json:"answer"`
	Calls    []testCall      `json:"calls"`
	Failures []failureReport `json:"failures"`
}

type testCall struct {
	Tool   string          `json:"tool"`
	Args   json.RawMessage `json:"args"`
	Result string          `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

type failureReport struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

func reportOf(r *agenttest.Result) testReport {
	t := r.Test
	rep := testReport{Name: t.Name, File: t.Range.File, Line: int(t.Range.Start.Line), Passed: r.Passed(),
		Seconds: r.Elapsed.Seconds(), Cassette: r.Cassette, Answer: r.Answer,
		Calls: []testCall{}, Failures: []failureReport{}}
	if t.Agent != nil {
		rep.Agent = t.Agent.Name
	}
	for _, inv := range r.Calls {
		c := testCall{Tool: inv.Tool, Args: inv.Args, Result: inv.Result}
		if inv.Err != nil {
			c.Error = inv.Err.Error()
		}
		if !json.Valid(c.Args) {
			c.Args = nil
		}
		rep.Calls = append(rep.Calls, c)
	}
	for _, f := range r.Failures {
		rep.Failures = append(rep.Failures, failureReport{File: f.Range.File, Line: int(f.Range.Start.Line), Column: int(f.Range.Start.Column), Message: f.Message})
	}
	return rep
}

// writeTestJSON prints {"tests": [...], "passed": N, "failed": M}.
func writeTestJSON(w io.Writer, results []*agenttest.Result) error {
	out := struct {
		Tests  []testReport `json:"tests"`
		Passed int          `json:"passed"`
		Failed int          `json:"failed"`
	}{Tests: []testReport{}}
	for _, r := range results {
		out.Tests = append(out.Tests, reportOf(r))
		if r.Passed() {
			out.Passed++
		} else {
			out.Failed++
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// writeJUnit writes one testsuite per package directory.
func writeJUnit(w io.Writer, results []*agenttest.Result) error {
	var suites []junit.Suite
	index := map[string]int{}
	for _, r := range results {
		dir := r.Test.Range.File
		if i := strings.LastIndexAny(dir, `/\`); i >= 0 {
			dir = dir[:i]
		} else {
			dir = "."
		}
		i, ok := index[dir]
		if !ok {
			i = len(suites)
			index[dir] = i
			suites = append(suites, junit.Suite{Name: dir})
		}
		c := junit.Case{Name: r.Test.Name, Classname: dir, File: r.Test.Range.File, Line: int(r.Test.Range.Start.Line), Time: r.Elapsed}
		if !r.Passed() {
			var lines []string
			for _, f := range r.Failures {
				lines = append(lines, f.String())
			}
			c.Failure = &junit.Problem{Message: r.Failures[0].Message, Text: strings.Join(lines, "\n")}
		}
		suites[i].Cases = append(suites[i].Cases, c)
	}
	return junit.Write(w, suites)
}
