package render

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A quiet pipe carries what a render's frames carry, whole and in order,
// both ways at once and past the kernel's pipe buffer (the writer waits in
// the poller for room, the reader for data), and reads EOF when the other
// end closes. Standard descriptors arrive blocking, as a worker's do.
func TestQuietPipe(t *testing.T) {
	// A worker's stdin and stdout are inherited blocking descriptors.
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(fds[0]), "r"), os.NewFile(uintptr(fds[1]), "w")
	defer r.Close()
	qr, qw := quietPipeOf(r), quietPipeOf(w)
	if _, ok := qr.(*quietPipe); !ok {
		t.Fatalf("a pipe's reader is %T, not a quiet pipe", qr)
	}
	if _, ok := qw.(*quietPipe); !ok {
		t.Fatalf("a pipe's writer is %T, not a quiet pipe", qw)
	}
	// Its own descriptor, a duplicate: two Files never own one (the
	// second's finalizer would close it under whatever reused its number).
	if fdOf(t, qr.(*quietPipe).f) == fds[0] || fdOf(t, qw.(*quietPipe).f) == fds[1] {
		t.Fatal("a quiet pipe's File owns the descriptor it was given")
	}
	want := make([]byte, 3<<20) // 48 times a pipe's 64 KiB buffer
	for i := range want {
		want[i] = byte(i * 7 / 5)
	}
	errc := make(chan error, 1)
	go func() {
		bw := qw
		for rest := want; len(rest) > 0; {
			n := min(len(rest), 200<<10)
			if m, err := bw.Write(rest[:n]); err != nil || m != n {
				errc <- errors.Join(err, io.ErrShortWrite)
				return
			}
			rest = rest[n:]
		}
		// The quiet writer's descriptor is a duplicate of w's: the
		// reader sees the end once both are closed.
		errc <- errors.Join(qw.(io.Closer).Close(), w.Close())
	}()
	got, err := io.ReadAll(qr)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, not the %d written", len(got), len(want))
	}
	if n, err := qr.Read(make([]byte, 10)); n != 0 || err != io.EOF {
		t.Fatalf("after the writer closed: %d, %v; want 0, EOF", n, err)
	}
}

// A worker whose input is a file (run by hand, `< request`) reads it as
// it is.
func TestQuietPipeLeavesFiles(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "in"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := quietPipeOf(f); got != io.ReadWriter(f) {
		t.Fatalf("a file became %T", got)
	}
}

// A pipe the poller already has (os.Pipe's, the parent's end) is used as
// it is, and a write to it whose reader has gone fails with EPIPE, as the
// worker's answer to a parent that died does, instead of waiting.
func TestQuietPipeBrokenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	q := quietPipeOf(w)
	if _, ok := q.(*quietPipe); !ok {
		t.Fatalf("os.Pipe's writer is %T, not a quiet pipe", q)
	}
	r.Close()
	if _, err := q.Write([]byte("answer")); !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("write to a closed pipe: %v, want EPIPE", err)
	}
}

func fdOf(t *testing.T, f *os.File) int {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	fd := -1
	if err := rc.Control(func(d uintptr) { fd = int(d) }); err != nil {
		t.Fatal(err)
	}
	return fd
}
