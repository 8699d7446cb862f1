package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// The triage agent of docs/language.md §2.6, its schemas as the checker makes
// them.
const (
	triageInput  = `{"type":"object","properties":{"ticket":{"type":"string","minLength":3}},"required":["ticket"],"additionalProperties":false}`
	triageOutput = `{"type":"object","properties":{"priority":{"type":"string","enum":["low","normal","urgent"]},"minutes":{"type":"integer","minimum":0,"maximum":480,"default":30},"summary":{"type":"string"}},"required":["priority","summary"],"additionalProperties":false}`
)

func triageAgent(model, mode string, tools ...runtime.ToolSpecification) runtime.Agent {
	return runtime.Agent{Name: "triage", Model: model, Instruction: "Triage the ticket.", Tools: tools,
		Signature: &runtime.Signature{Input: json.RawMessage(triageInput), Message: "ticket",
			Output: json.RawMessage(triageOutput), OutputName: "Triage", OutputMode: provider.OutputMode(mode)}}
}

var lookupCustomer = runtime.ToolSpecification{Name: "lookupCustomer", Description: "Looks a customer up",
	Schema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`)}

func lookupLib() *runtime.ToolLibrary {
	return runtime.NewToolLibrary(runtime.Tool{Spec: lookupCustomer, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		return `{"plan":"gold"}`, nil
	}})
}

// TestTypedNative: native mode asks for the format, validates the answer,
// applies its defaults, and the Response carries the value beside the
// text.
func TestTypedNative(t *testing.T) {
	m := runtimetest.NewScriptedModel(runtimetest.Say(`{"priority":"urgent","summary":"down"}`))
	resp, err := runtime.Run(context.Background(), m, triageAgent("OpenAI/gpt-4o-mini", ""), nil, "The site is down", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(resp.Value); got != `{"minutes":30,"priority":"urgent","summary":"down"}` {
		t.Errorf("value %s, want the default minutes applied", got)
	}
	if resp.Content != string(resp.Value) || resp.OutputMode != provider.OutputNative || resp.Repairs != 0 {
		t.Errorf("content %q, mode %s, repairs %d", resp.Content, resp.OutputMode, resp.Repairs)
	}
	req := m.Requests()[0]
	if req.Output == nil || req.Output.Name != "Triage" || string(req.Output.Schema) != triageOutput {
		t.Errorf("request's output format: %+v", req.Output)
	}
	if req.Messages[0].Content != "The site is down" {
		t.Errorf("the message of a one-String input is the string: %q", req.Messages[0].Content)
	}
}

// TestTypedRepair: an invalid answer costs exactly one repair turn by
// default, carrying the validation error; a spent budget fails with the
// raw answer.
func TestTypedRepair(t *testing.T) {
	var events []string
	m := runtimetest.NewScriptedModel(runtimetest.Say(`{"priority":"asap","summary":"down"}`), runtimetest.Say(`{"priority":"urgent","summary":"down"}`))
	resp, err := runtime.Run(context.Background(), m, triageAgent("OpenAI/gpt-4o-mini", ""), nil, "The site is down", nil,
		runtime.WithEvents(func(e runtime.Event) {
			if e.Kind == runtime.EventRepair {
				events = append(events, e.Text)
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Repairs != 1 || len(m.Requests()) != 2 || len(events) != 1 {
		t.Fatalf("repairs %d, requests %d, events %v", resp.Repairs, len(m.Requests()), events)
	}
	last := m.Requests()[1].Messages
	if msg := last[len(last)-1]; msg.Role != runtime.RoleUser || !strings.Contains(msg.Content, "at '/priority'") || !strings.Contains(msg.Content, "not a valid Triage") {
		t.Errorf("the repair turn: %+v", msg)
	}

	m = runtimetest.NewScriptedModel(runtimetest.Say(`not json`), runtimetest.Say(`{"priority":"asap"}`), runtimetest.Say(`{"priority":"urgent","summary":"x"}`))
	_, err = runtime.Run(context.Background(), m, triageAgent("OpenAI/gpt-4o-mini", ""), nil, "The site is down", nil)
	var oe *runtime.OutputError
	if !errors.As(err, &oe) || oe.Raw != `{"priority":"asap"}` || oe.Repairs != 1 || len(m.Requests()) != 2 {
		t.Fatalf("spent: %v (%d requests)", err, len(m.Requests()))
	}
	if !strings.Contains(err.Error(), "the answer is not a Triage after 1 repair turn") || !strings.Contains(err.Error(), "missing property 'summary'") {
		t.Errorf("message: %v", err)
	}

	// outputRetries: 0 makes no repair turn.
	zero := 0
	a := triageAgent("OpenAI/gpt-4o-mini", "")
	a.Signature.OutputRetries = &zero
	m = runtimetest.NewScriptedModel(runtimetest.Say(`{}`))
	if _, err := runtime.Run(context.Background(), m, a, nil, "The site is down", nil); !errors.As(err, &oe) || len(m.Requests()) != 1 {
		t.Errorf("outputRetries 0: %v after %d requests", err, len(m.Requests()))
	}
}

// TestTypedToolMode: the final-answer tool joins the agent's tools, with
// a name that cannot collide; the run ends when it is called with a
// valid value; an invalid call is answered with the error beside the
// agent's calls, which run.
func TestTypedToolMode(t *testing.T) {
	clash := runtime.ToolSpecification{Name: "final_answer", Description: "the agent's own",
		Schema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)}
	lib := runtime.NewToolLibrary(
		runtime.Tool{Spec: lookupCustomer, Func: func(ctx context.Context, args json.RawMessage) (any, error) { return "gold", nil }},
		runtime.Tool{Spec: clash, Func: func(ctx context.Context, args json.RawMessage) (any, error) { return "ran", nil }})
	a := triageAgent("Gemini/gemini-2.5-flash", "", lookupCustomer, clash) // auto: tool mode (2.x with tools)
	m := runtimetest.NewScriptedModel(
		runtimetest.CallTools(runtimetest.Call("lookupCustomer", `{"id":"7"}`), runtimetest.Call("final_answer_", `{"priority":"soon","summary":"x"}`)),
		runtimetest.CallTools(runtimetest.Call("final_answer_", `{"priority":"low","summary":"fine"}`), runtimetest.Call("final_answer", `{}`)))
	resp, err := runtime.Run(context.Background(), m, a, lib, "My invoice is wrong", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.OutputMode != provider.OutputTool || string(resp.Value) != `{"minutes":30,"priority":"low","summary":"fine"}` || resp.Repairs != 1 {
		t.Fatalf("mode %s value %s repairs %d", resp.OutputMode, resp.Value, resp.Repairs)
	}
	req := m.Requests()[0]
	if req.Output != nil || req.ToolChoice != "required" || len(req.Tools) != 3 || req.Tools[2].Name != "final_answer_" {
		t.Errorf("tool mode's request: output %v, choice %q, tools %d", req.Output, req.ToolChoice, len(req.Tools))
	}
	second := m.Requests()[1].Messages
	var answered []string
	for _, msg := range second {
		if msg.Role == runtime.RoleTool {
			answered = append(answered, msg.Name+"="+msg.Content)
		}
	}
	if len(answered) != 2 || answered[0] != "lookupCustomer=gold" || !strings.HasPrefix(answered[1], "final_answer_=error: invalid final answer: at '/priority'") {
		t.Errorf("the first turn's results: %q", answered)
	}
	// The conversation stays well formed: every call of the last turn
	// answered, the agent's own final_answer not run.
	conv := resp.Conversation.Messages
	if tail := conv[len(conv)-2:]; tail[0].Content != "accepted" || !strings.HasPrefix(tail[1].Content, "not run") {
		t.Errorf("the final turn's answers: %+v", tail)
	}
	for _, inv := range resp.Invocations {
		if inv.Tool == "final_answer" && inv.Result == "ran" {
			t.Error("the agent's own final_answer ran after the final answer")
		}
	}

	// Without tools of its own the model is made to call that one.
	a = triageAgent("OpenAI/gpt-4o-mini", "tool")
	m = runtimetest.NewScriptedModel(runtimetest.CallTools(runtimetest.Call("final_answer", `{"priority":"low","summary":"fine"}`)))
	if _, err := runtime.Run(context.Background(), m, a, nil, "Hello there", nil); err != nil {
		t.Fatal(err)
	}
	if got := m.Requests()[0].ToolChoice; got != "final_answer" {
		t.Errorf("tool choice %q", got)
	}
}

// TestTypedWrapped: a non-object output travels wrapped as {"value": ...}
// where the provider needs an object, and comes back bare.
func TestTypedWrapped(t *testing.T) {
	a := triageAgent("OpenAI/gpt-4o-mini", "")
	a.Signature.Output = json.RawMessage(`{"type":"string","enum":["low","normal","urgent"]}`)
	a.Signature.OutputName = "Priority"
	m := runtimetest.NewScriptedModel(runtimetest.Say(`"urgent"`), runtimetest.Say(`{"value":"urgent"}`))
	resp, err := runtime.Run(context.Background(), m, a, nil, "The site is down", nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Value) != `"urgent"` || resp.Repairs != 1 {
		t.Errorf("value %s after %d repairs", resp.Value, resp.Repairs)
	}
	want := `{"type":"object","properties":{"value":{"enum":["low","normal","urgent"],"type":"string"}},"required":["value"],"additionalProperties":false}`
	if got := string(m.Requests()[0].Output.Schema); got != want {
		t.Errorf("wrapped schema\n%s\nwant\n%s", got, want)
	}
	var p string
	if _, _, err := runtime.RunTyped[string](context.Background(), m, a, nil, "x", nil); err == nil {
		t.Error("a script beyond its steps should fail")
	}
	m = runtimetest.NewScriptedModel(runtimetest.CallTools(runtimetest.Call("final_answer", `{"value":"low"}`)))
	a.Signature.OutputMode = provider.OutputTool
	p, resp, err = runtime.RunTyped[string](context.Background(), m, a, nil, "The site is fine", nil)
	if err != nil || p != "low" || string(resp.Value) != `"low"` {
		t.Errorf("tool mode, wrapped: %q %v", p, err)
	}
}

// TestTypedPrompted: prompted mode puts the schema in the instruction and
// finds the value leniently, saying how.
func TestTypedPrompted(t *testing.T) {
	a := triageAgent("OpenAI/gpt-4o-mini", "prompted")
	m := runtimetest.NewScriptedModel(runtimetest.Say("Here it is:\n```json\n{\"priority\":\"low\",\"summary\":\"ok\"}\n```\nBye."))
	type triage struct {
		Priority string
		Minutes  int
		Summary  string
	}
	v, resp, err := runtime.RunTyped[triage](context.Background(), m, a, nil, "A small typo", nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Priority != "low" || v.Minutes != 30 || resp.Lenient != "the value was found in a fenced code block" {
		t.Errorf("%+v, lenient %q", v, resp.Lenient)
	}
	if req := m.Requests()[0]; req.Output != nil || !strings.Contains(req.Instruction, triageOutput) {
		t.Errorf("prompted request: output %v, instruction %q", req.Output, req.Instruction)
	}
	// Native mode is strict: the same answer is a repair turn.
	m = runtimetest.NewScriptedModel(runtimetest.Say("```json\n{\"priority\":\"low\",\"summary\":\"ok\"}\n```"), runtimetest.Say(`{"priority":"low","summary":"ok"}`))
	resp, err = runtime.Run(context.Background(), m, triageAgent("OpenAI/gpt-4o-mini", "native"), nil, "A small typo", nil)
	if err != nil || resp.Repairs != 1 || resp.Lenient != "" {
		t.Errorf("native, fenced: %v, %d repairs", err, resp.Repairs)
	}
}

