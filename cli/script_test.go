package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/gramc-dev/gramc/internal/golden"
	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCommands are the programs testscript scripts can exec. Other test
// files add entries from init functions (for example a fake OpenAI server),
// which run before TestMain.
var scriptCommands = map[string]func(){
	"gramc": func() { os.Exit(Main()) },
}

// scriptSetups run for every script, after the defaults below.
var scriptSetups []func(*testscript.Env) error

func TestMain(m *testing.M) {
	testscript.Main(m, scriptCommands)
}

// TestScripts runs the end-to-end CLI scripts in testdata/script.
func TestScripts(t *testing.T) {
	runScripts(t, "testdata/script", func(env *testscript.Env) error {
		env.Setenv("OPENAI_API_KEY", "")
		env.Setenv("OPENAI_BASE_URL", "")
		for _, s := range scriptSetups {
			if err := s(env); err != nil {
				return err
			}
		}
		return nil
	})
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

func startScriptServer(args []string) (*scriptServer, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &scriptServer{cmd: cmd, in: in, out: out}, nil
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
