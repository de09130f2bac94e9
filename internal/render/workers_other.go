//go:build !linux

package render

import "os/exec"

// setParentDeathSignal: no parent-death signal outside Linux; a worker
// exits when its stdin closes, which happens when the parent exits.
func setParentDeathSignal(*exec.Cmd) {}
