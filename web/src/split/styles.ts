// The stylesheets of the pages in pages.client.ts's chunks, imported here
// (by entry-client.tsx) so they stay in the first stylesheet: a
// server-rendered checkout, account or home page is styled at first paint,
// before its chunk loads. A page split off later adds its CSS here.
import '../home/home.css';
import '../cart/cart.css';
import '../checkout/checkout.css';
import '../order/order.css';
import '../account/account.css';
import '../account/account-links.css';
import '../account/security.css';
import '../account/login/login.css';
import '../contact/contact.css';
