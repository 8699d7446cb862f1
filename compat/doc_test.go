package compat_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/compat"
	"github.com/gramc-dev/gramc/diag"
)

// docExampleRE is a rule's example in docs/diff.md: its code, the prose
// before it (which may name a --target), the old and the new version.
var docExampleRE = regexp.MustCompile("(?m)^#### `(diff-[a-z-]+)`\n\n(?s:(.*?))```gram\n((?s:.*?))\n```\n\nbecomes\n\n```gram\n((?s:.*?))\n```")

// TestDocExamples: every diff rule has an example in docs/diff.md, and
// comparing its two versions reports the rule with the severity its entry
// in the list of rules gives first (diff-invalid-ignore: the error at the
// comment).
func TestDocExamples(t *testing.T) {
	data, err := os.ReadFile("../docs/diff.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	examples := map[diag.Code][]string{}
	for _, m := range docExampleRE.FindAllStringSubmatch(doc, -1) {
		examples[diag.Code(m[1])] = m[2:]
	}
	for _, c := range diag.Codes() {
		if c.Stage != diag.StageDiff {
			continue
		}
		ex, ok := examples[c.Code]
		if !ok {
			t.Errorf("docs/diff.md has no example of %s", c.Code)
			continue
		}
		delete(examples, c.Code)
		entry := regexp.MustCompile("- \\*\\*`" + regexp.QuoteMeta(string(c.Code)) + "`\\*\\* — \\*([a-z]+)\\*").FindStringSubmatch(doc)
		if entry == nil {
			t.Errorf("%s: no severity in its entry", c.Code)
			continue
		}
		prose, oldSrc, newSrc := ex[0], ex[1], ex[2]
		old, new := pkgs(t, oldSrc), pkgs(t, newSrc)
		changes := compat.Compare(old, new)
		if m := regexp.MustCompile("--target ([a-z-]+)").FindStringSubmatch(prose); m != nil {
			target, err := schema.ParseTarget(m[1])
			if err != nil {
				t.Fatal(err)
			}
			changes = append(changes, compat.CompareTargets(old, new, changes, []schema.Target{target})...)
		}
		changes, bad := compat.Accept(changes, new)
		if entry[1] == "error" {
			if len(bad) == 0 || bad[0].Code != c.Code {
				t.Errorf("%s: the example reports %v", c.Code, bad)
			}
			continue
		}
		found := false
		for _, ch := range changes {
			if ch.Code == c.Code {
				found = true
				if ch.Severity.String() != entry[1] {
					t.Errorf("%s: the example's change is %s, the entry says %s", c.Code, ch.Severity, entry[1])
				}
			}
		}
		if !found {
			t.Errorf("%s: the example reports %v", c.Code, summary(changes))
		}
	}
	for code := range examples {
		t.Errorf("docs/diff.md has an example of %s, which is no diff rule", code)
	}
	if !strings.Contains(doc, "TestDocExamples") {
		t.Error("docs/diff.md does not say its examples are run")
	}
}
