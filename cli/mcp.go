package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/internal/english"
	"github.com/gramc-dev/gramc/internal/regular"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/mcp"
	"github.com/gramc-dev/gramc/runtime/toolcmd"
)

func init() { register(newMCPCmd) }

type mcpOptions struct {
	http        string // serve streamable HTTP on this address instead of stdio
	allowRemote bool   // --http-allow-remote: listen beyond the loopback interface
	tokenFile   string // --http-token-file
	origins     []string
	agent       string
	agents      bool // --agents: serve the agents too (mcp_agents.go)
	agentRuns   int  // --agent-concurrency: agent runs at once, per server
	budget      budgetFlags
	tools       []string // NAME=COMMAND
	toolTimeout time.Duration
	toolEnv     []string // withheld variables tool commands get anyway
	// compiler is --compiler: serve gramc's own commands as tools
	// (mcp_compiler.go), on the files under root.
	compiler          bool
	root              string
	printInstructions bool
}

func newMCPCmd(e *env) *cobra.Command {
	var opts mcpOptions
	cmd := &cobra.Command{
		Use:   "mcp [paths] [--agent NAME] [--tool NAME=COMMAND]... [--http ADDR]",
		Short: "Serve gram tools to MCP hosts over standard input and output",
		Long: `Mcp serves the tools of the gram packages that paths name (default ./...),
or of one agent (--agent), as a Model Context Protocol server on standard
input and output: an MCP host (Claude Desktop, Cursor, an IDE, another
agent) lists them with the schemas "gramc schema --target mcp" prints and
calls them.

Tools are bound to shell commands exactly as gramc run binds them:
--tool NAME=COMMAND runs sh -c COMMAND with the validated arguments (defaults
applied) as JSON on standard input, standard output is the result, a
non-zero exit is a tool error; --tool-timeout (default 30s) stops the
command and every process it started; it does not get the variables that
hold credentials (API keys, GRAMC_MCP_TOKEN, OTEL_EXPORTER_OTLP_HEADERS)
unless --tool-env NAME asks for one. The seed tools sayHello and
sayGoodbye are built in. Without --tool every tool needs an
implementation; with --tool, the tools named are served.

Invalid arguments, tool errors, panics and timeouts are results with
isError set and the message gramc run would give a model. Logs go to
standard error; standard output carries the protocol only.

--http ADDR serves streamable HTTP on ADDR instead (":8080" means the
loopback interface, 127.0.0.1:8080). The tools run commands on this
machine, so an address beyond the loopback interface (0.0.0.0:8080, a
host name) is refused unless --http-allow-remote says so, and then every
request must carry a bearer token: --http-token-file FILE, or the
GRAMC_MCP_TOKEN environment variable (401 without it). A browser request
whose Origin is neither the server's own nor a loopback one (on loopback)
nor an --http-allow-origin is refused (403). See docs/mcp.md, Security.

--agents also serves every agent of the packages (or the --agent) as a
tool named as the agent, with its input and output schemas: a call runs
the agent on its provider, with the keys of this environment, and
returns its typed result as structuredContent and JSON text.

--compiler serves gramc's own commands instead, as tools for coding
agents (describe, check, fix, format, schema, explain, graph, import) on
the files under --root (default: the current directory), with workflow
instructions (--print-instructions prints them). See docs/mcp.md, "gramc
for coding agents".`,
		Example: `  gramc mcp --agent weather_agent --tool 'getWeather=./weather.sh getWeather' ./examples/weather
  gramc mcp examples/hello/hello.gram
  gramc mcp --compiler --root .`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.budget.check(); err != nil {
				return err
			}
			if opts.agentRuns <= 0 {
				return usageErrorf("--agent-concurrency must be positive")
			}
			return runMCP(cmd.Context(), e, opts, args)
		},
	}
	f := cmd.Flags()
	addDisableFlag(cmd, e)
	f.StringVar(&opts.agent, "agent", "", "serve the tools of this agent (default: every tool of the packages)")
	f.BoolVar(&opts.agents, "agents", false, "also serve every agent (or the --agent) as a tool that runs it; keys from the environment")
	f.IntVar(&opts.agentRuns, "agent-concurrency", defaultAgentRuns, "with --agents: agent runs at once, whatever the clients ask; further calls wait their turn")
	opts.budget.add(f)
	f.StringVar(&opts.http, "http", "", "serve streamable HTTP on `ADDR` (loopback unless a host is named) instead of stdio")
	f.BoolVar(&opts.allowRemote, "http-allow-remote", false, "let --http listen beyond the loopback interface (needs a token)")
	f.StringVar(&opts.tokenFile, "http-token-file", "", "require the bearer token in `FILE` of every HTTP request (or set "+mcpTokenEnv+")")
	f.StringArrayVar(&opts.origins, "http-allow-origin", nil, "also accept browser requests from `ORIGIN` (https://host:port; repeatable)")
	f.StringArrayVar(&opts.tools, "tool", nil, "bind tool NAME to a shell command: NAME=COMMAND (repeatable)")
	f.DurationVar(&opts.toolTimeout, "tool-timeout", 30*time.Second, "time limit for each tool call (0: none)")
	f.BoolVar(&opts.compiler, "compiler", false, "serve gramc's own commands (check, fix, format, ...) as tools for coding agents")
	f.StringVar(&opts.root, "root", "", "with --compiler: the `DIR` the tools read and write under (default: the current directory)")
	f.BoolVar(&opts.printInstructions, "print-instructions", false, "with --compiler: print the server's instructions and exit")
	f.StringArrayVar(&opts.toolEnv, "tool-env", nil, "give tool commands the environment variable `NAME` although it holds a credential (an API key, GRAMC_MCP_TOKEN, OTEL_EXPORTER_OTLP_HEADERS; repeatable)")
	return cmd
}

