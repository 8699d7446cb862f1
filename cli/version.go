package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Parallel to explain.go and lsp.go: every command's file registers a
// newXCmd that builds its cobra.Command (root.go); they share that shape,
// not code.
func init() { register(newVersionCmd) }

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print gramc's version, its source revision and the Go version it was built with",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(e.stdout, "gramc %s\n", versionString())
			return nil
		},
	}
}

// versionString is what `gramc version` and `gramc --version` both print
// after "gramc ": the version, then the source revision and the Go version
// in parentheses, e.g. "v1.2.0 (go1.26.8)" or
// "devel (832e6b0d3c1a, modified, go1.26.8)".
//
// The version is Version when the link set it (-ldflags -X), else the
// module version recorded in the binary's build information (a `go install
// module@version` build), else "devel". The revision and modified flag come
// from the build information's VCS stamp (a build inside a git checkout).
func versionString() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Version
	}
	return formatVersion(Version, bi)
}

func formatVersion(linked string, bi *debug.BuildInfo) string {
	version := linked
	if version == "devel" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		version = bi.Main.Version
	}
	var revision, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	extra := ""
	if revision != "" {
		if len(revision) > 12 {
			revision = revision[:12]
		}
		extra = revision + ", "
		if modified == "true" {
			extra += "modified, "
		}
	}
	goVersion := bi.GoVersion
	if goVersion == "" {
		goVersion = "unknown Go version"
	}
	return fmt.Sprintf("%s (%s%s)", version, extra, goVersion)
}
