package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gramc-dev/gramc/internal/golden"
	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCommands are the programs testscript scripts can exec. Other test
// files add entries from init functions (for example a fake OpenAI server),
// which run before TestMain.
var scriptCommands = map[string]func(){
	"gramc": func() { os.Exit(Main()) },
}

// scriptSetups run for every script that scriptDefaults sets up, after
// its defaults.
var scriptSetups []func(*testscript.Env) error

func TestMain(m *testing.M) {
	testscript.Main(m, scriptCommands)
}

// TestScripts runs the end-to-end CLI scripts in testdata/script.
func TestScripts(t *testing.T) {
	runScripts(t, "testdata/script", scriptDefaults)
}

// scriptDefaults is the set-up of the scripts that run gramc as a user
// does: no OpenAI key or base URL from the environment the tests run in,
// then scriptSetups.
func scriptDefaults(env *testscript.Env) error {
	env.Setenv("OPENAI_API_KEY", "")
	env.Setenv("OPENAI_BASE_URL", "")
	for _, s := range scriptSetups {
		if err := s(env); err != nil {
			return err
		}
	}
	return nil
}

// runScripts runs the scripts of dir as each directory of them is run:
// a program only by exec of its name, GRAMC_UPDATE=1 rewriting their
// expected output, NO_COLOR set; setup adds what dir's scripts need.
func runScripts(t *testing.T, dir string, setup func(*testscript.Env) error) {
	testscript.Run(t, testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		UpdateScripts:       golden.Update(),
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			return setup(env)
		},
	})
}

// scriptServer is the server a script's JSON-RPC driver (lspclient,
// lspframe, mcplines) talks to: COMMAND ARGS... with its standard error
// passed through and its standard input and output piped to the driver.
type scriptServer struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out io.ReadCloser
}

// startScriptServer starts the server of the driver name; when it cannot,
// it says why on standard error and returns nil.
func startScriptServer(name string, args []string) *scriptServer {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	s := &scriptServer{cmd: cmd}
	var err error
	if s.in, err = cmd.StdinPipe(); err == nil {
		if s.out, err = cmd.StdoutPipe(); err == nil {
			err = cmd.Start()
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return nil
	}
	return s
}

// drive is the loop of a driver that writes the server the lines of its
// own standard input (lspframe, mcplines). It prints each message the
// server writes, one a line, as next reads them. A line "await ID" waits
// up to 20 s for the answer to request ID (JSON text: 3, "s", null; each
// answer taken once), saying so when none comes; write sends every other
// line to the server's input, in the driver's framing. When its input
// ends, drive closes the server's, reads the server's output to its end
// and prints the server's exit status.
func (s *scriptServer) drive(next func() ([]byte, bool), write func(in io.Writer, line string)) {
	answered := make(chan string, 1024)
	go func() {
		defer close(answered)
		for msg, ok := next(); ok; msg, ok = next() {
			fmt.Printf("%s\n", msg)
			if id, ok := answerID(msg); ok {
				answered <- id
			}
		}
	}()
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if want, ok := strings.CutPrefix(line, "await "); ok {
			awaitAnswer(answered, want)
			continue
		}
		write(s.in, line)
	}
	s.in.Close()
	for range answered {
	}
	s.printExit()
}

// awaitAnswer takes the answers off answered up to the one to request
// want, saying so when the server's output ends first or 20 s pass.
func awaitAnswer(answered <-chan string, want string) {
	timeout := time.After(20 * time.Second)
	for {
		select {
		case got, ok := <-answered:
			if !ok {
				fmt.Printf("the server closed its output awaiting %s\n", want)
				return
			}
			if got == want {
				return
			}
		case <-timeout:
			fmt.Printf("no answer %s\n", want)
			return
		}
	}
}

// printExit waits for the server to end and prints its exit status as
// the scripts read it: "exit N" (-1 when it was not its own).
func (s *scriptServer) printExit() {
	code := 0
	if err := s.cmd.Wait(); err != nil {
		code = -1
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
	}
	fmt.Printf("exit %d\n", code)
}

// answerID is the id of a JSON-RPC message that answers a request (one
// with an id and no method), for a driver's "await ID".
func answerID(msg []byte) (string, bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Method != "" || len(m.ID) == 0 {
		return "", false
	}
	return string(m.ID), true
}
