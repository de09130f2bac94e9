package render

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ServeWorker is a render worker's whole life (vitrine render-worker): it
// loads bundle into an Engine of one VM, says whether that worked (the first
// answer), then answers each request frame read from in with one answer
// frame on out, until in ends (nil) or a frame cannot be read (an error).
// A failed render is an answer, not an exit. Nothing else is written to out.
//
// It is the process's whole work, so it sets the process up for it: one P
// (one goroutine renders; a second P only adds the runtime's thread
// wake-ups), and in and out, when they are pipes, read and written without
// entering the runtime's syscall state (quietPipe).
func ServeWorker(bundle string, in io.Reader, out io.Writer) error {
	runtime.GOMAXPROCS(1)
	if f, ok := in.(*os.File); ok {
		in = quietPipeOf(f)
	}
	if f, ok := out.(*os.File); ok {
		out = quietPipeOf(f)
	}
	w := bufio.NewWriterSize(out, 64<<10)
	r := bufio.NewReaderSize(in, 64<<10)
	e, err := NewEngine(bundle, 1)
	if err != nil {
		_ = writeFrame(w, []byte{answerError}, []byte(err.Error()))
		return err
	}
	defer e.Close()
	if err := writeFrame(w, []byte{answerOK}, []byte(readyBody)); err != nil {
		return fmt.Errorf("render worker: write: %w", err)
	}
	for {
		body, err := readFrame(r)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("render worker: read request: %w", err)
		}
		url, data, err := parseRequest(body)
		var html string
		if err == nil {
			html, err = e.Render(context.Background(), url, data)
		}
		if err == nil {
			err = writeFrame(w, []byte{answerOK}, []byte(html))
			if errors.Is(err, ErrFrameTooLarge) { // nothing was written
				err = writeFrame(w, []byte{answerError}, []byte(fmt.Sprintf("render %s: %d bytes of HTML, over the 64 MiB frame", url, len(html))))
			}
		} else {
			err = writeFrame(w, []byte{answerError}, []byte(err.Error()))
		}
		if err != nil {
			return fmt.Errorf("render worker: write: %w", err)
		}
	}
}

// Workers renders in worker processes (vitrine render-worker), one VM
// each: the same Render as Engine, without the one allocator lock all VMs
// of a process share (docs/decisions/0067-render-worker-processes.md). Idle
// workers wait in a channel like the Engine's VMs. A worker that does not
// answer within the timeout, or whose pipe breaks, is killed and replaced in
// the background; that render fails (the page falls back to the client-
// rendered shell, as for any render error), except that a render whose
// worker had died is tried once more on another.
type Workers struct {
	cfg    WorkersConfig
	size   int
	idle   chan *child // a nil: a slot given up because Close began
	ctx    context.Context
	cancel context.CancelFunc
	closed atomic.Bool
	wg     sync.WaitGroup // replacements

	replaced atomic.Uint64 // workers that broke, timed out or died, replaced

	mu   sync.Mutex
	live map[*child]struct{}
}

// WorkersConfig configures NewWorkers.
type WorkersConfig struct {
	// Size is the number of worker processes (0: one per CPU).
	Size int
	// Command makes the command that starts one worker (nil: this
	// executable with the argument render-worker). Its Stdin and Stdout
	// are set by Workers; a nil Stderr becomes os.Stderr.
	Command func() *exec.Cmd
	// Timeout bounds a render, from writing the request to reading the
	// answer (0: DefaultWorkerTimeout).
	Timeout time.Duration
	// StartTimeout bounds a worker's start, until it has loaded the bundle
	// (0: 30 s).
	StartTimeout time.Duration
	// Log gets the replacements (nil: slog.Default()).
	Log *slog.Logger
	// Bundle, when set, is sent to each worker as its first frame, before
	// its "ready": a worker that does not carry the bundle itself (Node's,
	// NodeWorkerCommand).
	Bundle string
}

// DefaultWorkerTimeout is a worker render's bound: the worker's own engine
// interrupts a render at 2 s and answers an error, keeping the worker; a
// worker that has not answered a second later is stuck and killed.
const DefaultWorkerTimeout = 3 * time.Second

