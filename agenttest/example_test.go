package agenttest_test

import (
	"context"
	"fmt"
	"log"
	"path/filepath"

	"github.com/gramc-dev/gramc/agenttest"
	"github.com/gramc-dev/gramc/load"
)

// Run runs a package's :Test offline, from its cassette (what gramc test
// does): the model's answers are replayed, each request is compared with
// the recorded one, and the result says what the run did wrong, if
// anything.
func ExampleRun() {
	pkgs, ds, err := load.Packages([]string{filepath.Join("..", "examples", "weather")}, nil)
	if err != nil || ds.HasErrors() {
		log.Fatal(err, ds)
	}
	test := pkgs[0].Tests[0]
	r := agenttest.Run(context.Background(), test, agenttest.Options{Secrets: []string{}})
	fmt.Println(test.Name, "passed:", r.Passed())
	for _, c := range r.Calls {
		fmt.Println("called", c.Tool)
	}
	// Output:
	// weatherInParis passed: true
	// called getWeather
}
