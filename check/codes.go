package check

import "github.com/gramc-dev/gramc/diag"

// Codes lists the codes the parser and the checker report, in the order
// of docs/diagnostics.md (the registry, diag.Codes, knows them all).
func Codes() []diag.Code { return diag.CodesOf(diag.StageSyntax, diag.StageCheck) }

// Providers are the model providers an agent's `model` may name, as
// `Provider/model-name`.
var Providers = []string{"OpenAI", "Anthropic", "Gemini", "Ollama"}

// Formats are the `format` values a String parameter may carry.
var Formats = []string{"date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uri", "uuid"}