func runMCP(ctx context.Context, e *env, opts mcpOptions, args []string) error {
	if opts.http == "" && (opts.allowRemote || opts.tokenFile != "" || len(opts.origins) > 0) {
		return usageErrorf("--http-allow-remote, --http-token-file and --http-allow-origin go with --http ADDR")
	}
	if opts.compiler {
		return runMCPCompiler(ctx, e, opts, args)
	}
	if opts.root != "" || opts.printInstructions {
		return usageErrorf("--root and --print-instructions go with --compiler")
	}
	pkgs, err := loadPackages(e, args)
	if err != nil {
		return err
	}
	var tools []*check.Tool
	if opts.agent != "" {
		a, err := gramfile.FindAgent(pkgs, opts.agent)
		if err != nil {
			return usageErrorf("%v", err)
		}
		tools = a.Tools
	} else {
		for _, p := range pkgs {
			tools = append(tools, p.Tools...)
		}
	}
	commands := map[string]string{}
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	names = append(names, mcpAgentToolNames(opts, pkgs)...) // --tool may bind a served agent's tools
	for _, tf := range opts.tools {
		name, command, err := parseToolFlag(tf)
		if err != nil {
			return err
		}
		if !containsString(names, name) {
			return usageErrorf("--tool %s: there is no tool %s%s", name, name, suggest.Hint(name, names, "tools"))
		}
		commands[name] = command
	}
	runner := toolcmd.NewRunner(os.Environ(), opts.toolEnv...)
	defer runner.Close()
	var specs []runtime.ToolSpecification
	var impls []runtime.Tool
	var unbound []string
	seen := map[string]bool{}
	for _, t := range tools {
		if seen[t.Name] {
			return usageErrorf("two tools are named %s (in different packages): name one package, or an agent with --agent", t.Name)
		}
		seen[t.Name] = true
		var fn runtime.ToolFunc
		switch {
		case commands[t.Name] != "":
			fn = runner.Tool(commands[t.Name])
		case len(opts.tools) > 0:
			continue // --tool selects the tools served
		case e.builtinTool(t.Name) != nil:
			fn = e.builtinTool(t.Name)
		default:
			unbound = append(unbound, t.Name)
			continue
		}
		spec, err := schema.Spec(t, schema.MCP)
		if err != nil {
			return &exitError{code: ExitProblem, err: err}
		}
		specs = append(specs, spec)
		impls = append(impls, runtime.Tool{Spec: spec, Func: fn})
	}
	if len(unbound) > 0 {
		return usageErrorf("no implementation for tool %s: bind each with --tool NAME=COMMAND (or name the tools to serve with --tool)", strings.Join(unbound, ", "))
	}
	agentSpecs, agentTools, err := mcpAgents(e, opts, pkgs, commands, runner, seen)
	if err != nil {
		return err
	}
	specs = append(specs, agentSpecs...)
	if len(specs) == 0 {
		return usageErrorf("no tools to serve")
	}
	return serveMCP(ctx, e, opts, specs, impls, mcp.ServerOptions{}, runner, agentTools)
}

