package mail

import (
	"context"
	"errors"
	"fmt"
	"strconv"
)

// loadFor loads what, the row id a mail of kind is about: a missing one is
// a permanent error, another failure (the store is down) is retried.
func loadFor[V any](ctx context.Context, load func(context.Context, int64) (V, error), kind, what string, id int64) (V, error) {
	v, err := load(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return v, Permanent(fmt.Errorf("mail: %s: %s %d: %w", kind, what, id, err))
	}
	if err != nil {
		return v, fmt.Errorf("mail: %s: load %s %d: %w", kind, what, id, err)
	}
	return v, nil
}

// OrderLoader returns the view of an order for its emails, or an error
// wrapping ErrNotFound when the order does not exist.
type OrderLoader func(ctx context.Context, orderID int64) (OrderView, error)

// OrderRenderer is the Renderer of the order emails: ref is the order id in
// decimal; KindOrderConfirmation, KindOrderCompleted and KindOrderRefunded
// go to the order's Email and KindNewOrder to shopTo. A malformed ref, an unknown kind or a missing order is
// permanent; other loader errors (the store is down) are retried.
func OrderRenderer(load OrderLoader, shopTo []string) Renderer {
	return func(ctx context.Context, kind, ref string) (Message, error) {
		id, err := strconv.ParseInt(ref, 10, 64)
		if err != nil || id <= 0 {
			return Message{}, Permanent(fmt.Errorf("mail: %s: bad order ref %q", kind, ref))
		}
		if kind != KindOrderConfirmation && kind != KindNewOrder && kind != KindOrderCompleted && kind != KindOrderRefunded {
			return Message{}, Permanent(fmt.Errorf("mail: unknown kind %q", kind))
		}
		v, err := loadFor(ctx, load, kind, "order", id)
		if err != nil {
			return Message{}, err
		}
		switch kind {
		case KindOrderConfirmation:
			return OrderConfirmation(v, v.Email)
		case KindOrderCompleted:
			return OrderCompleted(v, v.Email)
		case KindOrderRefunded:
			return OrderRefunded(v, v.Email)
		}
		if len(shopTo) == 0 {
			return Message{}, Permanent(errors.New("mail: new_order: no shop address to notify"))
		}
		return NewOrderNotice(v, shopTo)
	}
}

// Renderers routes each kind to the Renderer of its capability (orders,
// accounts, ...): an unknown kind is permanent.
type Renderers map[string]Renderer

// Render is the Renderer of the whole outbox.
func (rs Renderers) Render(ctx context.Context, kind, ref string) (Message, error) {
	r, ok := rs[kind]
	if !ok {
		return Message{}, Permanent(fmt.Errorf("mail: unknown kind %q", kind))
	}
	return r(ctx, kind, ref)
}

// NoteLoader returns the view of a customer note's order with the note in
// Note, or an error wrapping ErrNotFound when the note does not exist.
type NoteLoader func(ctx context.Context, noteID int64) (OrderView, error)

// CustomerNoteRenderer is the Renderer of KindCustomerNote: ref is the
// note id in decimal; the mail goes to the order's Email.
func CustomerNoteRenderer(load NoteLoader) Renderer {
	return func(ctx context.Context, kind, ref string) (Message, error) {
		id, err := strconv.ParseInt(ref, 10, 64)
		if err != nil || id <= 0 || kind != KindCustomerNote {
			return Message{}, Permanent(fmt.Errorf("mail: %s: bad note ref %q", kind, ref))
		}
		v, err := loadFor(ctx, load, kind, "note", id)
		if err != nil {
			return Message{}, err
		}
		if v.Email == "" {
			return Message{}, Permanent(fmt.Errorf("mail: %s: note %d: the order has no email", kind, id))
		}
		return CustomerNote(v, v.Email)
	}
}
