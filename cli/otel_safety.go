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

// redactKeys removes the API keys of the environment from text, as gramc
// run redacts what it prints: content capture (runtime.WithContentRedactor)
// sends nothing gramc would not show.
func redactKeys(text string) string {
	for _, key := range provider.KeyValues() {
		text = redact.NewSecret(key).String(text)
	}
	return text
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
			fmt.Fprintf(w, "gramc: OpenTelemetry export: %s\n", termsafe.Line(redactKeys(err.Error()), 300))
		case n == maxOTLPErrors+1:
			fmt.Fprintf(w, "gramc: OpenTelemetry export: more errors, not shown\n")
		}
	}))
}
