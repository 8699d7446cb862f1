package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/mcp"
)

var echoSpec = runtime.ToolSpecification{Name: "echo", Description: "Echoes",
	Schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"wait":{"type":"boolean","default":false}},"additionalProperties":false}`)}

// echoServer serves one tool that echoes its text, or blocks until its
// call is cancelled when wait is set.
func echoServer(t testing.TB) *sdk.Server {
	lib := runtime.NewToolLibrary(runtime.Tool{Spec: echoSpec, Func: func(ctx context.Context, args json.RawMessage) (any, error) {
		var a struct {
			Text string
			Wait bool
		}
		json.Unmarshal(args, &a)
		if a.Wait {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return a.Text, nil
	}})
	srv, err := mcp.NewServer("echo", "1", lib, []runtime.ToolSpecification{echoSpec})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestMalformedMessages: garbage on the stream gets a JSON-RPC error (or
// is dropped) and the server goes on serving the well-formed requests.
func TestMalformedMessages(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	var logged []string
	var mu sync.Mutex
	logf := func(format string, args ...any) {
		mu.Lock()
		logged = append(logged, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	go func() { done <- echoServer(t).Run(ctx, mcp.NewIOTransport(inR, outW, logf)) }()
	lines := bufio.NewScanner(outR)
	go func() {
		for _, l := range []string{
			`this is not json`,
			`{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", mcp.MaxMessageSize) + `"}}`,
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":"not an object"}}`,
			`{"jsonrpc":"2.0","id":3,"method":"no/such/method","params":{}}`,
			`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"still here"}}}`,
		} {
			fmt.Fprintln(inW, l)
		}
	}()
	var got []string
	deadline := time.After(10 * time.Second)
	for len(got) < 10 {
		line := make(chan string, 1)
		go func() {
			if lines.Scan() {
				line <- lines.Text()
			} else {
				close(line)
			}
		}()
		select {
		case l, ok := <-line:
			if !ok {
				t.Fatalf("the server closed the stream after %d responses: %v", len(got), got)
			}
			got = append(got, l)
		case <-deadline:
			t.Fatalf("responses so far: %v", got)
		}
		if strings.Contains(got[len(got)-1], "still here") {
			break
		}
	}
	if !strings.Contains(strings.Join(got, "\n"), `"text":"still here"`) {
		t.Errorf("the server stopped serving after malformed input: %v", got)
	}
	// Answers may still be on their way (id 4's can overtake id 3's):
	// read them, or the server blocks writing to the pipe and never ends.
	go io.Copy(io.Discard, outR)
	inW.Close()
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	if len(logged) != 2 || !strings.Contains(logged[0], "not JSON") || !strings.Contains(logged[1], "over the 4194304-byte limit") {
		t.Errorf("logged %q", logged)
	}
}

// TestConcurrentCallsAndDisconnect: 1,000 concurrent calls all answer; a
// client that goes away during a call cancels it, and no goroutine is
// left behind.
func TestConcurrentCallsAndDisconnect(t *testing.T) {
	before := goruntime.NumGoroutine()
	func() {
		srv := echoServer(t)
		st, ct := sdk.NewInMemoryTransports()
		ctx := context.Background()
		ss, err := srv.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 1000)
		for i := range 1000 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				text := fmt.Sprint("call ", i)
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"text": text}})
				if err != nil || res.IsError || res.Content[0].(*sdk.TextContent).Text != text {
					errs <- fmt.Errorf("call %d: %v %+v", i, err, res)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		// A call in progress when the client disconnects.
		cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		if _, err := cs.CallTool(cctx, &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"wait": true}}); err == nil {
			t.Error("a call cancelled by the client succeeded")
		}
		cs.Close()
		ss.Wait()
	}()
	for range 100 {
		if goruntime.NumGoroutine() <= before+2 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("goroutines: %d before, %d after", before, goruntime.NumGoroutine())
}
