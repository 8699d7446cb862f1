package cli

import (
	"github.com/spf13/pflag"

	"github.com/gramc-dev/gramc/runtime"
)

// budgetFlags are a run's budget (issue 44.2; runtime/budget.go): what an
// agent and every agent it calls, at any depth, may spend together.
// gramc run and gramc mcp --agents take them; 0 keeps the runtime's
// default (the agent's maxTokens for --max-tokens).
type budgetFlags struct {
	requests, toolCalls, tokens int
}

func (b *budgetFlags) add(f *pflag.FlagSet) {
	f.IntVar(&b.requests, "max-requests", 0, "the run's budget of model requests, its listed agents' included (0: 200)")
	f.IntVar(&b.toolCalls, "max-run-tool-calls", 0, "the run's budget of tool calls, its listed agents' included (0: 1000)")
	f.IntVar(&b.tokens, "max-tokens", 0, "the run's budget of tokens, input and output, its listed agents' included (0: the agent's maxTokens, else none)")
}

// check refuses a negative budget.
func (b *budgetFlags) check() error {
	if b.requests < 0 || b.toolCalls < 0 || b.tokens < 0 {
		return usageErrorf("--max-requests, --max-run-tool-calls and --max-tokens must not be negative (0 keeps the default)")
	}
	return nil
}

func (b *budgetFlags) options() []runtime.Option {
	return []runtime.Option{runtime.WithMaxRequests(b.requests), runtime.WithMaxRunToolCalls(b.toolCalls), runtime.WithMaxTokens(b.tokens)}
}

// budgetHint is how to raise the budget be names.
func budgetHint(be *runtime.BudgetError) string {
	switch be.Resource {
	case runtime.ResourceToolCalls:
		return "raise it with --max-run-tool-calls"
	case runtime.ResourceTokens:
		return "raise it with --max-tokens or the agent's maxTokens"
	}
	return "raise it with --max-requests"
}
