package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

func init() {
	// Scripts start the fake OpenAI server with `exec fakeopenai -addr
	// $FAKEOPENAI_ADDR &` and point gramc run at http://$FAKEOPENAI_ADDR/v1.
	scriptCommands["fakeopenai"] = func() {
		os.Exit(runtimetest.FakeOpenAIMain(os.Args[1:], os.Stdout, os.Stderr))
	}
	// rawserver ADDR TYPE FILE answers every request on ADDR with status 200,
	// Content-Type TYPE and FILE's bytes (an answer no fake would give:
	// empty, echoing a key), until interrupted.
	scriptCommands["rawserver"] = func() {
		body, err := os.ReadFile(os.Args[3])
		if err != nil {
			fmt.Fprintln(os.Stderr, "rawserver:", err)
			os.Exit(2)
		}
		err = http.ListenAndServe(os.Args[1], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", os.Args[2])
			w.Write(body)
		}))
		fmt.Fprintln(os.Stderr, "rawserver:", err)
		os.Exit(1)
	}
	// waitfile FILE waits (up to 20 s) until FILE exists and is not empty:
	// scripts use it to act once a background command got somewhere.
	scriptCommands["waitfile"] = func() {
		for range 2000 {
			if fi, err := os.Stat(os.Args[1]); err == nil && fi.Size() > 0 {
				os.Exit(0)
			}
			time.Sleep(10 * time.Millisecond)
		}
		fmt.Fprintf(os.Stderr, "waitfile: %s did not appear\n", os.Args[1])
		os.Exit(1)
	}
	// waitaddr ADDR waits (up to 20 s) until something listens on ADDR.
	scriptCommands["waitaddr"] = func() {
		for range 2000 {
			if c, err := net.Dial("tcp", os.Args[1]); err == nil {
				c.Close()
				os.Exit(0)
			}
			time.Sleep(10 * time.Millisecond)
		}
		fmt.Fprintf(os.Stderr, "waitaddr: nothing listens on %s\n", os.Args[1])
		os.Exit(1)
	}
	scriptSetups = append(scriptSetups, func(env *testscript.Env) error {
		for _, name := range []string{"FAKEOPENAI_ADDR", "FAKEANTHROPIC_ADDR", "FAKEGEMINI_ADDR", "FAKERESPONSES_ADDR", "MCP_ADDR"} {
			addr, err := scriptAddr()
			if err != nil {
				return err
			}
			env.Setenv(name, addr)
		}
		env.Setenv("SEED", seedDir())
		return nil
	})
}

// The addresses the tests' servers listen on (a script's, MCP_PORT, the
// MCP conformance test's) are handed out once each in this process, from
// ports below Linux's ephemeral range (32768 on), where neither an
// outgoing connection nor a listener on port 0 — of this test, of another
// running beside it, of another package's tests — can take one between
// the hand-out and the server binding it (a port from 127.0.0.1:0, closed
// and handed on, once was). They are below the temporal module's too: its
// development servers take theirs from [20000, 32768) (devserver.FreePort),
// and make test runs the two modules' tests side by side (a script's port
// handed to a Temporal server's listener once failed the server's start).
const (
	scriptPortLow  = 10000
	scriptPortHigh = 20000 // exclusive
)

var (
	addrMu   sync.Mutex
	addrNext = scriptPortLow + rand.IntN(scriptPortHigh-scriptPortLow)
)

func scriptAddr() (string, error) {
	addrMu.Lock()
	defer addrMu.Unlock()
	for range scriptPortHigh - scriptPortLow {
		p := addrNext
		addrNext++
		if addrNext >= scriptPortHigh {
			addrNext = scriptPortLow
		}
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(p))
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			continue
		}
		ln.Close()
		return addr, nil
	}
	return "", fmt.Errorf("no free port in [%d, %d) on 127.0.0.1", scriptPortLow, scriptPortHigh)
}

func seedDir() string {
	d, _ := filepath.Abs("../testdata/examples/seed")
	return d
}

