package clients_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
)

// New makes the client of a model's provider: here OpenAI's, pointed at a
// local stand-in for its API by options (without them, the base URL and
// the key come from OPENAI_BASE_URL and OPENAI_API_KEY).
func ExampleNew() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id": "c1", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini",
			"choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello, Alice!"}, "finish_reason": "stop"}],
			"usage": {"prompt_tokens": 12, "completion_tokens": 4, "total_tokens": 16}}`)
	}))
	defer srv.Close()
	model, err := clients.New("OpenAI/gpt-4o-mini", clientopt.WithBaseURL(srv.URL+"/v1"), clientopt.WithAPIKey("sk-example"))
	if err != nil {
		log.Fatal(err)
	}
	agent := runtime.Agent{Name: "greeter", Model: "OpenAI/gpt-4o-mini", Instruction: "Greet the user."}
	resp, err := runtime.Run(context.Background(), model, agent, runtime.NewToolLibrary(), "Hello, I am Alice", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(clients.Of(agent.Model), resp.Content)
	// Output:
	// openai Hello, Alice!
}
