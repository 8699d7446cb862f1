package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/config"
	"github.com/gramc-dev/gramc/eval"
	"github.com/gramc-dev/gramc/internal/english"
	"github.com/gramc-dev/gramc/internal/regular"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/toolcmd"
)

func init() { register(newEvalCmd) }

type evalOptions struct {
	runs, k, concurrency int
	models, variants     []string
	cases                []string
	tools                []string
	run                  string
	format, output       string
	prices               string
	maxCost              float64
	record, replay       string
	baseline, failOn     string
	minPassRate          float64
	baseURL              string
	toolTimeout          time.Duration
}

// failOnValues are the values of gramc eval --fail-on.
var failOnValues = []string{"regression", "never"}

func newEvalCmd(e *env) *cobra.Command {
	var opts evalOptions
	cmd := &cobra.Command{
		Use:   "eval [--runs N] [--model P/m]... [--variant NAME=FILE]... [--cases FILE.jsonl]... " + formatUsage(eval.Formats) + " [--baseline FILE --fail-on regression] [path ...]",
		Short: "Run the :Test declarations live, many times, per model and tool library, and measure",
		Long: `Eval runs every :Test of the packages (default: the current directory)
live, against the agents' real providers (keys from the environment, as
gramc run), --runs times for every variant, and reports per test and
variant how often it passed, with a Wilson 95% interval, pass^k and pass@k,
tokens, cost and latency (docs/eval.md). Pass and fail mean what they mean
in gramc test: the same matcher. A run that ends with a provider or
transport error after the runtime's retries is errored: counted apart and
left out of every rate.

Variants are what is compared: --model P/m runs the agents on that model
(repeatable), --variant NAME=FILE reads a JSON file that binds tools to
shell commands and may override the agent's model, instruction and
temperature: {"tools": {"lookupCustomer": "./lookup-v2.sh"}, "model":
"OpenAI/gpt-4.1", "instruction": "...", "temperature": 0}. A tool a
variant binds runs for real; the others' results come from the test, as in
gramc test. Every pair of variants is compared: the difference of their
pass rates with Newcombe's 95% interval, and the verdict it gives (better,
worse, no significant difference).

--cases FILE.jsonl adds a dataset: one case per line, the properties of a
:Test as JSON, each checked as a :Test is (a bad line is FILE:LINE).

--baseline FILE (a JSON report of an earlier eval) with --fail-on
regression exits 1 when a cell's pass rate is significantly lower than
the baseline's (one-sided, 95%). --record DIR keeps every run's traffic
(one cassette per run, no key); --replay DIR recomputes the report from
them offline, the same bytes. --max-cost stops starting runs before the
next would cross the budget (prices from --prices FILE, USD per million
tokens, or "prices" in gramc.json). An interrupt stops starting runs, lets those in flight finish and
writes the report of what ran.

Formats:
  text      tables: per test and variant, per variant, the comparisons
  json      every run and every figure (the baseline format, "version": 1)
  junit     one test case per test and variant, failing below --min-pass-rate
  markdown  tables for a pull request's comment
  html      one self-contained page with charts (write it with -o FILE)

Exit status: 0; 1 when the packages or the cases have errors, on a
significant regression with --fail-on regression, or when a pass rate is
below --min-pass-rate; 2 for usage errors.`,
		Example: `  gramc eval --runs 20 ./agents
  gramc eval --runs 50 --model OpenAI/gpt-4.1 --model Anthropic/claude-sonnet-4-5 ./agents
  gramc eval --variant v1=v1.json --variant v2=v2.json --format html -o report.html
  gramc eval --format json > baseline.json
  gramc eval --baseline baseline.json --fail-on regression`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.validate(); err != nil {
				return err
			}
			if len(args) == 0 {
				args = []string{"."}
			}
			return runEval(cmd.Context(), e, opts, args)
		},
	}
	f := cmd.Flags()
	addDisableFlag(cmd, e)
	f.IntVar(&opts.runs, "runs", 5, "runs of each test for each variant")
	f.IntVar(&opts.k, "k", 0, "pass^k's and pass@k's k (default: --runs)")
	f.IntVar(&opts.concurrency, "concurrency", 4, "runs in flight at most")
	f.StringArrayVar(&opts.models, "model", nil, "a variant: the agents on model `P/m` (repeatable)")
	f.StringArrayVar(&opts.variants, "variant", nil, "a variant: NAME=FILE, a JSON file of tools, model, instruction, temperature (repeatable)")
	f.StringArrayVar(&opts.cases, "cases", nil, "a dataset: a JSONL `FILE`, one :Test's properties per line (repeatable)")
	f.StringArrayVar(&opts.tools, "tool", nil, "bind tool NAME to a shell command, for results \"bound\" and \"cassette\": NAME=COMMAND (repeatable)")
	f.StringVar(&opts.run, "run", "", "run only the tests whose name matches `REGEXP` (also -run)")
	formatFlag(cmd, &opts.format, eval.Formats, "text")
	f.StringVarP(&opts.output, "output", "o", "", "write the report to `FILE` (whole or not at all) instead of standard output")
	f.StringVar(&opts.prices, "prices", "", "a JSON `FILE` of prices: {\"Provider/model\": {\"input\": USD, \"output\": USD}} per million tokens")
	f.Float64Var(&opts.maxCost, "max-cost", 0, "a budget in `USD`: start no run that would cross it (needs --prices)")
	f.StringVar(&opts.record, "record", "", "record every run into `DIR`, one cassette per run")
	f.StringVar(&opts.replay, "replay", "", "recompute the report from the runs recorded in `DIR`, offline")
	f.StringVar(&opts.baseline, "baseline", "", "a JSON report (`FILE`) to compare each test and variant with")
	f.StringVar(&opts.failOn, "fail-on", "never", "exit 1 on: "+strings.Join(failOnValues, ", "))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", fixedValues(failOnValues))
	f.Float64Var(&opts.minPassRate, "min-pass-rate", -1, "fail a test and variant whose pass rate is below this fraction (0 to 1)")
	f.StringVar(&opts.baseURL, "base-url", "", "the provider's base URL (default: the provider's, or its *_BASE_URL variable)")
	f.DurationVar(&opts.toolTimeout, "tool-timeout", 30*time.Second, "time limit for each tool call (0: none)")
	return cmd
}

