// Package nodetest is the rule gramc's tests that run Node share: they
// need Node 20 or later and npm packages a make target installs from a
// committed lock, and without them they skip, saying what is missing —
// or fail, where CI makes them required (an environment variable set to
// "required", as .ci/run sets each).
package nodetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Require returns dir made absolute, where install puts the npm packages
// pkgs that what needs beside Node 20 or later. When one of them is
// missing it skips t, saying why — or, with env=required, fails it.
func Require(t testing.TB, env, dir, what, install string, pkgs ...string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if why := Missing(abs, what, install, pkgs...); why != "" {
		if os.Getenv(env) == "required" {
			t.Fatalf("%s=required, but %s", env, why)
		}
		t.Skip(why)
	}
	return abs
}

// Missing says what is missing of Node 20 or later and the packages pkgs
// in dir's node_modules ("" when nothing is).
func Missing(dir, what, install string, pkgs ...string) string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "node is not installed: " + what + " need Node 20 or later (then " + install + ")"
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	major, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	if major < 20 {
		return "node " + v + " is too old: " + what + " need Node 20 or later"
	}
	for _, pkg := range pkgs {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json")); err != nil {
			return pkg + " is not installed: " + install
		}
	}
	return ""
}
