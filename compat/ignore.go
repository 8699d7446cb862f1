package compat

import (
	"fmt"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/suggest"
)

// Accept applies the `// gramc:ignore CODE[,CODE...] -- reason` comments of
// the new version's files, with which an author accepts a change
// deliberately. A comment applies, as gramc check's suppressions do, to
// its own line when code precedes it and to the next line when it stands
// alone: a change whose place in the new version (a tool's name, a
// parameter, a field, a result; a removed parameter's tool) starts on
// that line and whose code the comment names is accepted: Accepted is
// set and Reason is the comment's. A tool removed has no place in the new
// version and cannot be accepted (--disable can).
//
// A comment that names a diff rule without a reason, or a code that
// looks like one (diff-...) but is not registered, is a
// diff-invalid-ignore error at the comment, and accepts nothing. Codes of
// the other stages are gramc check's to judge; a comment that accepts no
// change is not reported (the change it accepted is gone once the old
// version is).
func Accept(changes []Change, new []*check.Package) ([]Change, diag.Diagnostics) {
	type key struct {
		file string
		line int32
	}
	type accept struct {
		code   diag.Code
		reason string
	}
	at := map[key][]accept{}
	var ds diag.Diagnostics
	var ruleNames []string
	for _, c := range diag.Codes() {
		if c.Stage == diag.StageDiff && c.Code != diag.CodeDiffInvalidIgnore {
			ruleNames = append(ruleNames, string(c.Code))
		}
	}
	for _, p := range new {
		if p == nil {
			continue
		}
		for _, f := range p.Files {
			if f == nil {
				continue
			}
			for _, ig := range check.IgnoreComments(f) {
				var rules []diag.Code
				bad := false
				for _, code := range ig.Codes {
					info, ok := diag.Lookup(code)
					switch {
					case ok && info.Stage == diag.StageDiff && code != diag.CodeDiffInvalidIgnore:
						rules = append(rules, code)
					case !ok && strings.HasPrefix(string(code), "diff-"):
						bad = true
						ds = append(ds, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeDiffInvalidIgnore, Range: ig.Range,
							Summary: fmt.Sprintf("gramc:ignore names %s, which is not a gramc diff rule%s", code, suggest.DidYouMean(suggest.Closest(string(code), ruleNames))),
							Detail:  "docs/diff.md lists the rules; the code is the one in brackets at the end of the change gramc diff reports."})
					}
				}
				if len(rules) > 0 && ig.Reason == "" {
					bad = true
					ds = append(ds, &diag.Diagnostic{Severity: diag.Error, Code: diag.CodeDiffInvalidIgnore, Range: ig.Range,
						Summary: fmt.Sprintf("gramc:ignore %s accepts a change without a reason", rules[0]),
						Detail:  "Say why the change is acceptable after \"--\": // gramc:ignore " + string(rules[0]) + " -- no caller sends it yet. The reason is kept in gramc diff's JSON output."})
				}
				if bad {
					continue
				}
				for _, code := range rules {
					k := key{ig.Range.File, ig.Line}
					at[k] = append(at[k], accept{code, ig.Reason})
				}
			}
		}
	}
	ds.Sort()
	if len(at) == 0 {
		return changes, ds
	}
	out := make([]Change, len(changes))
	copy(out, changes)
	for i := range out {
		c := &out[i]
		if c.New.File == "" {
			continue
		}
		for _, a := range at[key{c.New.File, c.New.Start.Line}] {
			if a.code == c.Code {
				c.Accepted, c.Reason = true, a.reason
				break
			}
		}
	}
	return out, ds
}