// TestTypedRefusal: a refusal is reported as one, without a repair turn.
func TestTypedRefusal(t *testing.T) {
	m := runtimetest.NewScriptedModel(func(*runtime.Request) (*runtime.Completion, error) {
		return &runtime.Completion{Message: runtime.Message{Content: "I can't help with that."}, StopReason: runtime.StopRefusal}, nil
	})
	_, err := runtime.Run(context.Background(), m, triageAgent("OpenAI/gpt-4o-mini", ""), nil, "Something bad", nil)
	var oe *runtime.OutputError
	if !errors.As(err, &oe) || !oe.Refused || oe.Raw != "I can't help with that." || len(m.Requests()) != 1 {
		t.Fatalf("refusal: %v", err)
	}
	if !strings.Contains(err.Error(), "the model refused to answer with a Triage") {
		t.Errorf("message %q", err)
	}
}

// TestTypedInput: the input is validated before anything is sent, and a
// JSON-object input travels with its defaults.
func TestTypedInput(t *testing.T) {
	m := runtimetest.NewScriptedModel()
	_, err := runtime.Run(context.Background(), m, triageAgent("OpenAI/gpt-4o-mini", ""), nil, "hi", nil)
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), "parameter ticket") || len(m.Requests()) != 0 {
		t.Fatalf("short ticket: %v", err)
	}
	a := triageAgent("OpenAI/gpt-4o-mini", "")
	a.Signature.Message = ""
	a.Signature.Input = json.RawMessage(`{"type":"object","properties":{"ticket":{"type":"string"},"customer":{"type":"integer","minimum":1}, "lang":{"type":"string","default":"en"}},"required":["ticket","customer"],"additionalProperties":false}`)
	for input, want := range map[string]string{
		`{"ticket":"x","customer":0}`:              "parameter customer: minimum",
		`{"ticket":"x"}`:                           "missing property 'customer'",
		`the site is down`:                         "takes its arguments as a JSON object",
		`{"ticket":"x","customer":1,"extra":true}`: "additional properties 'extra' not allowed",
	} {
		if _, err := runtime.Run(context.Background(), m, a, nil, input, nil); !errors.As(err, &ve) || !strings.Contains(err.Error(), want) {
			t.Errorf("input %s: %v, want %q", input, err, want)
		}
	}
	if len(m.Requests()) != 0 {
		t.Fatal("a bad input was sent")
	}
	m = runtimetest.NewScriptedModel(runtimetest.Say(`{"priority":"low","summary":"ok"}`))
	if _, err := runtime.Run(context.Background(), m, a, nil, `{"ticket":"x","customer":3}`, nil); err != nil {
		t.Fatal(err)
	}
	if got := m.Requests()[0].Messages[0].Content; got != `{"customer":3,"lang":"en","ticket":"x"}` {
		t.Errorf("the message of an arguments input: %s", got)
	}
}

