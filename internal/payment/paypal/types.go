package paypal

import (
	"encoding/json"
	"strings"
)

// Order intents.
const (
	IntentCapture   = "CAPTURE"
	IntentAuthorize = "AUTHORIZE"
)

// Values of order and capture statuses, item categories, shipping
// preferences and user actions.
const (
	StatusCreated              = "CREATED"
	StatusSaved                = "SAVED"
	StatusApproved             = "APPROVED"
	StatusVoided               = "VOIDED"
	StatusCompleted            = "COMPLETED"
	StatusPayerActionRequired  = "PAYER_ACTION_REQUIRED"
	CaptureStatusCompleted     = "COMPLETED"
	CaptureStatusPending       = "PENDING"
	CaptureStatusDeclined      = "DECLINED"
	CaptureStatusFailed        = "FAILED"
	CaptureStatusRefunded      = "REFUNDED"
	CaptureStatusPartRefunded  = "PARTIALLY_REFUNDED"
	RefundStatusCompleted      = "COMPLETED"
	RefundStatusPending        = "PENDING"
	RefundStatusCancelled      = "CANCELLED"
	RefundStatusFailed         = "FAILED"
	ItemCategoryPhysicalGoods  = "PHYSICAL_GOODS"
	ItemCategoryDigitalGoods   = "DIGITAL_GOODS"
	ItemCategoryDonation       = "DONATION"
	ShippingPreferenceFromFile = "GET_FROM_FILE"
	ShippingPreferenceNone     = "NO_SHIPPING"
	ShippingPreferenceProvided = "SET_PROVIDED_ADDRESS"
	UserActionPayNow           = "PAY_NOW"
	UserActionContinue         = "CONTINUE"
)

// CreateOrderRequest is the body of POST /v2/checkout/orders.
type CreateOrderRequest struct {
	Intent        string         `json:"intent"`
	PurchaseUnits []PurchaseUnit `json:"purchase_units"`
	PaymentSource *PaymentSource `json:"payment_source,omitempty"`
	// ApplicationContext is the older place for the experience context
	// (return and cancel URLs); PaymentSource.PayPal.ExperienceContext is
	// the current one.
	ApplicationContext *ExperienceContext `json:"application_context,omitempty"`
}

// Order is a PayPal Orders v2 order as the API returns it.
type Order struct {
	ID            string         `json:"id"`
	Status        string         `json:"status"`
	Intent        string         `json:"intent,omitempty"`
	PaymentSource *PaymentSource `json:"payment_source,omitempty"`
	PurchaseUnits []PurchaseUnit `json:"purchase_units,omitempty"`
	Payer         *Payer         `json:"payer,omitempty"`
	CreateTime    string         `json:"create_time,omitempty"`
	UpdateTime    string         `json:"update_time,omitempty"`
	Links         []Link         `json:"links,omitempty"`

	// Replayed is true when a POST was answered 200 instead of 201: PayPal
	// replayed the first result for the same PayPal-Request-Id. Not sent.
	Replayed bool `json:"-"`
}

// ApproveURL is where the buyer approves the order (link rel "approve", or
// "payer-action" in newer answers); "" when the order has neither.
func (o *Order) ApproveURL() string {
	for _, rel := range []string{"approve", "payer-action"} {
		if l := o.Link(rel); l != "" {
			return l
		}
	}
	return ""
}

// Link returns the href of the first link with the given rel, or "".
func (o *Order) Link(rel string) string {
	for _, l := range o.Links {
		if strings.EqualFold(l.Rel, rel) {
			return l.Href
		}
	}
	return ""
}

// Captures returns every capture of every purchase unit, in order.
func (o *Order) Captures() []Capture {
	var out []Capture
	for _, pu := range o.PurchaseUnits {
		if pu.Payments != nil {
			out = append(out, pu.Payments.Captures...)
		}
	}
	return out
}

// PurchaseUnit is one purchase unit of an order. Build one from the shop's
// own totals with NewPurchaseUnit, which checks that the breakdown adds up.
type PurchaseUnit struct {
	ReferenceID    string               `json:"reference_id,omitempty"`
	Amount         *AmountWithBreakdown `json:"amount,omitempty"`
	Payee          *Payee               `json:"payee,omitempty"`
	Description    string               `json:"description,omitempty"`
	CustomID       string               `json:"custom_id,omitempty"`
	InvoiceID      string               `json:"invoice_id,omitempty"`
	SoftDescriptor string               `json:"soft_descriptor,omitempty"`
	Items          []Item               `json:"items,omitempty"`
	Shipping       *ShippingDetail      `json:"shipping,omitempty"`
	Payments       *Payments            `json:"payments,omitempty"`
}

// AmountWithBreakdown is a purchase unit's total and its parts.
type AmountWithBreakdown struct {
	CurrencyCode string     `json:"currency_code"`
	Value        string     `json:"value"`
	Breakdown    *Breakdown `json:"breakdown,omitempty"`
}