type child struct {
	cmd  *exec.Cmd
	in   *os.File // the worker's stdin, our end
	w    *bufio.Writer
	out  *os.File // the worker's stdout, our end
	r    *bufio.Reader
	done chan struct{} // closed once the process is reaped
}

// NewWorkers starts the workers and waits until each has loaded the bundle.
func NewWorkers(cfg WorkersConfig) (*Workers, error) {
	if cfg.Size <= 0 {
		cfg.Size = runtime.GOMAXPROCS(0)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultWorkerTimeout
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 30 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Command == nil {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("render workers: %w", err)
		}
		cfg.Command = func() *exec.Cmd { return exec.Command(exe, "render-worker") }
	}
	ws := &Workers{cfg: cfg, size: cfg.Size, idle: make(chan *child, cfg.Size), live: map[*child]struct{}{}}
	ws.ctx, ws.cancel = context.WithCancel(context.Background())
	type started struct {
		c   *child
		err error
	}
	res := make(chan started, cfg.Size)
	for range cfg.Size {
		go func() {
			c, err := ws.start(ws.ctx)
			res <- started{c, err}
		}()
	}
	var errs []error
	for range cfg.Size {
		s := <-res
		if s.err != nil {
			errs = append(errs, s.err)
			ws.idle <- nil
		} else {
			ws.idle <- s.c
		}
	}
	if len(errs) > 0 {
		ws.Close()
		return nil, errs[0]
	}
	return ws, nil
}

// start starts one worker and waits for its first answer.
func (ws *Workers) start(ctx context.Context) (*child, error) {
	cmd := ws.cfg.Command()
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start render worker: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("start render worker: %w", err)
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	setParentDeathSignal(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("start render worker: %w", err)
	}
	c := &child{cmd: cmd, in: inW, w: bufio.NewWriterSize(quietPipeOf(inW), 64<<10), out: outR, r: bufio.NewReaderSize(quietPipeOf(outR), 64<<10), done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(c.done)
	}()
	ready := make(chan error, 1)
	go func() {
		if ws.cfg.Bundle != "" {
			if err := writeFrame(c.w, []byte(ws.cfg.Bundle)); err != nil {
				ready <- fmt.Errorf("send the bundle: %w", err)
				return
			}
		}
		body, err := readFrame(c.r)
		if err == nil {
			var s string
			if s, err = parseAnswer(body); err == nil && s != readyBody {
				err = fmt.Errorf("first answer %.40q, not %q", s, readyBody)
			}
		}
		ready <- err
	}()
	timer := time.NewTimer(ws.cfg.StartTimeout)
	defer timer.Stop()
	select {
	case err = <-ready:
	case <-timer.C:
		err = fmt.Errorf("not ready within %s", ws.cfg.StartTimeout)
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = errors.New("it exited before it was ready (its error is in the log)")
		}
		c.discard()
		// The command and its first argument: Node's third is the whole worker.
		return nil, fmt.Errorf("start render worker %s: %w", strings.Join(cmd.Args[:min(len(cmd.Args), 2)], " "), err)
	}
	ws.mu.Lock()
	ws.live[c] = struct{}{}
	ws.mu.Unlock()
	return c, nil
}

// discard kills the worker, waits until it is reaped and closes our pipes.
func (c *child) discard() {
	_ = c.cmd.Process.Kill()
	<-c.done
	c.in.Close()
	c.out.Close()
}

func (c *child) pid() int { return c.cmd.Process.Pid }

// ErrWorkersClosed is a render asked of Workers after Close.
var ErrWorkersClosed = errors.New("render workers closed")

