package diag

import (
	"slices"
	"strings"
)

// Every diagnostic code gramc reports, from every stage: the parser's, the
// checker's, the provider lint's and gen's. Codes are stable and
// append-only, like go/types' error codes: a code keeps its meaning, and a
// code no longer reported is marked retired, never reused. The registry
// below says, for each, its stage, its default severity and the page that
// documents it with an example (a test proves the registry and the pages
// agree). Adding a code is a constant, a registry line and a doc section.
const (
	CodeSyntax                     Code = "syntax"
	CodeTextualSignature           Code = "textual-signature"
	CodeInlineRecord               Code = "inline-record"
	CodeWrongArrow                 Code = "wrong-arrow"
	CodeHashComment                Code = "hash-comment"
	CodeUnsafeCharacter            Code = "unsafe-character"
	CodeUnknownPattern             Code = "unknown-pattern"
	CodeMalformedDecl              Code = "malformed-declaration"
	CodeMissingName                Code = "missing-name"
	CodeInvalidToolName            Code = "invalid-tool-name"
	CodeDuplicateDecl              Code = "duplicate-declaration"
	CodeToolConflict               Code = "tool-conflict"
	CodeMissingDescription         Code = "missing-description"
	CodeUnknownProperty            Code = "unknown-property"
	CodeDuplicateProperty          Code = "duplicate-property"
	CodeInvalidPropertyValue       Code = "invalid-property-value"
	CodeMissingSignature           Code = "missing-signature"
	CodeExtraElement               Code = "extra-element"
	CodeInvalidSignature           Code = "invalid-signature"
	CodeArrowDirection             Code = "arrow-direction"
	CodeArrowSubject               Code = "arrow-subject"
	CodeAnonymousParameter         Code = "anonymous-parameter"
	CodeLegacyParamName            Code = "legacy-param-name"
	CodeMissingType                Code = "missing-type"
	CodeMultipleTypes              Code = "multiple-types"
	CodeUnknownType                Code = "unknown-type"
	CodeNonJSONType                Code = "non-json-type"
	CodeReservedName               Code = "reserved-name"
	CodeMissingElementType         Code = "missing-element-type"
	CodeInapplicableProperty       Code = "inapplicable-property"
	CodeInvalidDefault             Code = "invalid-default"
	CodeInvalidEnum                Code = "invalid-enum"
	CodeContradiction              Code = "contradictory-constraints"
	CodeInvalidPattern             Code = "invalid-pattern"
	CodePatternPortability         Code = "pattern-portability"
	CodeUnknownFormat              Code = "unknown-format"
	CodeInvalidExample             Code = "invalid-example"
	CodeNotJSONValue               Code = "not-json-value"
	CodeUnquotedString             Code = "unquoted-string"
	CodeIdentityConflict           Code = "identity-conflict"
	CodeDuplicateField             Code = "duplicate-field"
	CodeInvalidField               Code = "invalid-field"
	CodeMissingInstruction         Code = "missing-instruction"
	CodeInvalidModel               Code = "invalid-model"
	CodeUnknownProvider            Code = "unknown-provider"
	CodeInvalidTemperature         Code = "invalid-temperature"
	CodeInvalidMaxIterations       Code = "invalid-max-iterations"
	CodeInvalidToolChoice          Code = "invalid-tool-choice"
	CodeUnknownTool                Code = "unknown-tool"
	CodeNotATool                   Code = "not-a-tool"
	CodeDuplicateAgentTool         Code = "duplicate-agent-tool"
	CodeInvalidAgentElement        Code = "invalid-agent-element"
	CodeInfiniteType               Code = "infinite-type"
	CodePackageConflict            Code = "package-conflict"
	CodeNamedReturn                Code = "named-return"
	CodeUnusedIgnore               Code = "unused-ignore"
	CodeInvalidTest                Code = "invalid-test"
	CodeUnknownAgent               Code = "unknown-agent"
	CodeInvalidTestCall            Code = "invalid-test-call"
	CodeInvalidMockResult          Code = "invalid-mock-result"
	CodeInvalidMatcher             Code = "invalid-matcher"
	CodeDuplicateSignature         Code = "duplicate-signature"
	CodeInvalidOutputMode          Code = "invalid-output-mode"
	CodeInvalidOutputRetries       Code = "invalid-output-retries"
	CodeInvalidTestAnswer          Code = "invalid-test-answer"
	CodeAgentCycle                 Code = "agent-cycle"
	CodeAgentNesting               Code = "agent-nesting"
	CodeAgentNameClash             Code = "agent-name-clash"
	CodeUnsupportedOutputMode      Code = "unsupported-output-mode"
	CodeUntypedOutputSetting       Code = "untyped-output-setting"
	CodeTargetInvalidName          Code = "target-invalid-name"
	CodeTargetInvalidPropertyName  Code = "target-invalid-property-name"
	CodeTargetRecursiveType        Code = "target-recursive-type"
	CodeTargetStrictFreeFormObject Code = "target-strict-free-form-object"
	CodeTargetStrictLimit          Code = "target-strict-limit"
	CodeTargetKeywordInDescription Code = "target-keyword-in-description"
	CodeTargetDefaultInDescription Code = "target-default-in-description"
	CodeTargetEnumInDescription    Code = "target-enum-in-description"
	CodeTargetSchemaTooLarge       Code = "target-schema-too-large"
	CodeTargetUnknown              Code = "target-unknown"
	CodeGenNameCollision           Code = "gen-name-collision"
	CodeUnreadableFile             Code = "unreadable-file"
	CodeInvalidConfig              Code = "invalid-config"
	CodeDiffToolRemoved            Code = "diff-tool-removed"
	CodeDiffToolAdded              Code = "diff-tool-added"
	CodeDiffParamRemoved           Code = "diff-param-removed"
	CodeDiffParamAddedRequired     Code = "diff-param-added-required"
	CodeDiffParamAddedOptional     Code = "diff-param-added-optional"
	CodeDiffParamNowRequired       Code = "diff-param-now-required"
	CodeDiffParamNowOptional       Code = "diff-param-now-optional"
	CodeDiffTypeChanged            Code = "diff-type-changed"
	CodeDiffConstraintNarrowed     Code = "diff-constraint-narrowed"
	CodeDiffConstraintWidened      Code = "diff-constraint-widened"
	CodeDiffEnumValueRemoved       Code = "diff-enum-value-removed"
	CodeDiffEnumValueAdded         Code = "diff-enum-value-added"
	CodeDiffDefaultChanged         Code = "diff-default-changed"
	CodeDiffDescriptionChanged     Code = "diff-description-changed"
	CodeDiffToolDeprecated         Code = "diff-tool-deprecated"
	CodeDiffResultFieldRemoved     Code = "diff-result-field-removed"
	CodeDiffResultFieldAdded       Code = "diff-result-field-added"
	CodeDiffEnumOrderChanged       Code = "diff-enum-order-changed"
	CodeDiffResultFieldNowOptional Code = "diff-result-field-now-optional"
	CodeDiffInvalidIgnore          Code = "diff-invalid-ignore"
	CodeDiffTargetRejected         Code = "diff-target-rejected"
	CodeDiffAgentRemoved           Code = "diff-agent-removed"
	CodeDiffAgentAdded             Code = "diff-agent-added"
	CodeImportRenamed              Code = "import-renamed"
	CodeImportMissingDescription   Code = "import-missing-description"
	CodeImportMadeOptional         Code = "import-made-optional"
	CodeImportUnion                Code = "import-union"
	CodeImportAllOf                Code = "import-all-of"
	CodeImportNot                  Code = "import-not"
	CodeImportConditional          Code = "import-conditional"
	CodeImportPatternProperties    Code = "import-pattern-properties"
	CodeImportTuple                Code = "import-tuple"
	CodeImportOpenObject           Code = "import-open-object"
	CodeImportMap                  Code = "import-map"
	CodeImportUntyped              Code = "import-untyped"
	CodeImportNestedArray          Code = "import-nested-array"
	CodeImportRecursiveAlias       Code = "import-recursive-alias"
	CodeImportUnsupportedKeyword   Code = "import-unsupported-keyword"
	CodeImportFormat               Code = "import-format"
	CodeImportInvalidValue         Code = "import-invalid-value"
	CodeImportResultConstraint     Code = "import-result-constraint"
	CodeImportExternalRef          Code = "import-external-ref"
	CodeImportParameterDropped     Code = "import-parameter-dropped"
	CodeImportNonJSONBody          Code = "import-non-json-body"
	CodeImportNoJSONResponse       Code = "import-no-json-response"
)

