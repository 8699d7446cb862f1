//go:build unix

package cli

import (
	"os/exec"
	"syscall"
)

// killProcessGroup makes cmd the leader of a new process group and lets its
// cancellation (the tool timeout) kill the whole group: a tool command's
// children (sh -c 'curl ...', a pipeline, a background job) must not outlive
// it.
func killProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
