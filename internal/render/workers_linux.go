package render

import (
	"io"
	"os"
	"os/exec"
	"syscall"
	"unsafe"
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

// quietPipe is a pipe read or written with raw system calls, waiting in
// the runtime's poller when it would block
// (docs/decisions/0139-render-workers-keep-the-runtime-quiet.md).
//
// A read or write through os.File enters the runtime's syscall state, and
// the first one after every goroutine of the process was idle wakes the
// runtime's monitor thread (sysmon) and resets it to polling every 20 µs
// for the next millisecond or more. A worker is idle between any two
// renders, so every render paid for some 30–50 of those wake-ups, costly
// under a hypervisor: about a fifth of a worker's CPU. A non-blocking read
// or write of a pipe does not block, so it needs no syscall state; the
// poller parks the goroutine as before when there is nothing to read or no
// room to write.
type quietPipe struct {
	f  *os.File // the File the poller knows the descriptor by
	rc syscall.RawConn
}

// Close closes the descriptor the quiet pipe reads or writes: the
// duplicate it made, or the File it was given if that was already in the
// poller.
func (q *quietPipe) Close() error { return q.f.Close() }

// quietPipeOf is f as a quietPipe when f is a pipe the poller takes, or f
// itself (a file or terminal, as when a person runs the worker by hand).
func quietPipeOf(f *os.File) io.ReadWriter {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return f
	}
	fd := -1
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(d uintptr) { fd = int(d) })
	}
	if fd < 0 {
		return f
	}
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	if errno != 0 {
		return f
	}
	nf := f
	if flags&syscall.O_NONBLOCK == 0 {
		// An inherited standard descriptor is blocking, and os.File reads
		// it without the poller. A duplicate made non-blocking (the flag
		// is the open pipe's, so f's descriptor turns non-blocking too)
		// goes into the poller as a File of its own: two Files never own
		// one descriptor, which the second's finalizer would close under
		// whatever reused its number. (f.Fd() would have set a pollable f
		// back to blocking.)
		dup, err := syscall.Dup(fd)
		if err != nil {
			return f
		}
		syscall.CloseOnExec(dup)
		if syscall.SetNonblock(dup, true) != nil {
			syscall.Close(dup)
			return f
		}
		nf = os.NewFile(uintptr(dup), f.Name())
	}
	rc, err := nf.SyscallConn()
	if err != nil {
		return f
	}
	return &quietPipe{f: nf, rc: rc}
}

func (q *quietPipe) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n uintptr
	var errno syscall.Errno
	err := q.rc.Read(func(fd uintptr) bool {
		for {
			n, _, errno = syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			if errno != syscall.EINTR {
				return errno != syscall.EAGAIN
			}
		}
	})
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, &os.PathError{Op: "read", Path: q.f.Name(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return int(n), nil
}

func (q *quietPipe) Write(p []byte) (int, error) {
	done := 0
	var errno syscall.Errno
	err := q.rc.Write(func(fd uintptr) bool {
		for done < len(p) {
			n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[done])), uintptr(len(p)-done))
			switch e {
			case 0:
				done += int(n)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil:
		return done, err
	case errno != 0:
		return done, &os.PathError{Op: "write", Path: q.f.Name(), Err: errno}
	}
	return done, nil
}
