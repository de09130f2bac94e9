// The page components the browser loads on demand. This file is what the
// server bundle, the type checker and the unit tests import: every page
// statically, so the server render is complete and synchronous. The browser
// build swaps it for pages.client.ts (an alias in vite.config.ts), where each
// is a React.lazy chunk: every page type downloads its own code and no
// other's (a product page never downloads the checkout's, the account
// pages' or the home carousel's; the cart never downloads the product
// page's). What stays in the first script is the frame every page has: the
// layout (header, menus, mini-cart, footer) and what it imports. The entry
// loads the page's chunk (preloadPage) before it hydrates, so the page
// hydrates in the same pass as its layout. Their CSS stays in the first
// stylesheet (styles.ts): the server-rendered page is styled before its
// chunk arrives.
//
// Keep the two files' exports identical (pages.test.tsx checks).
export { HomePage } from '../home/HomePage';
export { ListingPage } from '../listing/ListingPage';
export { ProductPage } from '../product/ProductPage';
export { QuickViewContent } from '../quickview/QuickViewContent';
export { CartPage } from '../cart/CartPage';
export { CheckoutPage } from '../checkout/CheckoutPage';
export { OrderReceivedPage } from '../order/OrderReceivedPage';
export { AccountPage } from '../account/AccountPage';
export { SecurityPage } from '../account/SecurityPage';
export { LostPasswordPage } from '../account/LostPasswordPage';
export { VerifyEmailPage } from '../account/VerifyEmailPage';
export { LoginPage } from '../account/login/LoginPage';
export { LogoutConfirmPage } from '../account/login/LogoutConfirmPage';
export { ReviewErrorPage } from '../product/ReviewErrorPage';
export { ContactPage } from '../contact/ContactPage';
export { ContentPage } from '../content/ContentPage';
export { WishlistPage } from '../wishlist/WishlistPage';

/** Every page is here already: nothing to load. */
export function preloadPage(_page: string | undefined): Promise<void> {
  return Promise.resolve();
}
