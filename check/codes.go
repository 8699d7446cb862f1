package check

import (
	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/provider"
)

// Codes lists the codes the parser and the checker report, in the order
// of docs/diagnostics.md (the registry, diag.Codes, knows them all).
func Codes() []diag.Code { return diag.CodesOf(diag.StageSyntax, diag.StageCheck) }

// providers are the model providers an agent's `model` may name, as
// `Provider/model-name`: package provider's table, names and aliases.
var providers = provider.Names()

// formats are the `format` values a String parameter may carry.
var formats = []string{"date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uri", "uuid"}

// Providers returns the model providers an agent's `model` may name.
func Providers() []string { return append([]string(nil), providers...) }

// Formats returns the `format` values a String parameter may carry.
func Formats() []string { return append([]string(nil), formats...) }

// knownProviders names the providers for a message, aliases with their
// provider (provider.Known).
func knownProviders() string { return provider.Known() }
