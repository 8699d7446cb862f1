package runtimetest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCheckRequestRejectsMalformed(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"not json", `{"model":`, "not valid JSON"},
		{"no messages", `{"model":"m","messages":[]}`, "messages"},
		{"no model", `{"messages":[{"role":"user","content":"hi"}]}`, "model"},
		{"bad role", `{"model":"m","messages":[{"role":"robot","content":"hi"}]}`, ""},
		{"tool entry without function", `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function"}]}`, ""},
		{"arguments as object", `{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":{}}}]},{"role":"tool","tool_call_id":"c1","content":"r"}]}`, ""},
		{"unanswered tool call", `{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"user","content":"and?"}]}`, "not answered"},
		{"unknown tool_call_id", `{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"c9","content":"r"}]}`, "c9"},
		{"ends unanswered", `{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`, "unanswered"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckRequest([]byte(tt.body), &ChatRequest{})
			if err == nil {
				t.Fatalf("CheckRequest accepted %s", tt.body)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to mention %q", err, tt.want)
			}
		})
	}
	good := `{"model":"m","messages":[{"role":"system","content":"be nice"},{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"r"}],"tools":[{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object","properties":{}},"strict":false}}]}`
	if err := CheckRequest([]byte(good), &ChatRequest{}); err != nil {
		t.Errorf("CheckRequest rejected a good request: %v", err)
	}
}

func TestChatServerReportsProblems(t *testing.T) {
	var problems []error
	fs := &chatServer{Handler: func(*ChatRequest, int) Reply { return TextReply("hi") }, Problem: func(err error) { problems = append(problems, err) }}
	rec := httptest.NewRecorder()
	hreq := httptest.NewRequest("POST", "/v1/chat/completions", strings.NewReader(`{"model":"m","messages":[]}`))
	hreq.Header.Set("Content-Type", "application/json")
	fs.ServeHTTP(rec, hreq)
	if rec.Code != http.StatusBadRequest || len(problems) != 1 {
		t.Errorf("malformed request: status %d, %d problems", rec.Code, len(problems))
	}
	var body struct{ Error struct{ Message string } }
	json.Unmarshal(rec.Body.Bytes(), &body)
	if body.Error.Message == "" {
		t.Errorf("400 without an OpenAI error body: %s", rec.Body)
	}
	rec = httptest.NewRecorder()
	fs.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/models", nil))
	if rec.Code != http.StatusNotFound || len(problems) != 2 {
		t.Errorf("wrong endpoint: status %d, %d problems", rec.Code, len(problems))
	}
}

func TestBuildResponseIsValid(t *testing.T) {
	req := &ChatRequest{Model: "gpt-4o-mini", Raw: []byte("{}")}
	for _, r := range []Reply{
		TextReply("hello"),
		TextReply(""),
		ToolCallsReply(FakeCall{Name: "f", Arguments: `{"a":1}`}, FakeCall{ID: "x", Name: "g", Arguments: `{}`}),
		{ToolCalls: []FakeCall{{Name: "f", Arguments: `{}`}}, Legacy: true},
		{Text: "thinking", ToolCalls: []FakeCall{{Name: "f", Arguments: `{}`}}},
	} {
		out := BuildResponse(req, r, 1)
		if err := ValidateResponse(out); err != nil {
			t.Errorf("BuildResponse(%+v) is not a valid CreateChatCompletionResponse: %v\n%s", r, err, out)
		}
	}
	// And the validator does reject a bad one.
	if err := ValidateResponse([]byte(`{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant"},"finish_reason":"stop"}]}`)); err == nil {
		t.Error("ValidateResponse accepted a choice without logprobs and a message without content")
	}
}

func TestEcho(t *testing.T) {
	params := `{"type":"object","properties":{"count":{"type":"integer","minimum":2},"unit":{"$ref":"#/$defs/Unit"},"name":{"type":"string"},"note":{"type":"string"}},"required":["count","unit","name"],"$defs":{"Unit":{"type":"string","enum":["c","f"]}}}`
	if got, want := ArgumentsFor(json.RawMessage(params), "Hello, I am Ada!"), `{"count":2,"unit":"c","name":"Ada"}`; got != want {
		t.Errorf("ArgumentsFor = %s, want %s", got, want)
	}
	content := func(s string) *string { return &s }
	req := &ChatRequest{Model: "m", Messages: []WireMessage{{Role: "user", Content: content("hi Bo")}},
		Tools: []json.RawMessage{json.RawMessage(`{"type":"function","function":{"name":"sayHello","description":"","parameters":{"type":"object","properties":{"personName":{"type":"string"}}},"strict":false}}`)}}
	r := Echo(req.Turn(), 1)
	if len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "sayHello" || r.ToolCalls[0].Arguments != `{"personName":"Bo"}` {
		t.Errorf("first turn = %+v", r)
	}
	req.Messages = append(req.Messages, WireMessage{Role: "assistant"}, WireMessage{Role: "tool", Content: content("Hello, Bo!")})
	if r := Echo(req.Turn(), 2); r.Text != "Hello, Bo!" {
		t.Errorf("after the tool = %+v", r)
	}
	req.Tools = nil
	req.Messages = req.Messages[:1]
	if r := Echo(req.Turn(), 1); r.Text != "You said: hi Bo" {
		t.Errorf("without tools = %+v", r)
	}
}

func TestFakeOpenAIMainFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if code := FakeOpenAIMain([]string{"-nope"}, &out, &errb); code != 2 {
		t.Errorf("bad flag: exit %d", code)
	}
	if code := FakeOpenAIMain([]string{"-addr", "256.0.0.1:99999"}, &out, &errb); code != 1 {
		t.Errorf("bad address: exit %d", code)
	}
}
