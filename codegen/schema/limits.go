package schema

import (
	"fmt"
	"strings"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/diag"
	"github.com/invopop/jsonschema"
)

// OpenAI's documented limits for strict-mode schemas.
const (
	StrictMaxProperties   = 5000    // object properties in total
	StrictMaxDepth        = 10      // levels of object nesting
	StrictMaxEnumValues   = 1000    // enum values across all properties
	StrictMaxStringLength = 120_000 // characters of property and definition names, enum and const values
	// A single enum with more than StrictLargeEnum string values may hold at
	// most StrictLargeEnumLength characters.
	StrictLargeEnum       = 250
	StrictLargeEnumLength = 15_000
)

// StrictStats measures a schema against the strict-mode limits.
type StrictStats struct {
	Properties   int // properties of every object, $defs included
	Depth        int // deepest chain of nested objects (the root object is 1), following $refs
	EnumValues   int // enum values in total
	StringLength int // characters of property names, $defs names, enum and const string values
	// LargestEnumLength is the characters of string values of the longest
	// enum with more than StrictLargeEnum values (0 if none).
	LargestEnumLength int
}

// MeasureStrict measures s (a schema whose $refs point into its own $defs).
func MeasureStrict(s *jsonschema.Schema) StrictStats {
	var st StrictStats
	count(s, &st)
	for name, d := range s.Definitions {
		st.StringLength += len([]rune(name))
		count(d, &st)
	}
	st.Depth = depth(s, s.Definitions, map[string]bool{}, map[string]int{})
	return st
}

// count adds the properties, enum values and string lengths of s and its
// subschemas, not following $refs (each definition is counted once).
func count(s *jsonschema.Schema, st *StrictStats) {
	if s == nil || s == jsonschema.FalseSchema || s == jsonschema.TrueSchema {
		return
	}
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			st.Properties++
			st.StringLength += len([]rune(p.Key))
			count(p.Value, st)
		}
	}
	if s.Enum != nil {
		st.EnumValues += len(s.Enum)
		n := 0
		for _, v := range s.Enum {
			if str, ok := v.(string); ok {
				n += len([]rune(str))
			}
		}
		st.StringLength += n
		if len(s.Enum) > StrictLargeEnum && n > st.LargestEnumLength {
			st.LargestEnumLength = n
		}
	}
	if str, ok := s.Const.(string); ok {
		st.StringLength += len([]rune(str))
	}
	count(s.Items, st)
	for _, sub := range s.AnyOf {
		count(sub, st)
	}
}

// depth is the deepest chain of object schemas under s; a $ref already on
// the path (recursion) adds nothing more. Each definition's depth is
// memoized (as first computed), so types that share types are walked once.
func depth(s *jsonschema.Schema, defs jsonschema.Definitions, onPath map[string]bool, memo map[string]int) int {
	if s == nil || s == jsonschema.FalseSchema || s == jsonschema.TrueSchema {
		return 0
	}
	if name, ok := strings.CutPrefix(s.Ref, "#/$defs/"); ok {
		if onPath[name] || defs[name] == nil {
			return 0
		}
		if d, ok := memo[name]; ok {
			return d
		}
		onPath[name] = true
		d := depth(defs[name], defs, onPath, memo)
		delete(onPath, name)
		memo[name] = d
		return d
	}
	deepest := 0
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			deepest = max(deepest, depth(p.Value, defs, onPath, memo))
		}
	}
	deepest = max(deepest, depth(s.Items, defs, onPath, memo))
	for _, sub := range s.AnyOf {
		deepest = max(deepest, depth(sub, defs, onPath, memo))
	}
	if s.Type == "object" || s.Properties != nil {
		deepest++
	}
	return deepest
}

// checkStrictLimits reports every limit s exceeds as an error at t's name.
func checkStrictLimits(t *check.Tool, s *jsonschema.Schema, b *builder) {
	st := MeasureStrict(s)
	limit := func(what string, got, max int) {
		if got <= max {
			return
		}
		b.report(diag.Error, diag.CodeTargetStrictLimit, t.NameRange,
			fmt.Sprintf("%s allows at most %d %s; the schema of %s has %d", b.name(), max, what, t.Name, got),
			"OpenAI rejects strict-mode schemas beyond its documented size limits. Split the tool, flatten nested types or shorten the enums, or use a non-strict target.")
	}
	limit("object properties", st.Properties, StrictMaxProperties)
	limit("levels of object nesting", st.Depth, StrictMaxDepth)
	limit("enum values", st.EnumValues, StrictMaxEnumValues)
	limit("characters of property names, definition names and enum values", st.StringLength, StrictMaxStringLength)
	limit(fmt.Sprintf("characters in one enum of more than %d values", StrictLargeEnum), st.LargestEnumLength, StrictLargeEnumLength)
}
