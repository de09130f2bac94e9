// The page components the browser loads on demand. This file is what the
// server bundle, the type checker and the unit tests import: every page
// statically, so the server render is complete and synchronous. The browser
// build swaps it for pages.client.ts (an alias in vite.config.ts), where each
// is a React.lazy chunk: a product or listing page never downloads the code
// of the checkout, the account pages or the home carousel. App renders them
// inside <Suspense>, so hydration keeps the server's HTML until the chunk is
// there. Their CSS stays in the first stylesheet (styles.ts): the
// server-rendered page is styled before its chunk arrives.
//
// Keep the two files' exports identical (pages.test.tsx checks).
export { HomePage } from '../home/HomePage';
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
