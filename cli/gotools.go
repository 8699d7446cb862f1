package cli

import (
	"io"

	"github.com/gramc-dev/gramc/runtime"
)

// DoWithTools is Do with Go tools built in, by name: gramc run runs them,
// gramc test runs them for tests whose results are "bound" or "cassette",
// and gramc mcp serves them (as tools, and as the tools of the agents
// --agents serves), as all three do the built-in sayHello and sayGoodbye;
// a --tool NAME=COMMAND still binds a tool to a command instead. A
// program of your own that calls it is gramc with your tools
// (docs/runtime.md, "Go tools in gramc run, test and mcp"):
//
//	func main() {
//		tools := map[string]runtime.ToolFunc{"getWeather": getWeather}
//		os.Exit(cli.DoWithTools(tools, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
//	}
func DoWithTools(tools map[string]runtime.ToolFunc, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return do(&env{stdin: stdin, stdout: stdout, stderr: stderr, args: args, goTools: tools})
}

// builtinTool is the implementation gramc has of tool name without a
// --tool command: a Go tool of DoWithTools, else a built-in seed tool
// (nil for none).
func (e *env) builtinTool(name string) runtime.ToolFunc {
	if f := e.goTools[name]; f != nil {
		return f
	}
	return builtinTools[name]
}
