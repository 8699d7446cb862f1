package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/regular"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/load"
	"github.com/gramc-dev/gramc/load/git"
)

func init() { register(newDiffCmd) }

type diffOptions struct {
	format     string
	failOn     string
	disable    []string
	againstMCP string
	mcpTimeout time.Duration
	targets    []string
}

// diffFormats are the values of gramc diff --format (writeChanges).
var diffFormats = []string{"text", "json", "github", "markdown"}

func newDiffCmd(e *env) *cobra.Command {
	var opts diffOptions
	cmd := &cobra.Command{
		Use:   "diff [flags] OLD NEW",
		Short: "Report the changes between two versions of gram packages that break their clients",
		Long: `Diff compares two versions of gram packages and reports every change to the
tools they declare, each with a stable code and a severity: breaking (a
caller, model or implementation written against OLD fails against NEW: a
tool or parameter removed, a new required parameter, a type changed or
narrowed), dangerous (still valid, but what a model or caller sees
changes: a default, a description, an enum's order, a deprecation) or safe.
Inputs may widen and results may narrow; named types and enums are
followed to every place they are used.

OLD and NEW are paths as every command takes them (a file, a directory,
dir/...), or REV:PATH, git's notation for PATH at a revision of the
current repository (main:tools, HEAD~1:.), or a JSON snapshot file
(.json, or REV:PATH.json from git) written by gramc schema --target mcp
or --target jsonschema, or an MCP tools/list result: the same rules apply
to it, positioned in the JSON with the JSON pointer. With --against-mcp
COMMAND|URL, OLD is what a live MCP server lists (a command run over stdio
without API keys in its environment, or a streamable HTTP URL), waited for
at most --mcp-timeout, and only NEW is given; a place in the listing is
shown by its JSON pointer.

With --target (openai-strict, gemini, ...; a comma list or all), each
change is also judged on what the provider's payload makes of it: both
versions' payloads for the target are compared by the same rules, and a
change only the target sees is reported with the target named (an
optional parameter added is a required one under openai-strict; a tool
the target now rejects is diff-target-rejected).

Formats: text (positioned at NEW, or at OLD for a removal, both versions
shown), json (an array of {code, severity, tool, path, message, file,
line, column}), github (annotations), markdown (a table for a pull
request).

A change made on purpose is accepted with a comment on its declaration in
NEW: // gramc:ignore CODE -- reason (left out of the output but for json,
which marks it accepted with the reason; not counted for --fail-on).

Exit status: 1 when a change at or above --fail-on (breaking by default;
dangerous, safe, or none) is found, 0 otherwise, 2 for usage or I/O
errors. docs/diff.md lists every rule.`,
		Example: `  gramc diff main:tools ./tools
  gramc diff HEAD~1:. .
  gramc diff tools.json ./tools
  gramc diff --against-mcp 'gramc mcp ./tools' ./tools
  gramc diff --against-mcp http://localhost:8080/mcp ./tools
  gramc diff --target openai-strict,gemini main:tools ./tools
  gramc diff --format markdown --fail-on dangerous old/ new/`,
		Args: func(cmd *cobra.Command, args []string) error {
			if opts.againstMCP != "" {
				if len(args) != 1 {
					return usageErrorf("with --against-mcp, give NEW only (the server's tools are OLD); got %d arguments", len(args))
				}
				return nil
			}
			return cobra.ExactArgs(2)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.againstMCP != "" {
				return runDiff(cmd.Context(), e, opts, "", args[0])
			}
			return runDiff(cmd.Context(), e, opts, args[0], args[1])
		},
	}
	f := cmd.Flags()
	formatFlag(cmd, &opts.format, diffFormats, "text")
	f.StringVar(&opts.failOn, "fail-on", "breaking", "exit 1 at a change of this severity or above: breaking, dangerous, safe or none")
	f.StringSliceVar(&opts.disable, "disable", nil, "ignore these rule codes (repeatable or comma-separated)")
	f.StringSliceVar(&opts.targets, "target", nil, "also judge each change on these providers' payloads (repeatable, a comma list, or all)")
	f.StringVar(&opts.againstMCP, "against-mcp", "", "compare NEW with the tools a live MCP server lists (OLD): a command run over stdio, or a streamable HTTP URL")
	f.DurationVar(&opts.mcpTimeout, "mcp-timeout", 30*time.Second, "how long --against-mcp waits for the server's tool list")
	return cmd
}

