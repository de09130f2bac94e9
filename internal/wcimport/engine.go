package wcimport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// Options tune a run.
type Options struct {
	// Source names the old shop in the progress table (its origin,
	// "https://old-shop.example"): a run resumes what an unfinished run
	// from the same source left.
	Source string
	// DryRun reads everything and counts what would be written, writing
	// nothing (not even progress).
	DryRun bool
	// Concurrency is how many pages are read at once (default 4).
	Concurrency int
	// Progress, when set, is told after every page and at the end of
	// every resource (from the goroutine that called Execute).
	Progress func(Progress)
}

// Progress is where a run is in one resource.
type Progress struct {
	Resource string `json:"resource"`
	Page     int    `json:"page"`  // pages done (an earlier run's included)
	Pages    int    `json:"pages"` // the source's page count, 0 before the first page
	Count    Count  `json:"count"`
	Done     bool   `json:"done"`
}

// Warning is something a record was imported without (a link to a
// product the old shop deleted).
type Warning struct {
	Resource string `json:"resource"`
	OldID    int64  `json:"old_id"`
	Name     string `json:"name,omitempty"`
	Message  string `json:"message"`
}

// New prepares a run from src into what deps write with.
func New(deps Deps, src Source, opts Options) *Run {
	if opts.Concurrency <= 0 {
		opts.Concurrency = 4
	}
	return &Run{deps: deps, src: src, source: opts.Source, dry: opts.DryRun, opts: opts, resumed: map[string]int{}}
}

// Execute moves every resource in order and answers the report. An error
// (the source unreachable past its retries, the key refused, the store
// failing) stops the run: the report then holds what was done, and the
// next run from the same source resumes after the last page finished.
func (r *Run) Execute(ctx context.Context) (Report, error) {
	r.report = Report{Source: r.source, DryRun: r.dry, Counts: map[string]Count{}, Refusals: []Refusal{}, Warnings: []Warning{}}
	for _, res := range r.resources() {
		r.mu.Lock()
		if _, ok := r.report.Counts[res.name]; !ok {
			r.report.Resources = append(r.report.Resources, res.name)
			r.report.Counts[res.name] = Count{}
		}
		r.mu.Unlock()
		if err := r.resource(ctx, res); err != nil {
			var sc StatusCoder
			if res.optional && errors.As(err, &sc) && slices.Contains([]int{401, 403, 404}, sc.HTTPStatus()) {
				r.warn(res.name, 0, "", fmt.Sprintf("the old shop does not serve %s to the key (%d): nothing of it was moved", res.path, sc.HTTPStatus()))
				continue
			}
			return r.report, fmt.Errorf("%s: %w", res.name, err)
		}
	}
	return r.report, nil
}

type pageResult struct {
	items []json.RawMessage
	err   error
}

// resource reads res page by page, several pages ahead at once, and
// imports each page's records in order; each finished page is recorded so
// an interrupted run resumes after it.
func (r *Run) resource(ctx context.Context, res resource) error {
	start := 1
	if !r.dry {
		done, err := r.deps.Legacy.ImportPagesDone(ctx, r.source, res.name)
		if err != nil {
			return err
		}
		start = done + 1
		if done > 0 {
			r.resumed[res.name] = done
		}
	}
	// A resumed run learns the page count from the last page it finished
	// (WooCommerce refuses a page past the last one).
	first := start
	if start > 1 {
		first = start - 1
	}
	items, pages, err := r.src.List(ctx, res.path, res.query, first)
	if err != nil {
		return err
	}
	if first != start && start <= pages {
		if items, _, err = r.src.List(ctx, res.path, res.query, start); err != nil {
			return err
		}
	}
	if start <= pages {
		if err := r.page(ctx, res, items); err != nil {
			return err
		}
		if err := r.pageDone(ctx, res, start, pages); err != nil {
			return err
		}
	}
	if start < pages {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		results := make([]chan pageResult, pages+1)
		for p := start + 1; p <= pages; p++ {
			results[p] = make(chan pageResult, 1)
		}
		// A slot is taken to read a page and given back once its records
		// are imported: at most Concurrency pages are read or waiting.
		slots := make(chan struct{}, r.opts.Concurrency)
		go func() {
			for p := start + 1; p <= pages; p++ {
				select {
				case slots <- struct{}{}:
				case <-ctx.Done():
					return
				}
				go func(p int) {
					items, _, err := r.src.List(ctx, res.path, res.query, p)
					results[p] <- pageResult{items, err}
				}(p)
			}
		}()
		for p := start + 1; p <= pages; p++ {
			var pr pageResult
			select {
			case pr = <-results[p]:
			case <-ctx.Done():
				return ctx.Err()
			}
			if pr.err != nil {
				return pr.err
			}
			if err := r.page(ctx, res, pr.items); err != nil {
				return err
			}
			<-slots
			if err := r.pageDone(ctx, res, p, pages); err != nil {
				return err
			}
		}
	}
	if res.finish != nil {
		if err := res.finish(ctx, r); err != nil {
			return err
		}
	}
	if !r.dry {
		if err := r.deps.Legacy.SetImportPagesDone(ctx, r.source, res.name, 0, r.deps.Now()); err != nil {
			return err
		}
	}
	r.progress(Progress{Resource: res.name, Page: pages, Pages: pages, Done: true})
	return nil
}