func (o evalOptions) validate() error {
	switch {
	case o.runs < 1 || o.runs > 100_000:
		return usageErrorf("--runs %d: want 1 to 100000", o.runs)
	case o.k < 0 || o.k > o.runs:
		return usageErrorf("--k %d: want 1 to --runs (%d)", o.k, o.runs)
	case o.concurrency < 1 || o.concurrency > 1024:
		return usageErrorf("--concurrency %d: want 1 to 1024", o.concurrency)
	case o.record != "" && o.replay != "":
		return usageErrorf("--record and --replay: --record asks the providers, --replay reads a recording; give one")
	case o.maxCost < 0:
		return usageErrorf("--max-cost must not be negative")
	case !slices.Contains(failOnValues, o.failOn):
		return usageErrorf("%s", suggest.UnknownValue("--fail-on", o.failOn, failOnValues, "values"))
	case o.failOn == "regression" && o.baseline == "":
		return usageErrorf("--fail-on regression needs --baseline FILE, a JSON report to compare with")
	case o.minPassRate != -1 && (o.minPassRate < 0 || o.minPassRate > 1):
		return usageErrorf("--min-pass-rate %g: want a fraction from 0 to 1", o.minPassRate)
	case o.toolTimeout < 0:
		return usageErrorf("--tool-timeout must not be negative (0 means no limit)")
	}
	return nil
}

func runEval(ctx context.Context, e *env, opts evalOptions, paths []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	pkgs, err := loadPackages(e, paths)
	if err != nil {
		return err
	}
	tests, err := evalTests(pkgs, opts)
	if err != nil {
		return err
	}
	runner := toolcmd.NewRunner(os.Environ())
	kept := false // the runner passed on with the eval (EvalWorker)
	defer func() {
		if !kept {
			runner.Close()
		}
	}()
	tools, err := testTools(e, tests, opts.tools, runner)
	if err != nil {
		return err
	}
	variants, err := evalVariants(opts, tests, runner)
	if err != nil {
		return err
	}
	o, err := evalRunOptions(opts, paths, tools)
	if err != nil {
		return err
	}
	var base *eval.Report
	if opts.baseline != "" {
		if base, err = readBaseline(opts.baseline); err != nil {
			return err
		}
	}
	ctx, interrupted, stopSignals := stopOnSignal(ctx, nil)
	defer stopSignals()
	bar := newProgressBar(e)
	o.Progress = bar.show
	if e.evalRuns != nil {
		var stop bool
		if o, stop, err = e.evalRuns(ctx, tests, variants, o, runner); err != nil || stop {
			kept = err == nil && stop
			return err
		}
	}
	rep, err := eval.Run(ctx, tests, variants, o)
	bar.clear()
	if err != nil {
		return &exitError{code: ExitUsage, err: err}
	}
	if base != nil {
		eval.Gate(rep, base)
	}
	if err := writeEvalReport(e, rep, opts); err != nil {
		return err
	}
	if err := interrupted(nil); err != nil {
		return err
	}
	return evalVerdict(e, rep, opts)
}

