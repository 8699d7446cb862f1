package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
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
	// MCP_PORT is a free port for gramc mcp --http on every interface.
	scriptSetups = append(scriptSetups, func(env *testscript.Env) error {
		ln, err := net.Listen("tcp", ":0")
		if err != nil {
			return err
		}
		env.Setenv("MCP_PORT", strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
		return ln.Close()
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
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "mcpclient", Version: "1"}, nil).Connect(ctx, t, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpclient: connect:", err)
		return 1
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpclient: tools/list:", err)
		return 1
	}
	for _, t := range tools.Tools {
		in, _ := json.Marshal(t.InputSchema)
		fmt.Printf("tool %s %s\n", t.Name, in)
	}
	input, _ := os.ReadFile("/dev/stdin")
	for _, line := range strings.Split(strings.TrimSpace(string(input)), "\n") {
		name, arguments, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: json.RawMessage(arguments)})
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