// take borrows an idle worker; one found dead is replaced, not used.
func (ws *Workers) take(ctx context.Context) (*child, error) {
	for {
		if ws.closed.Load() {
			return nil, ErrWorkersClosed
		}
		select {
		case c := <-ws.idle:
			if c == nil {
				ws.idle <- nil
				return nil, ErrWorkersClosed
			}
			select {
			case <-c.done:
				ws.cfg.Log.Warn("render worker had exited; starting another", "pid", c.pid())
				ws.replace(c)
				continue
			default:
			}
			return c, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Render renders url with data in a worker and returns the app's HTML.
func (ws *Workers) Render(ctx context.Context, url string, data []byte) (string, error) {
	if strings.IndexByte(url, 0) >= 0 {
		return "", fmt.Errorf("render %q: a URL cannot hold a NUL byte", url)
	}
	for attempt := 0; ; attempt++ {
		c, err := ws.take(ctx)
		if err != nil {
			return "", err
		}
		html, broken, timedOut, err := ws.renderOn(c, url, data)
		if !broken {
			ws.idle <- c
			return html, err
		}
		ws.replace(c)
		if err == nil || timedOut || attempt > 0 {
			return html, err
		}
		ws.cfg.Log.Warn("render worker broke; rendering again on another", "url", url, "pid", c.pid(), "err", err)
	}
}

// renderOn runs one request on c. broken: c must not be used again (it was
// killed, or its pipe or answer is broken); the render may still have an
// answer if the timeout fired just after it came.
func (ws *Workers) renderOn(c *child, url string, data []byte) (html string, broken, timedOut bool, err error) {
	var fired atomic.Bool
	timer := time.AfterFunc(ws.cfg.Timeout, func() {
		fired.Store(true)
		_ = c.cmd.Process.Kill()
	})
	err = writeRequest(c.w, url, data)
	var body []byte
	if err == nil {
		body, err = readFrame(c.r)
	}
	stopped := timer.Stop()
	if err != nil {
		if fired.Load() {
			return "", true, true, fmt.Errorf("render %s: no answer from render worker %d within %s; worker killed", url, c.pid(), ws.cfg.Timeout)
		}
		return "", true, false, fmt.Errorf("render %s: render worker %d: %w", url, c.pid(), err)
	}
	html, err = parseAnswer(body)
	var we *WorkerError
	if err != nil && !errors.As(err, &we) {
		return "", true, false, fmt.Errorf("render %s: render worker %d: %w", url, c.pid(), err)
	}
	return html, !stopped, false, err
}

// replace discards old and starts a worker in its slot in the background,
// retrying with a growing pause while starts fail, until Close.
func (ws *Workers) replace(old *child) {
	ws.replaced.Add(1)
	ws.mu.Lock()
	delete(ws.live, old)
	ws.mu.Unlock()
	ws.wg.Add(1)
	go func() {
		defer ws.wg.Done()
		old.discard()
		pause := 100 * time.Millisecond
		for {
			c, err := ws.start(ws.ctx)
			if err == nil {
				ws.idle <- c
				return
			}
			if ws.ctx.Err() != nil {
				ws.idle <- nil
				return
			}
			ws.cfg.Log.Error("render worker not replaced; retrying", "err", err, "retry_in", pause.String())
			select {
			case <-time.After(pause):
			case <-ws.ctx.Done():
				ws.idle <- nil
				return
			}
			pause = min(2*pause, 30*time.Second)
		}
	}()
}

// Size is the number of worker processes.
func (ws *Workers) Size() int { return ws.size }

// Replaced is how many workers were discarded and replaced since the start
// (a render past the timeout, a broken pipe, a worker found dead): the
// server exports it as vitrine_render_worker_replacements_total.
func (ws *Workers) Replaced() uint64 { return ws.replaced.Load() }

// Close ends every worker: it waits for renders in flight, closes the
// workers' stdin (they exit), and kills those still running 5 s later.
func (ws *Workers) Close() {
	if !ws.closed.CompareAndSwap(false, true) {
		return
	}
	ws.cancel()
	var cs []*child
	for range ws.size {
		if c := <-ws.idle; c != nil {
			cs = append(cs, c)
		}
	}
	ws.wg.Wait()
	for _, c := range cs {
		c.in.Close()
	}
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	for _, c := range cs {
		select {
		case <-c.done:
		case <-deadline.C:
			ws.cfg.Log.Warn("render worker still running 5 s after its stdin closed; killed", "pid", c.pid())
			_ = c.cmd.Process.Kill()
			<-c.done
			deadline.Reset(0)
		}
		c.out.Close()
	}
	ws.mu.Lock()
	clear(ws.live)
	ws.mu.Unlock()
}
