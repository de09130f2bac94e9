package server_test

// Budgets of the hot paths: how many statements and transactions
// a request sends to the store, and how many allocations it makes, on a warm
// server. Counted, never timed: the test fails when a path queries or
// allocates more than testdata/budget.json allows, so a regression is
// caught in `go test ./...` without a timing assertion.
//
// Re-record after a deliberate change (both engines when PostgreSQL is set):
//
//	VITRINE_BUDGET_UPDATE=1 VITRINE_TEST_POSTGRES=postgres://… go test ./internal/server/ -run '^TestBudgets$' -count=1

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

const (
	budgetFile   = "testdata/budget.json"
	budgetUpdate = "VITRINE_BUDGET_UPDATE" // "1": measure and rewrite budgetFile
	budgetRuns   = 20                      // requests measured per path, after the warm-up
	budgetHowTo  = "If the change is deliberate, re-record: " + budgetUpdate + "=1 go test ./internal/server/ -run '^TestBudgets$' -count=1 " +
		"(with " + storetest.EnvPostgres + " set, to record PostgreSQL too), and commit " + budgetFile + "."
)

// budgets is the one table of budgets, as stored in budgetFile.
type budgets struct {
	About []string `json:"about"`
	// AllocMarginPercent is how far above its recorded figure a path's
	// allocations may go: the count varies a little between runs (pools
	// emptied by a garbage collection, maps growing). Statements and
	// transactions are exact, with no margin.
	AllocMarginPercent float64 `json:"alloc_margin_percent"`
	// AllocMarginMin is the least margin, in allocations, for the paths
	// whose figure is so small that a percentage is less than one stray
	// allocation.
	AllocMarginMin int64         `json:"alloc_margin_min"`
	Paths          []budgetEntry `json:"paths"`

	measured map[string]bool // the paths this run measured
}

type budgetEntry struct {
	Path     string        `json:"path"`
	SQLite   *budgetFigure `json:"sqlite,omitempty"`
	Postgres *budgetFigure `json:"postgres,omitempty"`
}

// budgetFigure is what one request of a path costs on one engine.
type budgetFigure struct {
	Statements   int64 `json:"statements"`
	Transactions int64 `json:"transactions"`
	Allocs       int64 `json:"allocs"`
}

func (e *budgetEntry) on(engine string) **budgetFigure {
	if engine == sqlstore.Postgres {
		return &e.Postgres
	}
	return &e.SQLite
}

func loadBudgets(t *testing.T) *budgets {
	t.Helper()
	raw, err := os.ReadFile(budgetFile)
	if err != nil {
		if os.IsNotExist(err) && os.Getenv(budgetUpdate) == "1" {
			return &budgets{AllocMarginPercent: 10, AllocMarginMin: 5}
		}
		t.Fatalf("read budgets: %v", err)
	}
	var b budgets
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		t.Fatalf("%s: %v", budgetFile, err)
	}
	return &b
}

func (b *budgets) entry(path string) *budgetEntry {
	for i := range b.Paths {
		if b.Paths[i].Path == path {
			return &b.Paths[i]
		}
	}
	return nil
}

// hotPath is one request of a hot path; ok checks its answer is the real
// one (not an error page that happens to be cheap).
type hotPath struct {
	name   string
	cached bool // on the server with the page and response caches on
	req    func() *http.Request
	ok     func(w *httptest.ResponseRecorder) error
}

func okStatus(code int) func(*httptest.ResponseRecorder) error {
	return func(w *httptest.ResponseRecorder) error {
		if w.Code != code {
			return fmt.Errorf("status %d, want %d: %.200s", w.Code, code, w.Body)
		}
		return nil
	}
}

func okWith(code int, header, value, inBody string) func(*httptest.ResponseRecorder) error {
	return func(w *httptest.ResponseRecorder) error {
		if err := okStatus(code)(w); err != nil {
			return err
		}
		if header != "" && w.Header().Get(header) != value {
			return fmt.Errorf("%s %q, want %q", header, w.Header().Get(header), value)
		}
		if !strings.Contains(w.Body.String(), inBody) {
			return fmt.Errorf("answer lacks %q: %.200s", inBody, w.Body)
		}
		return nil
	}
}

func budgetGet(target string, headers ...string) func() *http.Request {
	return func() *http.Request {
		r := httptest.NewRequest(http.MethodGet, target, nil)
		for i := 0; i+1 < len(headers); i += 2 {
			r.Header.Set(headers[i], headers[i+1])
		}
		return r
	}
}

func budgetPost(target, form string) func() *http.Request {
	return func() *http.Request {
		r := httptest.NewRequest(http.MethodPost, target, strings.NewReader(form))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return r
	}
}

