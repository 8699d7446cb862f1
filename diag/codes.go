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
	CodeInvalidMaxTokens           Code = "invalid-max-tokens"
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

// CodeInfo is what the registry knows of a code: one row each, so a new
// code is its constant and its row (and its documentation's section).
type CodeInfo struct {
	Code     Code
	Stage    Stage
	Severity Severity // the default severity
	// Tag is how an editor may render its diagnostics (NoTag: by
	// severity alone).
	Tag Tag
	// Exact: its fix says the same thing in correct gram (the gram form of
	// an old notation, quoting a bare word), so gramc check --fix applies
	// it; the fix of any other code whose diagnostic has an edit is a
	// guess. docs/diagnostics.md ("Fixes") lists them, and a test holds
	// the two together.
	Exact bool
	// Doc is the page that documents the code with an example: its
	// stage's (stagePages).
	Doc string
	// Retired, when set, says why the code is no longer reported.
	Retired string
}

// stagePages are the pages that document each stage's codes.
var stagePages = map[Stage]string{
	StageSyntax: "docs/diagnostics.md",
	StageCheck:  "docs/diagnostics.md",
	StageLoad:   "docs/diagnostics.md",
	StageTarget: "docs/schema.md",
	StageGen:    "docs/codegen.md",
	StageDiff:   "docs/diff.md",
	StageImport: "docs/import.md",
}

