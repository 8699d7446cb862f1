package runtimetest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/gramc-dev/gramc/runtime"
)

// The hello/goodbye agent is the one every provider client's scenario
// tests run: two tools with the same parameter, so a test can tell which
// tool ran from its result ("Hello, Alice!" or "Goodbye, Alice!").

// HelloSpec is sayHello as gramc compiles examples/hello: the strict
// OpenAI schema, and Gemini's subset.
func HelloSpec() runtime.ToolSpecification {
	return runtime.ToolSpecification{
		Name:        "sayHello",
		Description: "Returns a friendly greeting message for the given name",
		Schema:      json.RawMessage(`{"type":"object","properties":{"personName":{"type":"string","default":"world"}},"additionalProperties":false}`),
		TargetSchemas: map[string]json.RawMessage{
			"gemini": json.RawMessage(`{"type":"object","properties":{"personName":{"type":"string","default":"world"}}}`),
		},
	}
}

// GoodbyeSpec is sayGoodbye, sayHello's twin.
func GoodbyeSpec() runtime.ToolSpecification {
	return runtime.ToolSpecification{
		Name:        "sayGoodbye",
		Description: "Returns a friendly farewell message for the given name",
		Schema:      json.RawMessage(`{"type":"object","properties":{"personName":{"type":"string","default":"world"}},"additionalProperties":false}`),
	}
}

// HelloGoodbyeAgent is an OpenAI agent with both tools.
func HelloGoodbyeAgent() runtime.Agent {
	return runtime.Agent{
		Name:        "hello_goodbye_agent",
		Model:       "OpenAI/gpt-4o-mini",
		Instruction: "You are a friendly assistant.",
		Tools:       []runtime.ToolSpecification{HelloSpec(), GoodbyeSpec()},
	}
}

// Greeter is a tool answering "<greeting>, <personName>!".
func Greeter(greeting string) runtime.ToolFunc {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		var a struct{ PersonName string }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		return fmt.Sprintf("%s, %s!", greeting, a.PersonName), nil
	}
}

// HelloGoodbyeLibrary implements both tools.
func HelloGoodbyeLibrary() *runtime.ToolLibrary {
	return runtime.NewToolLibrary(
		runtime.Tool{Spec: HelloSpec(), Func: Greeter("Hello")},
		runtime.Tool{Spec: GoodbyeSpec(), Func: Greeter("Goodbye")},
	)
}

// Sleeps records a client's waits between retries instead of sleeping:
// give its Sleep to the client's WithSleep option.
type Sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

// Sleep records d and returns at once (ctx's error, if it has ended).
func (s *Sleeps) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

// Waits returns the waits recorded so far.
func (s *Sleeps) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// WeatherLibrary implements the tools of the weather example's agent
// (testdata/examples/weather.gram), each answering with Paris's sunny
// weather; args returns the arguments of the last call.
func WeatherLibrary(tools []runtime.ToolSpecification) (lib *runtime.ToolLibrary, args func() json.RawMessage) {
	var mu sync.Mutex
	var got json.RawMessage
	lib = runtime.NewToolLibrary()
	for _, spec := range tools {
		lib.Replace(runtime.Tool{Spec: spec, Func: func(ctx context.Context, a json.RawMessage) (any, error) {
			mu.Lock()
			got = a
			mu.Unlock()
			return map[string]any{"temperature": 21.5, "conditions": "sunny", "humidity": 40,
				"position": map[string]float64{"latitude": 48.85, "longitude": 2.35}}, nil
		}})
	}
	return lib, func() json.RawMessage {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}
