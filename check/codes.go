package check

import "github.com/gramc-dev/gramc/diag"

// Diagnostic codes reported by the checker (and, for CodeSyntax, by the
// parser). Codes are stable and append-only; each is documented with an
// example in docs/diagnostics.md.
const (
	CodeSyntax               diag.Code = "syntax"
	CodeTextualSignature     diag.Code = "textual-signature"
	CodeInlineRecord         diag.Code = "inline-record"
	CodeUnknownPattern       diag.Code = "unknown-pattern"
	CodeMalformedDecl        diag.Code = "malformed-declaration"
	CodeMissingName          diag.Code = "missing-name"
	CodeInvalidToolName      diag.Code = "invalid-tool-name"
	CodeDuplicateDecl        diag.Code = "duplicate-declaration"
	CodeToolConflict         diag.Code = "tool-conflict"
	CodeMissingDescription   diag.Code = "missing-description"
	CodeUnknownProperty      diag.Code = "unknown-property"
	CodeDuplicateProperty    diag.Code = "duplicate-property"
	CodeInvalidPropertyValue diag.Code = "invalid-property-value"
	CodeMissingSignature     diag.Code = "missing-signature"
	CodeExtraElement         diag.Code = "extra-element"
	CodeInvalidSignature     diag.Code = "invalid-signature"
	CodeArrowDirection       diag.Code = "arrow-direction"
	CodeArrowSubject         diag.Code = "arrow-subject"
	CodeAnonymousParameter   diag.Code = "anonymous-parameter"
	CodeLegacyParamName      diag.Code = "legacy-param-name"
	CodeMissingType          diag.Code = "missing-type"
	CodeMultipleTypes        diag.Code = "multiple-types"
	CodeUnknownType          diag.Code = "unknown-type"
	CodeNonJSONType          diag.Code = "non-json-type"
	CodeReservedName         diag.Code = "reserved-name"
	CodeMissingElementType   diag.Code = "missing-element-type"
	CodeInapplicableProperty diag.Code = "inapplicable-property"
	CodeInvalidDefault       diag.Code = "invalid-default"
	CodeInvalidEnum          diag.Code = "invalid-enum"
	CodeContradiction        diag.Code = "contradictory-constraints"
	CodeInvalidPattern       diag.Code = "invalid-pattern"
	CodePatternPortability   diag.Code = "pattern-portability"
	CodeUnknownFormat        diag.Code = "unknown-format"
	CodeInvalidExample       diag.Code = "invalid-example"
	CodeNotJSONValue         diag.Code = "not-json-value"
	CodeUnquotedString       diag.Code = "unquoted-string"
	CodeIdentityConflict     diag.Code = "identity-conflict"
	CodeDuplicateField       diag.Code = "duplicate-field"
	CodeInvalidField         diag.Code = "invalid-field"
	CodeMissingInstruction   diag.Code = "missing-instruction"
	CodeInvalidModel         diag.Code = "invalid-model"
	CodeUnknownProvider      diag.Code = "unknown-provider"
	CodeInvalidTemperature   diag.Code = "invalid-temperature"
	CodeInvalidMaxIterations diag.Code = "invalid-max-iterations"
	CodeInvalidToolChoice    diag.Code = "invalid-tool-choice"
	CodeUnknownTool          diag.Code = "unknown-tool"
	CodeNotATool             diag.Code = "not-a-tool"
	CodeDuplicateAgentTool   diag.Code = "duplicate-agent-tool"
	CodeInvalidAgentElement  diag.Code = "invalid-agent-element"
	CodeInfiniteType         diag.Code = "infinite-type"
	CodePackageConflict      diag.Code = "package-conflict"
	CodeNamedReturn          diag.Code = "named-return"
)

// Retired are codes the checker no longer reports, with why. Codes are
// append-only: a retired code keeps its meaning and is never reused.
var Retired = map[diag.Code]string{
	CodeIdentityConflict: "parameter and field names are local to their tool or type (LANGUAGE.md §2.2)",
}

// Codes lists every code the checker can report, in the order of
// docs/diagnostics.md.
var Codes = []diag.Code{
	CodeSyntax, CodeTextualSignature, CodeInlineRecord, CodeUnknownPattern,
	CodeMalformedDecl, CodeMissingName, CodeInvalidToolName, CodeDuplicateDecl,
	CodeToolConflict, CodeMissingDescription, CodeUnknownProperty,
	CodeDuplicateProperty, CodeInvalidPropertyValue, CodeMissingSignature,
	CodeExtraElement, CodeInvalidSignature, CodeArrowDirection, CodeArrowSubject,
	CodeAnonymousParameter, CodeLegacyParamName, CodeMissingType,
	CodeMultipleTypes, CodeUnknownType, CodeNonJSONType, CodeReservedName,
	CodeMissingElementType, CodeInapplicableProperty, CodeInvalidDefault,
	CodeInvalidEnum, CodeContradiction, CodeInvalidPattern,
	CodePatternPortability, CodeUnknownFormat, CodeInvalidExample,
	CodeNotJSONValue, CodeUnquotedString, CodeIdentityConflict,
	CodeDuplicateField, CodeInvalidField, CodeMissingInstruction,
	CodeInvalidModel, CodeUnknownProvider, CodeInvalidTemperature,
	CodeInvalidMaxIterations, CodeInvalidToolChoice, CodeUnknownTool,
	CodeNotATool, CodeDuplicateAgentTool, CodeInvalidAgentElement,
	CodeInfiniteType, CodePackageConflict, CodeNamedReturn, CodeUnusedIgnore,
}

// Providers are the model providers an agent's `model` may name, as
// `Provider/model-name`.
var Providers = []string{"OpenAI", "Anthropic", "Gemini", "Ollama"}

// Formats are the `format` values a String parameter may carry.
var Formats = []string{"date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uri", "uuid"}
