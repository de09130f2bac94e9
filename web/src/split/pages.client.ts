// The browser build's pages.ts (see there): each page a chunk of its own.
import { createElement, lazy, type ComponentType } from 'react';

/**
 * A page loaded on demand. entry-client loads the page being hydrated
 * before it hydrates (preloadPage), so that page renders at once, in one
 * pass with the layout; a page rendered later (the quick view's content)
 * suspends until its chunk is in.
 */
type Chunk<P> = ComponentType<P> & { preload: () => Promise<void> };

function chunk<P extends object>(load: () => Promise<ComponentType<P>>): Chunk<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then((c) => {
      loaded = c;
    }));
  const Lazy = lazy(() => preload().then(() => ({ default: loaded as ComponentType<P> })));
  const Page = (props: P) => (loaded ? createElement(loaded, props) : createElement(Lazy as ComponentType<P>, props));
  return Object.assign(Page, { preload });
}

export const HomePage = chunk(() => import('../home/HomePage').then((m) => m.HomePage));
export const ListingPage = chunk(() => import('../listing/ListingPage').then((m) => m.ListingPage));
export const ProductPage = chunk(() => import('../product/ProductPage').then((m) => m.ProductPage));
export const QuickViewContent = chunk(() => import('../quickview/QuickViewContent').then((m) => m.QuickViewContent));
export const CartPage = chunk(() => import('../cart/CartPage').then((m) => m.CartPage));
export const CheckoutPage = chunk(() => import('../checkout/CheckoutPage').then((m) => m.CheckoutPage));
export const OrderReceivedPage = chunk(() => import('../order/OrderReceivedPage').then((m) => m.OrderReceivedPage));
export const AccountPage = chunk(() => import('../account/AccountPage').then((m) => m.AccountPage));
export const SecurityPage = chunk(() => import('../account/SecurityPage').then((m) => m.SecurityPage));
export const LostPasswordPage = chunk(() => import('../account/LostPasswordPage').then((m) => m.LostPasswordPage));
export const VerifyEmailPage = chunk(() => import('../account/VerifyEmailPage').then((m) => m.VerifyEmailPage));
export const LoginPage = chunk(() => import('../account/login/LoginPage').then((m) => m.LoginPage));
export const LogoutConfirmPage = chunk(() => import('../account/login/LogoutConfirmPage').then((m) => m.LogoutConfirmPage));
export const ReviewErrorPage = chunk(() => import('../product/ReviewErrorPage').then((m) => m.ReviewErrorPage));
export const ContactPage = chunk(() => import('../contact/ContactPage').then((m) => m.ContactPage));
export const ContentPage = chunk(() => import('../content/ContentPage').then((m) => m.ContentPage));
export const WishlistPage = chunk(() => import('../wishlist/WishlistPage').then((m) => m.WishlistPage));

const byPage: Record<string, { preload: () => Promise<void> }> = {
  home: HomePage,
  listing: ListingPage,
  product: ProductPage,
  quickview: QuickViewContent,
  cart: CartPage,
  checkout: CheckoutPage,
  'order-received': OrderReceivedPage,
  account: AccountPage,
  'account-security': SecurityPage,
  'account-lost-password': LostPasswordPage,
  'account-verify-email': VerifyEmailPage,
  'account-login': LoginPage,
  'account-logout': LogoutConfirmPage,
  'review-error': ReviewErrorPage,
  contact: ContactPage,
  content: ContentPage,
  wishlist: WishlistPage,
};

/** Loads the chunk of a page kind (PageData.page); resolves at once for a kind without one. */
export function preloadPage(page: string | undefined): Promise<void> {
  return byPage[page ?? '']?.preload() ?? Promise.resolve();
}