// runDiff compares OLD with NEW; ctx is the command's (cobra's), which
// ends the git and MCP reads.
func runDiff(ctx context.Context, e *env, opts diffOptions, oldArg, newArg string) error {
	failAt, fail := compat.Breaking, true
	if opts.failOn == "none" {
		fail = false
	} else if s, ok := compat.ParseSeverity(opts.failOn); ok {
		failAt = s
	} else {
		return usageErrorf("--fail-on %q: want breaking, dangerous, safe or none", opts.failOn)
	}
	var disabled []diag.Code
	for _, d := range opts.disable {
		for _, c := range strings.Split(d, ",") {
			code := diag.Code(strings.TrimSpace(c))
			if info, ok := diag.Lookup(code); !ok || info.Stage != diag.StageDiff {
				return usageErrorf("--disable: %q is not a gramc diff rule (docs/diff.md lists them)", code)
			}
			disabled = append(disabled, code)
		}
	}
	var targets []schema.Target
	if len(opts.targets) > 0 {
		ts, err := schema.ParseTargets(strings.Join(opts.targets, ","))
		if err != nil {
			return usageErrorf("--target: %v", err)
		}
		targets = ts
	}
	if opts.mcpTimeout <= 0 {
		return usageErrorf("--mcp-timeout %s: want a positive duration", opts.mcpTimeout)
	}
	var oldPkgs []*check.Package
	var oldSnap *compat.Snapshot
	var oldFrom *git.Export
	if opts.againstMCP != "" {
		snap, err := listMCP(ctx, opts.againstMCP, opts.mcpTimeout)
		if err != nil {
			return err
		}
		oldPkgs, oldSnap = snap.Packages, snap
	} else {
		pkgs, snap, x, err := loadVersion(ctx, e, oldArg)
		defer x.Remove()
		if err != nil {
			return err
		}
		oldPkgs, oldSnap, oldFrom = pkgs, snap, x
	}
	newPkgs, newSnap, newFrom, err := loadVersion(ctx, e, newArg)
	defer newFrom.Remove()
	if err != nil {
		return err
	}
	live := opts.againstMCP != ""
	pointer := func(r ast.Range) (ptr string, lines bool) {
		for i, s := range []*compat.Snapshot{oldSnap, newSnap} {
			if p, ok := s.Pointer(r); ok {
				// A live listing's lines are those of JSON the user never sees.
				return p, !(i == 0 && live)
			}
		}
		return "", true
	}
	all := compat.Compare(oldPkgs, newPkgs)
	if len(targets) > 0 {
		all = append(all, compat.CompareTargets(oldPkgs, newPkgs, all, targets)...)
		sort.SliceStable(all, func(i, j int) bool {
			if all[i].Tool != all[j].Tool {
				return all[i].Tool < all[j].Tool
			}
			return all[i].Path < all[j].Path
		})
	}
	var changes []compat.Change
	for _, c := range all {
		if !slices.Contains(disabled, c.Code) {
			changes = append(changes, c)
		}
	}
	changes, invalid := compat.Accept(changes, newPkgs)
	var bad diag.Diagnostics
	for _, d := range invalid {
		if !slices.Contains(disabled, d.Code) {
			bad = append(bad, d)
		}
	}
	printDiagnostics(e, bad)
	// A file read from git is shown as git names it (REV:PATH), not
	// by the temporary copy; the changes in file and position order.
	fileName := func(file string) string { return newFrom.Name(oldFrom.Name(file)) }
	for i := range changes {
		for _, r := range []*ast.Range{&changes[i].Old, &changes[i].New} {
			r.File = fileName(r.File)
		}
	}
	sort.SliceStable(changes, func(i, j int) bool {
		a, b := changeAt(changes[i]), changeAt(changes[j])
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Start.Offset < b.Start.Offset
	})
	if err := writeChanges(e.stdout, e.stderr, changes, opts.format, pointer); err != nil {
		return &exitError{code: ExitUsage, err: err}
	}
	if bad.HasErrors() {
		return exitCode(ExitProblem)
	}
	if fail {
		for _, c := range changes {
			if !c.Accepted && c.Severity >= failAt {
				return exitCode(ExitProblem)
			}
		}
	}
	return nil
}

