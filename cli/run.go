package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/gramfile"
	"github.com/gramc-dev/gramc/internal/redact"
	"github.com/gramc-dev/gramc/internal/suggest"
	"github.com/gramc-dev/gramc/internal/termsafe"
	"github.com/gramc-dev/gramc/provider"
	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/cassette"
	"github.com/gramc-dev/gramc/runtime/clientopt"
	"github.com/gramc-dev/gramc/runtime/clients"
	"github.com/gramc-dev/gramc/runtime/openai"
	"github.com/gramc-dev/gramc/runtime/otelexport"
	"github.com/gramc-dev/gramc/runtime/toolcmd"
)

func init() { register(newRunCmd) }

// runOptions are gramc run's flags.
type runOptions struct {
	agent          string
	tools          []string // NAME=COMMAND
	baseURL        string
	model          string
	debug          bool
	legacy         bool
	responses      bool
	noStream       bool
	toolTimeout    time.Duration
	maxIterations  int
	maxToolCalls   int
	budget         budgetFlags
	requestTimeout time.Duration
	streamTimeout  time.Duration
	maxRetryWait   time.Duration
	mcp            []string // MCP servers: a command (stdio) or an http(s) URL
	mcpTimeout     time.Duration
	toolEnv        []string // withheld variables tool commands get anyway
	record, replay string   // a cassette to record the provider's traffic to, or to replay it from
}