// registry lists every code, in the order of its documentation; init
// gives each row its page and indexes it.
var registry = []CodeInfo{
	{Code: CodeSyntax, Stage: StageSyntax, Severity: Error},
	{Code: CodeTextualSignature, Stage: StageSyntax, Severity: Error, Exact: true},
	{Code: CodeInlineRecord, Stage: StageSyntax, Severity: Error, Exact: true},
	{Code: CodeWrongArrow, Stage: StageSyntax, Severity: Error, Exact: true},
	{Code: CodeHashComment, Stage: StageSyntax, Severity: Error, Exact: true},
	{Code: CodeUnsafeCharacter, Stage: StageSyntax, Severity: Warning},
	{Code: CodeUnknownPattern, Stage: StageCheck, Severity: Warning, Tag: Unnecessary},
	{Code: CodeMalformedDecl, Stage: StageCheck, Severity: Error},
	{Code: CodeMissingName, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidToolName, Stage: StageCheck, Severity: Error},
	{Code: CodeDuplicateDecl, Stage: StageCheck, Severity: Error},
	{Code: CodeToolConflict, Stage: StageCheck, Severity: Error},
	{Code: CodeMissingDescription, Stage: StageCheck, Severity: Error},
	{Code: CodeUnknownProperty, Stage: StageCheck, Severity: Warning, Tag: Unnecessary},
	{Code: CodeDuplicateProperty, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidPropertyValue, Stage: StageCheck, Severity: Error},
	{Code: CodeMissingSignature, Stage: StageCheck, Severity: Error},
	{Code: CodeExtraElement, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidSignature, Stage: StageCheck, Severity: Error},
	{Code: CodeArrowDirection, Stage: StageCheck, Severity: Error},
	{Code: CodeArrowSubject, Stage: StageCheck, Severity: Warning},
	{Code: CodeAnonymousParameter, Stage: StageCheck, Severity: Error, Exact: true},
	{Code: CodeLegacyParamName, Stage: StageCheck, Severity: Warning, Tag: Deprecated, Exact: true},
	{Code: CodeMissingType, Stage: StageCheck, Severity: Error, Exact: true},
	{Code: CodeMultipleTypes, Stage: StageCheck, Severity: Error},
	{Code: CodeUnknownType, Stage: StageCheck, Severity: Error},
	{Code: CodeNonJSONType, Stage: StageCheck, Severity: Error},
	{Code: CodeReservedName, Stage: StageCheck, Severity: Error},
	{Code: CodeMissingElementType, Stage: StageCheck, Severity: Error},
	{Code: CodeInapplicableProperty, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidDefault, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidEnum, Stage: StageCheck, Severity: Error},
	{Code: CodeContradiction, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidPattern, Stage: StageCheck, Severity: Error},
	{Code: CodePatternPortability, Stage: StageCheck, Severity: Warning},
	{Code: CodeUnknownFormat, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidExample, Stage: StageCheck, Severity: Error},
	{Code: CodeNotJSONValue, Stage: StageCheck, Severity: Error},
	{Code: CodeUnquotedString, Stage: StageCheck, Severity: Error, Exact: true},
	{Code: CodeIdentityConflict, Stage: StageCheck, Severity: Error, Tag: Deprecated, Retired: "parameter and field names are local to their tool or type (docs/language.md §2.2)"},
	{Code: CodeDuplicateField, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidField, Stage: StageCheck, Severity: Error},
	{Code: CodeMissingInstruction, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidModel, Stage: StageCheck, Severity: Error},
	{Code: CodeUnknownProvider, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidTemperature, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidMaxIterations, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidMaxTokens, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidToolChoice, Stage: StageCheck, Severity: Error},
	{Code: CodeUnknownTool, Stage: StageCheck, Severity: Error},
	{Code: CodeNotATool, Stage: StageCheck, Severity: Error},
	{Code: CodeDuplicateAgentTool, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidAgentElement, Stage: StageCheck, Severity: Error},
	{Code: CodeInfiniteType, Stage: StageCheck, Severity: Warning},
	{Code: CodePackageConflict, Stage: StageCheck, Severity: Error},
	{Code: CodeNamedReturn, Stage: StageCheck, Severity: Error, Exact: true},
	{Code: CodeUnusedIgnore, Stage: StageCheck, Severity: Warning, Tag: Unnecessary},
	{Code: CodeInvalidTest, Stage: StageCheck, Severity: Error},
	{Code: CodeUnknownAgent, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidTestCall, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidMockResult, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidMatcher, Stage: StageCheck, Severity: Error},
	{Code: CodeDuplicateSignature, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidOutputMode, Stage: StageCheck, Severity: Error},
	{Code: CodeInvalidOutputRetries, Stage: StageCheck, Severity: Error},
	{Code: CodeUnsupportedOutputMode, Stage: StageCheck, Severity: Error},
	{Code: CodeUntypedOutputSetting, Stage: StageCheck, Severity: Warning, Tag: Unnecessary},
	{Code: CodeInvalidTestAnswer, Stage: StageCheck, Severity: Error},
	{Code: CodeAgentCycle, Stage: StageCheck, Severity: Error},
	{Code: CodeAgentNesting, Stage: StageCheck, Severity: Error},
	{Code: CodeAgentNameClash, Stage: StageCheck, Severity: Error},
	{Code: CodeTargetInvalidName, Stage: StageTarget, Severity: Error},
	{Code: CodeTargetInvalidPropertyName, Stage: StageTarget, Severity: Error},
	{Code: CodeTargetRecursiveType, Stage: StageTarget, Severity: Error},
	{Code: CodeTargetStrictFreeFormObject, Stage: StageTarget, Severity: Error},
	{Code: CodeTargetStrictLimit, Stage: StageTarget, Severity: Error},
	{Code: CodeTargetKeywordInDescription, Stage: StageTarget, Severity: Warning},
	{Code: CodeTargetDefaultInDescription, Stage: StageTarget, Severity: Warning},
	{Code: CodeTargetEnumInDescription, Stage: StageTarget, Severity: Warning},
	{Code: CodeTargetSchemaTooLarge, Stage: StageTarget, Severity: Error},
	{Code: CodeTargetUnknown, Stage: StageTarget, Severity: Error},
	{Code: CodeGenNameCollision, Stage: StageGen, Severity: Warning},
	{Code: CodeUnreadableFile, Stage: StageLoad, Severity: Error},
	{Code: CodeInvalidConfig, Stage: StageLoad, Severity: Error},
	{Code: CodeDiffToolRemoved, Stage: StageDiff, Severity: Error},
	{Code: CodeDiffToolAdded, Stage: StageDiff, Severity: Warning},
	{Code: CodeDiffParamRemoved, Stage: StageDiff, Severity: Error},
	{Code: CodeDiffParamAddedRequired, Stage: StageDiff, Severity: Error},
	{Code: CodeDiffParamAddedOptional, Stage: StageDiff, Severity: Warning},
	{Code: CodeDiffParamNowRequired, Stage: StageDiff, Severity: Error},
	{Code: CodeDiffParamNowOptional, Stage: StageDiff, Severity: Warning},
	{Code: CodeDiffTypeChanged, Stage: StageDiff, Severity: Error},
	{Code: CodeDiffConstraintNarrowed, Stage: StageDiff, Severity: Error},
	{Code: CodeDiffConstraintWidened, Stage: StageDiff, Severity: Warning},
	{Code: CodeDiffEnumValueRemoved, Stage: StageDiff, Severity: Error},
	{Code: CodeDiffEnumValueAdded, Stage: StageDiff, Severity: Warning},
	{Code: CodeDiffDefaultChanged, Stage: StageDiff, Severity: Warning},
	{Code: CodeDiffDescriptionChanged, Stage: StageDiff, Severity: Warning},
	{Code: CodeDiffToolDeprecated, Stage: StageDiff, Severity: Warning},
	{Code: CodeDiffResultFieldRemoved, Stage: StageDiff, Severity: Error},
	{Code: CodeDiffResultFieldAdded, Stage: StageDiff, Severity: Warning},
	{Code: CodeDiffEnumOrderChanged, Stage: StageDiff, Severity: Warning},
	{Code: CodeDiffResultFieldNowOptional, Stage: StageDiff, Severity: Error},
	{Code: CodeDiffInvalidIgnore, Stage: StageDiff, Severity: Error},
	{Code: CodeDiffTargetRejected, Stage: StageDiff, Severity: Error},
	{Code: CodeDiffAgentRemoved, Stage: StageDiff, Severity: Error},
	{Code: CodeDiffAgentAdded, Stage: StageDiff, Severity: Warning},
	{Code: CodeImportRenamed, Stage: StageImport, Severity: Warning},
	{Code: CodeImportMissingDescription, Stage: StageImport, Severity: Warning},
	{Code: CodeImportMadeOptional, Stage: StageImport, Severity: Warning},
	{Code: CodeImportUnion, Stage: StageImport, Severity: Warning},
	{Code: CodeImportAllOf, Stage: StageImport, Severity: Warning},
	{Code: CodeImportNot, Stage: StageImport, Severity: Warning},
	{Code: CodeImportConditional, Stage: StageImport, Severity: Warning},
	{Code: CodeImportPatternProperties, Stage: StageImport, Severity: Warning},
	{Code: CodeImportTuple, Stage: StageImport, Severity: Warning},
	{Code: CodeImportOpenObject, Stage: StageImport, Severity: Warning},
	{Code: CodeImportMap, Stage: StageImport, Severity: Warning},
	{Code: CodeImportUntyped, Stage: StageImport, Severity: Warning},
	{Code: CodeImportNestedArray, Stage: StageImport, Severity: Warning},
	{Code: CodeImportRecursiveAlias, Stage: StageImport, Severity: Warning},
	{Code: CodeImportUnsupportedKeyword, Stage: StageImport, Severity: Warning},
	{Code: CodeImportFormat, Stage: StageImport, Severity: Warning},
	{Code: CodeImportInvalidValue, Stage: StageImport, Severity: Warning},
	{Code: CodeImportResultConstraint, Stage: StageImport, Severity: Warning},
	{Code: CodeImportExternalRef, Stage: StageImport, Severity: Warning},
	{Code: CodeImportParameterDropped, Stage: StageImport, Severity: Warning},
	{Code: CodeImportNonJSONBody, Stage: StageImport, Severity: Warning},
	{Code: CodeImportNoJSONResponse, Stage: StageImport, Severity: Warning},
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

// byCode indexes the registry.
var byCode = map[Code]int{}

func init() {
	for i := range registry {
		registry[i].Doc = stagePages[registry[i].Stage]
		byCode[registry[i].Code] = i
	}
}

// Lookup returns code's information.
func Lookup(code Code) (CodeInfo, bool) {
	i, ok := byCode[code]
	if !ok {
		return CodeInfo{}, false
	}
	return registry[i], true
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

// TagOf returns how an editor may render diagnostics of code.
func TagOf(code Code) Tag {
	c, _ := Lookup(code)
	return c.Tag
}

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

// FixOf is how sure d's fix is (FixNone when it has no edit).
func FixOf(d *Diagnostic) FixKind {
	if len(d.Edits()) == 0 {
		return FixNone
	}
	if c, _ := Lookup(d.Code); c.Exact {
		return FixExact
	}
	return FixGuess
}

// ExactFixCodes are the codes whose fix is exact, sorted.
func ExactFixCodes() []Code {
	var out []Code
	for _, c := range registry {
		if c.Exact {
			out = append(out, c.Code)
		}
	}
	slices.Sort(out)
	return out
}
