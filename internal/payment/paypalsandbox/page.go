package paypalsandbox

import (
	"html/template"
	"net/http"
	"net/mail"
	"strings"

	"vitrine/internal/money"
	"vitrine/internal/payment/paypal"
)

// pageLine is an item row of the approval page.
type pageLine struct {
	Name, Quantity, Price string
}

// pageRow is a total row of the approval page.
type pageRow struct {
	Label, Amount string
}

type pageData struct {
	Title    string
	Brand    string
	OrderID  string
	Status   string
	Lines    []pageLine
	Rows     []pageRow
	Total    string
	Email    string
	Error    string
	Note     string
	CanPay   bool
	ShopLink string
}

var pageTmpl = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1a1a1a;background:#f5f7fa}
body{margin:0}
.banner p{margin:0}
.banner{padding:.5rem 1rem;background:#1a1a1a;color:#fff;text-align:center;font-size:.95rem}
main{max-width:34rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #d0d5dd;border-radius:.75rem}
h1{font-size:1.5rem;margin:0 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:.4rem .25rem;border-bottom:1px solid #e4e7ec}
td.num,th.num{text-align:right}
dl{display:grid;grid-template-columns:1fr auto;gap:.25rem 1rem;margin:1rem 0}
dt{color:#3d3d3d}dd{margin:0;text-align:right}
.total{font-weight:700;font-size:1.15rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{font:inherit;width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #667085;border-radius:.4rem}
.error{color:#b42318;margin:.25rem 0 0}
.note{background:#eef4ff;border-left:4px solid #1d4ed8;padding:.5rem .75rem}
.actions{display:grid;gap:.75rem;margin-top:1.25rem}
button{font:inherit;font-weight:600;padding:.8rem 1rem;border-radius:2rem;border:2px solid transparent;cursor:pointer}
.paypal{background:#ffc439;color:#111}
.paylater{background:#0b2f7a;color:#fff}
.declined{background:#fff;color:#1a1a1a;border-color:#1a1a1a}
.cancel{background:transparent;color:#1d4ed8;text-decoration:underline;border-color:transparent}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #1d4ed8;outline-offset:3px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
</style>
</head>
<body>
<header class="banner"><p>PayPal sandbox: a test page, no real money moves.</p></header>
<main>
<h1>{{.Title}}</h1>
{{if .Note}}<p class="note" role="status">{{.Note}}</p>{{end}}
{{if .Lines}}<section aria-labelledby="summary">
<h2 id="summary">Order summary</h2>
<table>
<caption class="visually-hidden">Items in order {{.OrderID}}</caption>
<thead><tr><th scope="col">Item</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Price each</th></tr></thead>
<tbody>{{range .Lines}}<tr><td>{{.Name}}</td><td class="num">{{.Quantity}}</td><td class="num">{{.Price}}</td></tr>{{end}}</tbody>
</table>
</section>{{end}}
{{if .Total}}<dl>{{range .Rows}}<dt>{{.Label}}</dt><dd>{{.Amount}}</dd>{{end}}<dt class="total">Total</dt><dd class="total">{{.Total}}</dd></dl>{{end}}
{{if .CanPay}}<form method="post" action="checkoutnow">
<input type="hidden" name="token" value="{{.OrderID}}">
<label for="email">PayPal account email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="{{.Email}}"{{if .Error}} aria-invalid="true" aria-describedby="email-error"{{end}}>
{{if .Error}}<p id="email-error" class="error">{{.Error}}</p>{{end}}
<div class="actions">
<button type="submit" name="action" value="paypal" class="paypal">Pay with PayPal</button>
<button type="submit" name="action" value="paylater" class="paylater">Pay Later</button>
<button type="submit" name="action" value="declined" class="declined">Pay with a card that will be declined</button>
<button type="submit" name="action" value="cancel" class="cancel" formnovalidate>Cancel and return to the shop</button>
</div>
</form>{{end}}
{{if .ShopLink}}<p><a href="{{.ShopLink}}">Return to the shop</a></p>{{end}}
</main>
</body>
</html>
`))

// approvalPage is GET and POST <base>/checkoutnow.
func (s *Sandbox) approvalPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		s.renderPage(w, http.StatusOK, r.URL.Query().Get("token"), DemoPayerEmail, "", "")
	case http.MethodPost:
		r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
		if err := r.ParseForm(); err != nil {
			s.renderPage(w, http.StatusBadRequest, "", "", "", "")
			return
		}
		id := r.PostForm.Get("token")
		action := r.PostForm.Get("action")
		email := strings.TrimSpace(r.PostForm.Get("email"))
		var (
			to  string
			err error
		)
		switch action {
		case "cancel":
			s.mu.Lock()
			to, err = s.cancelOrder(id)
			s.mu.Unlock()
		case FundingPayPal, FundingPayLater, FundingDeclined:
			if a, perr := mail.ParseAddress(email); perr != nil || a.Address != email || a.Name != "" {
				s.renderPage(w, http.StatusBadRequest, id, email, "Enter an email address like name@example.com.", "")
				return
			}
			s.mu.Lock()
			to, err = s.approve(id, action, email)
			s.mu.Unlock()
		default:
			s.renderPage(w, http.StatusBadRequest, id, email, "", "Choose how to pay.")
			return
		}
		switch {
		case err == errNotFound:
			s.renderPage(w, http.StatusNotFound, id, "", "", "")
		case err != nil:
			s.renderPage(w, http.StatusConflict, id, "", "", "")
		case to == "":
			note := "Payment approved. You can close this window and go back to the shop."
			if action == "cancel" {
				note = "Payment cancelled. You can close this window and go back to the shop."
			}
			s.renderPage(w, http.StatusOK, id, "", "", note)
		default:
			http.Redirect(w, r, to, http.StatusSeeOther)
		}
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// renderPage writes the approval page for an order in its current state.
func (s *Sandbox) renderPage(w http.ResponseWriter, status int, id, email, emailErr, note string) {
	s.mu.Lock()
	o, ok := s.orders[id]
	var d pageData
	if ok {
		d = s.pageFor(o)
	}
	s.mu.Unlock()
	if !ok {
		d = pageData{Title: "This payment link is not valid", Note: "No order matches this link. Go back to the shop and start the payment again."}
		if status < 400 {
			status = http.StatusNotFound
		}
	}
	if d.CanPay {
		d.Email, d.Error = email, emailErr
		if d.Email == "" {
			d.Email = DemoPayerEmail
		}
	}
	if note != "" {
		d.Note = note
		d.CanPay = false
	}
	if status == http.StatusConflict && ok {
		d.Note = "This order can no longer be approved (" + strings.ToLower(d.Status) + ")."
		d.CanPay = false
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = pageTmpl.Execute(w, d)
}

func (s *Sandbox) pageFor(o *order) pageData {
	d := pageData{Brand: o.brand, OrderID: o.o.ID, Status: o.o.Status}
	switch o.o.Status {
	case paypal.StatusCreated, paypal.StatusApproved:
		d.CanPay = true
		if o.o.Status == paypal.StatusApproved {
			d.Note = "You already approved this payment. You can choose again."
		}
	case paypal.StatusCompleted:
		d.Note = "This order is already paid."
	case paypal.StatusVoided:
		d.Note = "This payment was cancelled."
	}
	if o.returnURL != "" && !d.CanPay {
		d.ShopLink = o.returnURL
	}
	var total int64
	var cur money.Currency
	for _, pu := range o.o.PurchaseUnits {
		if pu.Amount == nil {
			continue
		}
		c, ok := payPalCurrency(pu.Amount.CurrencyCode)
		if !ok {
			continue
		}
		cur = c
		f := func(m *paypal.Money) string {
			if m == nil {
				return ""
			}
			v, err := m.Minor()
			if err != nil {
				return m.Value + " " + m.CurrencyCode
			}
			return c.Format(v)
		}
		for _, it := range pu.Items {
			d.Lines = append(d.Lines, pageLine{Name: it.Name, Quantity: it.Quantity, Price: f(&it.UnitAmount)})
		}
		if b := pu.Amount.Breakdown; b != nil {
			for _, row := range []struct {
				label string
				m     *paypal.Money
				neg   bool
			}{
				{"Items", b.ItemTotal, false}, {"Shipping", b.Shipping, false}, {"Handling", b.Handling, false},
				{"Tax", b.TaxTotal, false}, {"Insurance", b.Insurance, false},
				{"Shipping discount", b.ShippingDiscount, true}, {"Discount", b.Discount, true},
			} {
				if row.m == nil {
					continue
				}
				a := f(row.m)
				if row.neg {
					a = "−" + a
				}
				d.Rows = append(d.Rows, pageRow{Label: row.label, Amount: a})
			}
		}
		if v, err := paypal.ParseValue(pu.Amount.CurrencyCode, pu.Amount.Value); err == nil {
			total += v
		}
	}
	if cur.Code != "" {
		d.Total = cur.Format(total) + " " + cur.Code
		d.Title = "Pay " + d.Total + " to " + o.brand
	} else {
		d.Title = "Pay " + o.brand
	}
	return d
}

// payPalCurrency writes a currency PayPal takes with PayPal's decimals
// (HUF and TWD amounts are whole there) and its symbol when the shop knows
// one (else its code).
func payPalCurrency(code string) (money.Currency, bool) {
	n, ok := paypal.Decimals(code)
	if !ok {
		return money.Currency{}, false
	}
	c, known := money.Lookup(code)
	if !known {
		c = money.Currency{Code: code, Symbol: code, Prefix: code + " ", DecimalSeparator: ".", ThousandSeparator: ","}
	}
	c.MinorUnit = n
	return c, true
}
