package runtimetest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestFakesRejectDeviations: each fake refuses what its provider refuses,
// with the provider's error status, and reports it as a problem.
func TestFakesRejectDeviations(t *testing.T) {
	anthropicHeader := http.Header{"X-Api-Key": {"k"}, "Anthropic-Version": {AnthropicVersion}, "Content-Type": {"application/json"}}
	geminiHeader := http.Header{"X-Goog-Api-Key": {"k"}, "Content-Type": {"application/json"}}
	responsesHeader := http.Header{"Authorization": {"Bearer k"}, "Content-Type": {"application/json"}}
	const user = `{"role":"user","content":"hi"}`
	const toolUse = `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"f","input":{}}]}`
	tests := []struct {
		provider, name, path string
		header               http.Header
		body, want           string
	}{
		{Anthropic, "no max_tokens", "/v1/messages", anthropicHeader, `{"model":"m","messages":[` + user + `]}`, "max_tokens: Field required"},
		{Anthropic, "no version", "/v1/messages", http.Header{"X-Api-Key": {"k"}, "Content-Type": {"application/json"}}, `{"model":"m","max_tokens":1,"messages":[` + user + `]}`, "anthropic-version"},
		{Anthropic, "unknown field", "/v1/messages", anthropicHeader, `{"model":"m","max_tokens":1,"messages":[` + user + `],"tool_calls":[]}`, "unknown field"},
		{Anthropic, "roles do not alternate", "/v1/messages", anthropicHeader, `{"model":"m","max_tokens":1,"messages":[` + user + `,` + user + `]}`, "alternate"},
		{Anthropic, "empty text block", "/v1/messages", anthropicHeader, `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"text","text":""}]}]}`, "non-empty"},
		{Anthropic, "tool_use unanswered", "/v1/messages", anthropicHeader, `{"model":"m","max_tokens":1,"messages":[` + user + `,` + toolUse + `,` + user + `]}`, "tool_result"},
		{Anthropic, "tool_result after text", "/v1/messages", anthropicHeader, `{"model":"m","max_tokens":1,"messages":[` + user + `,` + toolUse + `,{"role":"user","content":[{"type":"text","text":"x"},{"type":"tool_result","tool_use_id":"toolu_1","content":"r"}]}]}`, "must come first"},
		{Anthropic, "bad tool_use id", "/v1/messages", anthropicHeader, `{"model":"m","max_tokens":1,"messages":[` + user + `,{"role":"assistant","content":[{"type":"tool_use","id":"call.1","name":"f","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"call.1"}]}]}`, "pattern"},
		{Anthropic, "input not an object", "/v1/messages", anthropicHeader, `{"model":"m","max_tokens":1,"messages":[` + user + `,{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":"{}"}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t"}]}]}`, "dictionary"},
		{Anthropic, "temperature over 1", "/v1/messages", anthropicHeader, `{"model":"m","max_tokens":1,"temperature":1.5,"messages":[` + user + `]}`, "temperature"},
		{Gemini, "no alt=sse", "/v1beta/models/g:streamGenerateContent", geminiHeader, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`, "alt=sse"},
		{Gemini, "key in the URL", "/v1beta/models/g:generateContent?key=k", geminiHeader, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`, "in the URL"},
		{Gemini, "response not an object", "/v1beta/models/g:generateContent", geminiHeader, `{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":"ok"}}]}]}`, "must be an object"},
		{Gemini, "responses missing", "/v1beta/models/g:generateContent", geminiHeader, `{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}},{"functionCall":{"name":"f","args":{"a":1}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}}]}]}`, "number of function response parts"},
		{Gemini, "two data fields in a part", "/v1beta/models/g:generateContent", geminiHeader, `{"contents":[{"role":"user","parts":[{"text":"hi","functionResponse":{"name":"f","response":{}}}]}]}`, "exactly one"},
		{Gemini, "$ref in parameters", "/v1beta/models/g:generateContent", geminiHeader, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"tools":[{"functionDeclarations":[{"name":"f","description":"d","parameters":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}}}]}]}`, "Cannot find field"},
		{Gemini, "response without the call's id", "/v1beta/models/g:generateContent", geminiHeader, `{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"id":"fc-1","name":"f","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}}]}]}`, "does not match the id \"fc-1\""},
		{Gemini, "unknown signature", "/v1beta/models/g:generateContent", geminiHeader, `{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"x","thoughtSignature":"forged"}]},{"role":"user","parts":[{"text":"hi"}]}]}`, "not a signature this server issued"},
		{OpenAIResponses, "strict missing", "/v1/responses", responsesHeader, `{"model":"m","input":"hi","tools":[{"type":"function","name":"f","description":"d","parameters":{"type":"object","properties":{}}}]}`, "strict is missing"},
		{OpenAIResponses, "strict schema not strict", "/v1/responses", responsesHeader, `{"model":"m","input":"hi","tools":[{"type":"function","name":"f","description":"d","parameters":{"type":"object","properties":{"a":{"type":"string"}}},"strict":true}]}`, "required"},
		{OpenAIResponses, "output without call", "/v1/responses", responsesHeader, `{"model":"m","input":[{"type":"function_call_output","call_id":"c","output":"r"}]}`, "No tool call found"},
		{OpenAIResponses, "call without output", "/v1/responses", responsesHeader, `{"model":"m","input":[{"role":"user","content":"hi"},{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}]}`, "No tool output found"},
	}
	for _, tt := range tests {
		t.Run(tt.provider+"/"+tt.name, func(t *testing.T) {
			var problems []string
			f := &Fake{Provider: tt.provider, Policy: Echo, Problem: func(err error) { problems = append(problems, err.Error()) }}
			req := httptest.NewRequest(http.MethodPost, tt.path, bytes.NewReader([]byte(tt.body)))
			req.Header = tt.header
			w := httptest.NewRecorder()
			f.ServeHTTP(w, req)
			if w.Code != http.StatusBadRequest {
				t.Errorf("status %d, want 400: %s", w.Code, w.Body)
			}
			if len(problems) != 1 || !strings.Contains(problems[0], tt.want) {
				t.Errorf("problems %q, want one containing %q", problems, tt.want)
			}
		})
	}
}
