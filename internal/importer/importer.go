// Package importer owns the WooCommerce product CSV import: it reads the file
// WooCommerce's own product exporter writes (column titles as the exporter
// writes them, matched case-insensitively) and fills the catalogue through
// catalog.Writer, idempotently by SKU (or slug), so a shop can move in and
// re-run the import safely. Bad rows are reported and skipped; good rows
// still import.
package importer

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"vitrine/internal/catalog"
)

// Options tune an import.
type Options struct {
	MinorUnit   int          // currency minor unit (2 for USD)
	FetchImages bool         // try to download image URLs and store them as media
	HTTPClient  *http.Client // used when FetchImages; nil = a client with a 10 s timeout
	Now         func() time.Time
}

// RowError is a row that was not imported (or, in Summary.Warnings, a row
// imported with a problem). Row is the file's line number, the header being
// row 1.
type RowError struct {
	Row               int
	SKU, Name, Reason string
}

func (e RowError) String() string {
	s := fmt.Sprintf("row %d: %s", e.Row, e.Reason)
	switch {
	case e.SKU != "" && e.Name != "":
		s += fmt.Sprintf(" (SKU %q, %q)", e.SKU, e.Name)
	case e.SKU != "":
		s += fmt.Sprintf(" (SKU %q)", e.SKU)
	case e.Name != "":
		s += fmt.Sprintf(" (%q)", e.Name)
	}
	return s
}

// Summary counts what an import did.
type Summary struct {
	ProductsCreated, ProductsUpdated     int
	VariationsCreated, VariationsUpdated int
	CategoriesCreated                    int
	ImagesStored, ImagesKeptAsURL        int
	Rejected                             []RowError
	// Warnings are rows that were imported but with something left out,
	// such as a linked product that could not be found.
	Warnings []RowError
}

// String is a short report for the merchant.
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Products: %d created, %d updated\n", s.ProductsCreated, s.ProductsUpdated)
	fmt.Fprintf(&b, "Variations: %d created, %d updated\n", s.VariationsCreated, s.VariationsUpdated)
	fmt.Fprintf(&b, "Categories created: %d\n", s.CategoriesCreated)
	fmt.Fprintf(&b, "Images: %d stored, %d kept as links\n", s.ImagesStored, s.ImagesKeptAsURL)
	if len(s.Rejected) == 0 {
		b.WriteString("Rejected rows: none\n")
	} else {
		fmt.Fprintf(&b, "Rejected rows: %d\n", len(s.Rejected))
		for _, e := range s.Rejected {
			b.WriteString("  " + e.String() + "\n")
		}
	}
	if len(s.Warnings) > 0 {
		fmt.Fprintf(&b, "Warnings: %d\n", len(s.Warnings))
		for _, e := range s.Warnings {
			b.WriteString("  " + e.String() + "\n")
		}
	}
	return b.String()
}

// Import reads a WooCommerce product CSV from r and saves its products. It
// returns an error only when the file cannot be read at all (not CSV, no
// header, no Name or Type column) or the context ends; rows that cannot be
// imported are listed in Summary.Rejected.
func Import(ctx context.Context, r io.Reader, store catalog.Store, w catalog.Writer, opts Options) (Summary, error) {
	imp := &importer{
		store:    store,
		w:        w,
		opts:     opts,
		cats:     map[string]int64{},
		tags:     map[string]int64{},
		attrs:    map[string]catalog.Attribute{},
		terms:    map[termKey]catalog.AttrTerm{},
		bySKU:    map[string]*record{},
		byFileID: map[int64]*record{},
		failed:   map[*record]bool{},
	}
	imp.imgs = newImages(w, opts, &imp.sum)
	recs, err := imp.read(r)
	if err != nil {
		return imp.sum, err
	}
	if err := imp.run(ctx, recs); err != nil {
		return imp.sum, err
	}
	sortRowErrors(imp.sum.Rejected)
	sortRowErrors(imp.sum.Warnings)
	return imp.sum, nil
}

type termKey struct {
	attr int64
	slug string
}

type importer struct {
	store catalog.Store
	w     catalog.Writer
	opts  Options
	sum   Summary
	imgs  *images

	cats  map[string]int64 // "A\x00B" path -> category id
	tags  map[string]int64
	attrs map[string]catalog.Attribute // by slug
	terms map[termKey]catalog.AttrTerm

	bySKU    map[string]*record
	byFileID map[int64]*record
	failed   map[*record]bool // rejected after parsing (store errors, bad parent)
}

var bom = []byte("\uFEFF")

// read parses the whole file; rows with bad values are rejected here.
func (imp *importer) read(r io.Reader) ([]*record, error) {
	br := bufio.NewReader(r)
	if b, err := br.Peek(len(bom)); err == nil && bytes.Equal(b, bom) {
		_, _ = br.Discard(len(bom))
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	titles, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("the file is empty: no header row")
	}
	if err != nil {
		return nil, fmt.Errorf("the file is not a readable CSV: %w", err)
	}
	h, err := readHeader(titles)
	if err != nil {
		return nil, err
	}
	var recs []*record
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			imp.reject(RowError{Row: pe.StartLine, Reason: "the line is not valid CSV: " + pe.Err.Error()})
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read CSV: %w", err)
		}
		line, _ := cr.FieldPos(0)
		if blank(rec) {
			continue
		}
		rc, err := parseRecord(h, rec, line, imp.opts.MinorUnit)
		if err != nil {
			imp.rejectRec(rc, err.Error())
			continue
		}
		if sku := rc.product.SKU; sku != "" {
			if first, dup := imp.bySKU[sku]; dup {
				imp.rejectRec(rc, fmt.Sprintf("SKU %q is already used by row %d", sku, first.line))
				continue
			}
		}
		if rc.fileID != 0 {
			if first, dup := imp.byFileID[rc.fileID]; dup {
				imp.rejectRec(rc, fmt.Sprintf("ID %d is already used by row %d", rc.fileID, first.line))
				continue
			}
			imp.byFileID[rc.fileID] = rc
		}
		if rc.product.SKU != "" {
			imp.bySKU[rc.product.SKU] = rc
		}
		recs = append(recs, rc)
	}
	return recs, nil
}

func blank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

func (imp *importer) reject(e RowError) { imp.sum.Rejected = append(imp.sum.Rejected, e) }

func (imp *importer) rejectRec(rc *record, reason string) {
	imp.failed[rc] = true
	imp.reject(RowError{Row: rc.line, SKU: rc.product.SKU, Name: rc.product.Name, Reason: reason})
}

func (imp *importer) warn(rc *record, reason string) {
	imp.sum.Warnings = append(imp.sum.Warnings, RowError{Row: rc.line, SKU: rc.product.SKU, Name: rc.product.Name, Reason: reason})
}

func sortRowErrors(es []RowError) {
	slices.SortStableFunc(es, func(a, b RowError) int { return cmp.Compare(a.Row, b.Row) })
}
