//go:build !unix

package toolcmd

import "os/exec"

// newProcessGroup does nothing where there are no process groups.
func newProcessGroup(cmd *exec.Cmd) {}

// killGroup kills the command itself (there are no process groups).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill() //nolint:errcheck
	}
}
