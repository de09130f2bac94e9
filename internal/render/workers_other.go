//go:build !linux

package render

import (
	"io"
	"os"
	"os/exec"
)

// setParentDeathSignal: no parent-death signal outside Linux; a worker
// exits when its stdin closes, which happens when the parent exits.
func setParentDeathSignal(*exec.Cmd) {}

// quietPipeOf is f: the raw pipe I/O of workers_linux.go is Linux's.
func quietPipeOf(f *os.File) io.ReadWriter { return f }
