//go:build unix

package toolcmd

import (
	"os/exec"
	"syscall"
)

// newProcessGroup makes cmd the leader of a new process group, so that
// killGroup reaches every process it starts (sh -c 'curl ...', a pipeline,
// a background job).
func newProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills cmd's process group. The group outlives its leader while
// any member lives, so this also reaches a command's background children
// after the command itself has exited.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) //nolint:errcheck // the group may be gone
	}
}
