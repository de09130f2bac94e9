package privacy

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	htmltemplate "html/template"
	"sort"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
)

// Export is everything the shop keeps about one person, by section.
type Export struct {
	Shop      string    `json:"shop"`
	Email     string    `json:"email"`
	RequestID int64     `json:"request_id"`
	Generated time.Time `json:"generated"`

	Account         *AccountData      `json:"account"` // nil: no account
	Addresses       []AddressData     `json:"addresses"`
	Orders          []OrderData       `json:"orders"`
	Attribution     []AttributionData `json:"order_attribution"`
	Reviews         []ReviewData      `json:"reviews"`
	ContactMessages []ContactData     `json:"contact_messages"`
	Wishlist        []WishlistData    `json:"wishlist"`
	StockAlerts     []StockAlertData  `json:"stock_alerts"`
	Sessions        []Session         `json:"sessions"`
	Devices         []DeviceData      `json:"remembered_devices"`
}

// WishlistData is an item of the account's wishlist.
type WishlistData struct {
	Product    string    `json:"product"`
	PriceAdded string    `json:"price_when_added"`
	Added      time.Time `json:"added"`
}

// StockAlertData is a "notify me when available" request.
type StockAlertData struct {
	Product string    `json:"product"`
	Email   string    `json:"email"`
	Status  string    `json:"status"`
	Created time.Time `json:"created"`
}

// AccountData is the account's own fields (never its password or secrets).
type AccountData struct {
	ID            int64      `json:"id"`
	Email         string     `json:"email"`
	Username      string     `json:"username"`
	DisplayName   string     `json:"display_name"`
	FirstName     string     `json:"first_name"`
	LastName      string     `json:"last_name"`
	Role          string     `json:"role"`
	Registered    time.Time  `json:"registered"`
	EmailVerified *time.Time `json:"email_verified"`
	TwoFactor     bool       `json:"two_factor"`
}

// AddressData is a saved address.
type AddressData struct {
	Kind string `json:"kind"` // billing or shipping
	cart.Address
}

// OrderData is an order as the person placed it.
type OrderData struct {
	ID            int64        `json:"id"`
	Number        string       `json:"number"`
	Date          time.Time    `json:"date"`
	Status        string       `json:"status"`
	Currency      string       `json:"currency"`
	Total         string       `json:"total"`
	PaymentMethod string       `json:"payment_method"`
	Billing       cart.Address `json:"billing"`
	Shipping      cart.Address `json:"shipping"`
	CustomerNote  string       `json:"customer_note"`
	IPAddress     string       `json:"ip_address"`
	UserAgent     string       `json:"user_agent"`
	Lines         []OrderLine  `json:"lines"`
}

// OrderLine is one bought line.
type OrderLine struct {
	Name     string `json:"name"`
	SKU      string `json:"sku"`
	Quantity int64  `json:"quantity"`
	Total    string `json:"total"`
}

// AttributionData is an order's attribution (where the visit came from).
type AttributionData struct {
	OrderID int64             `json:"order_id"`
	Fields  map[string]string `json:"fields"`
}

// ReviewData is a review the person wrote.
type ReviewData struct {
	ID        int64     `json:"id"`
	Product   string    `json:"product"`
	Author    string    `json:"author"`
	Email     string    `json:"email"`
	Rating    int       `json:"rating"`
	Content   string    `json:"content"`
	Status    string    `json:"status"`
	IPAddress string    `json:"ip_address"`
	Date      time.Time `json:"date"`
}

// ContactData is a message sent through a contact form (its files are
// listed by name; their content is not copied into the export).
type ContactData struct {
	ID        int64               `json:"id"`
	Date      time.Time           `json:"date"`
	Fields    map[string][]string `json:"fields"`
	Files     []string            `json:"files"`
	IPAddress string              `json:"ip_address"`
	UserAgent string              `json:"user_agent"`
}