// TestBudgets measures every hot path on a warm server, on SQLite and on
// PostgreSQL when configured, against testdata/budget.json.
func TestBudgets(t *testing.T) {
	b := loadBudgets(t)
	update := os.Getenv(budgetUpdate) == "1"
	if update && raceEnabled {
		t.Fatal("record budgets without -race: the race detector changes allocation counts")
	}
	for _, engine := range storetest.Engines(t) {
		t.Run(strings.ToLower(engine), func(t *testing.T) { measureBudgets(t, engine, b, update) })
	}
	// A budget for a path the test no longer measures is dropped when
	// recording, and an error otherwise: the table stays the test's.
	kept := b.Paths[:0]
	for _, e := range b.Paths {
		switch {
		case b.measured[e.Path]:
			kept = append(kept, e)
		case !update && !t.Failed():
			t.Errorf("%s holds a budget for %q, which TestBudgets does not measure. %s", budgetFile, e.Path, budgetHowTo)
		}
	}
	b.Paths = kept
	if update && !t.Failed() {
		b.About = []string{
			"Per-request budgets of the hot paths, checked by TestBudgets (internal/server/budget_test.go).",
			"statements and transactions: exact counts of what one request sends to the store (sqlstore.Counter), the ceiling.",
			"allocs: the recorded average of allocations per request; the ceiling is this plus alloc_margin_percent (at least alloc_margin_min).",
			"Re-record after a deliberate change: " + budgetUpdate + "=1 go test ./internal/server/ -run '^TestBudgets$' -count=1 (set " + storetest.EnvPostgres + " to record PostgreSQL too).",
		}
		raw, err := json.MarshalIndent(b, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(budgetFile, append(raw, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("budgets recorded in %s", budgetFile)
	}
}

func measureBudgets(t *testing.T, engine string, b *budgets, update bool) {
	ctx := context.Background()
	var counter sqlstore.Counter
	db, err := sqlstore.OpenCounted(ctx, storetest.DSN(t, engine), nil, &counter)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	// Two servers on the store, neither started: a started server's loops
	// (the change log, cart cleaning, upkeep, the wallet's reconciler) query
	// the store on their own clock, and the counter counts every statement.
	// Nothing here needs them: the only writes are new carts.
	// The enabled currencies are re-read every CurrencyCacheTTL (30 s by
	// default): once per half a minute is no per-request cost, but a slow
	// run (-race) would see it land in a measured request.
	cfg := server.Config{BaseURL: "https://shop.example", Tagline: "Tagline", CacheMaxAge: time.Hour, CurrencyCacheTTL: time.Hour}
	off := newServer(t, db, "", 1, cfg) // seeds the demo catalogue
	cfg.CacheBytes = 16 << 20
	on := newServerOn(t, db, "", 1, cfg)

	tee, tank := productID(t, db, "classic-tee"), productID(t, db, "cotton-tank-top")
	// A cart of two lines, read by its Cart-Token.
	token := cartTokens(t, off, 1)[0]
	for _, item := range []string{`{"id":` + tank + `,"quantity":2}`, `{"id":` + productID(t, db, "mountain-line-tee") + `,"quantity":1}`} {
		addCartItem(t, off, token, item)
	}

	search := url.Values{"action": {"flatsome_ajax_search_products"}, "query": {"hoodie"}}
	paths := []hotPath{
		{name: "product page, cache off", req: budgetGet(productPage), ok: okWith(200, "X-Cache", "miss", "Classic Tee")},
		{name: "product page, cache hit", cached: true, req: budgetGet(productPage), ok: okWith(200, "X-Cache", "hit", "Classic Tee")},
		{name: "listing page (/shop/), cache off", req: budgetGet("/shop/"), ok: okWith(200, "X-Cache", "miss", "Classic Tee")},
		// A search's candidates are read once for its page, total and
		// filter counts; the filter attributes are kept in memory.
		{name: "search page with a filter, cache off", req: budgetGet("/?s=hoodie&post_type=product&filter_stock_status=instock"),
			ok: okWith(200, "X-Cache", "miss", "Everyday Hoodie")},
		{name: "Store API products list", req: budgetGet(apiProducts), ok: okWith(200, "", "", `"permalink":"https://shop.example/product/`)},
		{name: "Store API single product", req: budgetGet("/wp-json/wc/store/v1/products/" + tee), ok: okWith(200, "", "", `"name":"Classic Tee"`)},
		{name: "wc-ajax add_to_cart (new cart)", req: budgetPost("/?wc-ajax=add_to_cart", "product_id="+tank+"&quantity=1"), ok: okWith(200, "", "", `"fragments"`)},
		{name: "wc-ajax get_variation", req: budgetPost("/?wc-ajax=get_variation", "product_id="+tee+"&attribute_pa_color=rust&attribute_pa_size=xxl"), ok: okWith(200, "", "", `"variation_id"`)},
		{name: "Store API cart read (2 lines)", req: budgetGet("/wp-json/wc/store/v1/cart", "Cart-Token", token), ok: okWith(200, "", "", `"items_count":3`)},
		{name: "live search, cache off", req: budgetGet(ajax + "?" + search.Encode()), ok: okWith(200, "", "", "Everyday Hoodie")},
	}
	for _, p := range paths {
		srv := off
		if p.cached {
			srv = on
		}
		serveOne := func() *httptest.ResponseRecorder {
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, p.req())
			return w
		}
		// Warm: render once, fill the caches, prepare the statements.
		for range 3 {
			if w := serveOne(); w.Code >= 300 {
				t.Fatalf("%s: warming: status %d: %.200s", p.name, w.Code, w.Body)
			}
		}
		// The statements of the costliest request, to name them when the
		// count is over budget or differs between requests.
		var most sqlstore.QueryCount
		var mostSQL []string
		var fewest int64 = math.MaxInt64
		for range budgetRuns {
			var mu sync.Mutex
			var sqls []string
			counter.Trace(func(q string) { mu.Lock(); sqls = append(sqls, q); mu.Unlock() })
			before := counter.Count()
			w := serveOne()
			got := counter.Count().Sub(before)
			counter.Trace(nil)
			if err := p.ok(w); err != nil {
				t.Fatalf("%s: %v", p.name, err)
			}
			if got.Statements > most.Statements || mostSQL == nil {
				mostSQL = sqls
			}
			most.Statements = max(most.Statements, got.Statements)
			most.Transactions = max(most.Transactions, got.Transactions)
			fewest = min(fewest, got.Statements)
		}
		if fewest != most.Statements {
			t.Logf("%s: %d to %d statements per request; the costliest sent:\n%s", p.name, fewest, most.Statements, listSQL(mostSQL))
		}
		failed := false
		allocs := testing.AllocsPerRun(budgetRuns, func() {
			if w := serveOne(); w.Code >= 300 {
				failed = true
			}
		})
		if failed {
			t.Fatalf("%s: a request failed while allocations were counted", p.name)
		}
		measured := budgetFigure{Statements: most.Statements, Transactions: most.Transactions, Allocs: int64(math.Ceil(allocs))}
		t.Logf("%-36s %3d statements %2d transactions %7d allocs", p.name, measured.Statements, measured.Transactions, measured.Allocs)

		if b.measured == nil {
			b.measured = map[string]bool{}
		}
		b.measured[p.name] = true
		e := b.entry(p.name)
		if update {
			if e == nil {
				b.Paths = append(b.Paths, budgetEntry{Path: p.name})
				e = &b.Paths[len(b.Paths)-1]
			}
			fig := measured
			*e.on(engine) = &fig
			continue
		}
		if e == nil || *e.on(engine) == nil {
			t.Errorf("%s on %s: no budget in %s. %s", p.name, engine, budgetFile, budgetHowTo)
			continue
		}
		if !checkBudget(t, p.name, engine, **e.on(engine), measured, b.AllocMarginPercent, b.AllocMarginMin) && most.Statements > (*e.on(engine)).Statements {
			t.Logf("%s on %s: the statements of the costliest request:\n%s", p.name, engine, listSQL(mostSQL))
		}
	}
}

// checkBudget reports whether got is within budget, failing t if not.
func checkBudget(t *testing.T, path, engine string, budget, got budgetFigure, marginPercent float64, marginMin int64) (ok bool) {
	t.Helper()
	ok = true
	over := func(what string, count, ceiling int64, detail string) {
		ok = false
		t.Errorf("budget exceeded: %s on %s: %d %s per request, budget %d%s (%s). %s",
			path, engine, count, what, ceiling, detail, budgetFile, budgetHowTo)
	}
	if got.Statements > budget.Statements {
		over("statements", got.Statements, budget.Statements, "")
	}
	if got.Transactions > budget.Transactions {
		over("transactions", got.Transactions, budget.Transactions, "")
	}
	margin := max(int64(math.Floor(float64(budget.Allocs)*marginPercent/100)), marginMin)
	if ceiling := budget.Allocs + margin; got.Allocs > ceiling && !raceEnabled {
		over("allocations", got.Allocs, ceiling, fmt.Sprintf(" (recorded %d + %d: %g%%, at least %d)", budget.Allocs, margin, marginPercent, marginMin))
	}
	if got.Statements < budget.Statements || got.Transactions < budget.Transactions || float64(got.Allocs) < float64(budget.Allocs)*(1-marginPercent/100) {
		t.Logf("%s on %s is well under its budget (%+v, budget %+v): re-record to tighten it. %s", path, engine, got, budget, budgetHowTo)
	}
	return ok
}

// listSQL numbers statements one a line, each shortened to one line.
func listSQL(sqls []string) string {
	var b strings.Builder
	for i, q := range sqls {
		q = strings.Join(strings.Fields(q), " ")
		if len(q) > 160 {
			q = q[:160] + "…"
		}
		fmt.Fprintf(&b, "\t%2d. %s\n", i+1, q)
	}
	return b.String()
}
