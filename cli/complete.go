package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/load"
)

// addCompletions teaches every command's shell completion (gramc completion
// bash|zsh|fish|powershell) the values its flags and arguments take: .gram
// files and directories for paths, provider targets by name (comma lists
// too), and the agents and tools declared in the files already on the
// command line. It is done once here, by flag name, so every command that
// has a flag completes it the same way. (--format's values differ by
// command: formatFlag registers their completion with the flag.)
func addCompletions(root *cobra.Command) {
	for _, cmd := range root.Commands() {
		if cmd.Name() == "completion" || cmd.Name() == "help" || cmd.Name() == "version" {
			continue
		}
		if cmd.ValidArgsFunction == nil && cmd.Args == nil || takesPaths(cmd) {
			cmd.ValidArgsFunction = completePaths
		}
		flags := cmd.Flags()
		if flags.Lookup("target") != nil {
			names := []string{"all"}
			for _, t := range schema.Targets() {
				names = append(names, string(t))
			}
			_ = cmd.RegisterFlagCompletionFunc("target", commaList(names, cmd.Name() == "check" || cmd.Name() == "schema" || cmd.Name() == "diff"))
		}
		if flags.Lookup("agent") != nil {
			_ = cmd.RegisterFlagCompletionFunc("agent", declaredNames(func(p *check.Package) []string {
				var names []string
				for _, a := range p.Agents {
					names = append(names, a.Name)
				}
				return names
			}, ""))
		}
		if flags.Lookup("tool") != nil {
			// schema --tool takes a name; run and mcp --tool take NAME=COMMAND.
			suffix := ""
			if cmd.Name() != "schema" {
				suffix = "="
			}
			_ = cmd.RegisterFlagCompletionFunc("tool", declaredNames(func(p *check.Package) []string {
				var names []string
				for _, t := range p.Tools {
					names = append(names, t.Name)
				}
				return names
			}, suffix))
		}
	}
}

// takesPaths reports whether cmd's arguments are gram paths (every command
// that loads packages; run also takes messages after them).
func takesPaths(cmd *cobra.Command) bool {
	switch cmd.Name() {
	case "check", "fmt", "gen", "schema", "parse", "run", "mcp":
		return true
	}
	return false
}

// completePaths completes .gram files and directories.
func completePaths(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{"gram"}, cobra.ShellCompDirectiveFilterFileExt
}

func fixedValues(values []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, v := range values {
			if strings.HasPrefix(v, toComplete) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// commaList completes the last element of a comma-separated list of values,
// keeping what is typed before it and leaving out values already listed.
func commaList(values []string, list bool) cobra.CompletionFunc {
	if !list {
		return fixedValues(values)
	}
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		head, last := "", toComplete
		if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
			head, last = toComplete[:i+1], toComplete[i+1:]
		}
		listed := strings.Split(head, ",")
		var out []string
		for _, v := range values {
			if strings.HasPrefix(v, last) && !slices.Contains(listed, v) && (head == "" || v != "all") {
				out = append(out, head+v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// declaredNames completes names declared in the packages the command line
// already names (or the current directory's), each followed by suffix.
// Files that do not load complete nothing rather than print errors into the
// user's shell.
func declaredNames(names func(*check.Package) []string, suffix string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		var paths []string
		for _, a := range args {
			if looksLikeGramPath(a) {
				paths = append(paths, a)
			}
		}
		pkgs, _, err := load.Packages(paths, nil)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		for _, p := range pkgs {
			for _, n := range names(p) {
				if strings.HasPrefix(n, toComplete) && !slices.Contains(out, n+suffix) {
					out = append(out, n+suffix)
				}
			}
		}
		slices.Sort(out)
		directive := cobra.ShellCompDirectiveNoFileComp
		if suffix != "" {
			directive |= cobra.ShellCompDirectiveNoSpace
		}
		return out, directive
	}
}