// DeviceData is a remembered device.
type DeviceData struct {
	Label   string    `json:"label"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
}

// Export gathers what the shop keeps about email (and the account userID,
// 0 for none: the account holding email, if any, is found).
func (s *Service) Export(ctx context.Context, email string, userID int64) (*Export, error) {
	email = account.NormalizeEmail(email)
	e := &Export{Email: email, Generated: s.now(), Addresses: []AddressData{}, Orders: []OrderData{},
		Attribution: []AttributionData{}, Reviews: []ReviewData{}, ContactMessages: []ContactData{},
		Wishlist: []WishlistData{}, StockAlerts: []StockAlertData{}, Sessions: []Session{}, Devices: []DeviceData{}}
	if s.SiteName != nil {
		e.Shop = s.SiteName()
	}
	var u *account.User
	var err error
	if userID != 0 {
		u, err = s.Store.UserByID(ctx, userID)
	} else {
		u, err = s.Store.UserByEmail(ctx, email)
	}
	if err != nil && !errors.Is(err, account.ErrNoUser) {
		return nil, err
	}
	if u != nil {
		userID = u.ID
		if err := s.accountData(ctx, e, u); err != nil {
			return nil, err
		}
	} else {
		userID = 0
	}
	ids, err := s.Store.PrivacyOrderIDs(ctx, email, userID)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		o, err := s.Store.Order(ctx, id)
		if err != nil {
			return nil, err
		}
		e.Orders = append(e.Orders, orderData(o))
		if a := attribution(o); len(a) > 0 {
			e.Attribution = append(e.Attribution, AttributionData{OrderID: o.ID, Fields: a})
		}
	}
	rs, err := s.Store.PrivacyReviews(ctx, email, userID)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		e.Reviews = append(e.Reviews, ReviewData{ID: r.ID, Product: r.ProductName, Author: r.Author, Email: r.Email,
			Rating: r.Rating, Content: r.Content, Status: r.Status, IPAddress: r.ClientIP, Date: r.CreatedAt})
	}
	if userID != 0 {
		ws, err := s.Store.PrivacyWishlist(ctx, userID)
		if err != nil {
			return nil, err
		}
		for _, w := range ws {
			e.Wishlist = append(e.Wishlist, WishlistData{Product: w.Product, PriceAdded: formatMoney(w.PriceAdded, s.Currency), Added: w.Added})
		}
	}
	as, err := s.Store.PrivacyStockAlerts(ctx, email, userID)
	if err != nil {
		return nil, err
	}
	e.StockAlerts = append(e.StockAlerts, as...)
	cids, err := s.Store.PrivacyContactIDs(ctx, email, userID)
	if err != nil {
		return nil, err
	}
	for _, id := range cids {
		st, err := s.Store.ContactSubmission(ctx, id)
		if err != nil {
			return nil, err
		}
		c := ContactData{ID: st.ID, Date: st.CreatedAt, Fields: st.Values, Files: []string{}, IPAddress: st.ClientIP, UserAgent: st.UserAgent}
		for _, f := range st.Files {
			c.Files = append(c.Files, f.Name)
		}
		e.ContactMessages = append(e.ContactMessages, c)
	}
	return e, nil
}

func (s *Service) accountData(ctx context.Context, e *Export, u *account.User) error {
	a := &AccountData{ID: u.ID, Email: u.Email, Username: u.Username, DisplayName: u.DisplayName, Role: u.Role,
		Registered: u.CreatedAt, TwoFactor: u.TwoFactor()}
	if !u.EmailVerifiedAt.IsZero() {
		t := u.EmailVerifiedAt
		a.EmailVerified = &t
	}
	if p, err := s.Store.Profile(ctx, u.ID); err == nil {
		a.FirstName, a.LastName = p.FirstName, p.LastName
	} else if !errors.Is(err, account.ErrNoUser) {
		return err
	}
	e.Account = a
	ad, err := s.Store.CustomerAddresses(ctx, u.ID)
	if err != nil {
		return err
	}
	if ad.Billing != nil {
		e.Addresses = append(e.Addresses, AddressData{Kind: account.AddressBilling, Address: *ad.Billing})
	}
	if ad.Shipping != nil {
		e.Addresses = append(e.Addresses, AddressData{Kind: account.AddressShipping, Address: *ad.Shipping})
	}
	ss, err := s.Store.PrivacySessions(ctx, u.ID)
	if err != nil {
		return err
	}
	e.Sessions = append(e.Sessions, ss...)
	ds, err := s.Store.Devices(ctx, u.ID, s.now())
	if err != nil {
		return err
	}
	for _, d := range ds {
		e.Devices = append(e.Devices, DeviceData{Label: d.Label, Created: d.CreatedAt, Expires: d.ExpiresAt})
	}
	return nil
}

func orderData(o *checkout.Order) OrderData {
	d := OrderData{ID: o.ID, Number: o.Number, Date: o.CreatedAt, Status: o.Status, Currency: o.Currency,
		Total: formatMoney(o.Total, o.Currency), PaymentMethod: o.PaymentMethodTitle, Billing: o.Billing, Shipping: o.Shipping,
		CustomerNote: o.CustomerNote, IPAddress: o.Meta["_customer_ip_address"], UserAgent: o.Meta["_customer_user_agent"],
		Lines: []OrderLine{}}
	for _, l := range o.Lines {
		d.Lines = append(d.Lines, OrderLine{Name: l.Name, SKU: l.SKU, Quantity: l.Quantity, Total: formatMoney(l.Total, o.Currency)})
	}
	return d
}

// formatMoney writes an amount with its currency's format, or as the
// minor units and code when the currency is unknown.
func formatMoney(v int64, code string) string {
	if c, ok := money.Lookup(code); ok {
		return c.Format(v)
	}
	return strconv.FormatInt(v, 10) + " " + code
}

func attribution(o *checkout.Order) map[string]string {
	a := map[string]string{}
	for k, v := range o.Meta {
		if f, ok := strings.CutPrefix(k, checkout.AttributionMetaPrefix); ok {
			a[f] = v
		}
	}
	return a
}

// Zip is the export as a zip: export.json and index.html, a readable page
// that needs nothing else.
func (e *Export) Zip() ([]byte, error) {
	js, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return nil, err
	}
	var page bytes.Buffer
	if err := exportPage.Execute(&page, e); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, f := range []struct {
		name string
		body []byte
	}{{"export.json", js}, {"index.html", page.Bytes()}} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: e.Generated})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(f.body); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Sections is the page's table of contents: each section's heading, its
// anchor and how many items it has.
func (e *Export) Sections() [][3]string {
	n := func(k int) string {
		if k == 1 {
			return "1 item"
		}
		return strconv.Itoa(k) + " items"
	}
	acc := 0
	if e.Account != nil {
		acc = 1
	}
	return [][3]string{{"Account", "account", n(acc)}, {"Addresses", "addresses", n(len(e.Addresses))}, {"Orders", "orders", n(len(e.Orders))},
		{"Order attribution", "attribution", n(len(e.Attribution))}, {"Reviews", "reviews", n(len(e.Reviews))},
		{"Contact messages", "contact", n(len(e.ContactMessages))}, {"Wishlist", "wishlist", n(len(e.Wishlist))},
		{"Stock alerts", "stock-alerts", n(len(e.StockAlerts))}, {"Sessions", "sessions", n(len(e.Sessions))},
		{"Remembered devices", "devices", n(len(e.Devices))}}
}

// AddressLines is an address as lines for the page.
func AddressLines(a cart.Address) []string {
	var out []string
	for _, v := range []string{strings.TrimSpace(a.FirstName + " " + a.LastName), a.Company, a.Address1, a.Address2,
		strings.TrimSpace(a.Postcode + " " + a.City), a.State, a.Country, a.Email, a.Phone} {
		if strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	return out
}

// SortedKeys lists a map's keys in order, for the page.
func SortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

var exportPage = htmltemplate.Must(htmltemplate.New("export").Funcs(htmltemplate.FuncMap{
	"lines": AddressLines, "keys": SortedKeys[string], "fieldKeys": SortedKeys[[]string],
	"join": strings.Join, "date": func(t time.Time) string { return t.UTC().Format("January 2, 2006 15:04 MST") },
}).Parse(exportHTML))

const exportHTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Personal data export{{if .Shop}} from {{.Shop}}{{end}}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;color:#1c1917;max-width:60rem;margin:0 auto;padding:1rem}
table{border-collapse:collapse;width:100%;margin:0 0 1.5rem}
th,td{border:1px solid #a8a29e;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f5f5f4;width:14rem}
h2{margin-top:2rem;border-bottom:2px solid #292524}
</style>
</head>
<body>
<main>
<h1>Personal data export</h1>
<p>For <strong>{{.Email}}</strong>{{if .Shop}} from {{.Shop}}{{end}}, made {{date .Generated}} (request {{.RequestID}}). The same data is in <code>export.json</code> beside this page.</p>
<nav aria-label="Sections"><ul>{{range .Sections}}<li><a href="#{{index . 1}}">{{index . 0}}</a>: {{index . 2}}</li>{{end}}</ul></nav>

<h2 id="account">Account</h2>
{{with .Account}}<table><tbody>
<tr><th scope="row">Email</th><td>{{.Email}}</td></tr>
<tr><th scope="row">Username</th><td>{{.Username}}</td></tr>
<tr><th scope="row">Display name</th><td>{{.DisplayName}}</td></tr>
<tr><th scope="row">First name</th><td>{{.FirstName}}</td></tr>
<tr><th scope="row">Last name</th><td>{{.LastName}}</td></tr>
<tr><th scope="row">Registered</th><td>{{date .Registered}}</td></tr>
<tr><th scope="row">Two-factor authentication</th><td>{{if .TwoFactor}}On{{else}}Off{{end}}</td></tr>
</tbody></table>{{else}}<p>No account.</p>{{end}}

<h2 id="addresses">Addresses</h2>
{{range .Addresses}}<table><caption>{{.Kind}}</caption><tbody><tr><th scope="row">Address</th><td>{{join (lines .Address) ", "}}</td></tr></tbody></table>{{else}}<p>None.</p>{{end}}

<h2 id="orders">Orders</h2>
{{range .Orders}}<table><caption>Order {{.Number}}</caption><tbody>
<tr><th scope="row">Date</th><td>{{date .Date}}</td></tr>
<tr><th scope="row">Status</th><td>{{.Status}}</td></tr>
<tr><th scope="row">Total</th><td>{{.Total}}</td></tr>
<tr><th scope="row">Payment method</th><td>{{.PaymentMethod}}</td></tr>
<tr><th scope="row">Billing address</th><td>{{join (lines .Billing) ", "}}</td></tr>
<tr><th scope="row">Shipping address</th><td>{{join (lines .Shipping) ", "}}</td></tr>
<tr><th scope="row">Note</th><td>{{.CustomerNote}}</td></tr>
<tr><th scope="row">IP address</th><td>{{.IPAddress}}</td></tr>
<tr><th scope="row">Browser</th><td>{{.UserAgent}}</td></tr>
<tr><th scope="row">Items</th><td><ul>{{range .Lines}}<li>{{.Quantity}} × {{.Name}}{{if .SKU}} ({{.SKU}}){{end}}: {{.Total}}</li>{{end}}</ul></td></tr>
</tbody></table>{{else}}<p>None.</p>{{end}}

<h2 id="attribution">Order attribution</h2>
{{range .Attribution}}{{$f := .Fields}}<table><caption>Order {{.OrderID}}</caption><tbody>{{range keys .Fields}}<tr><th scope="row">{{.}}</th><td>{{index $f .}}</td></tr>{{end}}</tbody></table>{{else}}<p>None.</p>{{end}}

<h2 id="reviews">Reviews</h2>
{{range .Reviews}}<table><caption>Review of {{.Product}}</caption><tbody>
<tr><th scope="row">Date</th><td>{{date .Date}}</td></tr>
<tr><th scope="row">Name</th><td>{{.Author}}</td></tr>
<tr><th scope="row">Email</th><td>{{.Email}}</td></tr>
<tr><th scope="row">Rating</th><td>{{.Rating}}</td></tr>
<tr><th scope="row">Review</th><td>{{.Content}}</td></tr>
<tr><th scope="row">IP address</th><td>{{.IPAddress}}</td></tr>
</tbody></table>{{else}}<p>None.</p>{{end}}

<h2 id="contact">Contact messages</h2>
{{range .ContactMessages}}{{$f := .Fields}}<table><caption>Message of {{date .Date}}</caption><tbody>
{{range fieldKeys .Fields}}<tr><th scope="row">{{.}}</th><td>{{join (index $f .) ", "}}</td></tr>{{end}}
<tr><th scope="row">Files</th><td>{{join .Files ", "}}</td></tr>
<tr><th scope="row">IP address</th><td>{{.IPAddress}}</td></tr>
<tr><th scope="row">Browser</th><td>{{.UserAgent}}</td></tr>
</tbody></table>{{else}}<p>None.</p>{{end}}

<h2 id="wishlist">Wishlist</h2>
{{range .Wishlist}}<table><tbody><tr><th scope="row">Product</th><td>{{.Product}}</td></tr><tr><th scope="row">Price when added</th><td>{{.PriceAdded}}</td></tr><tr><th scope="row">Added</th><td>{{date .Added}}</td></tr></tbody></table>{{else}}<p>None.</p>{{end}}

<h2 id="stock-alerts">Stock alerts</h2>
{{range .StockAlerts}}<table><tbody><tr><th scope="row">Product</th><td>{{.Product}}</td></tr><tr><th scope="row">Email</th><td>{{.Email}}</td></tr><tr><th scope="row">Status</th><td>{{.Status}}</td></tr><tr><th scope="row">Asked</th><td>{{date .Created}}</td></tr></tbody></table>{{else}}<p>None.</p>{{end}}

<h2 id="sessions">Sessions</h2>
{{range .Sessions}}<table><tbody><tr><th scope="row">Started</th><td>{{date .CreatedAt}}</td></tr><tr><th scope="row">Last seen</th><td>{{date .LastSeenAt}}</td></tr><tr><th scope="row">Ends</th><td>{{date .ExpiresAt}}</td></tr></tbody></table>{{else}}<p>None.</p>{{end}}

<h2 id="devices">Remembered devices</h2>
{{range .Devices}}<table><tbody><tr><th scope="row">Device</th><td>{{.Label}}</td></tr><tr><th scope="row">Remembered</th><td>{{date .Created}}</td></tr><tr><th scope="row">Until</th><td>{{date .Expires}}</td></tr></tbody></table>{{else}}<p>None.</p>{{end}}
</main>
</body>
</html>
`
