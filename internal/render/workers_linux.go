package render

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal has the kernel kill the worker when its parent goes
// (Pdeathsig fires when the thread that started it exits; the worker also
// exits when its stdin closes, which covers the rest).
func setParentDeathSignal(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
