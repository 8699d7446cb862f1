package check

import (
	"github.com/gramc-dev/gramc/provider"
)

// Owner is what a record describes: which declarations a property belongs to.
type Owner string

// The owners of properties.
const (
	OnTool   Owner = "tool"
	OnParam  Owner = "parameter" // a parameter, a field or a return type
	OnType   Owner = "type"
	OnEnum   Owner = "enum"
	OnAgent  Owner = "agent"
	OnTest   Owner = "test"
	OnCall   Owner = "call"   // an expected call of a test: (::Call {...})
	OnHeader Owner = "header" // the document header record
)

// PropertyInfo is what gramc knows of one property: where it may be
// written, which types it applies to (parameters only; nil: all) and what
// it means. The table properties is the one place this is written: the
// checker's lists of known properties, the language server's hover and
// completion, and the docs' tables come from it.
type PropertyInfo struct {
	Name  string
	Owner Owner
	Kinds []Kind // for OnParam: the types it applies to; nil means every type
	Doc   string
}

var properties = []PropertyInfo{
	{"package", OnHeader, nil, "The package's name (a string). The files of a directory form one package with one name."},

	{"description", OnTool, nil, "Required. What the tool does, for the model: becomes the function's description."},
	{"title", OnTool, nil, "A human-readable title (MCP's tool title)."},
	{"strict", OnTool, nil, "true or false: this tool's OpenAI strict-mode flag (structured outputs), overriding the target's default."},
	{"deprecated", OnTool, nil, "true marks the tool deprecated (MCP _meta, generated Go's Deprecated comment)."},

	{"description", OnParam, nil, "JSON Schema description: what the value means, for the model."},
	{"default", OnParam, nil, "The value used when the argument is absent; makes the parameter optional. Must type-check against the type."},
	{"optional", OnParam, nil, "true makes the parameter optional without a default."},
	{"enum", OnParam, []Kind{String, Integer, Number}, "The allowed values, scalars of the parameter's type: enum: [\"a\", \"b\"]."},
	{"range", OnParam, []Kind{Integer, Number}, "Bounds as gram sugar for minimum and maximum: 1..10, or half-open 1... and ...10."},
	{"minimum", OnParam, []Kind{Integer, Number}, "The smallest allowed value (inclusive)."},
	{"maximum", OnParam, []Kind{Integer, Number}, "The largest allowed value (inclusive)."},
	{"exclusiveMinimum", OnParam, []Kind{Integer, Number}, "Values must be greater than this."},
	{"exclusiveMaximum", OnParam, []Kind{Integer, Number}, "Values must be less than this."},
	{"minLength", OnParam, []Kind{String}, "The shortest allowed string, in characters."},
	{"maxLength", OnParam, []Kind{String}, "The longest allowed string, in characters."},
	{"pattern", OnParam, []Kind{String}, "A regular expression the string must match (ECMA-262 subset portable across providers)."},
	{"format", OnParam, []Kind{String}, "A JSON Schema format: date-time, date, time, duration, email, hostname, ipv4, ipv6, uri or uuid."},
	{"minItems", OnParam, []Kind{Array}, "The fewest allowed elements."},
	{"maxItems", OnParam, []Kind{Array}, "The most allowed elements."},
	{"uniqueItems", OnParam, []Kind{Array}, "true requires the elements to be distinct."},
	{"elementType", OnParam, []Kind{Array}, "The element type of an Array: a built-in type or a declared :Type or :Enum (String or \"String\")."},
	{"examples", OnParam, nil, "Example values (JSON Schema examples), each of the parameter's type."},
	{"deprecated", OnParam, nil, "true marks the parameter deprecated (JSON Schema deprecated)."},
	{"paramName", OnParam, nil, "Legacy: the parameter's name on an anonymous node. Write the name as the node's identifier instead: (city::String)."},

	{"description", OnType, nil, "What the record means (JSON Schema description of its definition)."},

	{"values", OnEnum, nil, "Required. The enum's values: all strings or all integers."},
	{"description", OnEnum, nil, "What the enum means."},

	{"description", OnAgent, nil, "What the agent does."},
	{"instruction", OnAgent, nil, "Required. The agent's system prompt."},
	{"model", OnAgent, nil, "Required. Provider/model-name, e.g. \"OpenAI/gpt-4o-mini\" (providers: " + provider.Known() + ")."},
	{"temperature", OnAgent, nil, "Sampling temperature, 0 to 2."},
	{"maxIterations", OnAgent, nil, "The most model turns one run may take (a positive integer; the runtime's default is 10)."},
	{"maxTokens", OnAgent, nil, "The budget of tokens, input and output, of one run, its listed agents' included (a positive integer; no limit when left out)."},
	{"toolChoice", OnAgent, nil, "\"auto\", \"none\", \"required\" or the name of one of the agent's tools."},
	{"outputMode", OnAgent, nil, "How a typed agent's model is held to its output type: \"auto\" (the default: the best mode its provider and model support with its tools), \"native\" (the provider's structured output), \"tool\" (a final-answer tool) or \"prompted\" (the schema in the instructions)."},
	{"outputRetries", OnAgent, nil, "How many times an answer that is not a value of the output type is sent back with the validation error (a non-negative integer; the default is 1)."},

	{"agent", OnTest, nil, "Required. The name of the agent under test (a string)."},
	{"input", OnTest, nil, "Required. The user's message the agent runs on, or a map of the agent's arguments (for an agent whose input is not one String parameter, the arguments: as a map, or as one JSON object in a string)."},
	{"answer", OnTest, nil, "The typed result of a typed agent: a scalar it must equal, or a map whose keys it must have, each equal (as JSON)."},
	{"description", OnTest, nil, "What the test shows."},
	{"answerContains", OnTest, nil, "Text the answer must contain: a string, or an array of strings that must each appear."},
	{"answerMatches", OnTest, nil, "A regular expression (RE2, Go's syntax) the answer must match, e.g. \"(?i)hello, alice\"."},
	{"calls", OnTest, nil, "How the :Call elements are compared with the calls made: \"inOrder\" (the default) or \"anyOrder\"."},
	{"results", OnTest, nil, "Where tool results come from: \"mock\" (each :Call's returns; the default), \"bound\" (the tools' implementations run) or \"cassette\" (recorded from the implementations, replayed without running them)."},
	{"cassette", OnTest, nil, "The cassette of the model's traffic, relative to the file (default testdata/<test>.cassette)."},
	{"ignoreRequests", OnTest, nil, "JSON paths of the request bodies a replay does not compare, e.g. [\"$.temperature\", \"$.metadata\"]: a change there does not fail the test (VCR's match_on)."},

	{"tool", OnCall, nil, "Required. The tool the agent calls (one of its tools)."},
	{"args", OnCall, nil, "A map of the arguments the call must have (a subset; others may be present): args: {city: \"Paris\"}."},
	{"returns", OnCall, nil, "The call's mocked result, a value of the tool's return type (a map for a :Type): no tool runs."},
}

// Properties returns every property gramc knows, grouped by owner, in the
// order of the documentation. The slice is a copy.
func Properties() []PropertyInfo { return append([]PropertyInfo(nil), properties...) }

// LookupProperty returns the property name of owner.
func LookupProperty(owner Owner, name string) (PropertyInfo, bool) {
	for _, p := range properties {
		if p.Owner == owner && p.Name == name {
			return p, true
		}
	}
	return PropertyInfo{}, false
}

// propertyNames lists each owner's property names, in table order: the
// properties the checker knows on a declaration or record of that owner.
var propertyNames = func() map[Owner][]string {
	m := map[Owner][]string{}
	for _, p := range properties {
		m[p.Owner] = append(m[p.Owner], p.Name)
	}
	return m
}()
