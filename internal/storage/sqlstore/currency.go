package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/currency"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Multi-currency (internal/currency): the configured currencies, the rate
// history and fixed per-product prices.

type currencyRow struct {
	Code        string `db:"code"`
	BaseCode    string `db:"base_code"`
	Decimals    int    `db:"decimals"`
	Symbol      string `db:"symbol"`
	Position    string `db:"position"`
	ThousandSep string `db:"thousand_sep"`
	DecimalSep  string `db:"decimal_sep"`
	Rate        string `db:"rate"`
	RateDate    string `db:"rate_date"`
	Rounding    string `db:"rounding"`
	Step        int64  `db:"step"`
	Ending      int64  `db:"ending"`
	Enabled     bool   `db:"enabled"`
	SortOrder   int    `db:"sort_order"`
}

// Currencies lists the configured currencies.
func (db *DB) Currencies(ctx context.Context) ([]currency.Currency, error) {
	var rows []currencyRow
	if err := db.Read.SelectContext(ctx, &rows, `SELECT code, base_code, decimals, symbol, position, thousand_sep,
		decimal_sep, rate, rate_date, rounding, step, ending, enabled, sort_order FROM currencies ORDER BY sort_order, code`); err != nil {
		return nil, err
	}
	out := make([]currency.Currency, 0, len(rows))
	for _, r := range rows {
		rate, err := currency.ParseRate(r.Rate)
		if err != nil {
			return nil, fmt.Errorf("currency %s: stored %w", r.Code, err)
		}
		out = append(out, currency.Currency{Code: r.Code, BaseCode: r.BaseCode, Decimals: r.Decimals, Symbol: r.Symbol,
			Position: r.Position, ThousandSep: r.ThousandSep, DecimalSep: r.DecimalSep, Rate: rate, RateDate: r.RateDate,
			Rounding: r.Rounding, Step: r.Step, Ending: r.Ending, Enabled: r.Enabled, Order: r.SortOrder})
	}
	return out, nil
}

// SaveCurrency inserts or replaces c and, with rate, records a rate in
// the history.
func (db *DB) SaveCurrency(ctx context.Context, c currency.Currency, rate *currency.RateRecord, now time.Time) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO currencies (code, base_code, decimals, symbol, position,
			thousand_sep, decimal_sep, rate, rate_date, rounding, step, ending, enabled, sort_order, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (code) DO UPDATE SET base_code = excluded.base_code, decimals = excluded.decimals,
			symbol = excluded.symbol, position = excluded.position, thousand_sep = excluded.thousand_sep,
			decimal_sep = excluded.decimal_sep, rate = excluded.rate, rate_date = excluded.rate_date,
			rounding = excluded.rounding, step = excluded.step, ending = excluded.ending, enabled = excluded.enabled,
			sort_order = excluded.sort_order, updated_at = excluded.updated_at`),
			c.Code, c.BaseCode, c.Decimals, c.Symbol, c.Position, c.ThousandSep, c.DecimalSep, c.Rate.String(), c.RateDate,
			c.Rounding, c.Step, c.Ending, c.Enabled, c.Order, now.Unix()); err != nil {
			return err
		}
		if rate != nil {
			if err := recordRateTx(ctx, tx, *rate, now); err != nil {
				return err
			}
		}
		return db.RecordChange(ctx, tx, 0, ChangeCurrencies)
	})
}

// The catalog_changes kinds of currency writes: every instance forgets its
// cached currencies, and on ChangeCurrencies (the switcher's list or a
// format changed) its rendered pages too.
const (
	ChangeCurrencies = "currencies"
	ChangeRates      = "rates"
)

func recordRateTx(ctx context.Context, tx *sqlx.Tx, r currency.RateRecord, now time.Time) error {
	_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO currency_rates (code, base_code, rate, rate_date, source, recorded_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (code, base_code, rate_date, source)
		DO UPDATE SET rate = excluded.rate, recorded_at = excluded.recorded_at`),
		r.Code, r.BaseCode, r.Rate.String(), r.Date, r.Source, now.Unix())
	return err
}

// RecordRates adds records to the history and sets the current rates in
// current, in one transaction.
func (db *DB) RecordRates(ctx context.Context, records []currency.RateRecord, current map[string]currency.RateRecord, now time.Time) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		for _, r := range records {
			if err := recordRateTx(ctx, tx, r, now); err != nil {
				return err
			}
		}
		for code, r := range current {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE currencies SET rate = ?, rate_date = ?, updated_at = ?
				WHERE code = ? AND base_code = ?`), r.Rate.String(), r.Date, now.Unix(), code, r.BaseCode); err != nil {
				return err
			}
		}
		return db.RecordChange(ctx, tx, 0, ChangeRates)
	})
}

// RateHistory lists code's rates against base, newest date first.
func (db *DB) RateHistory(ctx context.Context, code, base string, limit int) ([]currency.RateRecord, error) {
	if limit <= 0 {
		limit = 100
	}
	var rows []struct {
		Rate   string `db:"rate"`
		Date   string `db:"rate_date"`
		Source string `db:"source"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT rate, rate_date, source FROM currency_rates
		WHERE code = ? AND base_code = ? ORDER BY rate_date DESC, id DESC`+sqlcore.Limit(limit)), code, base); err != nil {
		return nil, err
	}
	out := make([]currency.RateRecord, 0, len(rows))
	for _, r := range rows {
		rate, err := currency.ParseRate(r.Rate)
		if err != nil {
			return nil, fmt.Errorf("rate history %s: stored %w", code, err)
		}
		out = append(out, currency.RateRecord{Code: code, BaseCode: base, Rate: rate, Date: r.Date, Source: r.Source})
	}
	return out, nil
}

// SetFixedPrice stores (or replaces) a fixed price.
func (db *DB) SetFixedPrice(ctx context.Context, p currency.FixedPrice) error {
	var sale any
	if p.Sale != nil {
		sale = *p.Sale
	}
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`INSERT INTO product_currency_prices (product_id, code, regular, sale)
		VALUES (?, ?, ?, ?) ON CONFLICT (product_id, code) DO UPDATE SET regular = excluded.regular, sale = excluded.sale`),
		p.ProductID, p.Code, p.Regular, sale)
	return err
}

// DeleteFixedPrice removes a fixed price (none: no error).
func (db *DB) DeleteFixedPrice(ctx context.Context, productID int64, code string) error {
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`DELETE FROM product_currency_prices WHERE product_id = ? AND code = ?`), productID, code)
	return err
}

// FixedPrices answers the fixed prices in code of those of ids that have one.
func (db *DB) FixedPrices(ctx context.Context, code string, ids []int64) (map[int64]currency.FixedPrice, error) {
	out := map[int64]currency.FixedPrice{}
	if len(ids) == 0 {
		return out, nil
	}
	q, args, err := sqlx.In(`SELECT product_id, regular, sale FROM product_currency_prices WHERE code = ? AND product_id IN (?)`, code, ids)
	if err != nil {
		return nil, err
	}
	var rows []struct {
		ProductID int64         `db:"product_id"`
		Regular   int64         `db:"regular"`
		Sale      sql.NullInt64 `db:"sale"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(q), args...); err != nil {
		return nil, err
	}
	for _, r := range rows {
		p := currency.FixedPrice{ProductID: r.ProductID, Code: code, Regular: r.Regular}
		if r.Sale.Valid {
			s := r.Sale.Int64
			p.Sale = &s
		}
		out[r.ProductID] = p
	}
	return out, nil
}