// Stage is the part of gramc that reports a code.
type Stage string

// The stages.
const (
	StageSyntax Stage = "syntax" // the parser
	StageCheck  Stage = "check"  // the type checker
	StageTarget Stage = "target" // the provider lint (check --target, schema)
	StageGen    Stage = "gen"    // the Go generator
	StageLoad   Stage = "load"   // finding and reading the files
	StageDiff   Stage = "diff"   // gramc diff's rules (package compat)
	StageImport Stage = "import" // gramc import (package importer)
)

// CodeInfo is what the registry knows of a code.
type CodeInfo struct {
	Code     Code
	Stage    Stage
	Severity Severity // the default severity
	// Doc is the page that documents the code with an example.
	Doc string
	// Retired, when set, says why the code is no longer reported.
	Retired string
}

// registry lists every code, in the order of its documentation.
var registry = []CodeInfo{
	{CodeSyntax, StageSyntax, Error, "docs/diagnostics.md", ""},
	{CodeTextualSignature, StageSyntax, Error, "docs/diagnostics.md", ""},
	{CodeInlineRecord, StageSyntax, Error, "docs/diagnostics.md", ""},
	{CodeWrongArrow, StageSyntax, Error, "docs/diagnostics.md", ""},
	{CodeHashComment, StageSyntax, Error, "docs/diagnostics.md", ""},
	{CodeUnsafeCharacter, StageSyntax, Warning, "docs/diagnostics.md", ""},
	{CodeUnknownPattern, StageCheck, Warning, "docs/diagnostics.md", ""},
	{CodeMalformedDecl, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeMissingName, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidToolName, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeDuplicateDecl, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeToolConflict, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeMissingDescription, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeUnknownProperty, StageCheck, Warning, "docs/diagnostics.md", ""},
	{CodeDuplicateProperty, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidPropertyValue, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeMissingSignature, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeExtraElement, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidSignature, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeArrowDirection, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeArrowSubject, StageCheck, Warning, "docs/diagnostics.md", ""},
	{CodeAnonymousParameter, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeLegacyParamName, StageCheck, Warning, "docs/diagnostics.md", ""},
	{CodeMissingType, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeMultipleTypes, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeUnknownType, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeNonJSONType, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeReservedName, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeMissingElementType, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInapplicableProperty, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidDefault, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidEnum, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeContradiction, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidPattern, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodePatternPortability, StageCheck, Warning, "docs/diagnostics.md", ""},
	{CodeUnknownFormat, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidExample, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeNotJSONValue, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeUnquotedString, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeIdentityConflict, StageCheck, Error, "docs/diagnostics.md", "parameter and field names are local to their tool or type (docs/language.md §2.2)"},
	{CodeDuplicateField, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidField, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeMissingInstruction, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidModel, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeUnknownProvider, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidTemperature, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidMaxIterations, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidToolChoice, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeUnknownTool, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeNotATool, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeDuplicateAgentTool, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidAgentElement, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInfiniteType, StageCheck, Warning, "docs/diagnostics.md", ""},
	{CodePackageConflict, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeNamedReturn, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeUnusedIgnore, StageCheck, Warning, "docs/diagnostics.md", ""},
	{CodeInvalidTest, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeUnknownAgent, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidTestCall, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidMockResult, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidMatcher, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeDuplicateSignature, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidOutputMode, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeInvalidOutputRetries, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeUnsupportedOutputMode, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeUntypedOutputSetting, StageCheck, Warning, "docs/diagnostics.md", ""},
	{CodeInvalidTestAnswer, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeAgentCycle, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeAgentNesting, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeAgentNameClash, StageCheck, Error, "docs/diagnostics.md", ""},
	{CodeTargetInvalidName, StageTarget, Error, "docs/schema.md", ""},
	{CodeTargetInvalidPropertyName, StageTarget, Error, "docs/schema.md", ""},
	{CodeTargetRecursiveType, StageTarget, Error, "docs/schema.md", ""},
	{CodeTargetStrictFreeFormObject, StageTarget, Error, "docs/schema.md", ""},
	{CodeTargetStrictLimit, StageTarget, Error, "docs/schema.md", ""},
	{CodeTargetKeywordInDescription, StageTarget, Warning, "docs/schema.md", ""},
	{CodeTargetDefaultInDescription, StageTarget, Warning, "docs/schema.md", ""},
	{CodeTargetEnumInDescription, StageTarget, Warning, "docs/schema.md", ""},
	{CodeTargetSchemaTooLarge, StageTarget, Error, "docs/schema.md", ""},
	{CodeTargetUnknown, StageTarget, Error, "docs/schema.md", ""},
	{CodeGenNameCollision, StageGen, Warning, "docs/codegen.md", ""},
	{CodeUnreadableFile, StageLoad, Error, "docs/diagnostics.md", ""},
	{CodeInvalidConfig, StageLoad, Error, "docs/diagnostics.md", ""},
	{CodeDiffToolRemoved, StageDiff, Error, "docs/diff.md", ""},
	{CodeDiffToolAdded, StageDiff, Warning, "docs/diff.md", ""},
	{CodeDiffParamRemoved, StageDiff, Error, "docs/diff.md", ""},
	{CodeDiffParamAddedRequired, StageDiff, Error, "docs/diff.md", ""},
	{CodeDiffParamAddedOptional, StageDiff, Warning, "docs/diff.md", ""},
	{CodeDiffParamNowRequired, StageDiff, Error, "docs/diff.md", ""},
	{CodeDiffParamNowOptional, StageDiff, Warning, "docs/diff.md", ""},
	{CodeDiffTypeChanged, StageDiff, Error, "docs/diff.md", ""},
	{CodeDiffConstraintNarrowed, StageDiff, Error, "docs/diff.md", ""},
	{CodeDiffConstraintWidened, StageDiff, Warning, "docs/diff.md", ""},
	{CodeDiffEnumValueRemoved, StageDiff, Error, "docs/diff.md", ""},
	{CodeDiffEnumValueAdded, StageDiff, Warning, "docs/diff.md", ""},
	{CodeDiffDefaultChanged, StageDiff, Warning, "docs/diff.md", ""},
	{CodeDiffDescriptionChanged, StageDiff, Warning, "docs/diff.md", ""},
	{CodeDiffToolDeprecated, StageDiff, Warning, "docs/diff.md", ""},
	{CodeDiffResultFieldRemoved, StageDiff, Error, "docs/diff.md", ""},
	{CodeDiffResultFieldAdded, StageDiff, Warning, "docs/diff.md", ""},
	{CodeDiffEnumOrderChanged, StageDiff, Warning, "docs/diff.md", ""},
	{CodeDiffResultFieldNowOptional, StageDiff, Error, "docs/diff.md", ""},
	{CodeDiffInvalidIgnore, StageDiff, Error, "docs/diff.md", ""},
	{CodeDiffTargetRejected, StageDiff, Error, "docs/diff.md", ""},
	{CodeDiffAgentRemoved, StageDiff, Error, "docs/diff.md", ""},
	{CodeDiffAgentAdded, StageDiff, Warning, "docs/diff.md", ""},
	{CodeImportRenamed, StageImport, Warning, "docs/import.md", ""},
	{CodeImportMissingDescription, StageImport, Warning, "docs/import.md", ""},
	{CodeImportMadeOptional, StageImport, Warning, "docs/import.md", ""},
	{CodeImportUnion, StageImport, Warning, "docs/import.md", ""},
	{CodeImportAllOf, StageImport, Warning, "docs/import.md", ""},
	{CodeImportNot, StageImport, Warning, "docs/import.md", ""},
	{CodeImportConditional, StageImport, Warning, "docs/import.md", ""},
	{CodeImportPatternProperties, StageImport, Warning, "docs/import.md", ""},
	{CodeImportTuple, StageImport, Warning, "docs/import.md", ""},
	{CodeImportOpenObject, StageImport, Warning, "docs/import.md", ""},
	{CodeImportMap, StageImport, Warning, "docs/import.md", ""},
	{CodeImportUntyped, StageImport, Warning, "docs/import.md", ""},
	{CodeImportNestedArray, StageImport, Warning, "docs/import.md", ""},
	{CodeImportRecursiveAlias, StageImport, Warning, "docs/import.md", ""},
	{CodeImportUnsupportedKeyword, StageImport, Warning, "docs/import.md", ""},
	{CodeImportFormat, StageImport, Warning, "docs/import.md", ""},
	{CodeImportInvalidValue, StageImport, Warning, "docs/import.md", ""},
	{CodeImportResultConstraint, StageImport, Warning, "docs/import.md", ""},
	{CodeImportExternalRef, StageImport, Warning, "docs/import.md", ""},
	{CodeImportParameterDropped, StageImport, Warning, "docs/import.md", ""},
	{CodeImportNonJSONBody, StageImport, Warning, "docs/import.md", ""},
	{CodeImportNoJSONResponse, StageImport, Warning, "docs/import.md", ""},
}

