package checkout

import "errors"

// ErrOrderNotFound is an order the store does not have (code not_found).
var ErrOrderNotFound = errors.New("order not found")
