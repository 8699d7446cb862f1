package cli

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/provider"

	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
	"github.com/gramc-dev/gramc/runtime/openai"
)

// requestTargets are the targets --request encodes for: each names the
// provider whose client encodes the request, and a client option.
var requestTargets = map[string]struct {
	model string
	opts  []clientopt.Option
}{
	"openai":           {model: "OpenAI/"},
	"openai-strict":    {model: "OpenAI/"},
	"openai-responses": {model: "OpenAI/", opts: []clientopt.Option{openai.WithMode(openai.ResponsesMode)}},
	"anthropic":        {model: "Anthropic/"},
	"gemini":           {model: "Gemini/"},
}

// conversationKeys are the request fields that hold the conversation,
// left out of what --request prints.
var conversationKeys = []string{"messages", "input", "contents"}

// runSchemaRequest prints the request an agent's first turn sends,
// without its conversation: what goes on the wire for its tools, tool
// choice and output format, for its provider or the target named.
func runSchemaRequest(e *env, opts schemaOptions, target string, args []string) error {
	if opts.agent == "" {
		return usageErrorf("--request needs --agent NAME")
	}
	if len(args) == 0 {
		args = []string{"./..."}
	}
	pkgs, err := loadPackages(e, args)
	if err != nil {
		return err
	}
	ca, err := gramfile.FindAgent(pkgs, opts.agent)
	if err != nil {
		return usageErrorf("%v", err)
	}
	agent, err := gramfile.AgentFromCheck(ca)
	if err != nil {
		return &exitError{code: ExitProblem, err: err}
	}
	if opts.model != "" {
		if target != "" {
			return usageErrorf("--model names the provider: give --model or --target, not both")
		}
		if _, ok := provider.Of(opts.model); !ok {
			return usageErrorf("--model %s: unknown provider; known: %s", termsafe.Line(opts.model, 100), provider.Known())
		}
		agent.Model = opts.model
	}
	model := agent.Model
	var copts []clientopt.Option
	if target != "" {
		t, ok := requestTargets[target]
		if !ok {
			return usageErrorf("--target %s: --request encodes a provider's request: one of openai, openai-strict, openai-responses, anthropic, gemini", target)
		}
		_, name := runtime.SplitModel(agent.Model)
		model, copts = t.model+name, t.opts
		// The agent moves to the target's provider: its auto output mode
		// is that provider's.
		agent.Model = model
	}
	req, err := runtime.FirstRequest(agent)
	if err != nil {
		return &exitError{code: ExitProblem, err: err}
	}
	// Nothing is sent: the client only encodes. A key keeps a client that
	// needs one from refusing to be made.
	p := clients.Row(model)
	copts = append(copts, clientopt.WithAPIKey("unused"))
	if p.BaseURL == "" {
		copts = append(copts, clientopt.WithBaseURL("http://localhost/v1"))
	}
	m, err := clients.New(model, copts...)
	if err != nil {
		return &exitError{code: ExitUsage, err: err}
	}
	enc, ok := m.(interface {
		EncodeRequest(*runtime.Request) ([]byte, error)
	})
	if !ok {
		return &exitError{code: ExitProblem, err: fmt.Errorf("the %s client encodes no request", p.Client)}
	}
	body, err := enc.EncodeRequest(req)
	if err != nil {
		return &exitError{code: ExitProblem, err: err}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return &exitError{code: ExitProblem, err: err}
	}
	for _, k := range conversationKeys {
		delete(fields, k)
	}
	out, err := marshalOrdered(body, fields)
	if err != nil {
		return &exitError{code: ExitProblem, err: err}
	}
	_, err = e.stdout.Write(out)
	return err
}

// marshalOrdered writes fields indented in the order their keys have in
// body (the client's order, not Go's sorted one), ending in a newline.
func marshalOrdered(body []byte, fields map[string]json.RawMessage) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var order []string
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
		if key, _ := k.(string); fields[key] != nil {
			order = append(order, key)
		}
	}
	var b bytes.Buffer
	b.WriteString("{")
	for i, k := range order {
		if i > 0 {
			b.WriteString(",")
		}
		name, _ := json.Marshal(k)
		b.Write(name)
		b.WriteString(":")
		b.Write(fields[k])
	}
	b.WriteString("}")
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteString("\n")
	return out.Bytes(), nil
}
