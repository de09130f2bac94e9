package seed

import "vitrine/internal/contentpage"

// DemoPages are the demo shop's content pages: about, shipping, returns,
// terms (the terms page is also the checkout's terms lightbox) and the
// privacy policy, published. Shipping
// and returns follow the demo checkout (checkout.DefaultConfig).
func DemoPages() []contentpage.Input {
	return []contentpage.Input{
		{Slug: "about", Title: "About us", Body: `<p>Vitrine is a small clothing shop: tees, shirts, hoodies, trousers ` +
			`and the odd beanie, cut from organic cotton and wool and sewn in small runs.</p>` +
			`<h2>How we work</h2><ul><li>Few pieces, made to last and to be mended.</li>` +
			`<li>Fabrics we can trace back to the mill.</li><li>Prices that pay everyone along the way.</li></ul>` +
			`<p>This is a demonstration shop: browse, fill a cart and try the checkout as much as you like. ` +
			`No order is shipped and no money changes hands.</p>`},
		{Slug: "shipping", Title: "Shipping", Body: `<p>Orders leave our workshop within two working days.</p>` +
			`<table><thead><tr><th>Destination</th><th>Method</th><th>Cost</th></tr></thead><tbody>` +
			`<tr><td>United States</td><td>Flat rate</td><td>$5.00, free from $100.00</td></tr>` +
			`<tr><td>United States</td><td>Local pickup</td><td>Free</td></tr>` +
			`<tr><td>Europe (DE, FR, GB, NL, ES, IT)</td><td>Flat rate</td><td>$15.00</td></tr>` +
			`<tr><td>Everywhere else</td><td>International</td><td>$25.00</td></tr></tbody></table>` +
			`<p>Taxes are shown at the checkout once you enter your address. Customs duties outside the ` +
			`United States are paid by the recipient.</p>`},
		{Slug: "returns", Title: "Returns and refunds", Body: `<p>Changed your mind? Send anything back within ` +
			`<strong>30 days</strong> of delivery, unworn and with its labels, and we refund the price of the goods ` +
			`to the way you paid.</p><ol><li>Write to us through the <a href="/contact/">contact form</a> with ` +
			`your order number.</li><li>Pack the items and send them to the address we reply with.</li>` +
			`<li>We refund within five working days of receiving them.</li></ol>` +
			`<p>Faulty items are exchanged or refunded at any time, return shipping included.</p>`},
		{Slug: contentpage.TermsSlug, Title: "Terms and conditions", Body: `<p>These terms apply to orders placed ` +
			`in this shop. <strong>This is a demonstration shop:</strong> orders are not shipped, no goods are ` +
			`supplied and no money changes hands; payments go through a sandbox.</p>` +
			`<h2>Orders</h2><p>An order is an offer to buy the goods in your cart at the prices shown at the ` +
			`checkout, taxes and shipping included. The contract is made when we confirm the order by email.</p>` +
			`<h2>Prices and payment</h2><p>Prices are in the shop's currency; a price shown in another currency ` +
			`is converted for information and charged in the currency shown at the checkout.</p>` +
			`<h2>Delivery, returns and refunds</h2><p>See <a href="/shipping/">Shipping</a> and ` +
			`<a href="/returns/">Returns and refunds</a>.</p>` +
			`<h2>Your data</h2><p>We keep the details you enter to handle your order and for as long as the law ` +
			`requires; in this demonstration, for as long as the demonstration runs.</p>`},
		{Slug: contentpage.PrivacySlug, Title: "Privacy policy", Body: `<p>This demonstration shop keeps only ` +
			`what it needs to run its orders, accounts and messages, and nothing leaves it.</p>` +
			`<h2>What we keep and why</h2><ul>` +
			`<li><strong>Orders:</strong> the name, addresses, email address and phone number you enter at the ` +
			`checkout, and what you ordered, to handle the order.</li>` +
			`<li><strong>Accounts:</strong> your email address, your addresses and a hash of your password, ` +
			`until you delete the account from its details page.</li>` +
			`<li><strong>Messages:</strong> what you send with the <a href="/contact/">contact form</a>; the ` +
			`files you attach are deleted after 30 days.</li>` +
			`<li><strong>Reviews:</strong> the name and email address you give with a review.</li></ul>` +
			`<h2>Cookies</h2><p>First-party cookies only: your cart, your login, the currency you choose, a ` +
			`dismissed notice, and where your visit came from (kept with an order). Products you viewed are ` +
			`remembered in your own browser and never sent to us.</p>` +
			`<h2>Payments</h2><p>Payments go through a sandbox: no card or account details reach us.</p>` +
			`<h2>Your rights</h2><p>Ask for a copy of your data, its correction or its deletion through the ` +
			`<a href="/contact/">contact form</a>.</p>`},
	}
}
