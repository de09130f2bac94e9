// The browser build's pages.ts (see there): each page a lazy chunk.
import { lazy } from 'react';

export const HomePage = lazy(() => import('../home/HomePage').then((m) => ({ default: m.HomePage })));
export const ListingPage = lazy(() => import('../listing/ListingPage').then((m) => ({ default: m.ListingPage })));
export const ProductPage = lazy(() => import('../product/ProductPage').then((m) => ({ default: m.ProductPage })));
export const QuickViewContent = lazy(() =>
  import('../quickview/QuickViewContent').then((m) => ({ default: m.QuickViewContent })),
);
export const CartPage = lazy(() => import('../cart/CartPage').then((m) => ({ default: m.CartPage })));
export const CheckoutPage = lazy(() => import('../checkout/CheckoutPage').then((m) => ({ default: m.CheckoutPage })));
export const OrderReceivedPage = lazy(() =>
  import('../order/OrderReceivedPage').then((m) => ({ default: m.OrderReceivedPage })),
);
export const AccountPage = lazy(() => import('../account/AccountPage').then((m) => ({ default: m.AccountPage })));
export const SecurityPage = lazy(() => import('../account/SecurityPage').then((m) => ({ default: m.SecurityPage })));
export const LostPasswordPage = lazy(() =>
  import('../account/LostPasswordPage').then((m) => ({ default: m.LostPasswordPage })),
);
export const VerifyEmailPage = lazy(() =>
  import('../account/VerifyEmailPage').then((m) => ({ default: m.VerifyEmailPage })),
);
export const LoginPage = lazy(() => import('../account/login/LoginPage').then((m) => ({ default: m.LoginPage })));
export const LogoutConfirmPage = lazy(() =>
  import('../account/login/LogoutConfirmPage').then((m) => ({ default: m.LogoutConfirmPage })),
);
export const ReviewErrorPage = lazy(() =>
  import('../product/ReviewErrorPage').then((m) => ({ default: m.ReviewErrorPage })),
);
export const ContactPage = lazy(() => import('../contact/ContactPage').then((m) => ({ default: m.ContactPage })));
export const ContentPage = lazy(() => import('../content/ContentPage').then((m) => ({ default: m.ContentPage })));