// evalTests are the tests to run: the packages' :Tests and the datasets'
// cases, those whose name matches -run.
func evalTests(pkgs []*check.Package, opts evalOptions) ([]*check.Test, error) {
	var runRE *regexp.Regexp
	if opts.run != "" {
		re, err := regexp.Compile(opts.run)
		if err != nil {
			return nil, usageErrorf("-run: %v", err)
		}
		runRE = re
	}
	var tests []*check.Test
	for _, p := range pkgs {
		tests = append(tests, p.Tests...)
	}
	for _, file := range opts.cases {
		if len(pkgs) != 1 {
			return nil, usageErrorf("--cases %s: a dataset's cases are checked in one package; give one path (there are %d packages)", file, len(pkgs))
		}
		cases, err := readCases(file, pkgs[0])
		if err != nil {
			return nil, err
		}
		tests = append(tests, cases...)
	}
	if runRE != nil {
		tests = slices.DeleteFunc(tests, func(t *check.Test) bool { return !runRE.MatchString(t.Name) })
	}
	switch {
	case len(tests) == 0 && runRE != nil:
		return nil, usageErrorf("no tests to run (none matches -run %s)", safeText(opts.run))
	case len(tests) == 0:
		return nil, usageErrorf("no tests to run: declare a :Test (docs/language.md §2.5) or give --cases")
	}
	return tests, nil
}

// readCases reads a dataset; its bad lines are the command's errors.
func readCases(file string, pkg *check.Package) ([]*check.Test, error) {
	data, err := load.ReadFile(file, eval.MaxDatasetBytes)
	if err != nil {
		return nil, &exitError{code: ExitUsage, err: fmt.Errorf("--cases: %w", err)}
	}
	tests, err := eval.ReadDataset(file, bytes.NewReader(data), pkg)
	var de *eval.DatasetError
	if errors.As(err, &de) {
		return nil, &exitError{code: ExitProblem, err: fmt.Errorf("%s:\n%s", english.Plural(len(de.Problems), "bad case"), safeLines(de.Problems))}
	}
	return tests, err
}

func safeLines(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = safeText(l)
	}
	return strings.Join(out, "\n")
}

// evalVariants are --model's and --variant's variants, in the order given.
func evalVariants(opts evalOptions, tests []*check.Test, runner *toolcmd.Runner) ([]eval.Variant, error) {
	var out []eval.Variant
	for _, m := range opts.models {
		if _, _, ok := strings.Cut(m, "/"); !ok {
			return nil, usageErrorf("--model %q: want Provider/model, e.g. OpenAI/gpt-4o-mini", m)
		}
		out = append(out, eval.Variant{Name: m, Model: m})
	}
	for _, spec := range opts.variants {
		v, err := readVariant(spec, tests, runner)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	seen := map[string]bool{}
	for _, v := range out {
		if err := eval.CheckVariantName(v.Name); err != nil {
			return nil, usageErrorf("%v", err)
		}
		if seen[v.Name] {
			return nil, usageErrorf("variant %s is given twice", v.Name)
		}
		seen[v.Name] = true
	}
	return out, nil
}

// readVariant reads --variant NAME=FILE, binding its tools to commands.
func readVariant(spec string, tests []*check.Test, runner *toolcmd.Runner) (eval.Variant, error) {
	name, file, ok := strings.Cut(spec, "=")
	if !ok || name == "" || file == "" {
		return eval.Variant{}, usageErrorf("--variant %q: want NAME=FILE", spec)
	}
	data, err := load.ReadFile(file, eval.MaxVariantFileBytes)
	if err != nil {
		return eval.Variant{}, usageErrorf("--variant %s: %v", name, err)
	}
	vf, err := eval.ParseVariantFile(data)
	if err != nil {
		return eval.Variant{}, usageErrorf("--variant %s: %s: %v", name, file, err)
	}
	v := eval.Variant{Name: name, Model: vf.Model, Instruction: vf.Instruction, Temperature: vf.Temperature, Tools: map[string]runtime.ToolFunc{}}
	names := toolNames(tests)
	for tool, command := range vf.Tools {
		if !slices.Contains(names, tool) {
			return eval.Variant{}, usageErrorf("--variant %s: %s binds %s, but no tested agent has a tool %s%s", name, file, tool, tool, suggest.Hint(tool, names, "tools"))
		}
		v.Tools[tool] = runner.Tool(command)
	}
	return v, nil
}

// toolNames are the tools of the tested agents.
func toolNames(tests []*check.Test) []string {
	var names []string
	for _, t := range tests {
		if t.Agent == nil {
			continue
		}
		for _, tool := range t.Agent.Tools {
			if !slices.Contains(names, tool.Name) {
				names = append(names, tool.Name)
			}
		}
	}
	return names
}

// evalRunOptions are the eval's options from the flags.
func evalRunOptions(opts evalOptions, paths []string, tools map[string]runtime.ToolFunc) (eval.Options, error) {
	o := eval.Options{Runs: opts.runs, K: opts.k, Concurrency: opts.concurrency, Tools: tools, ToolTimeout: opts.toolTimeout,
		MaxCost: opts.maxCost, Record: opts.record, Replay: opts.replay, BindHint: "bind it with --tool NAME=COMMAND"}
	if opts.baseURL != "" {
		o.ClientOptions = append(o.ClientOptions, clientopt.WithBaseURL(opts.baseURL))
	}
	if opts.prices != "" {
		data, err := load.ReadFile(opts.prices, eval.MaxVariantFileBytes)
		if err != nil {
			return o, usageErrorf("--prices: %v", err)
		}
		if o.Prices, err = eval.ParsePrices(data); err != nil {
			return o, usageErrorf("--prices %s: %v", opts.prices, err)
		}
	} else {
		o.Prices = configPrices(paths)
	}
	if o.MaxCost > 0 && len(o.Prices) == 0 {
		return o, usageErrorf("--max-cost needs prices: --prices FILE, or \"prices\" in gramc.json (gramc has no price list of its own)")
	}
	return o, nil
}

// configPrices are the prices of the packages' gramc.json (nil for none;
// its mistakes were reported when the packages were loaded).
func configPrices(paths []string) eval.Prices {
	cfg, _ := config.ForPatterns(paths)
	if cfg == nil || len(cfg.Prices) == 0 {
		return nil
	}
	out := eval.Prices{}
	for model, p := range cfg.Prices {
		out[model] = eval.Price{Input: p.Input, Output: p.Output}
	}
	return out
}

func readBaseline(path string) (*eval.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usageErrorf("--baseline: %v", err)
	}
	defer f.Close()
	r, err := eval.ReadReport(f)
	if err != nil {
		return nil, usageErrorf("--baseline %s: %v", path, err)
	}
	return r, nil
}

