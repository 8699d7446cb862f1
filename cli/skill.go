package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/docs"
	"github.com/gramc-dev/gramc/internal/regular"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/load"
)

func init() { register(newSkillCmd) }

// skillAgent is a coding agent gramc skill install writes for: where its
// skill (rules) file goes in a project, and the header the agent reads.
type skillAgent struct {
	name   string
	path   string // relative to the project, with slashes
	header string // before the stamp: the agent's front matter
}

// skillAgents are the agents of --for, the default first: one row each.
var skillAgents = []skillAgent{
	{"claude", ".claude/skills/gram/SKILL.md", "---\nname: gram\ndescription: " + skillSummary + "\n---\n"},
	{"codex", ".codex/skills/gram/SKILL.md", "---\nname: gram\ndescription: " + skillSummary + "\n---\n"},
	{"cursor", ".cursor/rules/gram.mdc", "---\ndescription: " + skillSummary + "\nglobs: \"**/*.gram\"\nalwaysApply: false\n---\n"},
	{"copilot", ".github/instructions/gram.instructions.md", "---\napplyTo: \"**/*.gram\"\n---\n"},
	{"gemini", ".gemini/skills/gram/SKILL.md", "---\nname: gram\ndescription: " + skillSummary + "\n---\n"},
}

// skillSummary is the skill's description: when an agent should load it.
const skillSummary = "Write, check and fix .gram files (the gram language declaring LLM tools, types and agents) with the gramc compiler. Use it whenever you create or edit a .gram file."

func skillAgentNames() []string {
	var names []string
	for _, a := range skillAgents {
		names = append(names, a.name)
	}
	return names
}

func findSkillAgent(name string) (skillAgent, error) {
	for _, a := range skillAgents {
		if a.name == name {
			return a, nil
		}
	}
	return skillAgent{}, usageErrorf("--for %s: want one of %s", name, strings.Join(skillAgentNames(), ", "))
}

func newSkillCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "skill",
		Short: "Install a skill (rules file) that teaches coding agents gram",
		Long: `Skill writes into a project the skill (or rules file) a coding agent reads
to write gram: the language's essentials, the workflow of the compiler's
MCP tools (gramc mcp --compiler), how to add that server and how to run
gramc check. The text is made from the documentation built into gramc and
stamped with gramc's version.

  gramc skill install [--for AGENT] [DIR]   write it (DIR: default .)
  gramc skill check [DIR]                   say which installed skills are older than gramc

Agents: ` + strings.Join(skillAgentNames(), ", ") + ` (default claude). docs/mcp.md,
"The skill", lists the file each gets. gramc check says once, on standard
error, when an installed skill is older than gramc.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usageErrorf("want a subcommand: install or check")
		},
	}
	var agent string
	install := &cobra.Command{
		Use:   "install [--for AGENT] [DIR]",
		Short: "Write the gram skill for a coding agent into the project at DIR",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := findSkillAgent(agent)
			if err != nil {
				return err
			}
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			path := filepath.Join(dir, filepath.FromSlash(a.path))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return &exitError{code: ExitUsage, err: err}
			}
			if err := regular.WriteFile(path, []byte(skillFile(a))); err != nil {
				return &exitError{code: ExitUsage, err: err}
			}
			fmt.Fprintf(e.stdout, "wrote %s (gramc %s)\n", path, skillVersion())
			return nil
		},
	}
	install.Flags().StringVar(&agent, "for", "claude", "the coding agent: "+strings.Join(skillAgentNames(), ", "))
	checkCmd := &cobra.Command{
		Use:   "check [DIR]",
		Short: "Say which installed gram skills are older than gramc (exit 1 when one is)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			found := installedSkills(dir)
			if len(found) == 0 {
				fmt.Fprintf(e.stdout, "no gram skill installed in %s (gramc skill install writes one)\n", termsafe.Line(dir, 200))
				return nil
			}
			stale := false
			for _, s := range found {
				fmt.Fprintln(e.stdout, s.status())
				stale = stale || s.stale
			}
			if stale {
				return exitCode(ExitProblem)
			}
			return nil
		},
	}
	cmd.AddCommand(install, checkCmd)
	return cmd
}

// skillVersion is the version a skill is stamped with: gramc's, without
// the revision.
func skillVersion() string {
	v, _, _ := strings.Cut(versionString(), " ")
	return v
}

// skillFile is the whole file gramc skill install writes for a: its
// header, the stamp (the version and a digest of the body) and the body.
func skillFile(a skillAgent) string {
	body := skillBody()
	return a.header + skillStamp(skillVersion(), body) + "\n" + body
}

// skillStampRE reads a stamp: the version and the body's digest.
var skillStampRE = regexp.MustCompile(`<!-- gramc skill ([^ ]+) sha256:([0-9a-f]{64}); made by gramc skill install from gramc's documentation: run it again rather than edit -->`)

