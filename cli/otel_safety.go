package cli

import (
	"fmt"
	"io"
	"sync"

	"go.opentelemetry.io/otel"

	"github.com/gramc-dev/gramc/internal/redact"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/provider"
)

// keySecrets are the API keys of the environment, as gramc redacts them
// from what it prints and records.
func keySecrets() []redact.Secret {
	var secrets []redact.Secret
	for _, key := range provider.KeyValues() {
		secrets = append(secrets, redact.NewSecret(key))
	}
	return secrets
}

// redactWith removes each of secrets from text.
func redactWith(secrets []redact.Secret, text string) string {
	for _, s := range secrets {
		text = s.String(text)
	}
	return text
}

// keyRedactor removes the API keys of the environment from text, as gramc
// run redacts what it prints: content capture (runtime.WithContentRedactor)
// sends nothing gramc would not show. The keys are read once, not for each
// attribute recorded.
func keyRedactor() func(string) string {
	secrets := keySecrets()
	return func(text string) string { return redactWith(secrets, text) }
}

// maxOTLPErrors bounds the export errors said in one run: a collector that
// is down would otherwise fill the terminal.
const maxOTLPErrors = 5

// reportOTLPErrors says the OpenTelemetry SDK's errors (a collector that
// refuses an export, one that does not answer before exit) on w, one line
// each, through the terminal filter — a collector's error body is not
// gramc's to print raw — and with the API keys redacted.
func reportOTLPErrors(w io.Writer) {
	var mu sync.Mutex
	n := 0
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
		mu.Lock()
		defer mu.Unlock()
		n++
		switch {
		case n <= maxOTLPErrors:
			fmt.Fprintf(w, "gramc: OpenTelemetry export: %s\n", termsafe.Line(redactWith(keySecrets(), err.Error()), 300))
		case n == maxOTLPErrors+1:
			fmt.Fprintf(w, "gramc: OpenTelemetry export: more errors, not shown\n")
		}
	}))
}