// loadVersion loads the packages of arg: a path, REV:PATH read from git
// into a temporary directory (x is then set: the caller removes it), or a
// JSON snapshot file (snap is then set).
func loadVersion(ctx context.Context, e *env, arg string) (pkgs []*check.Package, snap *compat.Snapshot, x *git.Export, err error) {
	if rev, path, ok := strings.Cut(arg, ":"); ok && rev != "" && !isWindowsDrive(arg) && strings.HasSuffix(strings.ToLower(path), ".json") {
		if _, err := os.Stat(arg); err != nil { // not a file named so: REV:PATH
			snap, err := gitSnapshot(ctx, arg, rev, path)
			if err != nil {
				return nil, nil, x, &exitError{code: ExitUsage, err: err}
			}
			return snap.Packages, snap, nil, nil
		}
	}
	if strings.HasSuffix(strings.ToLower(arg), ".json") {
		// A FIFO is refused, not waited on.
		f, _, err := regular.Open(arg)
		if errors.Is(err, regular.ErrNotRegular) {
			return nil, nil, x, &exitError{code: ExitUsage, err: fmt.Errorf("%w: a snapshot is a regular file", err)}
		}
		if err != nil {
			return nil, nil, x, &exitError{code: ExitUsage, err: fmt.Errorf("%w (a snapshot is a file written by gramc schema --target mcp or jsonschema)", err)}
		}
		defer f.Close()
		snap, err := compat.ReadSnapshotFrom(arg, f)
		if err != nil {
			return nil, nil, x, &exitError{code: ExitUsage, err: err}
		}
		return snap.Packages, snap, nil, nil
	}
	patterns := []string{arg}
	if rev, path, ok := strings.Cut(arg, ":"); ok && rev != "" && !isWindowsDrive(arg) {
		x, err = git.ExportAt(ctx, "", rev, path)
		if err != nil {
			return nil, nil, nil, &exitError{code: ExitUsage, err: err}
		}
		patterns = []string{filepath.Join(x.Dir, "...")}
	}
	pkgs, diags, err := load.Packages(patterns, nil)
	if err != nil {
		return nil, nil, x, &exitError{code: ExitUsage, err: err}
	}
	if diags.HasErrors() {
		printDiagnostics(e, diags.Errors())
		return nil, nil, x, &exitError{code: ExitUsage, err: fmt.Errorf("%s has errors: gramc diff compares packages that check", arg)}
	}
	return pkgs, nil, x, nil
}

// gitSnapshot reads the snapshot at path at revision rev of the current
// repository, bounded as a file is (compat.MaxSnapshotBytes). path is
// git's: from the root of the tree, or from the current directory when it
// begins with "./" or "../".
func gitSnapshot(ctx context.Context, arg, rev, path string) (*compat.Snapshot, error) {
	data, err := git.ReadFile(ctx, "", rev, path, compat.MaxSnapshotBytes)
	switch {
	case errors.Is(err, load.ErrTooLarge):
		return nil, fmt.Errorf("%s: larger than %d bytes (compat.MaxSnapshotBytes)", termsafe.Line(arg, 200), compat.MaxSnapshotBytes)
	case err != nil:
		return nil, fmt.Errorf("%s: %v", termsafe.Line(arg, 200), err)
	}
	return compat.ReadSnapshot(arg, data)
}

func isWindowsDrive(s string) bool { return len(s) > 2 && s[1] == ':' && (s[2] == '\\' || s[2] == '/') }

// changeAt is where a change is shown: at NEW, or at OLD for a removal.
func changeAt(c compat.Change) ast.Range {
	if c.New.File == "" {
		return c.Old
	}
	return c.New
}

// githubLevel is the GitHub Actions workflow command that annotates a
// change of each severity: a breaking change is an error, a dangerous one
// a warning, a safe one a notice.
var githubLevel = [...]string{compat.Safe: "notice", compat.Dangerous: "warning", compat.Breaking: "error"}