// Codes returns every registered code's information, in registry order.
// The slice is a copy: the registry cannot be changed from outside.
func Codes() []CodeInfo { return append([]CodeInfo(nil), registry...) }

// CodesOf returns the codes of the given stages, in registry order.
func CodesOf(stages ...Stage) []Code {
	var out []Code
	for _, c := range registry {
		for _, s := range stages {
			if c.Stage == s {
				out = append(out, c.Code)
			}
		}
	}
	return out
}

// Lookup returns code's information.
func Lookup(code Code) (CodeInfo, bool) {
	for _, c := range registry {
		if c.Code == code {
			return c, true
		}
	}
	return CodeInfo{}, false
}

// Anchor is the code's place on its page: the page's file name and, on
// docs/diagnostics.md, the section (the heading is the code itself), as
// "diagnostics.md#unknown-type". The pages are embedded in gramc (package
// docs): gramc explain prints them, the language server links to a copy.
func (c CodeInfo) Anchor() string {
	page := strings.TrimPrefix(c.Doc, "docs/")
	if c.Doc == "docs/diagnostics.md" {
		return page + "#" + string(c.Code)
	}
	return page
}

// Tag is how an editor may render a diagnostic beyond its severity.
type Tag int

// The tags.
const (
	NoTag       Tag = iota
	Unnecessary     // the code marks something gramc ignores: fade it out
	Deprecated      // the code marks an older spelling: strike it through
)