// serveMCP serves specs, bound to impls (and the tools more makes with
// the server's run options), over stdio or --http until the client goes
// or a signal comes; runner's commands are killed on a signal. gramc mcp
// serves a package's tools and the compiler's through it.
func serveMCP(ctx context.Context, e *env, opts mcpOptions, specs []runtime.ToolSpecification, impls []runtime.Tool, so mcp.ServerOptions, runner *toolcmd.Runner, more ...func(...runtime.Option) []runtime.Tool) error {
	// OpenTelemetry export when OTEL_* asks: a SERVER span per tools/call,
	// continuing the caller's trace; flushed on every way out.
	tel, stopTelemetry, err := startTelemetry(ctx, e, "gramc mcp")
	if err != nil {
		return err
	}
	defer stopTelemetry()
	srvOpts := append([]runtime.Option{runtime.WithToolTimeout(opts.toolTimeout)}, tel.Options("")...)
	for _, m := range more {
		impls = append(impls, m(srvOpts...)...)
	}
	srv, err := mcp.NewServerWithOptions("gramc", versionString(), runtime.NewToolLibrary(impls...), specs, so, srvOpts...)
	if err != nil {
		return &exitError{code: ExitUsage, err: err}
	}
	// A signal ends the server as it ends gramc run: the running tools'
	// process groups killed, exit 128+signal.
	ctx, interrupted, stopSignals := stopOnSignal(ctx, runner)
	defer stopSignals()
	if opts.http != "" {
		return interrupted(serveMCPHTTP(ctx, e, srv, opts, len(specs)))
	}
	fmt.Fprintf(e.stderr, "gramc mcp: serving %d %s on standard input and output\n", len(specs), english.Noun(len(specs), "tool"))
	logf := func(format string, args ...any) {
		fmt.Fprintf(e.stderr, "gramc mcp: %s\n", termsafe.Line(fmt.Sprintf(format, args...), 300))
	}
	err = srv.Run(ctx, mcp.NewIOTransport(e.stdin, e.stdout, logf))
	if err != nil && ctx.Err() == nil && !isClosed(err) {
		return &exitError{code: ExitUsage, err: err}
	}
	return interrupted(nil)
}

// mcpTokenEnv holds the bearer token of gramc mcp --http when no
// --http-token-file is given.
const mcpTokenEnv = "GRAMC_MCP_TOKEN"

// maxTokenFile bounds what gramc reads of --http-token-file.
const maxTokenFile = 4 << 10