func newRunCmd(e *env) *cobra.Command {
	var opts runOptions
	cmd := &cobra.Command{
		Use:   "run FILE... [--agent NAME] [--tool NAME=COMMAND]... [--base-url URL] [--model M] [--debug] [MESSAGE...]",
		Short: "Run an agent from gram files on its provider (" + strings.Join(providerNames(), ", ") + ", ...)",
		Long: `Run loads gram files, picks an agent (--agent, or the only one) and sends
the messages to its model as one conversation, running the tools the model
calls. With no message, it chats line by line on standard input.

Arguments that name .gram files or directories (or dir/...) are the files;
the rest are messages. Put messages after "--" to be explicit.

Tools: --tool NAME=COMMAND binds a tool to a shell command (sh -c COMMAND):
the validated arguments arrive as a JSON object on standard input, standard
output (at most 8 MiB) is the result, and a non-zero exit is a tool error
(with standard error) reported to the model. --tool-timeout (default 30s)
stops the command and every process it started. A tool command (and an
--mcp command) does not get the variables that hold credentials (the API
keys, GRAMC_MCP_TOKEN, OTEL_EXPORTER_OTLP_HEADERS and its per-signal
forms) unless --tool-env NAME asks for one. The seed tools sayHello
and sayGoodbye are built in, so the hello agents run out of the box.

Each tool call and result is shown on standard error as it happens; the
agent's answers go to standard output as they arrive (streamed; --no-stream
asks for whole answers). --debug prints the raw requests and responses (API
key redacted).

The provider and model are the agent's (Provider/model-name); --model
overrides the model (Provider/model the provider too), --base-url the
provider's address:

` + providerHelp() + `
With OpenAI, --responses uses the Responses API, --functions the legacy
one. Any other provider is an OpenAI-compatible server at --base-url (vLLM,
llama.cpp, ...), with OPENAI_API_KEY if it needs a key.

Exit status: 0 on success, 1 when the gram files have errors or the run
fails (API error, iteration limit), 2 for usage or configuration errors.`,
		Example: `  export OPENAI_API_KEY=sk-...
  gramc run examples/hello/hello.gram "Hello, I am Alice"
  gramc run weather.gram --tool getWeather='./weather.sh' "Weather in Paris?"
  gramc run --model Anthropic/claude-sonnet-4-5 hello.gram "Hi, I am Bo"
  gramc run --base-url http://localhost:11434/v1 --model llama3.1 hello.gram
  gramc run hello.gram --debug -- "say hello"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.maxIterations < 0 {
				return usageErrorf("--max-iterations must be positive (0, the default, keeps the agent's maxIterations)")
			}
			if opts.toolTimeout < 0 {
				return usageErrorf("--tool-timeout must not be negative (0 means no limit)")
			}
			if opts.maxToolCalls <= 0 || opts.mcpTimeout <= 0 || opts.requestTimeout <= 0 || opts.streamTimeout <= 0 || opts.maxRetryWait <= 0 {
				return usageErrorf("--max-tool-calls, --mcp-timeout, --request-timeout, --stream-timeout and --max-retry-wait must be positive")
			}
			if err := opts.budget.check(); err != nil {
				return err
			}
			if opts.record != "" && opts.replay != "" {
				return usageErrorf("--record and --replay exclude each other: record once, then replay")
			}
			files, messages := splitRunArgs(args, cmd.ArgsLenAtDash())
			if len(files) == 0 {
				return usageErrorf("name at least one .gram file or directory")
			}
			return runRedacted(cmd.Context(), e, opts, files, messages)
		},
	}
	f := cmd.Flags()
	addDisableFlag(cmd, e)
	f.StringVar(&opts.agent, "agent", "", "the agent to run (default: the only agent)")
	f.StringArrayVar(&opts.tools, "tool", nil, "bind tool NAME to a shell command: NAME=COMMAND (repeatable)")
	f.StringArrayVar(&opts.mcp, "mcp", nil, "use the tools of an MCP server: a command to run (stdio) or a streamable HTTP URL (repeatable)")
	f.StringArrayVar(&opts.toolEnv, "tool-env", nil, "give tool and --mcp commands the environment variable `NAME` although it holds a credential (an API key, GRAMC_MCP_TOKEN, OTEL_EXPORTER_OTLP_HEADERS; repeatable)")
	f.DurationVar(&opts.mcpTimeout, "mcp-timeout", 30*time.Second, "how long --mcp waits for each server to start and list its tools")
	f.StringVar(&opts.record, "record", "", "write every exchange with the provider to the cassette `FILE` (rewritten; no key is written)")
	f.StringVar(&opts.replay, "replay", "", "answer every request from the cassette `FILE`: no network, no key; a request that differs from the recorded one fails the run")
	f.StringVar(&opts.baseURL, "base-url", "", "base URL of the provider's API (default: the provider's, or $OPENAI_BASE_URL / $ANTHROPIC_BASE_URL / $GEMINI_BASE_URL)")
	f.StringVar(&opts.model, "model", "", "model name, overriding the agent's (Provider/model also changes the provider)")
	f.BoolVar(&opts.debug, "debug", false, "print raw requests and responses (API key redacted) on standard error")
	f.BoolVar(&opts.legacy, "functions", false, "use OpenAI's legacy functions/function_call API instead of tools")
	f.BoolVar(&opts.responses, "responses", false, "use OpenAI's Responses API instead of Chat Completions")
	f.BoolVar(&opts.noStream, "no-stream", false, "ask for whole answers instead of streams (the answer prints when complete)")
	f.DurationVar(&opts.toolTimeout, "tool-timeout", 30*time.Second, "time limit for each tool call (0: none)")
	f.IntVar(&opts.maxIterations, "max-iterations", 0, "override the agent's maxIterations")
	f.IntVar(&opts.maxToolCalls, "max-tool-calls", runtime.DefaultMaxToolCalls, "tool calls run per model response; the rest are answered with an error")
	opts.budget.add(f)
	f.DurationVar(&opts.requestTimeout, "request-timeout", 60*time.Second, "time limit for each request to the model until its answer starts, and for each silence in a streamed answer")
	f.DurationVar(&opts.streamTimeout, "stream-timeout", 10*time.Minute, "time limit for a whole streamed answer")
	f.DurationVar(&opts.maxRetryWait, "max-retry-wait", 60*time.Second, "longest wait before retrying a failed request (backoff or the server's Retry-After)")
	return cmd
}

// splitRunArgs separates gram paths from messages: everything before "--"
// when there is one, else the leading arguments that look like paths.
func splitRunArgs(args []string, dash int) (files, messages []string) {
	if dash >= 0 {
		return args[:dash], args[dash:]
	}
	i := 0
	for ; i < len(args); i++ {
		if !looksLikeGramPath(args[i]) {
			break
		}
	}
	return args[:i], args[i:]
}

func looksLikeGramPath(a string) bool {
	// A pattern is "..." or "dir/...": a message that merely ends in an
	// ellipsis ("Tell me more...") is a message.
	if strings.HasSuffix(a, ".gram") || a == "..." || strings.HasSuffix(filepath.ToSlash(a), "/...") {
		return true
	}
	fi, err := os.Stat(a)
	return err == nil && fi.IsDir()
}

// runRedacted is runRun with the API keys of the environment redacted from
// every line it writes — the answer, the tool trace, the debug dump, its
// error — even when a tool or the model echoes a key back, raw or
// JSON-escaped, and even split across a streamed answer's pieces.
func runRedacted(ctx context.Context, e *env, opts runOptions, files, messages []string) error {
	return redacted(e, func(e *env) error { return runRun(ctx, e, opts, files, messages) })
}

// redacted runs f with e's standard output and error, and its error's
// message, rid of the values of the key variables in the environment
// (keySecrets): a key a provider, a tool or a cassette echoes is never
// printed. gramc run and gramc test print through it.
func redacted(e *env, f func(*env) error) error {
	secrets := otelexport.KeySecrets()
	if len(secrets) == 0 {
		return f(e)
	}
	stdout, stderr := redact.NewWriter(e.stdout, secrets...), redact.NewWriter(e.stderr, secrets...)
	re := *e
	re.stdout, re.stderr = stdout, stderr
	err := f(&re)
	stdout.Flush()
	stderr.Flush()
	var xe *exitError
	if errors.As(err, &xe) && xe.err != nil {
		msg := otelexport.RedactWith(secrets, xe.err.Error())
		if msg != xe.err.Error() {
			return &exitError{code: xe.code, err: errors.New(msg)}
		}
	}
	return err
}

func runRun(ctx context.Context, e *env, opts runOptions, files, messages []string) (err error) {
	pkgs, err := loadPackages(e, files)
	if err != nil {
		return err
	}
	var ca *check.Agent
	ca, err = gramfile.FindAgent(pkgs, opts.agent)
	if err != nil {
		if opts.agent == "" {
			n := 0
			for _, p := range pkgs {
				n += len(p.Agents)
			}
			if n > 1 {
				return usageErrorf("%v with --agent NAME", err)
			}
		}
		return usageErrorf("%v", err)
	}
	agent, err := gramfile.AgentFromCheck(ca)
	if err != nil {
		return &exitError{code: ExitProblem, err: err}
	}
	// A typed agent's input is checked before anything starts: a bad one
	// names its parameter, and nothing is sent (docs/language.md §2.6).
	for _, m := range messages {
		if _, err := runtime.AgentMessage(agent, m); err != nil {
			return usageErrorf("%s", termsafe.Line(err.Error(), 2000))
		}
	}
	typed := agent.Signature.Typed()
	// A typed agent's output mode follows the model it runs on: --model
	// moves it (Gemini 2.x with tools takes the final-answer tool).
	runAgent := agent
	runAgent.Model = effectiveModel(agent.Model, opts.model)
	// Every tool command runs through one Runner, so that a signal can
	// kill them all (and wait for them) before gramc exits.
	tools := toolcmd.NewRunner(os.Environ(), opts.toolEnv...)
	defer tools.Close()
	// SIGINT, SIGTERM and SIGHUP stop the run, from here (an MCP server
	// still starting included): the model request and the tool calls are
	// cancelled, every tool's process group and every MCP server command's
	// is killed and waited for, and gramc exits 128+signal (130 for
	// Ctrl-C), as a shell reports a killed command.
	ctx, interrupted, stopSignals := stopOnSignal(ctx, tools)
	defer stopSignals()
	mcpTools, closeMCP, err := connectMCP(ctx, e, opts.mcp, opts.mcpTimeout, opts.toolEnv)
	if err != nil {
		return interrupted(err)
	}
	defer closeMCP()
	cassetteOpts, closeCassette, err := openCassette(opts)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := closeCassette(); cerr != nil && err == nil {
			err = &exitError{code: ExitProblem, err: cerr}
		}
	}()
	// The agents the agent lists run on their own models (listedModels),
	// their tools bound from this library (runtime.LibraryTools).
	lib, err := runToolLibrary(e, agent, opts.tools, tools, mcpTools)
	if err != nil {
		return err
	}
	model, err := runModel(e, agent, opts, cassetteOpts...)
	if err != nil {
		return err
	}
	withModels, err := listedModels(e, agent, opts, cassetteOpts...)
	if err != nil {
		return err
	}
	bound, err := runtime.Bind(runAgent, lib)
	if err != nil {
		return &exitError{code: ExitUsage, err: err}
	}

	// OpenTelemetry export when the standard OTEL_* variables ask for it;
	// what is buffered is flushed on every way out, a signal included.
	tel, stopTelemetry, err := startTelemetry(ctx, e, "gramc run")
	if err != nil {
		return err
	}
	defer stopTelemetry()
	// The answer is printed as it arrives. Text of the model's goes to
	// standard output, the tool trace to standard error; a line of text
	// still open when a tool call starts is ended first, so the two
	// never share a line on a terminal.
	out := &answerPrinter{w: e.stdout}
	if typed {
		// A typed agent's text is progress, on standard error; its value
		// is printed once, as JSON, on standard output.
		out.w = e.stderr
	}
	tel.BeforeConsoleSpan(out.endLine)
	runOpts := []runtime.Option{
		runtime.WithToolTimeout(opts.toolTimeout),
		runtime.WithMaxIterations(opts.maxIterations),
		runtime.WithMaxToolCalls(opts.maxToolCalls),
		withModels,
		runtime.WithEvents(func(ev runtime.Event) {
			switch ev.Kind {
			case runtime.EventText:
				out.text(ev.Text)
			case runtime.EventToolCallStart:
				out.endLine()
			case runtime.EventToolCall:
				out.endLine()
				fmt.Fprintf(e.stderr, "%s→ %s %s\n", nestedTrace(ev.Agent), termsafe.Line(ev.Call.Name, 100), oneLine(ev.Call.Arguments))
			case runtime.EventRepair:
				out.endLine()
				fmt.Fprintf(e.stderr, "gramc run: the answer is not a valid %s (%s); asking again\n", termsafe.Line(agent.Signature.OutputName, 100), oneLine(ev.Text))
			case runtime.EventToolResult:
				inv := ev.Invocation
				if inv.Err != nil {
					fmt.Fprintf(e.stderr, "%s← %s error: %s\n", nestedTrace(ev.Agent), termsafe.Line(inv.Tool, 100), oneLine(inv.Err.Error()))
					return
				}
				fmt.Fprintf(e.stderr, "%s← %s %s\n", nestedTrace(ev.Agent), termsafe.Line(inv.Tool, 100), oneLine(inv.Result))
			}
		}),
	}
	runOpts = append(runOpts, opts.budget.options()...)
	effective := agent.Model
	if strings.Contains(opts.model, "/") {
		effective = opts.model
	}
	runOpts = append(runOpts, tel.Options(runtime.ProviderName(effective))...)
	var conv *runtime.Conversation
	send := func(msg string) error {
		out.answered = false
		resp, err := bound.Run(ctx, model, msg, conv, runOpts...)
		out.endLine()
		if resp != nil {
			conv = resp.Conversation
		}
		if err != nil {
			var ie *runtime.IterationLimitError
			if errors.As(err, &ie) {
				return interrupted(&exitError{code: ExitProblem, err: fmt.Errorf("%w (raise it with --max-iterations or the agent's maxIterations)", err)})
			}
			var be *runtime.BudgetError
			if errors.As(err, &be) {
				return interrupted(&exitError{code: ExitProblem, err: fmt.Errorf("%w (%s)", err, budgetHint(be))})
			}
			var ve *runtime.ValidationError
			if errors.As(err, &ve) {
				return interrupted(usageErrorf("%s", termsafe.Line(err.Error(), 2000)))
			}
			var oe *runtime.OutputError
			if errors.As(err, &oe) {
				// The model's text is untrusted: one safe line of it.
				return interrupted(&exitError{code: ExitProblem, err: fmt.Errorf("%s\nthe model's last answer: %s", termsafe.Line(oe.Error(), 2000), oneLine(oe.Raw))})
			}
			return interrupted(&exitError{code: ExitProblem, err: err})
		}
		if typed {
			if resp.Lenient != "" {
				fmt.Fprintf(e.stderr, "gramc run: %s (prompted output)\n", resp.Lenient)
			}
			fmt.Fprintln(e.stdout, termsafe.JSON(resp.Value))
			return nil
		}
		if !out.answered {
			// An empty answer is still an answer: one line.
			fmt.Fprintln(e.stdout)
		}
		switch resp.StopReason {
		case runtime.StopMaxTokens:
			fmt.Fprintln(e.stderr, "gramc run: the answer was cut off at the model's output token limit")
		case runtime.StopRefusal:
			fmt.Fprintln(e.stderr, "gramc run: the model refused, or its answer was filtered")
		}
		return nil
	}
	if len(messages) > 0 {
		for _, m := range messages {
			if err := send(m); err != nil {
				return err
			}
		}
		return interrupted(nil)
	}
	interactive := isTerminal(e.stdin)
	if interactive {
		fmt.Fprintf(e.stderr, "%s\n> ", chatBanner(agent, opts))
	}
	// Lines are read in their own goroutine so that a signal ends the chat
	// even while it waits for input.
	lines := make(chan chatLine)
	go readChatLines(e.stdin, lines)
	for {
		var l chatLine
		select {
		case <-ctx.Done():
			return interrupted(nil)
		case l = <-lines:
		}
		switch {
		case l.err == io.EOF:
			return interrupted(nil)
		case l.err != nil:
			return interrupted(&exitError{code: ExitUsage, err: l.err})
		case l.tooLong > 0:
			fmt.Fprintf(e.stderr, "gramc run: that line has %d bytes, over the %d MiB limit of a chat line; it was not sent\n", l.tooLong, maxChatLine>>20)
		case strings.TrimSpace(l.text) != "":
			if err := send(strings.TrimSpace(l.text)); err != nil {
				return err
			}
		}
		if interactive {
			fmt.Fprint(e.stderr, "> ")
		}
	}
}

// answerPrinter prints a model's text as it arrives. The text keeps its
// lines, but no control sequence of the model's reaches the terminal: each
// piece goes through termsafe (a piece is whole UTF-8, decoded from JSON).
type answerPrinter struct {
	w        io.Writer
	open     bool // a line of text is not yet ended
	answered bool // some text was printed for this message
}

func (p *answerPrinter) text(s string) {
	if s == "" {
		return
	}
	io.WriteString(p.w, termsafe.Text(s, 0))
	p.open = !strings.HasSuffix(s, "\n")
	p.answered = true
}

func (p *answerPrinter) endLine() {
	if p.open {
		io.WriteString(p.w, "\n")
		p.open = false
	}
}

// maxChatLine bounds one line of chat input.
const maxChatLine = 1 << 20

// chatLine is one line of chat input: its text, or its length when it is
// over maxChatLine (and was discarded), or the error that ended input.
type chatLine struct {
	text    string
	tooLong int
	err     error
}

// readChatLines sends r's lines to out until the end of input (io.EOF) or
// an error. A line over maxChatLine is reported by its length and skipped:
// the chat goes on.
func readChatLines(r io.Reader, out chan<- chatLine) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		var line []byte
		n := 0
		for {
			chunk, err := br.ReadSlice('\n')
			n += len(chunk)
			if n <= maxChatLine {
				line = append(line, chunk...)
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil && (err != io.EOF || n == 0) {
				out <- chatLine{err: err}
				return
			}
			break
		}
		if n > maxChatLine {
			out <- chatLine{tooLong: n}
			continue
		}
		out <- chatLine{text: strings.TrimRight(string(line), "\r\n")}
	}
}

// chatBanner is the first line of an interactive chat: the agent and the
// model it actually talks to (--model wins over the agent's model; the
// provider is the agent's).
func chatBanner(agent runtime.Agent, opts runOptions) string {
	model := agent.Model
	if opts.model != "" {
		model = opts.model
		if provider, _ := runtime.SplitModel(agent.Model); provider != "" && !strings.Contains(opts.model, "/") {
			model = provider + "/" + opts.model
		}
	}
	return fmt.Sprintf("Chatting with %s (%s). End with Ctrl-D.", agent.Name, model)
}

// oneLine is s, from a model or a tool, on one line of the trace: runs of
// white space become one space, control characters are escaped (a newline
// in a tool name cannot forge a trace line, an escape sequence cannot
// reach the terminal) and the text is cut at about 200 bytes with a count.
func oneLine(s string) string {
	return termsafe.Line(strings.Join(strings.Fields(s), " "), 200)
}

// runModel makes the client for agent's provider (package clients:
// Anthropic and Gemini have their own, OpenAI, Ollama and any other
// OpenAI-compatible server the OpenAI one). --model may name another
// provider (Provider/model).
// effectiveModel is the agent's model as --model changes it: with a
// provider, the one named; without, the agent's provider's model of that
// name.
func effectiveModel(agentModel, override string) string {
	if override == "" {
		return agentModel
	}
	if p, _, ok := strings.Cut(agentModel, "/"); ok && !strings.Contains(override, "/") {
		return p + "/" + override
	}
	return override
}

func runModel(e *env, agent runtime.Agent, opts runOptions, extra ...clientopt.Option) (runtime.Model, error) {
	model := effectiveModel(agent.Model, opts.model)
	client := clients.Of(model)
	if opts.responses && client != provider.OpenAI {
		return nil, usageErrorf("--responses is OpenAI's Responses API; agent %s's model is %s's", agent.Name, client)
	}
	if opts.legacy && client != provider.OpenAI {
		return nil, usageErrorf("--functions is OpenAI's legacy API; agent %s's model is %s's", agent.Name, client)
	}
	// A wait of more than a second is shown, so a rate-limited run does
	// not look hung.
	notice := func(attempt int, wait time.Duration, err error) {
		if wait > time.Second {
			fmt.Fprintf(e.stderr, "gramc run: attempt %d failed: %s; retrying in %v\n", attempt, termsafe.Line(retryError(err), 300), wait.Round(100*time.Millisecond))
		}
	}
	copts := []clientopt.Option{clientopt.WithTimeout(opts.requestTimeout), clientopt.WithStreamTimeout(opts.streamTimeout),
		clientopt.WithMaxRetryWait(opts.maxRetryWait), clientopt.WithRetryNotice(notice)}
	if opts.baseURL != "" {
		copts = append(copts, clientopt.WithBaseURL(opts.baseURL))
	}
	if opts.model != "" {
		copts = append(copts, clientopt.WithModel(modelName(opts.model)))
	}
	switch {
	case opts.legacy:
		copts = append(copts, openai.WithMode(openai.FunctionsMode))
	case opts.responses:
		copts = append(copts, openai.WithMode(openai.ResponsesMode))
	}
	if opts.debug {
		copts = append(copts, clientopt.WithDebugWriter(e.stderr))
	}
	m, err := clients.New(model, append(copts, extra...)...)
	var ce *runtime.ConfigurationError
	if errors.As(err, &ce) && ce.Err == nil {
		switch p := clients.Row(model); ce.Setting {
		case p.KeySetting():
			if p.Client == provider.OpenAI {
				return nil, usageErrorf("%s, or pass --base-url for an OpenAI-compatible server", p.MissingKey())
			}
			return nil, usageErrorf("%s", p.MissingKey())
		case "base URL":
			return nil, usageErrorf("agent %s: %v (--base-url)", agent.Name, err)
		}
	}
	if err != nil {
		return nil, &exitError{code: ExitUsage, err: err}
	}
	if opts.noStream {
		// Without Stream, the run reports each answer whole.
		m = runtime.ModelFunc(m.Complete)
	}
	return m, nil
}

// openCassette opens --record's or --replay's cassette: the client options
// that send the provider's traffic through it, and what ends the session
// (a recording is written, rewriting the file, even when the run failed;
// a replay that left recorded requests unmade is an error). A replay
// gives the client a stand-in key, so it needs none and sends none.
func openCassette(opts runOptions) ([]clientopt.Option, func() error, error) {
	path, mode := opts.replay, cassette.Replay
	if opts.record != "" {
		path, mode = opts.record, cassette.Record
	}
	if path == "" {
		return nil, func() error { return nil }, nil
	}
	s, err := cassette.Open(path, mode, provider.KeyValues()...)
	if err != nil {
		return nil, nil, usageErrorf("%v", err)
	}
	copts := []clientopt.Option{clientopt.WithHTTPClient(s.Client)}
	if mode == cassette.Replay {
		copts = append(copts, clientopt.WithAPIKey(cassette.ReplayKey))
	}
	return copts, s.Close, nil
}

// modelName is a --model value without its provider.
func modelName(m string) string {
	_, name := runtime.SplitModel(m)
	return name
}

// runToolLibrary binds every tool of agent: to its --tool command, to the
// tool of that name an --mcp server serves, or to a Go tool of
// DoWithTools or a built-in seed tool (env.builtinTool).
func runToolLibrary(e *env, agent runtime.Agent, toolFlags []string, tools *toolcmd.Runner, mcpTools []runtime.Tool) (*runtime.ToolLibrary, error) {
	fromMCP := map[string]runtime.Tool{}
	for _, t := range mcpTools {
		fromMCP[t.Spec.Name] = t
	}
	// --tool may bind a tool of a listed agent too: the library holds
	// every tool of the nesting, no listed agent (Bind runs those).
	commands := map[string]string{}
	var names []string
	specs := runtime.LibraryTools(agent)
	for _, s := range specs {
		names = append(names, s.Name)
	}
	for _, tf := range toolFlags {
		name, command, err := parseToolFlag(tf)
		if err != nil {
			return nil, err
		}
		if !containsString(names, name) {
			msg := fmt.Sprintf("--tool %s: agent %s has no tool %s", name, agent.Name, name) + suggest.Hint(name, names, "agent's tools")
			return nil, usageErrorf("%s", msg)
		}
		commands[name] = command
	}
	lib := runtime.NewToolLibrary()
	var missing []string
	for _, spec := range specs {
		if command, ok := commands[spec.Name]; ok {
			lib.Replace(runtime.Tool{Spec: spec, Func: tools.Tool(command)})
		} else if t, ok := fromMCP[spec.Name]; ok {
			// The server's own specification: Bind reports any
			// difference from the agent's declaration.
			lib.Replace(t)
		} else if f := e.builtinTool(spec.Name); f != nil {
			lib.Replace(runtime.Tool{Spec: spec, Func: f})
		} else {
			missing = append(missing, spec.Name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, usageErrorf("agent %s: no implementation for tool %s: bind it with --tool %s=COMMAND", agent.Name, strings.Join(missing, ", "), missing[0])
	}
	return lib, nil
}

// parseToolFlag reads a --tool NAME=COMMAND value, as gramc run, mcp and
// test take it.
func parseToolFlag(tf string) (name, command string, err error) {
	name, command, ok := strings.Cut(tf, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.TrimSpace(command) == "" {
		return "", "", usageErrorf("--tool %q: want NAME=COMMAND", tf)
	}
	return name, command, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// builtinTools implement the seed examples' tools.
var builtinTools = map[string]runtime.ToolFunc{
	"sayHello":   greeting("Hello"),
	"sayGoodbye": greeting("Goodbye"),
}

func greeting(word string) runtime.ToolFunc {
	return func(ctx context.Context, args json.RawMessage) (any, error) {
		var a struct {
			PersonName *string `json:"personName"`
		}
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		name := "world"
		if a.PersonName != nil {
			name = *a.PersonName
		}
		return fmt.Sprintf("%s, %s!", word, name), nil
	}
}

// retryError is the error of one failed attempt, as the retry notice
// shows it beside the attempt's number: without the error's own count of
// the attempts so far, which would count the same attempts twice.
func retryError(err error) string {
	var apiErr *runtime.APIError
	if errors.As(err, &apiErr) {
		one := *apiErr
		one.Attempts = 0
		return one.Error()
	}
	return err.Error()
}

// providerNames are the providers' names, in the table's order.
func providerNames() []string {
	var out []string
	for _, p := range provider.Table {
		out = append(out, p.Name)
	}
	return out
}

// providerHelp is gramc run --help's list of the providers, built from
// package provider's table (so no row is left out): per provider its key
// variables (the first set wins), its base-URL variable and its default
// address, and its aliases.
func providerHelp() string {
	width := 0
	for _, p := range provider.Table {
		width = max(width, len(p.Name))
	}
	var b strings.Builder
	for _, p := range provider.Table {
		key := "no key"
		switch len(p.KeyEnv) {
		case 0:
		case 1:
			key = p.KeyEnv[0]
		default:
			key = strings.Join(p.KeyEnv, " or ") + " (the first set wins)"
		}
		where := []string{key}
		switch {
		case p.BaseURLEnv != "" && p.BaseURL != "":
			where = append(where, p.BaseURLEnv+" ("+p.BaseURL+")")
		case p.BaseURLEnv != "":
			where = append(where, p.BaseURLEnv+" (required)")
		case p.BaseURL != "":
			where = append(where, p.BaseURL)
		}
		if p.Client != provider.Client(strings.ToLower(p.Name)) {
			where = append(where, "its "+p.Client.API()+"-compatible API")
		}
		if len(p.Aliases) > 0 {
			where = append(where, "also "+strings.Join(p.Aliases, ", "))
		}
		line := fmt.Sprintf("  %-*s  %s", width, p.Name, where[0])
		for _, w := range where[1:] {
			// Wrapped at 78 columns, under the first.
			if len(line)+2+len(w) > 78 {
				b.WriteString(line + ",\n")
				line = strings.Repeat(" ", width+4) + w
				continue
			}
			line += ", " + w
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}
