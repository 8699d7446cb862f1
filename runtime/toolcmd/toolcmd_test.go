//go:build unix

package toolcmd

import (
	"context"
	"errors"
	"fmt"
	"github.com/gramc-dev/gramc/runtime"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive reports whether the process whose pid is in file still runs.
func alive(t *testing.T, file string) bool {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no pid file: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	// A killed child stays a zombie until a parent reaps it (in a
	// container, pid 1 may never): a zombie counts as dead.
	for range 50 {
		if syscall.Kill(pid, 0) != nil {
			return false
		}
		if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
				return false
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

func TestResult(t *testing.T) {
	r := NewRunner(os.Environ())
	got, err := r.Tool(`cat; echo done`)(context.Background(), []byte(`{"a":1}`))
	if err != nil || got != "{\"a\":1}\ndone" {
		t.Errorf("got %q, %v", got, err)
	}
	_, err = r.Tool(`echo oops >&2; exit 3`)(context.Background(), []byte(`{}`))
	if err == nil || !strings.Contains(err.Error(), "exit status 3: oops") {
		t.Errorf("failing command: %v", err)
	}
}

// A command that exits 0 while a background child holds its output open
// succeeds with its output, and the child is killed with the call (issue
// 12.1).
func TestBackgroundChildHoldingOutput(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	r := NewRunner(os.Environ())
	start := time.Now()
	got, err := r.Tool(`sleep 30 & echo $! > '`+pidFile+`'; echo result`)(context.Background(), []byte(`{}`))
	if err != nil || got != "result" {
		t.Fatalf("got %q, %v", got, err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("the call waited for the background child (%v)", d)
	}
	if alive(t, pidFile) {
		t.Error("the background child outlived the call")
	}
}

// When a tool command times out, the processes it started die with it.
func TestTimeoutKillsChildren(t *testing.T) {
	leak := filepath.Join(t.TempDir(), "leak")
	f := NewRunner(os.Environ()).Tool("(sleep 0.5; touch '" + leak + "') & wait")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := f(ctx, []byte(`{}`)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("after the timeout: %v", err)
	}
	time.Sleep(time.Second)
	if _, err := os.Stat(leak); err == nil {
		t.Error("a child of the timed-out tool command kept running (it created its file)")
	}
}

// Close (what gramc does on a signal) kills every running command's group
// and returns only when the calls have ended.
func TestCloseKillsEverything(t *testing.T) {
	dir := t.TempDir()
	r := NewRunner(os.Environ())
	errs := make(chan error, 3)
	for i := range 3 {
		pid := filepath.Join(dir, fmt.Sprint(i))
		go func() {
			_, err := r.Tool(`sleep 30 & echo $! > '`+pid+`.tmp'; mv '`+pid+`.tmp' '`+pid+`'; wait`)(context.Background(), []byte(`{}`))
			errs <- err
		}()
	}
	for i := range 3 {
		for range 500 {
			if _, err := os.Stat(filepath.Join(dir, fmt.Sprint(i))); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	r.Close()
	for range 3 {
		if err := <-errs; !errors.Is(err, ErrClosed) {
			t.Errorf("a call stopped by Close returned %v", err)
		}
	}
	for i := range 3 {
		if alive(t, filepath.Join(dir, fmt.Sprint(i))) {
			t.Errorf("command %d's child survived Close", i)
		}
	}
	if _, err := r.Tool("true")(context.Background(), nil); !errors.Is(err, ErrClosed) {
		t.Errorf("a call after Close: %v", err)
	}
}

// A command that prints without end fails quickly with a clear error
// instead of filling memory until the timeout; standard error is cut.
func TestOutputLimit(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r := NewRunner(os.Environ())
	_, err := r.Tool("yes")(ctx, []byte(`{}`))
	if err == nil || !strings.Contains(err.Error(), "more than 8 MiB") {
		t.Fatalf("yes = %v, want an output limit error", err)
	}
	if ctx.Err() != nil {
		t.Fatal("the output limit did not stop the command before the timeout")
	}
	_, err = r.Tool("yes x | head -c 200000 >&2; exit 3")(ctx, []byte(`{}`))
	if err == nil || !strings.Contains(err.Error(), "exit status 3") || len(err.Error()) > 70000 {
		t.Errorf("long stderr: error of %d bytes: %.100s", len(fmt.Sprint(err)), fmt.Sprint(err))
	}
}

func TestToolEnv(t *testing.T) {
	env := ToolEnv([]string{"PATH=/bin", "OPENAI_API_KEY=k", "ANTHROPIC_API_KEY=k", "GEMINI_API_KEY=k", "GOOGLE_API_KEY=k", "OPENAI_API_KEYS=x"})
	if strings.Join(env, " ") != "PATH=/bin OPENAI_API_KEYS=x" {
		t.Errorf("ToolEnv = %q", env)
	}
	// gramc mcp's token and the OTLP headers too, unless asked for.
	in := []string{"GRAMC_MCP_TOKEN=t", "OTEL_EXPORTER_OTLP_HEADERS=h", "OTEL_EXPORTER_OTLP_METRICS_HEADERS=h", "OTEL_EXPORTER_OTLP_ENDPOINT=e"}
	if got := strings.Join(ToolEnv(in), " "); got != "OTEL_EXPORTER_OTLP_ENDPOINT=e" {
		t.Errorf("ToolEnv = %q", got)
	}
	if got := strings.Join(ToolEnv(in, "GRAMC_MCP_TOKEN"), " "); got != "GRAMC_MCP_TOKEN=t OTEL_EXPORTER_OTLP_ENDPOINT=e" {
		t.Errorf("ToolEnv asking for GRAMC_MCP_TOKEN = %q", got)
	}
}

// TestIdempotencyKey: a call with an idempotency key gives it to the
// command as GRAMC_IDEMPOTENCY_KEY; a call without has no such variable.
func TestIdempotencyKey(t *testing.T) {
	r := NewRunner(append(os.Environ(), IdempotencyKeyVar+"=inherited"))
	tool := r.Tool(`printf %s "${GRAMC_IDEMPOTENCY_KEY-unset}"`)
	got, err := tool(runtime.WithIdempotencyKey(context.Background(), "wf-1/call_2"), []byte(`{}`))
	if err != nil || got != "wf-1/call_2" {
		t.Errorf("with a key: got %q, %v", got, err)
	}
	got, err = tool(context.Background(), []byte(`{}`))
	if err != nil || got != "inherited" {
		t.Errorf("without a key: got %q, %v (want the environment's own value)", got, err)
	}
}