// writeChanges writes the changes in format. pointer gives the JSON
// pointer of a place in a snapshot, and whether its lines are worth
// showing (not those of a live server's listing).
func writeChanges(stdout, stderr io.Writer, changes []compat.Change, format string, pointer func(ast.Range) (string, bool)) error {
	changeAt := func(c compat.Change) (file string, line, col int, ptr string, lines bool) {
		r := changeAt(c)
		ptr, lines = pointer(r)
		return r.File, int(max(r.Start.Line, 1)), int(max(r.Start.Column, 1)), ptr, lines
	}
	switch format {
	case "json":
		type jsonChange struct {
			Code     string `json:"code"`
			Severity string `json:"severity"`
			Tool     string `json:"tool"`
			Agent    bool   `json:"agent,omitempty"`
			Path     string `json:"path,omitempty"`
			Message  string `json:"message"`
			File     string `json:"file"`
			Line     int    `json:"line"`
			Column   int    `json:"column"`
			Pointer  string `json:"pointer,omitempty"`
			Target   string `json:"target,omitempty"`
			Old      string `json:"old,omitempty"`
			New      string `json:"new,omitempty"`
			Accepted bool   `json:"accepted,omitempty"`
			Reason   string `json:"reason,omitempty"`
		}
		out := make([]jsonChange, 0, len(changes))
		for _, c := range changes {
			f, l, col, ptr, _ := changeAt(c)
			out = append(out, jsonChange{string(c.Code), c.Severity.String(), c.Tool, c.Agent, c.Path, c.Message, f, l, col, ptr, c.Target, c.OldText, c.NewText, c.Accepted, c.Reason})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case "github":
		for _, c := range changes {
			if c.Accepted {
				continue
			}
			f, l, col, _, lines := changeAt(c)
			level := githubLevel[c.Severity]
			msg := diag.GitHubData(termsafe.Line(c.Message, 1000))
			if !lines { // no file in the repository: an annotation of the run
				fmt.Fprintf(stdout, "::%s title=%s::%s: %s\n", level, c.Code, diag.GitHubData(termsafe.Line(f, 200)), msg)
				continue
			}
			fmt.Fprintf(stdout, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", level, diag.GitHubProperty(f), l, col, c.Code, msg)
		}
	case "markdown":
		fmt.Fprintln(stdout, "| severity | tool | path | change | code |")
		fmt.Fprintln(stdout, "|---|---|---|---|---|")
		for _, c := range changes {
			if c.Accepted {
				continue
			}
			cell := func(s string) string { return strings.ReplaceAll(termsafe.Line(s, 500), "|", `\|`) }
			fmt.Fprintf(stdout, "| %s | `%s` | %s | %s | `%s` |\n", c.Severity, cell(c.Tool), cell(c.Path), cell(c.Message), c.Code)
		}
	default:
		counts := map[compat.Severity]int{}
		accepted := 0
		for _, c := range changes {
			if c.Accepted {
				accepted++
				continue
			}
			counts[c.Severity]++
			f, l, col, ptr, lines := changeAt(c)
			if lines {
				f = fmt.Sprintf("%s:%d:%d", f, l, col)
			}
			fmt.Fprintf(stderr, "%s: %s: %s [%s]\n", termsafe.Line(f, 300), c.Severity, termsafe.Line(c.Message, 1000), c.Code)
			if ptr != "" {
				fmt.Fprintf(stderr, "    at: %s\n", termsafe.Line(ptr, 300))
			}
			if c.OldText != "" || c.NewText != "" {
				fmt.Fprintf(stderr, "    old: %s\n    new: %s\n", termsafe.Line(c.OldText, 300), termsafe.Line(c.NewText, 300))
			}
		}
		fmt.Fprintf(stderr, "%d breaking, %d dangerous, %d safe", counts[compat.Breaking], counts[compat.Dangerous], counts[compat.Safe])
		if accepted > 0 {
			fmt.Fprintf(stderr, " (%d accepted by gramc:ignore)", accepted)
		}
		fmt.Fprintln(stderr)
	}
	return nil
}