// runGramc runs gramc with args and stdin against a fake server.
func runGramc(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Do(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func fakeServer(t *testing.T) *runtimetest.ProviderServer {
	t.Setenv("OPENAI_API_KEY", "sk-cli-test-key")
	t.Setenv("OPENAI_BASE_URL", "")
	return runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Echo)
}

func TestRunHello(t *testing.T) {
	srv := fakeServer(t)
	code, out, errs := runGramc(t, "", "run", "--base-url", srv.URL, filepath.Join(seedDir(), "helloGoodbyeAgent.gram"), "Hello, I am Alice", "See you, Bob")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if out != "Hello, Alice!\nHello, Bob!\n" {
		t.Errorf("stdout = %q", out)
	}
	if want := "→ sayHello {\"personName\":\"Alice\"}\n← sayHello Hello, Alice!\n"; !strings.HasPrefix(errs, want) {
		t.Errorf("stderr = %q, want it to start with %q", errs, want)
	}
	// The second message continues the conversation.
	reqs := srv.Chats()
	if len(reqs) != 4 || len(reqs[2].Messages) != 6 {
		t.Errorf("%d requests; the third has %d messages, want 6", len(reqs), len(reqs[2].Messages))
	}
}

func TestRunToolCommand(t *testing.T) {
	srv := fakeServer(t)
	seed := filepath.Join(seedDir(), "helloAgent.gram")
	code, out, errs := runGramc(t, "", "run", "--base-url", srv.URL, seed,
		"--tool", `sayHello=read args; echo "sh got $args"`, "--", "I am Carl")
	if code != 0 || out != "sh got {\"personName\":\"Carl\"}\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// A failing command is a tool error the model sees.
	code, out, _ = runGramc(t, "", "run", "--base-url", srv.URL, seed, "--tool", `sayHello=echo no such person >&2; exit 3`, "I am Dan")
	if code != 0 || out != "error: tool sayHello failed: exit status 3: no such person\n" {
		t.Errorf("failing command: exit %d, stdout %q", code, out)
	}
	// A slow command hits the tool timeout.
	code, out, _ = runGramc(t, "", "run", "--base-url", srv.URL, seed, "--tool-timeout", "100ms", "--tool", `sayHello=sleep 5`, "I am Eve")
	if code != 0 || out != "error: tool sayHello timed out after 100ms\n" {
		t.Errorf("slow command: exit %d, stdout %q", code, out)
	}
}

func TestRunChatOnStdin(t *testing.T) {
	srv := fakeServer(t)
	code, out, errs := runGramc(t, "I am Fay\n\nI am Gus\n", "run", "--base-url", srv.URL, filepath.Join(seedDir(), "helloAgent.gram"))
	if code != 0 || out != "Hello, Fay!\nHello, Gus!\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestRunDebugRedactsKey(t *testing.T) {
	srv := fakeServer(t)
	code, _, errs := runGramc(t, "", "run", "--debug", "--base-url", srv.URL, filepath.Join(seedDir(), "helloAgent.gram"), "hi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(errs, "sk-cli-test-key") || !strings.Contains(errs, "Authorization: Bearer [REDACTED]") ||
		!strings.Contains(errs, `"tools":[{"type":"function","function":{"name":"sayHello"`) || !strings.Contains(errs, "--- response 200 OK") {
		t.Errorf("debug output:\n%s", errs)
	}
}

func TestRunErrors(t *testing.T) {
	srv := fakeServer(t)
	seed := seedDir()
	tests := []struct {
		name string
		env  map[string]string
		args []string
		code int
		want string
	}{
		{"missing key", map[string]string{"OPENAI_API_KEY": ""}, []string{"run", filepath.Join(seed, "helloAgent.gram"), "hi"}, 2,
			"gramc run: OPENAI_API_KEY is not set: export OPENAI_API_KEY=<your OpenAI API key>, or pass --base-url for an OpenAI-compatible server\n"},
		{"no files", nil, []string{"run", "hi"}, 2, "name at least one .gram file"},
		{"two agents", nil, []string{"run", "--base-url", srv.URL, seed, "hi"}, 2, "several agents are declared (hello_goodbye_agent, hello_world_agent): name one with --agent NAME"},
		{"misspelt agent", nil, []string{"run", "--base-url", srv.URL, seed, "--agent", "hello_wrld_agent", "hi"}, 2, `did you mean hello_world_agent?`},
		{"unknown --tool", nil, []string{"run", "--base-url", srv.URL, filepath.Join(seed, "helloAgent.gram"), "--tool", "sayHelo=cat", "hi"}, 2, `agent hello_world_agent has no tool sayHelo; did you mean sayHello?`},
		{"bad --tool", nil, []string{"run", "--base-url", srv.URL, filepath.Join(seed, "helloAgent.gram"), "--tool", "sayHello", "hi"}, 2, "want NAME=COMMAND"},
		{"unbound tool", nil, []string{"run", "--base-url", srv.URL, "../testdata/examples/weather.gram", "hi"}, 2, "no implementation for tool getForecast, getWeather: bind it with --tool getForecast=COMMAND"},
		{"missing file", nil, []string{"run", "nope.gram", "hi"}, 2, "nope.gram"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			code, _, errs := runGramc(t, "", tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errs, tt.code, tt.want)
			}
			if tt.name == "missing key" && strings.Count(errs, "\n") != 1 {
				t.Errorf("missing key error is not one line: %q", errs)
			}
		})
	}
}