// writeEvalReport writes the report to standard output or, with -o, to
// its file whole or not at all.
func writeEvalReport(e *env, rep *eval.Report, opts evalOptions) error {
	var ro eval.RenderOptions
	if opts.minPassRate >= 0 {
		ro.MinPassRate = &opts.minPassRate
	}
	if opts.output == "" {
		return rep.Render(e.stdout, opts.format, ro)
	}
	var b bytes.Buffer
	if err := rep.Render(&b, opts.format, ro); err != nil {
		return err
	}
	if err := regular.WriteFile(opts.output, b.Bytes()); err != nil {
		return &exitError{code: ExitUsage, err: err}
	}
	return nil
}

// evalVerdict is the exit status: 1 on a significant regression (with
// --fail-on regression) or a pass rate below --min-pass-rate.
func evalVerdict(e *env, rep *eval.Report, opts evalOptions) error {
	failed := false
	if opts.failOn == "regression" && len(rep.Regressions) > 0 {
		fmt.Fprintf(e.stderr, "gramc eval: %s against %s\n", english.Plural(len(rep.Regressions), "significant regression"), safeText(opts.baseline))
		failed = true
	}
	if opts.minPassRate >= 0 {
		for _, c := range rep.Cells {
			if c.PassRate != nil && *c.PassRate < opts.minPassRate {
				fmt.Fprintf(e.stderr, "gramc eval: %s on %s passed %s, below --min-pass-rate %g\n", safeText(c.Test), safeText(c.Variant), eval.Percent(c.PassRate), opts.minPassRate)
				failed = true
			}
		}
	}
	if failed {
		return exitCode(ExitProblem)
	}
	return nil
}

// progressBar shows how far an eval has got on a terminal's standard
// error, rewriting one line; elsewhere it shows nothing.
type progressBar struct {
	w  io.Writer
	on bool
}

func newProgressBar(e *env) *progressBar {
	return &progressBar{w: e.stderr, on: isTerminal(e.stderr)}
}

func (p *progressBar) show(pr eval.Progress) {
	if !p.on || pr.Total == 0 {
		return
	}
	const width = 30
	filled := pr.Done * width / pr.Total
	var rate *float64
	if pr.Counted > 0 {
		r := float64(pr.Passed) / float64(pr.Counted)
		rate = &r
	}
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d runs, %s passed, %s", strings.Repeat("=", filled), strings.Repeat(" ", width-filled), pr.Done, pr.Total, eval.Percent(rate), eval.USD(pr.Cost))
}

func (p *progressBar) clear() {
	if p.on {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 80))
	}
}

func safeText(s string) string { return termsafe.Line(s, 2000) }
