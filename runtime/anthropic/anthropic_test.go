package anthropic

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// TestNewConfiguration is parallel to gemini's and openai's: the client
// configured from its row's variables, checked through its internals.
func TestNewConfiguration(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "")
	t.Setenv("ANTHROPIC_BASE_URL", "")
	var ce *runtime.ConfigurationError
	if _, err := New(); !errors.As(err, &ce) || ce.Setting != "ANTHROPIC_API_KEY" {
		t.Errorf("no key: %v", err)
	}
	if _, err := New(clientopt.WithAPIKey("k\nx")); !errors.As(err, &ce) {
		t.Errorf("a key with a line break: %v", err)
	}
	if _, err := New(clientopt.WithAPIKey("k"), clientopt.WithBaseURL("api.anthropic.com")); !errors.As(err, &ce) || ce.Setting != "ANTHROPIC_BASE_URL" {
		t.Errorf("a base URL without a scheme: %v", err)
	}
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-env")
	t.Setenv("ANTHROPIC_BASE_URL", "http://proxy.test/v1")
	c, err := New()
	if err != nil || c.endpoint() != "http://proxy.test/v1/messages" || c.maxTokens != DefaultMaxTokens {
		t.Errorf("from the environment: %v, %q", err, c.endpoint())
	}
	c, _ = New(clientopt.WithBaseURL("http://proxy.test/"), WithMaxTokens(100))
	if c.endpoint() != "http://proxy.test/v1/messages" || c.maxTokens != 100 {
		t.Errorf("endpoint %q, max_tokens %d", c.endpoint(), c.maxTokens)
	}
}

// TestEncodeForeignConversation: a conversation from another provider (IDs
// outside Anthropic's pattern, a call without its result, a result without
// its call, an empty answer, a mid-conversation system message) becomes a
// valid Messages request.
func TestEncodeForeignConversation(t *testing.T) {
	c, _ := New(clientopt.WithAPIKey("k"))
	body, err := c.EncodeRequest(&runtime.Request{Model: "Anthropic/claude", Instruction: "Be brief.", Messages: []runtime.Message{
		{Role: runtime.RoleUser, Content: "hi"},
		{Role: runtime.RoleSystem, Content: "Mind the user."},
		{Role: runtime.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "fc.1/x", Name: "f", Arguments: `{"a":1}`}, {ID: "", Name: "g", Arguments: `not json`}}},
		{Role: runtime.RoleTool, ToolCallID: "fc.1/x", Name: "f", Content: "ok"},
		{Role: runtime.RoleTool, ToolCallID: "zzz", Name: "h", Content: "stray", IsError: true},
		{Role: runtime.RoleAssistant},
		{Role: runtime.RoleUser, Content: "and?"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"claude","max_tokens":4096,"system":"Be brief.\n\nMind the user.","messages":[` +
		`{"role":"user","content":[{"type":"text","text":"hi"}]},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"fc_1_x","name":"f","input":{"a":1}},{"type":"tool_use","id":"toolu_gramc_2_1","name":"g","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"fc_1_x","content":"ok"},` +
		`{"type":"tool_result","tool_use_id":"toolu_gramc_2_1","content":"error: no result was recorded for this call of g","is_error":true},` +
		`{"type":"text","text":"(result of tool h) stray"},{"type":"text","text":"and?"}]}]}`
	if string(body) != want {
		t.Errorf("body\n%s\nwant\n%s", body, want)
	}
	if _, err := c.EncodeRequest(&runtime.Request{Temperature: ptr(1.5), Messages: []runtime.Message{{Role: runtime.RoleUser, Content: "hi"}}}); err == nil {
		t.Error("temperature 1.5 accepted")
	}
}

func ptr(f float64) *float64 { return &f }

func TestStreamErrors(t *testing.T) {
	tests := []struct{ name, stream, want string }{
		{"overloaded mid-stream", "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\nevent: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n", "anthropic: error in the stream: Overloaded"},
		{"no message_stop", "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\n", "no message_stop"},
		{"delta before its block", "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n", "which was not started"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := runtimetest.NewProviderServer(t, runtimetest.Anthropic, runtimetest.Replies(runtimetest.Reply{SSE: tt.stream}))
			c, _ := New(clientopt.WithAPIKey("k"), clientopt.WithBaseURL(srv.URL))
			_, err := c.Stream(context.Background(), &runtime.Request{Model: "m", Messages: []runtime.Message{{Role: runtime.RoleUser, Content: "hi"}}}, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestStopReasons(t *testing.T) {
	for in, want := range map[string]runtime.StopReason{"end_turn": runtime.StopEnd, "tool_use": runtime.StopToolCalls,
		"max_tokens": runtime.StopMaxTokens, "refusal": runtime.StopRefusal, "pause_turn": runtime.StopOther, "stop_sequence": runtime.StopEnd} {
		if got := stopReasons.Of(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