func (r *Run) pageDone(ctx context.Context, res resource, page, pages int) error {
	if !r.dry {
		if err := r.deps.Legacy.SetImportPagesDone(ctx, r.source, res.name, page, r.deps.Now()); err != nil {
			return err
		}
	}
	r.progress(Progress{Resource: res.name, Page: page, Pages: pages})
	return r.maybeAnalyze(ctx)
}

// maybeAnalyze refreshes the store's statistics each time the records
// written double (from 200): the planner then knows the tables grew, and
// a product's save keeps using its indexes (without it PostgreSQL scanned
// whole tables, and a 10,000-product run slowed down as it went).
func (r *Run) maybeAnalyze(ctx context.Context) error {
	if r.dry || r.deps.Analyze == nil {
		return nil
	}
	r.mu.Lock()
	n := 0
	for _, c := range r.report.Counts {
		n += c.Created + c.Updated
	}
	due := r.analyze
	if due == 0 {
		due = 200
	}
	r.mu.Unlock()
	if n < due {
		return nil
	}
	r.analyze = 2 * n
	return r.deps.Analyze(ctx)
}

func (r *Run) progress(p Progress) {
	r.mu.Lock()
	p.Count = r.report.Counts[p.Resource]
	r.mu.Unlock()
	if r.opts.Progress != nil {
		r.opts.Progress(p)
	}
}

// page imports one page's records in order.
func (r *Run) page(ctx context.Context, res resource, items []json.RawMessage) error {
	for _, raw := range items {
		if err := ctx.Err(); err != nil {
			return err
		}
		out, err := res.one(ctx, r, raw)
		var ref *refusal
		if errors.As(err, &ref) {
			r.refused(res.name, oldID(raw), ref)
			continue
		}
		if err != nil {
			return fmt.Errorf("record %d: %w", oldID(raw), err)
		}
		r.tally(res.name, out)
	}
	return nil
}

// tally counts one record read with its outcome.
func (r *Run) tally(name string, out Outcome) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.report.Counts[name]
	c.Read++
	switch out {
	case Created:
		c.Created++
	case Updated:
		c.Updated++
	case Unchanged:
		c.Unchanged++
	case Refused:
		c.Refused++
	}
	if _, ok := r.report.Counts[name]; !ok {
		// A sub-collection (an attribute's terms, a product's variations)
		// is counted apart, after its parent's resource.
		r.report.Resources = append(r.report.Resources, name)
	}
	r.report.Counts[name] = c
}

// refused counts a refused record and keeps why.
func (r *Run) refused(name string, id int64, ref *refusal) {
	r.tally(name, Refused)
	r.mu.Lock()
	r.report.Refusals = append(r.report.Refusals, Refusal{Resource: name, OldID: id, Name: ref.name, Reason: ref.reason})
	r.mu.Unlock()
}

// warn notes something a record was imported without.
func (r *Run) warn(name string, id int64, what, message string) {
	r.mu.Lock()
	r.report.Warnings = append(r.report.Warnings, Warning{Resource: name, OldID: id, Name: what, Message: message})
	r.mu.Unlock()
}

// oldID reads a record's "id".
func oldID(raw json.RawMessage) int64 {
	var v struct {
		ID json.Number `json:"id"`
	}
	_ = json.Unmarshal(raw, &v)
	n, _ := strconv.ParseInt(v.ID.String(), 10, 64)
	return n
}
