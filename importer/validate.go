package importer

import (
	"fmt"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/internal/jsonstr"
)

// validate holds, before the package is written, the constraints, enum
// values, examples and default of each parameter and field to be written
// to the checker's rules (check.CheckParamValues): what the checker
// refuses is dropped, with a warning at its source, and its warnings of
// what stays (pattern-portability) are returned, placed in the sources.
// What else the gram written holds (names, declarations, types and which
// properties each type takes) checks by construction; the tests check
// every import's output.
func (im *importer) validate() diag.Diagnostics {
	v := &validation{im: im, decls: map[*record]*check.TypeDecl{}, fields: map[*param]*check.Param{}}
	for _, t := range im.pkg.tools {
		for _, p := range t.params {
			v.param(p, false)
		}
	}
	for _, d := range im.decls {
		if r, ok := d.(*record); ok {
			for _, f := range r.fields {
				v.param(f, true)
			}
		}
	}
	// A record's default requires the fields that have neither a default
	// nor optional: true, and a field whose default is dropped becomes
	// required (the source requires it). The defaults of a record type
	// are held again until no more is dropped: at most once more each.
	for dropped := true; dropped; {
		dropped = false
		for _, r := range v.recordDefaults {
			if r.p.hasDef && v.drop(r.p, check.CheckParamValues(check.ParamValues{Name: r.p.name, Field: r.field, Type: v.typ(r.p.typ), Default: r.p.def, HasDefault: true})) {
				dropped = true
			}
		}
	}
	return v.warnings
}

// validation is what validate keeps as it goes.
type validation struct {
	im *importer
	// decls are the check.TypeDecl of each record, whose fields (in
	// fields) say which are required as their defaults are dropped.
	decls          map[*record]*check.TypeDecl
	fields         map[*param]*check.Param
	recordDefaults []paramOf
	warnings       diag.Diagnostics
}

type paramOf struct {
	p     *param
	field bool
}

// param holds p's values to its type and constraints.
func (v *validation) param(p *param, field bool) {
	c := &p.c
	if !p.hasDef && len(p.examples) == 0 && c.Enum == nil && c.Pattern == "" && !hasBound(c) &&
		(c.MinLength == nil || c.MaxLength == nil) && (c.MinItems == nil || c.MaxItems == nil) {
		return // nothing the checker could refuse (a count alone is one, a format one gram knows)
	}
	if p.hasDef && p.typ.kind == check.Record {
		v.recordDefaults = append(v.recordDefaults, paramOf{p, field})
	}
	v.drop(p, check.CheckParamValues(check.ParamValues{Name: p.name, Field: field, Type: v.typ(p.typ), Constraints: c, Default: p.def, HasDefault: p.hasDef, Examples: p.examples}))
}

// drop drops what ds refuse of p, keeps its warnings, and reports whether
// a property was dropped.
func (v *validation) drop(p *param, ds []check.ValueDiagnostic) bool {
	dropped := false
	for _, d := range ds {
		if d.Severity != diag.Error {
			v.warnings = append(v.warnings, &diag.Diagnostic{Severity: diag.Warning, Code: d.Code, Summary: d.Summary, Detail: d.Detail, Range: p.src.at(p.propNode(d.Key))})
			continue
		}
		if v.im.dropRefused(p, d.Key, d.Summary, d.Detail) {
			dropped = true
		}
	}
	if f := v.fields[p]; f != nil && dropped {
		f.HasDefault = p.hasDef
		f.Optional = p.optional || p.hasDef
	}
	return dropped
}

// typ is t as the checker reads its label (a record's fields, an enum's
// values).
func (v *validation) typ(t *typ) *check.Type {
	switch t.kind {
	case check.Array:
		if t.elem == nil {
			return &check.Type{Kind: check.Array, Elem: &check.Type{Kind: check.Object}} // elementType: Object
		}
		return &check.Type{Kind: check.Array, Elem: v.typ(t.elem)}
	case check.EnumKind:
		e := t.enum
		return &check.Type{Kind: check.EnumKind, Enum: &check.Enum{Name: e.name, ValueKind: e.valueKind, Values: e.values}}
	case check.Record:
		td := v.decls[t.rec]
		if td == nil {
			td = &check.TypeDecl{Name: t.rec.name}
			v.decls[t.rec] = td
			for _, f := range t.rec.fields {
				cf := &check.Param{Name: f.name, HasDefault: f.hasDef, Optional: f.optional || f.hasDef}
				v.fields[f] = cf
				td.Fields = append(td.Fields, cf)
				cf.Type = v.typ(f.typ)
			}
		}
		return &check.Type{Kind: check.Record, Decl: td}
	}
	return &check.Type{Kind: t.kind}
}

// dropRefused drops key of p, which the checker refuses saying summary
// and detail, with a warning at its source (once for a source value);
// false when it was gone already.
func (im *importer) dropRefused(p *param, key, summary, detail string) bool {
	if !p.drop(key) {
		return false
	}
	at := p.propNode(key)
	if im.refused[at] {
		return true // a field copied into a tool's parameters
	}
	im.refused[at] = true
	saved := im.s
	im.s = p.src
	im.warn(diag.CodeImportInvalidValue, at, fmt.Sprintf("%s of %s is dropped: %s", key, jsonstr.Text(p.name), summary),
		"gram refuses the value where it is written: "+strings.TrimSpace(detail))
	im.s = saved
	return true
}

// hasBound reports whether c has a number bound.
func hasBound(c *check.Constraints) bool {
	for _, b := range bounds(c) {
		if *b.to != nil {
			return true
		}
	}
	return false
}

func (p *param) propNode(key string) *node {
	if n := p.props[key]; n != nil {
		return n
	}
	return p.at
}

// drop removes a property the checker refused; false when it was gone.
func (p *param) drop(key string) bool {
	c := &p.c
	switch key {
	case "default":
		had := p.hasDef
		p.def, p.hasDef = nil, false
		return had
	case "examples":
		had := len(p.examples) > 0
		p.examples = nil
		return had
	case "enum":
		had := c.Enum != nil
		c.Enum = nil
		return had
	case "pattern":
		had := c.Pattern != ""
		c.Pattern = ""
		return had
	case "format":
		c.Format = ""
	case "uniqueItems":
		c.UniqueItems = false
	default:
		for _, b := range bounds(c) {
			if b.key == key {
				had := *b.to != nil
				*b.to = nil
				return had
			}
		}
		for _, s := range sizes(c) {
			if s.key == key {
				had := *s.to != nil
				*s.to = nil
				return had
			}
		}
		return false
	}
	return true
}
