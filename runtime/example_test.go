package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"log"
	"net/http/httptest"

	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/openai"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// The seed's hello agent, loaded from its .gram file, run against a fake
// OpenAI server (use openai.New() with OPENAI_API_KEY for the real one).
// An Example stands alone (godoc shows its body whole), so its set-up
// parallels cassette's ExampleOpen and compat's ExampleCompare rather
// than sharing a helper.
func ExampleRun() {
	agent, err := gramfile.LoadAgent("../testdata/examples/seed/helloAgent.gram", "hello_world_agent")
	if err != nil {
		log.Fatal(err)
	}
	lib := runtime.NewToolLibrary(runtime.Tool{
		Spec: agent.Tools[0],
		Func: func(ctx context.Context, args json.RawMessage) (any, error) {
			var a struct{ PersonName string } // validated, defaults applied
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			return "Hello, " + a.PersonName + "!", nil
		},
	})

	fake := httptest.NewServer(&runtimetest.Fake{Provider: runtimetest.OpenAI, Policy: runtimetest.Echo})
	defer fake.Close()
	model, err := openai.New(clientopt.WithBaseURL(fake.URL+"/v1"), clientopt.WithAPIKey("sk-example"))
	if err != nil {
		log.Fatal(err)
	}

	resp, err := runtime.Run(context.Background(), model, agent, lib, "Hi, I am Alice", nil,
		runtime.WithEvents(func(ev runtime.Event) {
			switch ev.Kind {
			case runtime.EventToolCall:
				fmt.Println("call:", ev.Call.Name, ev.Call.Arguments)
			case runtime.EventToolResult:
				fmt.Println("result:", ev.Invocation.Result)
			}
		}))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("answer:", resp.Content)

	// The conversation is plain JSON: store it, then continue.
	stored, _ := json.Marshal(resp.Conversation)
	var conv runtime.Conversation
	json.Unmarshal(stored, &conv)
	resp, err = runtime.Run(context.Background(), model, agent, lib, "And my friend Bob", &conv)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("answer:", resp.Content, "after", len(resp.Conversation.Messages), "messages")
	// Output:
	// call: sayHello {"personName":"Alice"}
	// result: Hello, Alice!
	// answer: Hello, Alice!
	// answer: Hello, Bob! after 8 messages
}

// Binding fails, naming the tool and the difference, when a library's
// tool does not match the agent's specification.
func ExampleBind() {
	agent, err := gramfile.LoadAgent("../testdata/examples/seed/helloAgent.gram", "")
	if err != nil {
		log.Fatal(err)
	}
	spec := agent.Tools[0]
	spec.Schema = json.RawMessage(`{"type":"object","properties":{"personName":{"type":"string","default":"you"}},"additionalProperties":false}`)
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: spec, Func: func(context.Context, json.RawMessage) (any, error) { return "hi", nil }})
	_, err = runtime.Bind(agent, lib)
	fmt.Println(err)
	// Output:
	// agent hello_world_agent: tool sayHello: schema differs at /properties/personName/default: agent "world", library "you"
}

// A run streamed as an iterator, for callers who prefer range-over-func to
// an event function: Run with WithEvents inside an iter.Seq2, stopping
// the run when the loop breaks.
func ExampleWithEvents() {
	agent, err := gramfile.LoadAgent("../testdata/examples/seed/helloAgent.gram", "hello_world_agent")
	if err != nil {
		log.Fatal(err)
	}
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: agent.Tools[0],
		Func: func(context.Context, json.RawMessage) (any, error) { return "Hello, Alice!", nil }})
	fake := httptest.NewServer(&runtimetest.Fake{Provider: runtimetest.OpenAI, Policy: runtimetest.Echo})
	defer fake.Close()
	model, err := openai.New(clientopt.WithBaseURL(fake.URL+"/v1"), clientopt.WithAPIKey("sk-example"))
	if err != nil {
		log.Fatal(err)
	}

	stream := func(ctx context.Context, input string) iter.Seq2[runtime.Event, error] {
		return func(yield func(runtime.Event, error) bool) {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			stopped := false
			_, err := runtime.Run(ctx, model, agent, lib, input, nil, runtime.WithEvents(func(ev runtime.Event) {
				if !stopped && !yield(ev, nil) {
					stopped = true
					cancel()
				}
			}))
			if err != nil && !stopped {
				yield(runtime.Event{}, err)
			}
		}
	}
	for ev, err := range stream(context.Background(), "Hi, I am Alice") {
		if err != nil {
			log.Fatal(err)
		}
		switch ev.Kind {
		case runtime.EventText:
			fmt.Printf("text %q\n", ev.Text)
		case runtime.EventToolCall:
			fmt.Println("call", ev.Call.Name, ev.Call.Arguments)
		case runtime.EventDone:
			fmt.Println("done:", ev.Response.Content)
		}
	}
	// Output:
	// call sayHello {"personName":"Alice"}
	// text "Hell"
	// text "o, A"
	// text "lice"
	// text "!"
	// done: Hello, Alice!
}
