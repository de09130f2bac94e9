package adminapi

import (
	"errors"
	"net/http"
	"reflect"
	"testing"
)

// A batch answers each item or its refusal, counts what was done, and is
// refused whole past MaxBulk items; an error no REST error stands for ends
// it.
func TestBatchAnswer(t *testing.T) {
	if _, err := newBatch(MaxBulk+1, asError); err != errBatchTooLarge {
		t.Fatalf("%d items: %v", MaxBulk+1, err)
	}
	gone := &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_invalid_id", Message: "Invalid resource ID."}
	b, err := newBatch(MaxBulk, asError)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		list string
		id   int64
		err  error
	}{{"create", 0, nil}, {"update", 7, gone}, {"update", 8, nil}, {"delete", 9, nil}} {
		if err := b.add(step.list, step.id, step.err, func() any { return map[string]any{"id": step.id} }); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][]any{
		"create": {map[string]any{"id": int64(0)}},
		"update": {map[string]any{"id": int64(7), "error": errorBody(gone)}, map[string]any{"id": int64(8)}},
		"delete": {map[string]any{"id": int64(9)}},
	}
	if !reflect.DeepEqual(b.out, want) {
		t.Errorf("answer %v, want %v", b.out, want)
	}
	if got := b.summary("Customers"); got != "Customers: 1 created, 1 updated, 1 deleted" {
		t.Errorf("summary %q", got)
	}
	broken := errors.New("database is gone")
	if err := b.add("delete", 10, broken, func() any { t.Fatal("answered a failed item"); return nil }); err != broken {
		t.Errorf("an unmapped error: %v", err)
	}
}
