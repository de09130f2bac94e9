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
	"time"

	"modernc.org/quickjs"
)

// Engine runs the server bundle in a fixed pool of QuickJS VMs. A VM is not
// safe for concurrent use, so each render borrows one.
type Engine struct {
	pool    chan *quickjs.VM
	size    int
	timeout time.Duration
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
	e := &Engine{pool: make(chan *quickjs.VM, size), timeout: 2 * time.Second}
	for i := 0; i < size; i++ {
		vm, err := newVM(bundle)
		if err != nil {
			e.Close()
			return nil, err
		}
		e.pool <- vm
		e.size++
	}
	return e, nil
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
	var vm *quickjs.VM
	select {
	case vm = <-e.pool:
	case <-ctx.Done():
		return "", ctx.Err()
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

// Size is the number of VMs.
func (e *Engine) Size() int { return e.size }

// Close releases every VM; it waits for renders in flight.
func (e *Engine) Close() {
	for ; e.size > 0; e.size-- {
		vm := <-e.pool
		vm.Close()
	}
}
