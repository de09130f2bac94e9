package sqlstore

import "vitrine/internal/storage/sqlstore/orderstore"

// The order store's names, kept here for the store's callers.

// Errors of the order store (checkout's, where its use cases name them).
var (
	ErrOrderNotFound = orderstore.ErrOrderNotFound
	// ErrPaymentState is a compare-and-set that found another state.
	ErrPaymentState = orderstore.ErrPaymentState
)

// Checkout refusals, with the Store API's codes and WooCommerce's messages.
var (
	ErrCartEmpty = orderstore.ErrCartEmpty
	// ErrIdempotencyReused: the key was used for a different request.
	ErrIdempotencyReused = orderstore.ErrIdempotencyReused
)

// PlaceOrderInput is a checkout to place (checkout.PlaceOrderInput).
type PlaceOrderInput = orderstore.PlaceOrderInput

// PaymentFields are the wallet ids SetPaymentState records.
type PaymentFields = orderstore.PaymentFields
