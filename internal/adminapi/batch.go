package adminapi

import (
	"net/http"
	"strconv"
)

// errBatchTooLarge is WooCommerce's refusal of a batch of more than
// MaxBulk items.
var errBatchTooLarge = &Error{Status: http.StatusRequestEntityTooLarge, Code: "woocommerce_rest_request_entity_too_large",
	Message: "Unable to accept more than 100 items for this request."}

// batchAnswer is a WooCommerce batch's answer (POST …/batch with create,
// update and delete lists): under each list, every item's object or, for
// an item refused, its id next to its REST error; a refusal does not stop
// the other items. It counts what was done, for the activity log.
type batchAnswer struct {
	out    map[string][]any
	done   map[string]int
	mapErr func(error) (*Error, bool)
}

// newBatch starts the answer of a batch of n items, whose refusals mapErr
// turns into REST errors; more than MaxBulk items are refused whole.
func newBatch(n int, mapErr func(error) (*Error, bool)) (*batchAnswer, error) {
	if n > MaxBulk {
		return nil, errBatchTooLarge
	}
	return &batchAnswer{out: map[string][]any{}, done: map[string]int{}, mapErr: mapErr}, nil
}

// add answers one item of list ("create", "update" or "delete"): its
// object (v, called only when err is nil), or its id and the REST error
// err maps to. An error that maps to none ends the batch (a 500).
func (b *batchAnswer) add(list string, id int64, err error, v func() any) error {
	if err != nil {
		e, ok := b.mapErr(err)
		if !ok {
			return err
		}
		b.out[list] = append(b.out[list], map[string]any{"id": id, "error": errorBody(e)})
		return nil
	}
	b.done[list]++
	b.out[list] = append(b.out[list], v())
	return nil
}

// summary is the activity log's line: "<what>: N created, N updated, N
// deleted".
func (b *batchAnswer) summary(what string) string {
	return what + ": " + strconv.Itoa(b.done["create"]) + " created, " + strconv.Itoa(b.done["update"]) + " updated, " +
		strconv.Itoa(b.done["delete"]) + " deleted"
}
