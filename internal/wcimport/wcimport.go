// Package wcimport moves a running WooCommerce shop into this one: it reads
// the old shop through its REST API v3 (a Source) and writes its catalogue,
// customers, orders, reviews, coupons and content into the store, keeping
// every old id in the legacy-id table so a re-run updates instead of
// duplicating and old links resolve.
//
// A run takes the resources in dependency order (attributes before the
// products that use them, products and customers before the orders that
// link them). Each resource is read page by page (100 records a page,
// several pages at once within Options.Concurrency) and each record is
// imported on its own: a record that cannot be imported is refused with a
// reason and the run goes on.
package wcimport

import (
	"context"
	"encoding/json"
	"net/url"
)

// Source is the old shop as its REST API v3 answers (wcrest.Client is
// the real one; tests use it against the stand-in, internal/wcimport/standin).
type Source interface {
	// List reads one page (from 1) of a collection at path, relative to
	// /wp-json/ ("wc/v3/products", "wc/v3/products/59/variations",
	// "wp/v2/pages"), with the given extra query; totalPages is the
	// source's X-WP-TotalPages.
	List(ctx context.Context, path string, query url.Values, page int) (items []json.RawMessage, totalPages int, err error)
	// Get reads one object at path, relative to /wp-json/.
	Get(ctx context.Context, path string) (json.RawMessage, error)
	// Download fetches a file the old shop links to (a product image).
	Download(ctx context.Context, rawURL string) (body []byte, contentType string, err error)
}

// A StatusCoder is an error a Source answers for an HTTP refusal, with
// its status (wcrest's AuthError and StatusError are).
type StatusCoder interface {
	HTTPStatus() int
}

// Outcome is what importing one record did.
type Outcome int

const (
	Created   Outcome = iota // new in this shop
	Updated                  // imported before and changed since
	Unchanged                // imported before, same digest: nothing written
	Refused                  // not imported; the Refusal says why
)

// Refusal is a record that was not imported, and why.
type Refusal struct {
	Resource string `json:"resource"`
	OldID    int64  `json:"old_id"`
	Name     string `json:"name,omitempty"` // the record's name, SKU, e-mail or number, as the owner knows it
	Reason   string `json:"reason"`
}

// Count is a resource's tally in a report.
type Count struct {
	Read      int `json:"read"`
	Created   int `json:"created"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	Refused   int `json:"refused"`
}

// Report is a run's result, per resource in the order they ran, with
// every refusal. A dry run's counts are what would have been written.
type Report struct {
	Source    string           `json:"source"`
	DryRun    bool             `json:"dry_run"`
	Resources []string         `json:"resources"`
	Counts    map[string]Count `json:"counts"`
	Refusals  []Refusal        `json:"refusals"`
	// Warnings are records imported without something (a link to a
	// product the old shop deleted).
	Warnings []Warning `json:"warnings"`
}
