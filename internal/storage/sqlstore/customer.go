package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// A customer's names and saved addresses (account.CustomerStore); their
// orders are the order store's (orderstore/customer_orders.go).

// Profile loads a user's names (account.ErrNoUser).
func (db *DB) Profile(ctx context.Context, userID int64) (*account.Profile, error) {
	var r struct {
		First   string `db:"first_name"`
		Last    string `db:"last_name"`
		Display string `db:"display_name"`
	}
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT first_name, last_name, display_name FROM users WHERE id = ?`), userID)
	if err != nil {
		return nil, sqlcore.NoRow(err, account.ErrNoUser)
	}
	return &account.Profile{FirstName: r.First, LastName: r.Last, DisplayName: r.Display}, nil
}

// SetProfile stores a user's names (a customer's: customer.updated).
func (db *DB) SetProfile(ctx context.Context, userID int64, p account.Profile) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET first_name = ?, last_name = ?, display_name = ? WHERE id = ?`),
			p.FirstName, p.LastName, p.DisplayName, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return account.ErrNoUser
		}
		return sqlcore.EnqueueCustomerWebhooksTx(ctx, tx, "customer.updated", userID, db.Now())
	})
}

// CustomerAddresses loads the saved billing and shipping addresses.
func (db *DB) CustomerAddresses(ctx context.Context, userID int64) (*account.Addresses, error) {
	var rows []struct {
		Kind    string `db:"kind"`
		Address string `db:"address"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT kind, address FROM customer_addresses WHERE user_id = ?`), userID); err != nil {
		return nil, err
	}
	out := &account.Addresses{}
	for _, r := range rows {
		var a cart.Address
		if err := json.Unmarshal([]byte(r.Address), &a); err != nil {
			return nil, fmt.Errorf("address of user %d: %w", userID, err)
		}
		switch r.Kind {
		case account.AddressBilling:
			out.Billing = &a
		case account.AddressShipping:
			out.Shipping = &a
		}
	}
	return out, nil
}

// SaveAddress stores (replaces) one saved address (a customer's:
// customer.updated).
func (db *DB) SaveAddress(ctx context.Context, userID int64, kind string, a cart.Address, now time.Time) error {
	raw, _ := json.Marshal(a)
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO customer_addresses (user_id, kind, address, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (user_id, kind) DO UPDATE SET address = excluded.address, updated_at = excluded.updated_at`),
			userID, kind, string(raw), now.Unix()); err != nil {
			return err
		}
		return sqlcore.EnqueueCustomerWebhooksTx(ctx, tx, "customer.updated", userID, now)
	})
}

// SaveAddressesIfNone stores each address whose kind has none saved yet
// (a customer's, when one was: customer.updated).
func (db *DB) SaveAddressesIfNone(ctx context.Context, userID int64, billing, shipping cart.Address, now time.Time) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		saved := false
		for _, a := range []struct {
			kind string
			addr cart.Address
		}{{account.AddressBilling, billing}, {account.AddressShipping, shipping}} {
			if a.addr == (cart.Address{}) {
				continue
			}
			raw, _ := json.Marshal(a.addr)
			res, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO customer_addresses (user_id, kind, address, updated_at) VALUES (?, ?, ?, ?)
				ON CONFLICT (user_id, kind) DO NOTHING`), userID, a.kind, string(raw), now.Unix())
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n > 0 {
				saved = true
			}
		}
		if !saved {
			return nil
		}
		return sqlcore.EnqueueCustomerWebhooksTx(ctx, tx, "customer.updated", userID, now)
	})
}
