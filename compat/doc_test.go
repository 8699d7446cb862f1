package compat_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/diag/diagtest"
	"github.com/gramc-dev/gramc/docs"
)

// TestDocExamples: every diff rule has an example in docs/diff.md (an
// old and a new version, "becomes" between them), and comparing the two
// reports the rule with the severity its entry in the list of rules gives
// first (diff-invalid-ignore: the error at the comment); the harness is
// diagtest.Check, shared with the checker's and the targets' pages.
func TestDocExamples(t *testing.T) {
	var rules []diag.Code
	for _, c := range diag.Codes() {
		if c.Stage == diag.StageDiff {
			rules = append(rules, c.Code)
		}
	}
	diagtest.Check(t, diagtest.Page{
		Path:     "../docs/diff.md",
		Heading:  regexp.MustCompile("(?m)^#### `(diff-[a-z-]+)`\n"),
		Severity: regexp.MustCompile("(?m)^- \\*\\*`(diff-[a-z-]+)`\\*\\* — \\*([a-z]+)\\*"),
		Codes:    rules,
		Run: func(t *testing.T, s diagtest.Section) (string, bool) {
			if len(s.Examples) < 2 {
				return "no old and new version", false
			}
			old, new := pkgs(t, s.Examples[0]), pkgs(t, s.Examples[1])
			changes := compat.Compare(old, new)
			if m := regexp.MustCompile("--target ([a-z-]+)").FindStringSubmatch(s.Prose); m != nil {
				target, err := schema.ParseTarget(m[1])
				if err != nil {
					t.Fatal(err)
				}
				changes = append(changes, compat.CompareTargets(old, new, changes, []schema.Target{target})...)
			}
			changes, bad := compat.Accept(changes, new)
			if s.Severity == "error" {
				return fmt.Sprint(bad), len(bad) > 0 && bad[0].Code == s.Code
			}
			for _, ch := range changes {
				if ch.Code == s.Code && ch.Severity.String() == s.Severity {
					return "", true
				}
			}
			return strings.Join(summary(changes), "\n"), false
		},
	})
	data := docs.Page("diff.md")
	if !strings.Contains(data, "TestDocExamples") {
		t.Error("docs/diff.md does not say its examples are run")
	}
}
