package cli

import (
	"os"
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