func skillStamp(version, body string) string {
	sum := sha256.Sum256([]byte(body))
	return "<!-- gramc skill " + version + " sha256:" + hex.EncodeToString(sum[:]) + "; made by gramc skill install from gramc's documentation: run it again rather than edit -->\n"
}

// skillBody is the skill's text, made from the pages gramc embeds: the
// language's essentials from language.md, the workflow and the set-up
// from mcp.md, and gramc check's examples from its help.
func skillBody() string {
	lang := docs.Page("language.md")
	mcpPage := docs.Page("mcp.md")
	var b strings.Builder
	fmt.Fprintf(&b, "# Writing gram with gramc %s\n\n", skillVersion())
	b.WriteString(docSection(lang, "# The gramc language", "---"))
	b.WriteString("\n\n## The workflow\n\n")
	b.WriteString(compilerInstructions())
	b.WriteString("\n\n## The compiler's MCP server\n\n")
	b.WriteString("Add `gramc mcp --compiler` to your MCP servers if it is not there; then the tools above are yours.\n\n")
	b.WriteString(docSection(mcpPage, "### Set-up", "### The skill"))
	b.WriteString("\n\n## Without the server: gramc check\n\n")
	b.WriteString("The same checks from a shell (`gramc check --format json` gives the diagnostics as JSON):\n\n```sh\n")
	b.WriteString(newCheckCmd(&env{}).Example)
	b.WriteString("\n```\n\n## The language's essentials\n\n")
	for _, s := range [][2]string{
		{"## 1. Gram notation", "## 2. Declarations"},
		{"### 2.1 Tool", "### 2.5 Test"},
		{"## 3. Types", "## 4. From a signature"},
	} {
		b.WriteString(docSection(lang, s[0], s[1]))
		b.WriteString("\n\n")
	}
	return b.String()
}

// docSection is the text of page from the line starting with from up
// to the next line starting with to (excluded), its headings one level
// deeper. A section a page lost panics: TestSkillFromDocs fails.
func docSection(page, from, to string) string {
	start := lineIndex(page, from, 0)
	if start < 0 {
		panic("docs: no section " + strconv.Quote(from))
	}
	end := lineIndex(page, to, start+len(from))
	if end < 0 {
		panic("docs: no line " + strconv.Quote(to) + " after " + strconv.Quote(from))
	}
	lines := strings.Split(strings.TrimSpace(page[start:end]), "\n")
	fence := false
	for k, l := range lines {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		if !fence && strings.HasPrefix(l, "#") {
			lines[k] = "#" + l
		}
	}
	return strings.Join(lines, "\n")
}

// lineIndex is the offset of the first line of page at or after from
// that starts with prefix (-1 when none does).
func lineIndex(page, prefix string, from int) int {
	for i := from; i <= len(page); {
		j := strings.Index(page[i:], prefix)
		if j < 0 {
			return -1
		}
		if k := i + j; k == 0 || page[k-1] == '\n' {
			return k
		}
		i += j + 1
	}
	return -1
}