// tags are the codes an editor renders specially.
var tags = map[Code]Tag{
	CodeUnusedIgnore:         Unnecessary, // a gramc:ignore comment that suppresses nothing
	CodeUnknownProperty:      Unnecessary, // a property gramc ignores
	CodeUnknownPattern:       Unnecessary, // a top-level pattern gramc ignores
	CodeUntypedOutputSetting: Unnecessary, // outputMode or outputRetries of an agent answering text
	CodeLegacyParamName:      Deprecated,  // paramName: the older spelling of a name
	CodeIdentityConflict:     Deprecated,
}

// TagOf returns how an editor may render diagnostics of code.
func TagOf(code Code) Tag { return tags[code] }

// FixKind says how sure a code's fix is.
type FixKind int

const (
	// FixNone: the code's diagnostics carry no edit.
	FixNone FixKind = iota
	// FixExact: the edit says the same thing in correct gram (the gram
	// form of an old notation, quoting a bare word): gramc check --fix
	// applies it.
	FixExact
	// FixGuess: the edit is a did-you-mean among candidates (the closest
	// type, property or tool name): applied only with --fix=all.
	FixGuess
)

// exactFixes are the codes whose fix is exact; every other code whose
// diagnostic has an edit is a guess. docs/diagnostics.md ("Fixes") lists
// them, and a test holds the two together.
var exactFixes = map[Code]bool{
	CodeTextualSignature:   true,
	CodeInlineRecord:       true,
	CodeWrongArrow:         true,
	CodeHashComment:        true,
	CodeLegacyParamName:    true,
	CodeAnonymousParameter: true,
	CodeMissingType:        true,
	CodeNamedReturn:        true,
	CodeUnquotedString:     true,
}

// FixOf is how sure d's fix is (FixNone when it has no edit).
func FixOf(d *Diagnostic) FixKind {
	if len(d.Edits()) == 0 {
		return FixNone
	}
	if exactFixes[d.Code] {
		return FixExact
	}
	return FixGuess
}

// ExactFixCodes are the codes whose fix is exact, sorted.
func ExactFixCodes() []Code {
	var out []Code
	for c := range exactFixes {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}