// TestDecodeAnswer: strict decoding takes one JSON value and nothing
// else; lenient decoding finds it in a fence or in prose; hostile answers
// are clear errors.
func TestDecodeAnswer(t *testing.T) {
	for _, c := range []struct {
		text    string
		lenient bool
		how     string // "" for the whole text
		err     string // "" for a value
	}{
		{` {"a":1} `, false, "", ""},
		{`{"a":1} trailing`, false, "", "the answer is not a JSON value"},
		{"```json\n[1,2]\n```", true, "the value was found in a fenced code block", ""},
		{"Sure! {\"a\": [1, 2]} Hope that helps.", true, "the value was found inside prose", ""},
		{"no value here", true, "", "the answer holds no JSON value"},
		{`{"a":`, true, "", "the answer holds no JSON value"},
		{"", false, "", "the answer is empty"},
		{strings.Repeat("[", 100) + strings.Repeat("]", 100), false, "", "nests deeper than 64 levels"},
		{`{"n":` + strings.Repeat("9", 500) + `}`, false, "", "numbers are limited to 400"},
		{strings.Repeat(" ", runtime.MaxAnswerBytes+1), false, "", "answers are limited to"},
	} {
		_, how, err := runtime.DecodeAnswer(c.text, c.lenient)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) || how != c.how {
			t.Errorf("DecodeAnswer(%.40q, %v) = %q, %v; want %q, %q", c.text, c.lenient, how, err, c.how, c.err)
		}
	}
}

