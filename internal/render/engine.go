// Package render turns page data into HTML: a pool of embedded JavaScript
// engines runs the React app's server bundle (no Node at run time), a page
// cache keeps rendered pages, and Document wraps the app's HTML in the
// server-written <head>.
package render

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"modernc.org/quickjs"
)

// Engine runs the server bundle in a pool of at most size QuickJS VMs. A VM
// is not safe for concurrent use, so each render borrows one. The first VM
// is made at once (a bad bundle fails NewEngine); the others when renders
// first overlap, so an engine that renders little (a test's, a quiet
// shop's) does not compile the bundle size times.
type Engine struct {
	pool    chan *quickjs.VM
	size    int
	bundle  string
	timeout time.Duration

	mu     sync.Mutex
	made   int  // VMs made, in the pool or lent
	closed bool // Close has begun: no VM is made any more
}

// prelude defines the few browser globals React's server renderer touches
// and QuickJS lacks, before the bundle runs. The bundle brings its own
// stand-ins too; these keep a bundle without them from failing at load.
const prelude = `
if (typeof globalThis.window === 'undefined') { /* server: no window, by design */ }
if (typeof globalThis.console === 'undefined') {
  globalThis.console = { log() {}, warn() {}, error() {}, info() {}, debug() {} };
}
`

// NewEngine compiles the bundle into size VMs (0: one per CPU). The bundle
// must define globalThis.render(url, json) returning the app's HTML.
func NewEngine(bundle string, size int) (*Engine, error) {
	if size <= 0 {
		size = runtime.GOMAXPROCS(0)
	}
	vm, err := newVM(bundle)
	if err != nil {
		return nil, err
	}
	e := &Engine{pool: make(chan *quickjs.VM, size), size: size, bundle: bundle, timeout: 2 * time.Second, made: 1}
	e.pool <- vm
	return e, nil
}

// borrow takes an idle VM, makes one while fewer than size exist, or
// waits for one to be given back.
func (e *Engine) borrow(ctx context.Context) (*quickjs.VM, error) {
	select {
	case vm := <-e.pool:
		return vm, nil
	default:
	}
	e.mu.Lock()
	if e.made < e.size && !e.closed {
		e.made++
		e.mu.Unlock()
		vm, err := newVM(e.bundle)
		if err != nil {
			e.mu.Lock()
			e.made--
			e.mu.Unlock()
			return nil, err
		}
		return vm, nil
	}
	e.mu.Unlock()
	select {
	case vm := <-e.pool:
		return vm, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func newVM(bundle string) (*quickjs.VM, error) {
	vm, err := quickjs.NewVM()
	if err != nil {
		return nil, fmt.Errorf("new js vm: %w", err)
	}
	// A runaway render must not eat the machine.
	vm.SetMemoryLimit(256 << 20)
	if _, err := vm.Eval(prelude, quickjs.EvalGlobal); err != nil {
		vm.Close()
		return nil, fmt.Errorf("js prelude: %w", err)
	}
	if _, err := vm.Eval(bundle, quickjs.EvalGlobal); err != nil {
		vm.Close()
		return nil, fmt.Errorf("load server bundle: %w", err)
	}
	ok, err := vm.Eval(`typeof globalThis.render === 'function'`, quickjs.EvalGlobal)
	if err != nil || ok != true {
		vm.Close()
		return nil, errors.New("server bundle does not define globalThis.render")
	}
	return vm, nil
}

// Render renders url with data (the page data as JSON) and returns the
// app's HTML. A render that runs past the timeout is interrupted.
func (e *Engine) Render(ctx context.Context, url string, data []byte) (string, error) {
	vm, err := e.borrow(ctx)
	if err != nil {
		return "", err
	}
	defer func() { e.pool <- vm }()
	timer := time.AfterFunc(e.timeout, vm.Interrupt)
	defer timer.Stop()
	out, err := vm.Call("render", url, string(data))
	if err != nil {
		return "", fmt.Errorf("render %s: %w", url, err)
	}
	s, ok := out.(string)
	if !ok {
		return "", fmt.Errorf("render %s: bundle returned %T, not a string", url, out)
	}
	return s, nil
}

// Size is the number of VMs the engine runs at most (renders at once).
func (e *Engine) Size() int { return e.size }

// Close releases every VM; it waits for renders in flight.
func (e *Engine) Close() {
	e.mu.Lock()
	e.closed = true
	made := e.made
	e.made = 0
	e.mu.Unlock()
	for range made {
		vm := <-e.pool
		vm.Close()
	}
}
