import type { PageData } from './types';
import { Layout } from './layout/Layout';
import { Suspense } from 'react';
// The listing's and product page's stylesheets, where their pages were
// imported before they became chunks: the first stylesheet keeps its order.
import './split/page-styles';
import { NotFoundPage } from './notfound/NotFoundPage';
import { Fragment } from './cart/Fragments';
import { AttributionTracker } from './attribution/AttributionInputs';
import { PageLoader } from './ui/PageLoader';
import { PageHydrated } from './lib/page-hydration';
// Loaded on demand in the browser (split/pages.ts says how): each page type
// its own chunk.
import {
  AccountPage,
  CartPage,
  CheckoutPage,
  ContactPage,
  ContentPage,
  HomePage,
  ListingPage,
  LoginPage,
  LogoutConfirmPage,
  LostPasswordPage,
  OrderReceivedPage,
  ProductPage,
  QuickViewContent,
  ReviewErrorPage,
  SecurityPage,
  VerifyEmailPage,
  WishlistPage,
} from './split/pages';
// Its stylesheet stays in the first one, where the page was imported
// before it became a chunk (split/pages.ts).
import './content/content.css';
import { ComingSoonPage } from './frame/ComingSoonPage';

function Page({ data }: { data: PageData }) {
  switch (data.page) {
    case 'home':
      return <HomePage data={data} />;
    case 'listing':
      return <ListingPage data={data} />;
    case 'product':
      return <ProductPage data={data} />;
    case 'cart':
      return <CartPage data={data} />;
    case 'checkout':
      return <CheckoutPage data={data} />;
    case 'order-received':
      return <OrderReceivedPage data={data} />;
    case 'account':
      return <AccountPage data={data} />;
    case 'account-lost-password':
      return <LostPasswordPage data={data} />;
    case 'account-verify-email':
      return <VerifyEmailPage data={data} />;
    case 'account-login':
      return <LoginPage data={data} />;
    case 'account-logout':
      return <LogoutConfirmPage data={data} />;
    case 'account-security':
      return <SecurityPage data={data} />;
    case 'review-error':
      return <ReviewErrorPage data={data} />;
    case 'contact':
      return <ContactPage data={data} />;
    case 'content':
      return <ContentPage data={data} />;
    case 'wishlist':
      return <WishlistPage data={data} />;
    default:
      return <NotFoundPage />;
  }
}

export function App({ data }: { data: PageData }) {
  // The quick-view popup HTML (admin-ajax action=flatsome_quickview): the
  // content only, without the layout and without the dialog element.
  if (data.page === 'quickview') return <QuickViewContent data={data} />;
  // A cart fragment (wc-ajax answers): the one element, nothing around it.
  if (data.page === 'fragments') return <Fragment data={data} />;
  // Coming-soon mode: the page visitors get, without the shop's frame.
  if (data.page === 'coming-soon') return <ComingSoonPage data={data} />;
  return (
    <>
    <Layout data={data}>
      {/* The page's chunk is in before hydration (entry-client); a page rendered
          later waits here for its chunk. PageHydrated tells when the page has
          hydrated (lib/page-hydration.ts). */}
      <Suspense fallback={null}>
        <Page data={data} />
        <PageHydrated />
      </Suspense>
      <AttributionTracker settings={data.settings?.attribution} consent={data.settings?.consent} />
    </Layout>
    <PageLoader enabled={data.settings?.page_loader} />
    </>
  );
}
