import { useEffect, useRef, useState } from 'react';
import './wallet.css';

/**
 * The wallet's "PayPal" and "Pay Later" buttons on the product page and the
 * cart page (spec sections 1 and 5; never in the mini cart). A press fetches
 * the session's wallet nonces (GET ppc-cart-script-params: the product page
 * is cached, so it carries none), on the product page replaces the cart with
 * the product as chosen in the page's form (ppc-change-cart), creates the
 * order (ppc-create-order) and follows the approval URL: a redirect flow,
 * no PayPal SDK. Amounts are never sent: the server prices everything.
 * Shown only after hydration, and only when the shop has the wallet: on
 * mount a GET of ppc-cart-script-params answers 200 JSON (without the wallet
 * the endpoint is unknown: 400). Its body is not read then; the nonces are
 * fetched again when a button is pressed, so they are always the session's
 * current ones.
 */

/** Navigation, behind an object so tests can watch it. */
export const walletNav = {
  go(url: string) {
    window.location.assign(url);
  },
};

export type WalletContext = 'product' | 'cart';
type Funding = 'paypal' | 'paylater';

const GENERIC = 'Something went wrong. Please try again or choose another payment source.';

interface Envelope {
  success?: boolean;
  data?: { message?: string; errors?: unknown[]; approve_url?: string; nonces?: Record<string, string> } | null;
}

async function ajax(endpoint: string, body?: Record<string, unknown>): Promise<Envelope> {
  try {
    const res = await fetch(`/?wc-ajax=${endpoint}`, {
      method: body ? 'POST' : 'GET',
      credentials: 'same-origin',
      headers: body ? { 'Content-Type': 'application/json', Accept: 'application/json' } : { Accept: 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json().catch(() => null)) as Envelope | null;
    return json && typeof json === 'object' ? json : { success: false };
  } catch {
    return { success: false };
  }
}

async function nonces(): Promise<Record<string, string> | null> {
  const r = await ajax('ppc-cart-script-params');
  return r.success && r.data?.nonces ? r.data.nonces : null;
}

function message(r: Envelope): string {
  const errs = (r.data?.errors || []).filter((e): e is string => typeof e === 'string' && e !== '');
  if (errs.length) return errs.join(' ');
  return r.data?.message || GENERIC;
}

/** What the product page's form has chosen: quantity and variation attributes. */
export function chosenProduct(productId: number, root: ParentNode = document) {
  const form = root.querySelector<HTMLFormElement>('form.cart');
  const qty = form?.querySelector<HTMLInputElement>('input[name="quantity"]')?.value || '1';
  const variations: { name: string; value: string }[] = [];
  form?.querySelectorAll<HTMLSelectElement>('select[name^="attribute_"]').forEach((s) => {
    variations.push({ name: s.name, value: s.value });
  });
  return { id: productId, quantity: qty, variations };
}

export function ExpressWallet({ context, productId, enabled }: { context: WalletContext; productId?: number; enabled: boolean }) {
  const [mounted, setMounted] = useState(false);
  const [busy, setBusy] = useState<Funding | null>(null);
  const [error, setError] = useState('');
  const running = useRef(false);
  // The buttons are in the server's HTML when the shop has the wallet on
  // (settings.wallet in the page data), so hydration moves nothing (CLS).
  // They need scripts: disabled until the app runs, and hidden by the
  // stylesheet on a page without scripts (html without "js"). No request
  // is made until a button is pressed.
  useEffect(() => setMounted(true), []);
  if (!enabled) return null;

  const pay = async (funding: Funding) => {
    if (running.current) return;
    running.current = true;
    setBusy(funding);
    setError('');
    const fail = (text: string) => {
      setError(text);
      setBusy(null);
      running.current = false;
    };
    let n = await nonces();
    if (!n) return fail(GENERIC);
    if (context === 'product' && productId) {
      const product = chosenProduct(productId);
      if (product.variations.some((v) => v.value === '')) return fail('Please select some product options before paying with PayPal.');
      const c = await ajax('ppc-change-cart', { nonce: n['ppc-change-cart'], products: [product] });
      if (!c.success) return fail(message(c));
      n = await nonces(); // the cart change may have started the session
      if (!n) return fail(GENERIC);
    }
    const r = await ajax('ppc-create-order', {
      nonce: n['ppc-create-order'],
      context,
      payment_method: 'ppcp-gateway',
      funding_source: funding,
    });
    if (r.success && r.data?.approve_url) {
      walletNav.go(r.data.approve_url);
      return;
    }
    fail(message(r));
  };

  const button = (f: Funding, label: string) => (
    <button
      type="button"
      className={`express-wallet__button express-wallet__button--${f}`}
      disabled={!mounted}
      aria-disabled={busy !== null}
      aria-busy={busy === f}
      onClick={() => void pay(f)}
    >
      {busy === f ? `${label}…` : label}
    </button>
  );

  return (
    <div className="express-wallet" role="group" aria-label="Pay with a wallet">
      {button('paypal', 'PayPal')}
      {button('paylater', 'Pay Later')}
      <p className="express-wallet__error" role="alert">
        {error}
      </p>
    </div>
  );
}