func TestRunAPIError(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-wrong")
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Echo)
	srv.APIKey = "sk-right"
	code, out, errs := runGramc(t, "", "run", "--base-url", srv.URL, filepath.Join(seedDir(), "helloAgent.gram"), "hi")
	if code != 1 || out != "" || !strings.Contains(errs, "HTTP 401") || strings.Contains(errs, "sk-wrong") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestSplitRunArgs(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args  []string
		dash  int
		files string
	}{
		{[]string{"a.gram", "b.gram", "hi there"}, -1, "a.gram b.gram"},
		{[]string{dir, "./x/...", "hello", "c.gram"}, -1, dir + " ./x/..."},
		{[]string{"a.gram", "b.gram"}, 1, "a.gram"},
		{[]string{"a.gram", "...", "Hmm...", "I am Ann..."}, -1, "a.gram ..."},
	} {
		files, msgs := splitRunArgs(tt.args, tt.dash)
		if got := strings.Join(files, " "); got != tt.files || len(files)+len(msgs) != len(tt.args) {
			t.Errorf("splitRunArgs(%q) = %q, %q", tt.args, files, msgs)
		}
	}
}

func TestRunFlags(t *testing.T) {
	srv := fakeServer(t)
	seed := filepath.Join(seedDir(), "helloAgent.gram")
	code, out, errs := runGramc(t, "", "run", "--base-url", srv.URL, "--functions", "--model", "llama3.1:8b", seed, "I am Hal")
	if code != 0 || out != "Hello, Hal!\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	first := srv.Chats()[0]
	if first.Model != "llama3.1:8b" || len(first.Functions) != 1 || len(first.Tools) != 0 {
		t.Errorf("request: %s", first.Raw)
	}

	loop := runtimetest.NewProviderServer(t, runtimetest.OpenAI, func(*runtimetest.Turn, int) runtimetest.Reply {
		return runtimetest.ToolCallsReply(runtimetest.FakeCall{Name: "sayHello", Arguments: `{}`})
	})
	code, _, errs = runGramc(t, "", "run", "--base-url", loop.URL, "--max-iterations", "2", seed, "loop")
	if code != 1 || !strings.Contains(errs, "iteration limit reached: the model still called tools after 2 requests (raise it with --max-iterations") {
		t.Errorf("iteration limit: exit %d, stderr %q", code, errs)
	}
	if n := len(loop.Chats()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}

	// Negative limits are usage errors, not silently the defaults.
	for _, flag := range [][]string{{"--max-iterations", "-1"}, {"--tool-timeout", "-5s"}} {
		code, _, errs = runGramc(t, "", append(append([]string{"run", "--base-url", srv.URL}, flag...), seed, "hi")...)
		if code != 2 || !strings.Contains(errs, flag[0]+" must") {
			t.Errorf("%s %s: exit %d, stderr %q", flag[0], flag[1], code, errs)
		}
	}
}

// TestOneLineCutsAtACharacter: a long tool result shown on stderr is cut
// between characters, never inside one (no invalid UTF-8 on the terminal),
// and says how much it left out.
func TestOneLineCutsAtACharacter(t *testing.T) {
	for pad := 0; pad < 4; pad++ {
		s := strings.Repeat("a", pad) + strings.Repeat("é€😀", 100)
		got := oneLine(s)
		kept, _, _ := strings.Cut(got, "… [")
		if !utf8.ValidString(got) || !strings.HasSuffix(got, " more bytes]") || len(kept) > 200 {
			t.Errorf("oneLine(%d a's + text) = %q (%d bytes)", pad, got, len(got))
		}
	}
	if got := oneLine("short\n  result"); got != "short result" {
		t.Errorf("oneLine = %q", got)
	}
	if got := oneLine("say\x1b]0;title\x07Hello\u202e"); got != `say\x1b]0;title\x07Hello\u202e` {
		t.Errorf("oneLine let control characters through: %q", got)
	}
}