// TestAgentTool: a listed agent is a tool whose call runs it in a fresh
// conversation: its typed value (or text) is the result, its failure the
// tool's error, which the listing agent's model is told.
func TestAgentTool(t *testing.T) {
	listed := triageAgent("OpenAI/gpt-4o-mini", "")
	spec := runtime.ToolSpecification{Name: "triage", Description: "Triages a support ticket", Schema: json.RawMessage(triageInput)}
	inner := runtimetest.NewScriptedModel(runtimetest.Say(`{"priority":"low","summary":"ok"}`))
	parent := runtime.Agent{Name: "dispatcher", Model: "OpenAI/gpt-4o-mini", Instruction: "Dispatch.", Tools: []runtime.ToolSpecification{spec}, Agents: []runtime.Agent{listed}}
	lib := runtime.NewToolLibrary(runtime.AgentTool(spec, listed, inner, nil))
	outer := runtimetest.NewScriptedModel(runtimetest.CallTools(runtimetest.Call("triage", `{"ticket":"The site is down"}`)), runtimetest.Say("Routed."))
	resp, err := runtime.Run(context.Background(), outer, parent, lib, "Route this", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Invocations[0].Result; got != `{"minutes":30,"priority":"low","summary":"ok"}` {
		t.Errorf("the listed agent's result %s", got)
	}
	if msgs := inner.Requests()[0].Messages; len(msgs) != 1 || msgs[0].Content != "The site is down" {
		t.Errorf("the listed agent's conversation %+v, want a fresh one with the ticket", msgs)
	}
	// Its failure is the tool's error, told to the model.
	inner = runtimetest.NewScriptedModel(runtimetest.Say(`nope`), runtimetest.Say(`nope`))
	lib = runtime.NewToolLibrary(runtime.AgentTool(spec, listed, inner, nil))
	outer = runtimetest.NewScriptedModel(runtimetest.CallTools(runtimetest.Call("triage", `{"ticket":"The site is down"}`)), runtimetest.Say("Could not."))
	resp, err = runtime.Run(context.Background(), outer, parent, lib, "Route this", nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := resp.Invocations[0].Err; e == nil || !strings.Contains(e.Error(), "agent triage: the answer is not a Triage after 1 repair turn") {
		t.Errorf("the listed agent's failure: %v", e)
	}
}

// TestTypedOversizedAnswerNotRepaired (issue 44.5): an answer over
// MaxAnswerBytes fails the run at once, however many repair turns the
// agent allows, instead of being sent back (and uploaded again) on each.
func TestTypedOversizedAnswerNotRepaired(t *testing.T) {
	for _, mode := range []string{"native", "tool"} {
		t.Run(mode, func(t *testing.T) {
			big := `{"priority":"urgent","summary":"` + strings.Repeat("x", runtime.MaxAnswerBytes) + `"`
			step := runtimetest.Say(big)
			if mode == "tool" {
				step = runtimetest.CallTools(runtimetest.Call("final_answer", big))
			}
			m := runtimetest.NewScriptedModel(step, step, step, step)
			agent := triageAgent("OpenAI/gpt-4o-mini", mode)
			nine := 9
			agent.Signature.OutputRetries = &nine
			_, err := runtime.Run(context.Background(), m, agent, nil, "The site is down", nil)
			var oe *runtime.OutputError
			if !errors.As(err, &oe) || !strings.Contains(oe.Message, "limited to") {
				t.Fatalf("error %v, want the output error of an answer over the limit", err)
			}
			if n := len(m.Requests()); n != 1 {
				t.Errorf("%d requests: the oversized answer was sent back %d times", n, n-1)
			}
		})
	}
}

// TestTypedSeveralFinalAnswers (issue 44, Low): a response with several
// final-answer calls ends the run only when they agree; an invalid one
// beside a valid one, or two different ones, is a repair turn in which
// every final-answer call is told why (never "unknown tool").
func TestTypedSeveralFinalAnswers(t *testing.T) {
	valid, other := `{"priority":"urgent","summary":"down"}`, `{"priority":"low","summary":"fine"}`
	for _, tc := range []struct {
		name    string
		answers []string
		repairs int
	}{
		{"same twice", []string{valid, valid}, 0},
		{"invalid then valid", []string{`{"priority":"nope"}`, valid}, 1},
		{"two different", []string{valid, other}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls []runtime.ToolCall
			for i, a := range tc.answers {
				calls = append(calls, runtime.ToolCall{ID: fmt.Sprintf("f%d", i), Name: "final_answer", Arguments: a})
			}
			m := runtimetest.NewScriptedModel(runtimetest.CallTools(calls...), runtimetest.CallTools(runtimetest.Call("final_answer", valid)))
			resp, err := runtime.Run(context.Background(), m, triageAgent("OpenAI/gpt-4o-mini", "tool"), nil, "The site is down", nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Repairs != tc.repairs || !strings.Contains(string(resp.Value), `"priority":"urgent","summary":"down"`) {
				t.Errorf("repairs %d, value %s; want %d and %s with its defaults", resp.Repairs, resp.Value, tc.repairs, valid)
			}
			for _, inv := range resp.Invocations {
				if inv.Err != nil && strings.Contains(inv.Err.Error(), "unknown tool") {
					t.Errorf("a final answer was answered %q", inv.Err)
				}
			}
		})
	}
}