// installedSkill is a gram skill found in a project.
type installedSkill struct {
	path    string
	version string // its stamp's ("" when it has none)
	stale   bool   // older than this gramc
	newer   bool   // made by a later gramc
}

func (s installedSkill) status() string {
	path := termsafe.Line(s.path, 300)
	switch {
	case s.version == "":
		return path + ": no gramc stamp; gramc skill install writes a stamped skill"
	case s.stale:
		return fmt.Sprintf("%s: made by gramc %s, older than this gramc (%s): run gramc skill install again", path, termsafe.Line(s.version, 40), skillVersion())
	case s.newer:
		return fmt.Sprintf("%s: made by gramc %s, newer than this gramc (%s)", path, termsafe.Line(s.version, 40), skillVersion())
	}
	return fmt.Sprintf("%s: up to date (gramc %s)", path, skillVersion())
}

// maxSkillFile bounds what gramc reads of an installed skill.
const maxSkillFile = 1 << 20

// installedSkills are the gram skills installed in the project at dir,
// each compared with what this gramc writes: stale when its version is
// older, or, for the same or an unordered version (devel), when its text
// differs.
func installedSkills(dir string) []installedSkill {
	digest := "" // this gramc's skill's, made once a skill is found
	var out []installedSkill
	for _, a := range skillAgents {
		path := filepath.Join(dir, filepath.FromSlash(a.path))
		data, err := load.ReadFile(path, maxSkillFile)
		if err != nil {
			continue // none installed (or unreadable: not gramc's to judge)
		}
		s := installedSkill{path: path}
		m := skillStampRE.FindSubmatch(data)
		if m == nil {
			out = append(out, s)
			continue
		}
		s.version = string(m[1])
		if digest == "" {
			sum := sha256.Sum256([]byte(skillBody()))
			digest = hex.EncodeToString(sum[:])
		}
		if string(m[2]) != digest {
			switch c := compareVersions(s.version, skillVersion()); {
			case c > 0:
				s.newer = true
			default:
				s.stale = true
			}
		}
		out = append(out, s)
	}
	return out
}

// compareVersions orders two vMAJOR.MINOR.PATCH versions (-1, 0, 1); a
// version that is not one (devel) orders with none: 0.
func compareVersions(a, b string) int {
	pa, oka := semverParts(a)
	pb, okb := semverParts(b)
	if !oka || !okb {
		return 0
	}
	for i := range pa {
		switch {
		case pa[i] < pb[i]:
			return -1
		case pa[i] > pb[i]:
			return 1
		}
	}
	return 0
}

func semverParts(v string) ([3]int, bool) {
	var p [3]int
	v, ok := strings.CutPrefix(v, "v")
	if !ok {
		return p, false
	}
	v, _, _ = strings.Cut(v, "-")
	v, _, _ = strings.Cut(v, "+")
	fields := strings.Split(v, ".")
	if len(fields) != 3 {
		return p, false
	}
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil {
			return p, false
		}
		p[i] = n
	}
	return p, true
}

// skillNotice is gramc check's one line about installed skills older than
// gramc, in the current directory or the project's root (the nearest
// directory above it holding .git); "" when there is none.
func skillNotice() string {
	dirs := []string{"."}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; {
			if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
				if d != wd {
					dirs = append(dirs, d)
				}
				break
			}
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
	}
	var stale []string
	for _, d := range dirs {
		for _, s := range installedSkills(d) {
			if s.stale {
				stale = append(stale, termsafe.Line(s.path, 200))
			}
		}
	}
	if len(stale) == 0 {
		return ""
	}
	return fmt.Sprintf("gramc check: the gram skill in %s is older than this gramc (%s): run gramc skill install (gramc skill check says more)", strings.Join(stale, ", "), skillVersion())
}
