package compat

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gramc-dev/gramc/ast"
	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/diag"
)

// TargetRejected is the rule of a tool whose new version a provider
// target rejects while it accepted the old one.
const TargetRejected = diag.CodeDiffTargetRejected

// CompareTargets judges the change from old to new again on what each
// target's payload makes of it: the tools of both versions are emitted
// for the target (as gramc schema --target writes them), read back, and
// compared by the same rules. It returns the changes only a target sees,
// each with Target set and positioned at the .gram declarations: a change
// at a place (a tool's parameter, field or result) where base
// (Compare(old, new)) has none as severe — openai-strict, which makes every property required, sees an optional
// parameter added as a required one. A tool that the target accepted in
// the old version and rejects in the new (a free-form Object under
// openai-strict, a nesting level over its limit) is a breaking
// diff-target-rejected change.
func CompareTargets(old, new []*check.Package, base []Change, targets []schema.Target) []Change {
	// The worst change the declarations show at each place: a target's
	// change there that is no worse is no news (Gemini's enum, inlined
	// as a string with an enum constraint, shows a parameter that became
	// an enum both as a type change and as values constrained).
	worst := map[string]Severity{}
	key := func(c Change) string { return c.Tool + "\x00" + c.Path }
	for _, c := range base {
		if s, ok := worst[key(c)]; !ok || c.Severity > s {
			worst[key(c)] = c.Severity
		}
	}
	oldTools, newTools := toolsOf(old), toolsOf(new)
	var out []Change
	for _, target := range targets {
		oldPay, _ := payload(oldTools, target, "old")
		newPay, rejected := payload(newTools, target, "new")
		for _, name := range sortedKeys(rejected) {
			if _, ok := oldPay[name]; !ok {
				continue // new, or rejected before too
			}
			d := rejected[name]
			out = append(out, Change{Code: TargetRejected, Severity: Breaking, Tool: name, Target: string(target),
				Old: oldTools[name].NameRange, New: d.Range,
				Message: fmt.Sprintf("%s rejects tool %s now: %s", target, name, d.Summary)})
		}
		var o, n []*check.Tool
		for _, name := range sortedKeys(oldPay) {
			if _, ok := newPay[name]; ok || rejected[name] == nil {
				o = append(o, oldPay[name])
			}
		}
		for _, name := range sortedKeys(newPay) {
			n = append(n, newPay[name])
		}
		for _, c := range Compare([]*check.Package{{Tools: o}}, []*check.Package{{Tools: n}}) {
			if s, ok := worst[key(c)]; ok && c.Severity <= s {
				continue
			}
			c.Target = string(target)
			c.Message = fmt.Sprintf("for %s, %s", target, c.Message)
			c.Old = locate(oldTools, c.Tool, c.Path, c.Old.File != "")
			c.New = locate(newTools, c.Tool, c.Path, c.New.File != "")
			out = append(out, c)
		}
	}
	return out
}

// payload returns each tool as target's payload makes it (emitted and
// read back), and the first error of each tool the target rejects.
func payload(tools map[string]*check.Tool, target schema.Target, side string) (map[string]*check.Tool, map[string]*diag.Diagnostic) {
	out := map[string]*check.Tool{}
	rejected := map[string]*diag.Diagnostic{}
	for _, name := range sortedKeys(tools) {
		raw, err := schema.Entry(tools[name], target)
		var se *schema.Error
		if errors.As(err, &se) {
			if errs := se.Diagnostics.Errors(); len(errs) > 0 {
				rejected[name] = errs[0]
			} else {
				rejected[name] = &diag.Diagnostic{Range: tools[name].NameRange, Summary: err.Error()}
			}
			continue
		}
		if err != nil {
			rejected[name] = &diag.Diagnostic{Range: tools[name].NameRange, Summary: err.Error()}
			continue
		}
		data := append(append([]byte("["), raw...), ']')
		snap, err := readSnapshot(string(target)+" payload ("+side+")", data, true)
		if err != nil || len(snap.Packages[0].Tools) != 1 {
			rejected[name] = &diag.Diagnostic{Range: tools[name].NameRange, Summary: fmt.Sprintf("gramc diff cannot read its payload: %v", err)}
			continue
		}
		pt := snap.Packages[0].Tools[0]
		if tools[name].Result == unknownResult {
			pt.Result = unknownResult // a snapshot's: its payload cannot tell more
		}
		out[name] = pt
	}
	return out, rejected
}

// locate returns where path ("p", "p.field", "p[]", "result.x") of a
// tool is declared, as near as the declarations go: the parameter or
// field, else the tool's name. It returns a zero Range when the tool is
// missing or want is false.
func locate(tools map[string]*check.Tool, tool, path string, want bool) ast.Range {
	t := tools[tool]
	if !want || t == nil {
		return ast.Range{}
	}
	at := t.NameRange
	params := t.Params
	rest := path
	if r, ok := strings.CutPrefix(path, "result"); ok {
		at = rangeOf(t.Result, t.Range)
		params, rest = nil, strings.TrimPrefix(r, ".")
		if t.Result != nil && t.Result.Kind == check.Record && t.Result.Decl != nil {
			params = t.Result.Decl.Fields
		}
	}
	for _, seg := range strings.Split(rest, ".") {
		name := strings.TrimRight(seg, "[]")
		if name == "" {
			break
		}
		var p *check.Param
		for _, q := range params {
			if q.Name == name {
				p = q
			}
		}
		if p == nil {
			break
		}
		at, params = p.NameRange, nil
		ty := p.Type
		for ty != nil && ty.Kind == check.Array {
			ty = ty.Elem
		}
		if ty != nil && ty.Kind == check.Record && ty.Decl != nil {
			params = ty.Decl.Fields
		}
	}
	return at
}
