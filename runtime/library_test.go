package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func echoTool(name string) Tool {
	return Tool{
		Spec: ToolSpecification{Name: name, Description: "echo", Schema: json.RawMessage(`{"type":"object"}`)},
		Func: func(ctx context.Context, args json.RawMessage) (any, error) { return string(args), nil },
	}
}

func TestToolLibrary(t *testing.T) {
	lib := NewToolLibrary(echoTool("b"), echoTool("a"))
	if err := lib.Register(echoTool("c")); err != nil {
		t.Fatal(err)
	}
	if err := lib.Register(echoTool("a")); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Errorf("duplicate Register: got %v, want an 'already registered' error", err)
	}
	if err := lib.Register(Tool{Spec: ToolSpecification{Name: "d"}}); err == nil {
		t.Error("Register of a tool without Func succeeded")
	}
	if err := lib.Register(Tool{Func: echoTool("x").Func}); err == nil {
		t.Error("Register of a tool without a name succeeded")
	}
	replaced := echoTool("a")
	replaced.Spec.Description = "replaced"
	lib.Replace(replaced)
	if got, ok := lib.Lookup("a"); !ok || got.Spec.Description != "replaced" {
		t.Errorf("Lookup after Replace = %+v, %v", got.Spec, ok)
	}
	if _, ok := lib.Lookup("zzz"); ok {
		t.Error("Lookup of a missing tool succeeded")
	}
	if got, want := strings.Join(lib.Names(), ","), "a,b,c"; got != want {
		t.Errorf("Names = %s, want %s", got, want)
	}
	var zero ToolLibrary
	if err := zero.Register(echoTool("z")); err != nil {
		t.Errorf("zero library Register: %v", err)
	}
}

// TestToolLibraryConcurrent reads while writing; run with -race.
func TestToolLibraryConcurrent(t *testing.T) {
	lib := NewToolLibrary(echoTool("a"))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 100 {
				if i == 0 {
					lib.Replace(echoTool(fmt.Sprintf("t%d", j)))
				} else if _, ok := lib.Lookup("a"); !ok {
					t.Error("lost tool a")
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestBind(t *testing.T) {
	hello := ToolSpecification{Name: "sayHello", Description: "greets",
		Schema: json.RawMessage(`{"type":"object","properties":{"personName":{"type":"string","default":"world"}},"additionalProperties":false}`)}
	impl := func(ctx context.Context, args json.RawMessage) (any, error) { return "hi", nil }
	agent := Agent{Name: "hello", Tools: []ToolSpecification{hello}}

	// Same schema, different formatting and key order: binds.
	same := hello
	same.Schema = json.RawMessage(`{ "additionalProperties": false, "type": "object",
		"properties": {"personName": {"default": "world", "type": "string"}} }`)
	if _, err := Bind(agent, NewToolLibrary(Tool{Spec: same, Func: impl})); err != nil {
		t.Errorf("semantically equal schema: %v", err)
	}

	tests := []struct {
		name string
		lib  *ToolLibrary
		want string
	}{
		{"missing", NewToolLibrary(Tool{Spec: ToolSpecification{Name: "sayHelo"}, Func: impl}),
			`agent hello: tool sayHello: not in the library; did you mean sayHelo?`},
		{"nil func", NewToolLibrary(Tool{Spec: hello}), "no implementation"},
		{"description", NewToolLibrary(Tool{Spec: ToolSpecification{Name: "sayHello", Description: "waves", Schema: hello.Schema}, Func: impl}),
			`description differs: agent "greets", library "waves"`},
		{"default", NewToolLibrary(Tool{Spec: ToolSpecification{Name: "sayHello", Description: "greets",
			Schema: json.RawMessage(`{"type":"object","properties":{"personName":{"type":"string","default":"you"}},"additionalProperties":false}`)}, Func: impl}),
			`schema differs at /properties/personName/default: agent "world", library "you"`},
		{"extra keyword", NewToolLibrary(Tool{Spec: ToolSpecification{Name: "sayHello", Description: "greets",
			Schema: json.RawMessage(`{"type":"object","properties":{"personName":{"type":"string","default":"world","minLength":1}},"additionalProperties":false}`)}, Func: impl}),
			`schema differs at /properties/personName/minLength: only the library has it (1)`},
		{"invalid json", NewToolLibrary(Tool{Spec: ToolSpecification{Name: "sayHello", Description: "greets", Schema: json.RawMessage(`{`)}, Func: impl}),
			"library schema is not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Bind(agent, tt.lib)
			var be *ToolBindingError
			if !errors.As(err, &be) {
				t.Fatalf("Bind error = %v, want a *ToolBindingError", err)
			}
			if be.Tool != "sayHello" || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Bind error = %q (tool %q), want it to contain %q", err, be.Tool, tt.want)
			}
		})
	}
}

func TestBindRejectsBadSchema(t *testing.T) {
	spec := ToolSpecification{Name: "t", Schema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"no-such-type"}}}`)}
	_, err := Bind(Agent{Tools: []ToolSpecification{spec}}, NewToolLibrary(Tool{Spec: spec, Func: echoTool("t").Func}))
	var be *ToolBindingError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "invalid argument schema") {
		t.Errorf("Bind = %v, want an invalid argument schema error", err)
	}
}
