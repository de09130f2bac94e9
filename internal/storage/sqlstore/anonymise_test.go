package sqlstore_test

import (
	"context"
	"strings"
	"testing"

	"vitrine/internal/checkout"
	"vitrine/internal/payment"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// personal are the values a placed order holds about its customer, none of
// which may be left anywhere in the database once it is anonymised.
var personal = []string{"Grace", "Hopper", "Hopperfield Labs", "77 Cobol Row", "Flat 4b", "Arlington", "22201",
	"grace@example.net", "5550199", "203.0.113.77", "GraceBrowser/9.1", "https://mail.example.net/?u=grace"}

// placePersonalOrder places a guest order full of personal data, with a
// note and a refund reason that quote it, a note that does not, and a
// coupon use recorded by email.
func placePersonalOrder(t *testing.T, f *orderFixture, n int) *checkout.Order {
	t.Helper()
	ctx := context.Background()
	sess := session(n)
	f.add(t, sess, f.lamp, nil, 1, 4500)
	in := f.input(sess, payment.BankTransfer{}, "")
	in.Customer.Billing = checkout.Address{FirstName: "Grace", LastName: "Hopper", Company: "Hopperfield Labs", Address1: "77 Cobol Row",
		Address2: "Flat 4b", City: "Arlington", State: "VA", Postcode: "22201", Country: "US", Email: "grace@example.net", Phone: "5550199"}
	in.Customer.Shipping = in.Customer.Billing
	in.Customer.Shipping.Email = ""
	in.CustomerNote = "Leave it with Grace's neighbour"
	in.Meta = map[string]string{"_customer_ip_address": "203.0.113.77", "_customer_user_agent": "GraceBrowser/9.1",
		"_wc_order_attribution_source_type": "referral", "_wc_order_attribution_utm_source": "newsletter",
		"_wc_order_attribution_referrer": "https://mail.example.net/?u=grace", "_wc_order_attribution_device_type": "Desktop",
		"_gift_message": "Happy birthday, Grace Hopper!"}
	o, _, err := f.db.PlaceOrder(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO order_notes (order_id, note, customer_note, added_by, author, created_at) VALUES (?, 'Customer asked to ship to 77 Cobol Row instead', ?, NULL, 'Staff', 1)`,
		`INSERT INTO order_notes (order_id, note, customer_note, added_by, author, created_at) VALUES (?, 'Order status changed from Pending payment to Processing.', ?, NULL, '', 1)`,
		`INSERT INTO order_refunds (order_id, idem_key, request_hash, amount, reason, method, status, created_at) VALUES (?, 'r1', 'h', 100, 'Grace Hopper says it arrived broken', 'manual', 'completed', 1)`,
		`INSERT INTO order_refunds (order_id, idem_key, request_hash, amount, reason, method, status, created_at) VALUES (?, 'r2', 'h', 50, 'Late delivery', 'manual', 'completed', 1)`,
		`INSERT INTO order_coupons (order_id, position, code, discount_type, discount, discount_tax, customer_id, email) VALUES (?, 1, 'save5', 'fixed_cart', 0, 0, 0, 'grace@example.net')`,
	} {
		args := []any{o.ID}
		if strings.Contains(q, "order_notes") {
			args = append(args, false)
		}
		if err := f.db.ExecForTest(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// textValues reads every text value in the database, table by table, from
// the schema itself: a table added later is scanned without a change here.
func textValues(t *testing.T, db *sqlstore.DB) map[string][]string {
	t.Helper()
	ctx := context.Background()
	type column struct{ Table, Name string }
	var cols []column
	if db.Engine == sqlstore.SQLite {
		var tables []string
		if err := db.Write.SelectContext(ctx, &tables, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`); err != nil {
			t.Fatal(err)
		}
		for _, tb := range tables {
			rows, err := db.Write.QueryxContext(ctx, `SELECT name, type FROM pragma_table_info(?)`, tb)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var name, typ string
				if err := rows.Scan(&name, &typ); err != nil {
					t.Fatal(err)
				}
				if strings.Contains(strings.ToUpper(typ), "TEXT") || typ == "" {
					cols = append(cols, column{tb, name})
				}
			}
			rows.Close()
		}
	} else {
		if err := db.Write.SelectContext(ctx, &cols, `SELECT table_name AS "table", column_name AS "name" FROM information_schema.columns
			WHERE table_schema = current_schema() AND data_type IN ('text', 'character varying', 'jsonb', 'json')`); err != nil {
			t.Fatal(err)
		}
	}
	if len(cols) < 50 {
		t.Fatalf("found %d text columns: the schema scan is broken", len(cols))
	}
	out := map[string][]string{}
	for _, c := range cols {
		var vs []string
		q := `SELECT CAST("` + c.Name + `" AS TEXT) FROM "` + c.Table + `" WHERE "` + c.Name + `" IS NOT NULL`
		if err := db.Write.SelectContext(ctx, &vs, q); err != nil {
			t.Fatalf("%s.%s: %v", c.Table, c.Name, err)
		}
		out[c.Table+"."+c.Name] = vs
	}
	return out
}

