// Command triage runs triage.gram's typed agent: the answer is a Triage,
// a Go struct, not text.
//
// triage.gram.go is generated from triage.gram (go generate keeps it
// fresh, and `gramc gen --check` in the tests proves it is).
//
// Usage:
//
//	OPENAI_API_KEY=sk-... go run ./examples/triage "ada@example.com: the site is down"
package main

//go:generate go run github.com/gramc-dev/gramc/cmd/gramc gen .

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gramc-dev/gramc/runtime/clients"
)

// main and run are laid out as ../hello/main.go's: each example is a
// program on its own.
func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "triage:", err)
		os.Exit(1)
	}
}

// run triages the ticket given as arguments and prints the result as JSON.
func run(ctx context.Context, args []string, out io.Writer) error {
	ticket := strings.Join(args, " ")
	model, err := clients.New(NewTriage().Model)
	if err != nil {
		return err
	}
	agent := &TriageAgent{Model: model, Tools: NewToolLibrary(Customers{})}
	result, _, err := agent.Run(ctx, ticket)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(result, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", data)
	return err
}