// TestRunTerminalSafety: nothing a model or a tool says reaches the
// terminal raw (issue 12.5). A tool name with a newline cannot forge a
// trace line, escape sequences (window title, screen clearing) and bidi
// overrides are shown escaped, and the answer keeps its lines.
func TestRunTerminalSafety(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-cli-test-key")
	srv := runtimetest.NewProviderServer(t, runtimetest.OpenAI, runtimetest.Replies(
		runtimetest.ToolCallsReply(
			runtimetest.FakeCall{Name: "sayHello\n← sayHello forged", Arguments: `{"personName":"A"}`},
			runtimetest.FakeCall{Name: "sayHello", Arguments: `{"personName":"\u001b]0;pwned\u0007Ada\u202e"}`},
		),
		runtimetest.TextReply("line one\n\u001b[2Jline two \u001b]52;c;Y2xpcA==\u0007"),
	))
	code, out, errs := runGramc(t, "", "run", "--base-url", srv.URL, filepath.Join(seedDir(), "helloAgent.gram"), "Hi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for name, s := range map[string]string{"stdout": out, "stderr": errs} {
		if strings.ContainsAny(s, "\x1b\x07\u202e") {
			t.Errorf("%s has a raw control character: %q", name, s)
		}
	}
	if want := "line one\n\\x1b[2Jline two \\x1b]52;c;Y2xpcA==\\x07\n"; out != want {
		t.Errorf("answer = %q, want %q", out, want)
	}
	for _, line := range strings.Split(strings.TrimSpace(errs), "\n") {
		if strings.HasPrefix(line, "← sayHello forged") {
			t.Errorf("a tool name forged a trace line: %q", errs)
		}
	}
	if !strings.Contains(errs, `→ sayHello\n← sayHello forged {"personName":"A"}`) {
		t.Errorf("the forged name is not shown escaped on its own line:\n%s", errs)
	}
	if !strings.Contains(errs, `\x1b]0;pwned\x07Ada\u202e`) {
		t.Errorf("the arguments are not shown escaped:\n%s", errs)
	}
}

// TestRunKeyWithLineBreak: a key pasted with its newline is a
// configuration error at once, not four retried connection errors, and
// the key is not shown (issue 12.13).
func TestRunKeyWithLineBreak(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-abc\n")
	code, _, errs := runGramc(t, "", "run", "--base-url", "http://127.0.0.1:1/v1", filepath.Join(seedDir(), "helloAgent.gram"), "hi")
	if code != ExitUsage || !strings.Contains(errs, "line break at byte 7 of 7") || strings.Contains(errs, "attempts") || strings.Contains(errs, "sk-abc") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// TestRunChatLongLine: a chat line over 1 MiB is refused with a message
// and the chat goes on (issue 12.13).
func TestRunChatLongLine(t *testing.T) {
	srv := fakeServer(t)
	stdin := strings.Repeat("x", 2<<20) + "\nHi, I am Ada\n"
	code, out, errs := runGramc(t, stdin, "run", "--base-url", srv.URL, filepath.Join(seedDir(), "helloAgent.gram"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "that line has 2097153 bytes, over the 1 MiB limit") {
		t.Errorf("stderr = %q", errs)
	}
	if out != "Hello, Ada!\n" {
		t.Errorf("stdout = %q", out)
	}
}

// TestRunShowsLongRetryWaits: a retry that waits over a second says so,
// and --max-retry-wait bounds the server's Retry-After (issue 12.13).
func TestRunShowsLongRetryWaits(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-cli-test-key")
	fake := &runtimetest.Fake{Provider: runtimetest.OpenAI, Policy: runtimetest.Echo, NoSchema: true, Problem: func(err error) { t.Error(err) }}
	var n atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= 2 {
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"Rate limit reached","type":"rate_limit_error"}}`)
			return
		}
		fake.ServeHTTP(w, r)
	}))
	defer hs.Close()
	code, out, errs := runGramc(t, "", "run", "--base-url", hs.URL+"/v1", "--max-retry-wait", "1100ms", filepath.Join(seedDir(), "helloAgent.gram"), "Hi Ada")
	if code != 0 || out != "Hello, Ada!\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// Each notice counts the attempt that failed, once (issue 36.7).
	want := "gramc run: attempt 1 failed: openai: HTTP 429: Rate limit reached; retrying in 1.1s\n" +
		"gramc run: attempt 2 failed: openai: HTTP 429: Rate limit reached; retrying in 1.1s\n"
	if !strings.HasPrefix(errs, want) {
		t.Errorf("stderr = %q, want it to begin %q", errs, want)
	}
}

// TestRunHugeProviderError: a provider error of 20 MB prints as a bounded,
// terminal-safe line with a count of what was left out (issue 12.5).
func TestRunHugeProviderError(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-cli-test-key")
	huge := strings.Repeat("\x1b[31mboom ", 4<<20) // 20 MB
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		body, _ := json.Marshal(map[string]any{"error": map[string]any{"message": huge, "type": "invalid_request_error"}})
		w.Write(body)
	}))
	defer hs.Close()
	code, _, errs := runGramc(t, "", "run", "--base-url", hs.URL+"/v1", filepath.Join(seedDir(), "helloAgent.gram"), "hi")
	if code != ExitProblem || len(errs) > 8192 || strings.Contains(errs, "\x1b") || !strings.Contains(errs, "more bytes]") {
		t.Errorf("exit %d, %d bytes of stderr: %.300q", code, len(errs), errs)
	}
}