func TestAnonymiseOrders(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		db.SetClock(storetest.NewClock(orderNow.AddDate(0, 6, 0)).Now)
		f := newOrderFixture(t, db, 10)
		o := placePersonalOrder(t, f, 1)
		other := placePersonalOrder(t, f, 2) // kept as it is

		// The scan finds the data before: the test can fail.
		found := 0
		for _, vs := range textValues(t, db) {
			for _, v := range vs {
				if strings.Contains(v, "grace@example.net") {
					found++
				}
			}
		}
		if found == 0 {
			t.Fatal("the scan does not see the order's email before anonymising")
		}
		if err := db.ExecForTest(ctx, `DELETE FROM orders WHERE id = ?`, other.ID); err != nil {
			t.Fatal(err)
		}
		other = placePersonalOrder(t, f, 3)

		n, err := db.AnonymiseOrders(ctx, []int64{o.ID, 999999})
		if err != nil || n != 1 {
			t.Fatalf("anonymised %d, %v; want 1", n, err)
		}
		// Nothing of the person is left but on the order not anonymised.
		if err := db.ExecForTest(ctx, `DELETE FROM orders WHERE id = ?`, other.ID); err != nil {
			t.Fatal(err)
		}
		for col, vs := range textValues(t, db) {
			for _, v := range vs {
				for _, p := range personal {
					if strings.Contains(strings.ToLower(v), strings.ToLower(p)) {
						t.Errorf("%s still holds %q: %q", col, p, v)
					}
				}
			}
		}

		got, err := db.Order(ctx, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.AnonymisedAt == nil || !got.AnonymisedAt.Equal(orderNow.AddDate(0, 6, 0).Truncate(1e9)) && got.AnonymisedAt.Before(orderNow) {
			t.Errorf("anonymised at %v", got.AnonymisedAt)
		}
		b := got.Billing
		if b.FirstName != sqlstore.AnonymisedText || b.Address1 != sqlstore.AnonymisedText || b.Email != sqlstore.AnonymisedEmail ||
			b.Phone != "" || b.Country != "US" || b.State != "VA" || b.Address2 != sqlstore.AnonymisedText {
			t.Errorf("billing %+v", b)
		}
		if got.Shipping.Email != "" || got.Shipping.LastName != sqlstore.AnonymisedText {
			t.Errorf("shipping %+v", got.Shipping)
		}
		if got.CustomerNote != sqlstore.AnonymisedText || got.CustomerID != 0 || got.CartSession != "" {
			t.Errorf("note %q, customer %d, session %q", got.CustomerNote, got.CustomerID, got.CartSession)
		}
		if got.Meta["_customer_ip_address"] != sqlstore.AnonymisedIP || got.Meta["_customer_user_agent"] != sqlstore.AnonymisedText ||
			got.Meta["_gift_message"] != sqlstore.AnonymisedText {
			t.Errorf("meta %v", got.Meta)
		}
		if _, ok := got.Meta["_wc_order_attribution_referrer"]; ok {
			t.Errorf("the referrer is kept: %v", got.Meta)
		}
		if got.Meta["_wc_order_attribution_utm_source"] != "newsletter" || got.Meta["_wc_order_attribution_device_type"] != "Desktop" {
			t.Errorf("the channel is lost: %v", got.Meta)
		}
		// Money, lines and taxes as they were.
		if got.Total != o.Total || got.TotalTax != o.TotalTax || got.ItemsSubtotal != o.ItemsSubtotal || len(got.Lines) != len(o.Lines) ||
			got.Lines[0].ProductID != o.Lines[0].ProductID || got.Lines[0].Total != o.Lines[0].Total || got.Status != o.Status ||
			got.Key != o.Key || len(got.TaxLines) != len(o.TaxLines) {
			t.Errorf("amounts changed: %+v, was %+v", got, o)
		}
		notes := f.count(t, `SELECT COUNT(*) FROM order_notes WHERE order_id = ?`, o.ID)
		kept := f.count(t, `SELECT COUNT(*) FROM order_notes WHERE order_id = ? AND note LIKE 'Order status changed%'`, o.ID)
		removed := f.count(t, `SELECT COUNT(*) FROM order_notes WHERE order_id = ? AND note = ?`, o.ID, sqlstore.AnonymisedNote)
		if notes != 2 || kept != 1 || removed != 1 {
			t.Errorf("notes %d (status %d, removed %d); want the status note and the removal note", notes, kept, removed)
		}
		if r := f.count(t, `SELECT COUNT(*) FROM order_refunds WHERE order_id = ? AND reason = 'Late delivery'`, o.ID); r != 1 {
			t.Errorf("a reason quoting nobody was changed")
		}
		if r := f.count(t, `SELECT SUM(amount) FROM order_refunds WHERE order_id = ?`, o.ID); r != 150 {
			t.Errorf("refunds total %d", r)
		}

		// A second run changes and counts nothing.
		before := textValues(t, db)
		n, err = db.AnonymiseOrders(ctx, []int64{o.ID})
		if err != nil || n != 0 {
			t.Fatalf("rerun anonymised %d, %v; want 0", n, err)
		}
		after := textValues(t, db)
		for col, vs := range before {
			if strings.Join(vs, "\x00") != strings.Join(after[col], "\x00") {
				t.Errorf("rerun changed %s", col)
			}
		}
		if n, err := db.AnonymiseOrders(ctx, nil); err != nil || n != 0 {
			t.Errorf("no ids: %d, %v", n, err)
		}
	})
}

