package notes

import (
	"context"
	"encoding/json"
	"reflect"
	"sort"
	"sync"
	"testing"

	"github.com/gramc-dev/gramc/runtime/runtimetest"

	"gramctest/e2e/e2etest"
)

type notebook struct {
	mu   sync.Mutex
	args []AddNoteArgs
}

func (n *notebook) AddNote(ctx context.Context, args AddNoteArgs) (AddNoteResult, error) {
	n.mu.Lock()
	n.args = append(n.args, args)
	n.mu.Unlock()
	return Note{Title: args.Title, Body: args.Body, Tags: args.Tags, Priority: args.Priority}, nil
}

// TestStrictEndToEnd runs a strict tool: the model must send every
// property, null for the ones it leaves out. Nulls become nil pointers and
// slices, a null defaulted parameter gets its default, and arguments that
// break the schema never reach the implementation.
func TestStrictEndToEnd(t *testing.T) {
	if !AddNoteSpec.Strict {
		t.Fatal("AddNoteSpec is not strict")
	}
	nb := &notebook{}
	resp, srv := e2etest.Run(t, NewNotesAgent(), NewToolLibrary(nb), "Note a and b",
		runtimetest.ToolCallsReply(
			runtimetest.FakeCall{Name: "addNote", Arguments: `{"title":"a","body":null,"priority":null,"tags":null}`},
			runtimetest.FakeCall{Name: "addNote", Arguments: `{"title":"b","body":"text","priority":"low","tags":["x","y"]}`},
			// Invalid: unknown enum value; a property missing.
			runtimetest.FakeCall{Name: "addNote", Arguments: `{"title":"c","body":null,"priority":"urgent","tags":null}`},
			runtimetest.FakeCall{Name: "addNote", Arguments: `{"title":"d","body":null,"tags":null,"extra":1}`},
		),
		runtimetest.TextReply("Noted."),
	)
	sort.Slice(nb.args, func(i, j int) bool { return nb.args[i].Title < nb.args[j].Title })
	text := "text"
	want := []AddNoteArgs{
		{Title: "a", Priority: PriorityHigh},
		{Title: "b", Body: &text, Priority: PriorityLow, Tags: []string{"x", "y"}},
	}
	if !reflect.DeepEqual(nb.args, want) {
		t.Errorf("implementation received %+v, want %+v", nb.args, want)
	}
	if len(resp.Invocations) != 4 {
		t.Fatalf("%d invocations", len(resp.Invocations))
	}
	for i, inv := range resp.Invocations {
		if (inv.Err != nil) != (i >= 2) {
			t.Errorf("invocation %d %s: err %v", i, inv.Args, inv.Err)
		}
	}
	// Optional fields the implementation left nil are omitted from the
	// result.
	var got map[string]any
	if err := json.Unmarshal([]byte(resp.Invocations[0].Result), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, map[string]any{"title": "a", "priority": "high"}) {
		t.Errorf("result %s", resp.Invocations[0].Result)
	}
	// The request carried the strict flag.
	if reqs := srv.Chats(); len(reqs) == 0 || len(reqs[0].Tools) != 1 {
		t.Fatal("no tools offered")
	} else {
		var entry struct {
			Function struct {
				Strict bool `json:"strict"`
			} `json:"function"`
		}
		json.Unmarshal(reqs[0].Tools[0], &entry)
		if !entry.Function.Strict {
			t.Errorf("tool entry is not strict: %s", reqs[0].Tools[0])
		}
	}
}