// Breakdown holds the parts of a total: value = item_total + tax_total +
// shipping + handling + insurance - shipping_discount - discount.
type Breakdown struct {
	ItemTotal        *Money `json:"item_total,omitempty"`
	Shipping         *Money `json:"shipping,omitempty"`
	Handling         *Money `json:"handling,omitempty"`
	TaxTotal         *Money `json:"tax_total,omitempty"`
	Insurance        *Money `json:"insurance,omitempty"`
	ShippingDiscount *Money `json:"shipping_discount,omitempty"`
	Discount         *Money `json:"discount,omitempty"`
}

// Item is one line of a purchase unit. Quantity is a decimal integer string.
type Item struct {
	Name        string `json:"name"`
	UnitAmount  Money  `json:"unit_amount"`
	Tax         *Money `json:"tax,omitempty"`
	Quantity    string `json:"quantity"`
	Description string `json:"description,omitempty"`
	SKU         string `json:"sku,omitempty"`
	Category    string `json:"category,omitempty"`
}

// Payee identifies the merchant receiving the money.
type Payee struct {
	EmailAddress string `json:"email_address,omitempty"`
	MerchantID   string `json:"merchant_id,omitempty"`
}

// ShippingDetail is where and how a purchase unit is shipped.
type ShippingDetail struct {
	Type    string           `json:"type,omitempty"`
	Name    *Name            `json:"name,omitempty"`
	Address *Address         `json:"address,omitempty"`
	Options []ShippingOption `json:"options,omitempty"`
}

// ShippingOption is one shipping method offered in PayPal's own UI.
type ShippingOption struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	Type     string `json:"type,omitempty"`
	Selected bool   `json:"selected"`
	Amount   *Money `json:"amount,omitempty"`
}

// Name is a person's name; shipping uses FullName, the payer GivenName and
// Surname.
type Name struct {
	FullName  string `json:"full_name,omitempty"`
	GivenName string `json:"given_name,omitempty"`
	Surname   string `json:"surname,omitempty"`
}

// Address is PayPal's postal address (admin_area_2 is the city,
// admin_area_1 the state or province).
type Address struct {
	AddressLine1 string `json:"address_line_1,omitempty"`
	AddressLine2 string `json:"address_line_2,omitempty"`
	AdminArea2   string `json:"admin_area_2,omitempty"`
	AdminArea1   string `json:"admin_area_1,omitempty"`
	PostalCode   string `json:"postal_code,omitempty"`
	CountryCode  string `json:"country_code"`
}

// Payer is the buyer, known after approval.
type Payer struct {
	Name         *Name    `json:"name,omitempty"`
	EmailAddress string   `json:"email_address,omitempty"`
	PayerID      string   `json:"payer_id,omitempty"`
	Address      *Address `json:"address,omitempty"`
}

// Link is a HATEOAS link of an API answer.
type Link struct {
	Href   string `json:"href"`
	Rel    string `json:"rel"`
	Method string `json:"method,omitempty"`
}

// PaymentSource says how the buyer pays; only the PayPal wallet is modelled.
type PaymentSource struct {
	PayPal *PayPalSource `json:"paypal,omitempty"`
}

// PayPalSource is the PayPal wallet payment source: the experience context
// on create, the buyer's account after approval.
type PayPalSource struct {
	ExperienceContext *ExperienceContext `json:"experience_context,omitempty"`
	EmailAddress      string             `json:"email_address,omitempty"`
	AccountID         string             `json:"account_id,omitempty"`
	AccountStatus     string             `json:"account_status,omitempty"`
	Name              *Name              `json:"name,omitempty"`
	Address           *Address           `json:"address,omitempty"`
}

// ExperienceContext sets the buyer's approval experience: where to go back
// to after approval or cancel, what the button says, shipping preference.
type ExperienceContext struct {
	UserAction         string `json:"user_action,omitempty"`
	ShippingPreference string `json:"shipping_preference,omitempty"`
	ReturnURL          string `json:"return_url,omitempty"`
	CancelURL          string `json:"cancel_url,omitempty"`
	BrandName          string `json:"brand_name,omitempty"`
	Locale             string `json:"locale,omitempty"`
	LandingPage        string `json:"landing_page,omitempty"`
}

// Payments lists what happened to a purchase unit's money.
type Payments struct {
	Captures       []Capture         `json:"captures,omitempty"`
	Authorizations []json.RawMessage `json:"authorizations,omitempty"`
	Refunds        []Refund          `json:"refunds,omitempty"`
}

// Capture is one capture of money. Status is COMPLETED, PENDING (see
// StatusDetails.Reason), DECLINED, FAILED, REFUNDED or PARTIALLY_REFUNDED.
type Capture struct {
	ID                        string                     `json:"id"`
	Status                    string                     `json:"status"`
	StatusDetails             *StatusDetails             `json:"status_details,omitempty"`
	Amount                    *Money                     `json:"amount,omitempty"`
	FinalCapture              bool                       `json:"final_capture"`
	SellerProtection          *SellerProtection          `json:"seller_protection,omitempty"`
	SellerReceivableBreakdown *SellerReceivableBreakdown `json:"seller_receivable_breakdown,omitempty"`
	InvoiceID                 string                     `json:"invoice_id,omitempty"`
	CustomID                  string                     `json:"custom_id,omitempty"`
	SupplementaryData         *SupplementaryData         `json:"supplementary_data,omitempty"`
	CreateTime                string                     `json:"create_time,omitempty"`
	UpdateTime                string                     `json:"update_time,omitempty"`
	Links                     []Link                     `json:"links,omitempty"`
}

