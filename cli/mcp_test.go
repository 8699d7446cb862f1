package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// mcpclient COMMAND ARGS... starts COMMAND as an MCP server on its
	// standard input and output with the official Go SDK's client, lists
	// its tools (name and inputSchema, one line each) and then, for each
	// line "TOOL JSON" of its own standard input, calls TOOL with the JSON
	// arguments and prints the result ("ok TEXT" or "error TEXT").
	// mcpclient URL does the same with a streamable HTTP server, sending
	// $MCPCLIENT_TOKEN as its bearer token when set.
	scriptCommands["mcpclient"] = func() { os.Exit(mcpClientMain(os.Args[1:])) }
	// mcplines COMMAND ARGS... runs COMMAND as an MCP server and writes it
	// the lines of its own standard input, raw: "await ID" waits (up to 20
	// s) for the answer with that id (JSON text: 3, "s", null, each answer
	// taken once), "big ID N" writes a tools/list request with that id
	// padded to N bytes, "deep ID N" one whose params nest N arrays deep.
	// It prints every line the server writes, then closes the server's
	// input and prints "exit N" with its status.
	scriptCommands["mcplines"] = func() { os.Exit(mcpLinesMain(os.Args[1:])) }
	// MCP_PORT is a free port for gramc mcp --http, handed out as the
	// scripts' other addresses are (scriptAddr).
	scriptSetups = append(scriptSetups, func(env *testscript.Env) error {
		addr, err := scriptAddr()
		if err != nil {
			return err
		}
		_, port, err := net.SplitHostPort(addr)
		env.Setenv("MCP_PORT", port)
		return err
	})
	// holdopen FILE COMMAND ARGS... runs COMMAND with FILE's content on its
	// standard input, which stays open (as a host keeps a server's input
	// open) until COMMAND exits; it prints and exits with COMMAND's status.
	scriptCommands["holdopen"] = func() {
		data, err := os.ReadFile(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "holdopen:", err)
			os.Exit(2)
		}
		cmd := exec.Command(os.Args[2], os.Args[3:]...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		in, _ := cmd.StdinPipe()
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "holdopen:", err)
			os.Exit(2)
		}
		in.Write(data)
		err = cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		fmt.Fprintf(os.Stderr, "holdopen: exit status %d\n", code)
		os.Exit(code)
	}
}

func mcpClientMain(args []string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var t sdk.Transport
	if strings.HasPrefix(args[0], "http://") {
		st := &sdk.StreamableClientTransport{Endpoint: args[0]}
		if token := os.Getenv("MCPCLIENT_TOKEN"); token != "" {
			st.HTTPClient = &http.Client{Transport: bearerTransport(token)}
		}
		t = st
	} else {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Stderr = os.Stderr
		t = &sdk.CommandTransport{Command: cmd}
	}
	return runMCPScript(ctx, "mcpclient", t, func(t *sdk.Tool) {
		in, _ := json.Marshal(t.InputSchema)
		fmt.Printf("tool %s %s\n", t.Name, in)
	}, nil)
}

// runMCPScript is the script clients' one session with the official Go
// SDK's client: it connects over t, lists the tools (tool prints each),
// then calls each "TOOL JSON" line of its standard input and prints "ok
// TEXT" or "error TEXT" ("protocol-error ERR" for a failed call), then
// what result adds of its own (nil: nothing).
func runMCPScript(ctx context.Context, name string, t sdk.Transport, tool func(*sdk.Tool), result func(*sdk.CallToolResult)) int {
	cs, err := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1"}, nil).Connect(ctx, t, nil)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: connect: %v\n", name, err)
		return 1
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: tools/list: %v\n", name, err)
		return 1
	}
	for _, t := range tools.Tools {
		tool(t)
	}
	input, _ := os.ReadFile("/dev/stdin")
	for _, line := range strings.Split(strings.TrimSpace(string(input)), "\n") {
		tname, arguments, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tname, Arguments: json.RawMessage(arguments)})
		if err != nil {
			fmt.Printf("protocol-error %v\n", err)
			continue
		}
		var text strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		kind := "ok"
		if res.IsError {
			kind = "error"
		}
		fmt.Printf("%s %s\n", kind, text.String())
		if result != nil {
			result(res)
		}
	}
	return 0
}

// bearerTransport sends its token with every request.
type bearerTransport string

func (b bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(req)
}

func mcpLinesMain(args []string) int {
	srv := startScriptServer("mcplines", args)
	if srv == nil {
		return 2
	}
	out := bufio.NewScanner(srv.out)
	out.Buffer(nil, 16<<20)
	srv.drive(func() ([]byte, bool) {
		ok := out.Scan()
		return out.Bytes(), ok
	}, func(in io.Writer, line string) {
		var id string
		var n int
		switch {
		case fmtScan(line, "big %s %d", &id, &n):
			head := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list","params":{"pad":"`
			io.WriteString(in, head+strings.Repeat("x", max(n-len(head)-3, 0))+`"}}`+"\n")
		case fmtScan(line, "deep %s %d", &id, &n):
			io.WriteString(in, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/list","params":{"a":`+strings.Repeat("[", n)+strings.Repeat("]", n)+"}}\n")
		default:
			io.WriteString(in, line+"\n")
		}
	})
	return 0
}

// fmtScan reports whether line is format's whole, scanning into args.
func fmtScan(line, format string, args ...any) bool {
	n, err := fmt.Sscanf(line, format, args...)
	return err == nil && n == len(args)
}
