package pages

// The footer's shop details (every page): the contact details and social
// profiles staff set in the admin (internal/settings), the payment methods
// the checkout offers, the legal pages (the published privacy policy and
// terms, among Base.Pages) and the © year, read from the loader's clock
// when the page is rendered (Base.Year).

// ShopDetails are the shop's details the footer shows.
type ShopDetails struct {
	// AddressLines is the shop's postal address, a line each; empty: none.
	AddressLines []string `json:"address_lines"`
	Email        string   `json:"email,omitempty"`
	Phone        string   `json:"phone,omitempty"`
	// Social are the profiles the owner set, in the footer's order.
	Social []SocialLink `json:"social"`
	// Payments are the methods the checkout offers, as payment method ids
	// (bacs, cod, paypal), for the footer's icons.
	Payments []string `json:"payments"`
}

// SocialLink is one of the shop's social profiles.
type SocialLink struct {
	Network string `json:"network"` // facebook, instagram, x, pinterest, youtube, tiktok
	Label   string `json:"label"`   // the network's name, as links say it
	URL     string `json:"url"`
}