// Refund is a refund of a capture (Payments v2). Status is COMPLETED,
// PENDING (see StatusDetails), CANCELLED or FAILED.
type Refund struct {
	ID                string             `json:"id"`
	Status            string             `json:"status"`
	StatusDetails     *StatusDetails     `json:"status_details,omitempty"`
	Amount            *Money             `json:"amount,omitempty"`
	InvoiceID         string             `json:"invoice_id,omitempty"`
	CustomID          string             `json:"custom_id,omitempty"`
	NoteToPayer       string             `json:"note_to_payer,omitempty"`
	SupplementaryData *SupplementaryData `json:"supplementary_data,omitempty"`
	CreateTime        string             `json:"create_time,omitempty"`
	UpdateTime        string             `json:"update_time,omitempty"`
	Links             []Link             `json:"links,omitempty"`

	// Replayed is true when the refund POST was answered 200 instead of
	// 201: PayPal replayed the first refund for the same PayPal-Request-Id.
	Replayed bool `json:"-"`
}

// RefundRequest is the body of a capture's refund: no Amount refunds what
// is left of the capture. NoteToPayer is shown to the buyer (at most 255
// characters).
type RefundRequest struct {
	Amount      *Money `json:"amount,omitempty"`
	InvoiceID   string `json:"invoice_id,omitempty"`
	NoteToPayer string `json:"note_to_payer,omitempty"`
}

// StatusDetails gives the reason of a PENDING or DECLINED capture.
type StatusDetails struct {
	Reason string `json:"reason,omitempty"`
}

// SellerProtection is PayPal's seller protection verdict for a capture.
type SellerProtection struct {
	Status            string   `json:"status,omitempty"`
	DisputeCategories []string `json:"dispute_categories,omitempty"`
}

// SellerReceivableBreakdown is the gross, fee and net of a capture.
type SellerReceivableBreakdown struct {
	GrossAmount *Money `json:"gross_amount,omitempty"`
	PayPalFee   *Money `json:"paypal_fee,omitempty"`
	NetAmount   *Money `json:"net_amount,omitempty"`
}

// SupplementaryData links a capture or refund to its order.
type SupplementaryData struct {
	RelatedIDs RelatedIDs `json:"related_ids"`
}

// RelatedIDs are the ids a payment resource belongs to.
type RelatedIDs struct {
	OrderID         string `json:"order_id,omitempty"`
	AuthorizationID string `json:"authorization_id,omitempty"`
	CaptureID       string `json:"capture_id,omitempty"`
}

// PatchOp is one JSON Patch operation for PATCH /v2/checkout/orders/{id}.
type PatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
	From  string `json:"from,omitempty"`
}

// PurchaseUnitPath addresses a field of the purchase unit with the given
// reference id (PayPal's default reference id is "default"):
// PurchaseUnitPath("default", "amount") is
// "/purchase_units/@reference_id=='default'/amount".
func PurchaseUnitPath(referenceID, field string) string {
	if referenceID == "" {
		referenceID = "default"
	}
	p := "/purchase_units/@reference_id=='" + referenceID + "'"
	if field != "" {
		p += "/" + strings.TrimPrefix(field, "/")
	}
	return p
}

// ReplaceOps returns the patch that puts a purchase unit's final amount,
// items, shipping name and address, custom_id and invoice_id on an order
// before capture (the plugin's pattern: PATCH, then capture).
func ReplaceOps(pu PurchaseUnit) []PatchOp {
	ref := pu.ReferenceID
	var ops []PatchOp
	if pu.Amount != nil {
		ops = append(ops, PatchOp{Op: "replace", Path: PurchaseUnitPath(ref, "amount"), Value: pu.Amount})
	}
	if len(pu.Items) > 0 {
		ops = append(ops, PatchOp{Op: "replace", Path: PurchaseUnitPath(ref, "items"), Value: pu.Items})
	}
	if pu.Shipping != nil && pu.Shipping.Name != nil {
		ops = append(ops, PatchOp{Op: "replace", Path: PurchaseUnitPath(ref, "shipping/name"), Value: pu.Shipping.Name})
	}
	if pu.Shipping != nil && pu.Shipping.Address != nil {
		ops = append(ops, PatchOp{Op: "replace", Path: PurchaseUnitPath(ref, "shipping/address"), Value: pu.Shipping.Address})
	}
	if pu.CustomID != "" {
		ops = append(ops, PatchOp{Op: "replace", Path: PurchaseUnitPath(ref, "custom_id"), Value: pu.CustomID})
	}
	if pu.InvoiceID != "" {
		ops = append(ops, PatchOp{Op: "replace", Path: PurchaseUnitPath(ref, "invoice_id"), Value: pu.InvoiceID})
	}
	return ops
}