// An order linked to an account is unlinked, and a note quoting the
// account's own name (not on the order) goes too.
func TestAnonymiseOrdersUnlinksTheAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		f := newOrderFixture(t, db, 10)
		o := placePersonalOrder(t, f, 1)
		if err := db.ExecForTest(ctx, `INSERT INTO users (email, username, password_hash, display_name, role, created_at, first_name, last_name)
			VALUES ('g.h@example.org', 'gh', '', 'GH', 'customer', 1, 'Amazing', 'Gracie')`); err != nil {
			t.Fatal(err)
		}
		uid := f.count(t, `SELECT id FROM users WHERE username = 'gh'`)
		if err := db.ExecForTest(ctx, `UPDATE orders SET customer_id = ? WHERE id = ?`, uid, o.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.ExecForTest(ctx, `INSERT INTO order_notes (order_id, note, customer_note, added_by, author, created_at) VALUES (?, 'Mailed g.h@example.org', ?, NULL, '', 1)`, o.ID, false); err != nil {
			t.Fatal(err)
		}
		if n, err := db.AnonymiseOrders(ctx, []int64{o.ID}); err != nil || n != 1 {
			t.Fatalf("anonymised %d, %v", n, err)
		}
		if c := f.count(t, `SELECT COUNT(*) FROM orders WHERE customer_id IS NOT NULL`); c != 0 {
			t.Errorf("%d orders still linked", c)
		}
		if c := f.count(t, `SELECT COUNT(*) FROM order_notes WHERE note LIKE '%g.h@example.org%'`); c != 0 {
			t.Errorf("the note quoting the account's email is kept")
		}
		if list, _, err := db.CustomerOrders(ctx, uid, 10, 0); err != nil || len(list) != 0 {
			t.Errorf("the account still lists %d orders, %v", len(list), err)
		}
	})
}
