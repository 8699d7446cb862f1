//go:build !unix

package cli

import "os/exec"

// killProcessGroup is a no-op where there are no process groups: the tool
// timeout kills only the command itself.
func killProcessGroup(cmd *exec.Cmd) {}