// httpToken is the bearer token the options give ("" for none): one line
// of printable ASCII without spaces, as an Authorization header carries
// it.
func httpToken(opts mcpOptions) (string, error) {
	if opts.tokenFile == "" {
		tok := strings.TrimSpace(os.Getenv(mcpTokenEnv))
		if !isTokenText(tok) {
			return "", usageErrorf("%s: want one token of printable ASCII, without spaces", mcpTokenEnv)
		}
		return tok, checkTokenLength(tok, mcpTokenEnv)
	}
	f, _, err := regular.Open(opts.tokenFile) // a FIFO is refused, not waited on
	if err != nil {
		return "", usageErrorf("--http-token-file: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	switch {
	case err != nil:
		return "", usageErrorf("--http-token-file: %v", err)
	case len(data) > maxTokenFile:
		return "", usageErrorf("--http-token-file %s: the file is over the %d-byte limit of a token file", termsafe.Line(opts.tokenFile, 200), maxTokenFile)
	}
	tok := strings.TrimSpace(string(data))
	if tok == "" || !isTokenText(tok) {
		return "", usageErrorf("--http-token-file %s: want one token on one line, of printable ASCII", termsafe.Line(opts.tokenFile, 200))
	}
	return tok, checkTokenLength(tok, "--http-token-file "+termsafe.Line(opts.tokenFile, 200))
}

// minTokenBytes is the shortest bearer token gramc mcp --http takes: a
// shorter one can be guessed.
const minTokenBytes = 16

// checkTokenLength refuses a token shorter than minTokenBytes; where says
// where it came from.
func checkTokenLength(tok, where string) error {
	if tok != "" && len(tok) < minTokenBytes {
		return usageErrorf("%s: the token is %d bytes; want at least %d (a short token can be guessed: openssl rand -hex 32 makes one)", where, len(tok), minTokenBytes)
	}
	return nil
}

// isTokenText reports whether tok is printable ASCII without spaces.
func isTokenText(tok string) bool {
	for i := 0; i < len(tok); i++ {
		if tok[i] <= ' ' || tok[i] >= 0x7f {
			return false
		}
	}
	return true
}

// serveMCPHTTP serves srv as streamable HTTP on addr until ctx ends.
func serveMCPHTTP(ctx context.Context, e *env, srv *sdk.Server, opts mcpOptions, n int) error {
	addr := opts.http
	if strings.HasPrefix(addr, ":") {
		addr = "127.0.0.1" + addr
	}
	token, err := httpToken(opts)
	if err != nil {
		return err
	}
	remote := !mcp.IsLoopbackAddr(addr)
	switch {
	case remote && !opts.allowRemote:
		return usageErrorf("--http %s listens beyond this machine, and the tools run commands here: serve on the loopback interface (127.0.0.1:PORT), or pass --http-allow-remote with a token (--http-token-file FILE or %s)", addr, mcpTokenEnv)
	case remote && token == "":
		return usageErrorf("--http-allow-remote needs a token every request must carry: --http-token-file FILE or %s", mcpTokenEnv)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return &exitError{code: ExitUsage, err: err}
	}
	h := mcp.NewHTTPHandler(srv, mcp.HTTPOptions{Token: token, AllowedOrigins: opts.origins})
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	shutDown := make(chan struct{})
	go func() {
		defer close(shutDown)
		<-ctx.Done()
		// The tool commands are being killed (stopOnSignal): the calls in
		// flight get a moment to be answered, then every connection is
		// closed, a client's open event stream too.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 500*time.Millisecond)
		defer cancel()
		if hs.Shutdown(sctx) != nil {
			hs.Close() //nolint:errcheck // exiting
		}
	}()
	auth := "no token"
	if token != "" {
		auth = "bearer token required"
	}
	fmt.Fprintf(e.stderr, "gramc mcp: serving %d %s on http://%s/ (%s)\n", n, english.Noun(n, "tool"), ln.Addr(), auth)
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		hs.Close() //nolint:errcheck // failing anyway
		return &exitError{code: ExitUsage, err: err}
	}
	// Serve returns as Shutdown begins: wait for the answers in flight.
	<-shutDown
	return nil
}

// isClosed reports whether err only says the client went away.
func isClosed(err error) bool {
	s := err.Error()
	return strings.Contains(s, "EOF") || strings.Contains(s, "closed")
}
