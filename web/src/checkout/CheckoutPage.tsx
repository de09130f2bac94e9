import { useCallback, useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import type { Address, CheckoutPage as CheckoutPageData, StoreCart } from '../types';
import { decodeEntities, formatPrice } from '../lib/format';
import { useHydrated } from '../listing/hydrated';
import { Html } from '../ui/Html';
import { PrivacyText } from '../ui/PrivacyText';
import { AttributionInputs } from '../attribution/AttributionInputs';
import { currentAttribution } from '../attribution/attribution';
import { AddressFields } from './AddressFields';
import { CreateAccount, ToggleCheckbox } from './CreateAccount';
import { OrderReview } from './OrderReview';
import { CouponForm } from '../cart/CouponForm';
import { PaymentMethods } from './PaymentMethods';
import { TermsDialog } from './TermsDialog';
import { WalletButtons, type FundingSource } from './WalletButtons';
import { Notices, revealNotices, type Notice } from './Notices';
import { NonceBox, browser, storePost, walletPost } from './api';
import { Attempt, isDefinitive } from './attempt';
import { mapStoreErrors } from './errors';
import { hasOldCurrency, readSwitch, switchBody } from './currency-switch';
import { useAfterPress } from './after-press';
import { addressFields, findCountry, validateCheckout, validateField, type AddressKey, type AddressKind, type FieldDef } from './fields';
import { CartEmpty } from '../cart/CartEmpty';
import './checkout.css';
import { PageContainer } from '../ui/PageContainer';

/** The review refresh waits this long after the last address change (ms). */
export const REVIEW_DEBOUNCE_MS = 500;
/** Spec section 8: the wallet's generic failure text. */
export const WALLET_GENERIC_ERROR = 'Something went wrong. Please try again or choose another payment source.';
export const ORDER_FAILED = 'The order could not be placed. Please try again.';
export const NETWORK_FAILED = 'The order could not be placed: the shop could not be reached. Please check your connection and try again.';
export const REVIEW_FAILED = 'The order review could not be updated.';

/** The Store API checkout answer (the fields read here). */
interface CheckoutResult {
  order_id: number;
  status: string;
  order_key: string;
  payment_result?: {
    payment_status: 'success' | 'failure' | 'pending' | 'error';
    payment_details: { key: string; value: string }[];
    redirect_url: string;
  };
}

/** An address with every field empty. */
export const EMPTY_ADDRESS: Address = {
  first_name: '',
  last_name: '',
  company: '',
  address_1: '',
  address_2: '',
  city: '',
  state: '',
  postcode: '',
  country: '',
  phone: '',
};

function address(a: Partial<Address> | undefined, withEmail: boolean): Address {
  const out: Address = { ...EMPTY_ADDRESS };
  for (const k of Object.keys(EMPTY_ADDRESS) as (keyof Address)[]) out[k] = String(a?.[k] ?? '');
  if (withEmail) out.email = String(a?.email ?? '');
  return out;
}

const LOCATION_KEYS: AddressKey[] = ['country', 'state', 'postcode', 'city'];

function location(a: Address) {
  return { country: a.country, state: a.state, postcode: a.postcode, city: a.city };
}

function without(errs: Record<string, string>, key: string): Record<string, string> {
  if (!(key in errs)) return errs;
  const out = { ...errs };
  delete out[key];
  return out;
}

/** The location the server computed the page's cart for. */
function initialLocationKey(data: CheckoutPageData): string {
  const c = data.checkout;
  const ship = c.ship_to_different_address && data.cart.needs_shipping ? c.shipping_address : c.billing_address;
  return JSON.stringify({ billing_address: location(address(c.billing_address, false)), shipping_address: location(address(ship, false)) });
}

function noticesFrom(fields: Record<string, string>, extra: string[] = []): Notice[] {
  const out: Notice[] = extra.map((text) => ({ text }));
  for (const [field, text] of Object.entries(fields)) {
    if (!out.some((n) => n.text === text)) out.push({ text, field });
  }
  return out;
}

function walletErrors(data: { errors?: unknown[] } | null | undefined): string[] {
  return (data?.errors || []).filter((e): e is string => typeof e === 'string' && e.trim() !== '').map((e) => decodeEntities(e));
}

/**
 * The checkout page (/checkout/). A classic form (WooCommerce's field names,
 * posted to /checkout/ without scripts); with scripts: fields follow the
 * country, inline validation with the spec's messages and a notice area that
 * takes focus, an order review refreshed through the Store API as the address
 * or the shipping method changes, the terms in a lightbox, the wallet's
 * buttons, and "Place order" through the Store API checkout with one
 * Idempotency-Key per attempt.
 */
export function CheckoutPage({ data }: { data: CheckoutPageData }) {
  const hydrated = useHydrated();
  const [cart, setCart] = useState<StoreCart>(data.cart);
  const [billing, setBilling] = useState<Address>(() => address(data.checkout.billing_address, true));
  const [shipping, setShipping] = useState<Address>(() => address(data.checkout.shipping_address, false));
  const [shipTo, setShipTo] = useState<boolean>(!!data.checkout.ship_to_different_address);
  const [note, setNote] = useState(data.checkout.customer_note || '');
  const [method, setMethod] = useState<string>(
    () => (data.payment_methods.some((m) => m.id === data.checkout.payment_method) ? data.checkout.payment_method : data.payment_methods[0]?.id) || '',
  );
  const [terms, setTerms] = useState(false);
  // "Create an account?" (visitors only); the password stays in a ref, never in page data.
  const [createAccount, setCreateAccount] = useState<boolean>(!!data.checkout.create_account);
  const accountPassword = useRef('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>(() => ({ ...(data.errors?.fields ?? {}) }));
  const [notices, setNotices] = useState<Notice[]>(() => (data.errors ? noticesFrom(data.errors.fields ?? {}, data.errors.notices ?? []) : []));
  const [noticeSeq, setNoticeSeq] = useState(data.errors ? 1 : 0);
  const [refreshing, setRefreshing] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  // Why the order is in the shop's base currency for the chosen method ('' when it is not).
  const [currencyNotice, setCurrencyNotice] = useState('');
  const [placing, setPlacing] = useState<null | 'order' | FundingSource>(null);
  const [termsOpen, setTermsOpen] = useState(false);

  const [nonce] = useState(() => new NonceBox(data.nonce));
  const [attempt] = useState(() => new Attempt());
  const formRef = useRef<HTMLFormElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const termsLink = useRef<HTMLAnchorElement>(null);
  const busy = useRef(false);
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const inflight = useRef(0);
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef(false);
  // The location the cart was last computed for (at first: what the server rendered).
  const lastSent = useRef<string | null>(null);
  if (lastSent.current === null) lastSent.current = initialLocationKey(data);

  const needsShipping = !!cart.needs_shipping;
  const phoneRequired = data.phone_required !== false;
  const selected = data.payment_methods.find((m) => m.id === method);
  const walletChosen = hydrated && selected?.kind === 'wallet';

  // The latest values, for timers and queued calls.
  const now = useRef({ billing, shipping, shipTo, needsShipping });
  now.current = { billing, shipping, shipTo, needsShipping };

  // Notices: scroll into view now, focus after 500 ms (spec section 9).
  useEffect(() => {
    if (noticeSeq === 0 || !noticeRef.current) return;
    return revealNotices(noticeRef.current);
  }, [noticeSeq]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const showNotices = useCallback((list: Notice[]) => {
    setNotices(list);
    setNoticeSeq((n) => n + 1);
  }, []);

  /** Runs calls one after another (so each sends the nonce the previous one answered). */
  const enqueue = useCallback(<T,>(fn: () => Promise<T>): Promise<T> => {
    const p = chain.current.then(fn, fn);
    chain.current = p.catch(() => undefined);
    return p;
  }, []);

  const applyCart = useCallback((c: StoreCart) => {
    setCart(c);
    setAnnouncement(`Your order was updated. Total: ${formatPrice(c.totals.total_price, c.totals)}`);
  }, []);

  /** A cart write that refreshes the review (only the newest answer is shown). */
  const cartWrite = useCallback(
    (path: string, body: unknown) => {
      const mine = ++seq.current;
      inflight.current++;
      setRefreshing(true);
      return enqueue(async () => {
        try {
          const r = await storePost<StoreCart>(path, body, nonce);
          if (r.ok && r.body && mine === seq.current) applyCart(r.body);
          if (!r.ok) {
            if (r.error?.data?.cart && mine === seq.current) setCart(r.error.data.cart);
            setAnnouncement(r.error?.message ? decodeEntities(r.error.message) : REVIEW_FAILED);
          }
        } catch {
          setAnnouncement(REVIEW_FAILED);
        } finally {
          inflight.current--;
          if (inflight.current === 0) setRefreshing(false);
        }
      });
    },
    [enqueue, nonce, applyCart],
  );

  const customerBody = () => {
    const v = now.current;
    const ship = v.needsShipping && v.shipTo ? v.shipping : v.billing;
    return { billing_address: location(v.billing), shipping_address: location(ship) };
  };

  /** Sends the pending address change now (if any). */
  const flushRefresh = () => {
    if (!pending.current) return;
    pending.current = false;
    clearTimeout(timer.current);
    const body = customerBody();
    const key = JSON.stringify(body);
    if (key === lastSent.current) return;
    lastSent.current = key;
    void cartWrite('/cart/update-customer', body);
  };

  const scheduleRefresh = (delay = REVIEW_DEBOUNCE_MS) => {
    clearTimeout(timer.current);
    pending.current = true;
    timer.current = setTimeout(flushRefresh, delay);
  };

  // ---- field changes and inline validation ----

  const validateOne = (kind: AddressKind, def: FieldDef, value: string) => {
    const m = validateField(kind, def, value);
    setFieldErrors((cur) => {
      if ((cur[def.name] || '') === m) return cur;
      const next = { ...cur };
      if (m) next[def.name] = m;
      else delete next[def.name];
      return next;
    });
  };

  const change = (kind: AddressKind) => (key: AddressKey, value: string) => {
    const set = kind === 'billing' ? setBilling : setShipping;
    const cur = kind === 'billing' ? billing : shipping;
    const next: Address = { ...cur, [key]: value };
    if (key === 'country' && value !== cur.country) next.state = '';
    set(next);
    if (kind === 'billing') now.current.billing = next;
    else now.current.shipping = next;
    // A field showing a message is checked again as it is corrected.
    const defs = addressFields(kind, findCountry(data.countries, next.country), { phoneRequired });
    const def = defs.find((d) => d.key === key);
    if (def && fieldErrors[def.name]) validateOne(kind, def, value);
    if (key === 'country') {
      // The rules changed: drop messages of fields that are no longer required or shown.
      setFieldErrors((errs) => {
        const out = { ...errs };
        for (const d of defs) if (out[d.name] && !validateField(kind, d, String(next[d.key] ?? ''))) delete out[d.name];
        return out;
      });
    }
    // Shipping and taxes follow the billing address, and the shipping one when it is used.
    if (LOCATION_KEYS.includes(key) && (kind === 'billing' || now.current.shipTo)) scheduleRefresh();
  };

  // A blur by a press shows its message once the press has clicked (after-press.ts).
  const afterPress = useAfterPress();
  const blur = (kind: AddressKind) => (def: FieldDef) => {
    const v = kind === 'billing' ? billing : shipping;
    const value = String(v[def.key] ?? '');
    afterPress(() => validateOne(kind, def, value));
  };
  // What the billing and the shipping address fields are given alike.
  const addressProps = (kind: AddressKind) => ({
    kind,
    value: kind === 'billing' ? billing : shipping,
    countries: data.countries,
    errors: fieldErrors,
    onChange: change(kind),
    onBlur: blur(kind),
  });

  const toggleShipTo = (on: boolean) => {
    setShipTo(on);
    now.current.shipTo = on;
    if (!on) {
      setFieldErrors((errs) => Object.fromEntries(Object.entries(errs).filter(([k]) => !k.startsWith('shipping_'))));
    }
    scheduleRefresh(0);
  };

  /**
   * The checkout's currency for a chosen method (currency-switch.ts): the
   * answer is the cart; it replaces the review when the currency changed
   * (every amount in the new currency) and, for the wallet, always (spec
   * section 7: choosing the wallet refreshes the checkout).
   */
  const settleCurrency = (id: string) => {
    const wallet = data.payment_methods.find((m) => m.id === id)?.kind === 'wallet';
    const mine = ++seq.current;
    inflight.current++;
    setRefreshing(true);
    return enqueue(async () => {
      let applied = false;
      try {
        const r = await storePost<StoreCart>('/cart/extensions', switchBody(id), nonce);
        const sw = r.ok ? readSwitch(r.body) : null;
        if (r.ok && r.body && sw) {
          setCurrencyNotice(sw.notice);
          // The newest cart either way; announced when it was refreshed.
          if (mine === seq.current) {
            if (sw.update || wallet) applyCart(r.body);
            else setCart(r.body);
          }
          applied = true;
        }
      } catch {
        // The shop could not be reached: the review keeps its currency.
      } finally {
        inflight.current--;
        if (inflight.current === 0) setRefreshing(false);
      }
      if (!applied && wallet) {
        lastSent.current = '';
        scheduleRefresh(0);
      }
    });
  };

  const chooseMethod = (id: string) => {
    setMethod(id);
    setFieldErrors((errs) => without(errs, 'payment_method'));
    flushRefresh(); // a pending address change goes first: the answer is priced for it
    void settleCurrency(id);
  };

  // A checkout opened with the wallet chosen, or after the currency was
  // switched for it, settles its currency for the chosen method at once.
  useEffect(() => {
    const chosen = data.payment_methods.find((m) => m.id === method);
    if (chosen && (chosen.kind === 'wallet' || hasOldCurrency(document.cookie))) void settleCurrency(chosen.id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const selectRate = (pkg: number, rateId: string) => {
    setCart((c) => ({
      ...c,
      shipping_rates: (c.shipping_rates || []).map((p) =>
        p.package_id === pkg ? { ...p, shipping_rates: p.shipping_rates.map((r) => ({ ...r, selected: r.rate_id === rateId })) } : p,
      ),
    }));
    flushRefresh();
    void cartWrite('/cart/select-shipping-rate', { package_id: pkg, rate_id: rateId });
  };

  // ---- submit ----

  /** Client checks; false (and the messages shown) when something is missing. */
  const check = (): boolean => {
    const errs = validateCheckout(
      {
        billing,
        shipping,
        shipToDifferent: shipTo,
        needsShipping,
        paymentMethod: method,
        termsRequired: !!data.terms,
        termsAccepted: terms,
        phoneRequired,
      },
      data.countries,
    );
    if (data.can_create_account && createAccount && !accountPassword.current) errs.account_password = 'Please enter an account password.';
    setFieldErrors(errs);
    if (Object.keys(errs).length === 0) return true;
    showNotices(noticesFrom(errs));
    return false;
  };

  const finish = () => {
    busy.current = false;
    setPlacing(null);
  };

  const placeOrder = async () => {
    if (busy.current) return; // a double click: the running attempt goes on
    if (!check()) return;
    busy.current = true;
    setPlacing('order');
    setNotices([]);
    const key = attempt.current();
    flushRefresh();
    const attribution = currentAttribution(data.settings?.attribution, data.settings?.consent);
    const ship = needsShipping && shipTo ? shipping : billing;
    const { email: _e, ...shipAddress } = ship;
    void _e;
    const payload = {
      billing_address: billing,
      shipping_address: shipAddress,
      customer_note: note,
      payment_method: method,
      payment_data: [] as { key: string; value: string }[],
      extensions: {
        ...(attribution ? { 'woocommerce/order-attribution': attribution } : {}),
        // The currency the review shows: the server refuses an order in another one.
        'woo-multi-currency': { currency: cart.totals.currency_code },
      },
      ...(data.can_create_account && createAccount ? { create_account: true, customer_password: accountPassword.current } : {}),
    };
    await enqueue(async () => {
      let r;
      try {
        r = await storePost<CheckoutResult>('/checkout', payload, nonce, { 'Idempotency-Key': key });
      } catch {
        showNotices([{ text: NETWORK_FAILED }]); // the same key is sent again on the next press
        finish();
        return;
      }
      if (isDefinitive(r.status)) attempt.settle();
      const pr = r.body?.payment_result;
      if (r.ok && pr && pr.payment_status !== 'failure' && pr.payment_status !== 'error' && pr.redirect_url) {
        browser.go(pr.redirect_url); // stays busy while the browser leaves
        return;
      }
      if (r.ok) {
        attempt.settle();
        const msg = pr?.payment_details?.find((d) => d.key === 'message' || d.key === 'error')?.value;
        showNotices([{ text: msg ? decodeEntities(msg) : ORDER_FAILED }]);
      } else {
        if (r.error?.data?.cart) setCart(r.error.data.cart);
        const m = mapStoreErrors(r.error, ORDER_FAILED);
        const code = r.error?.code || '';
        if (code.startsWith('registration-error-') && m.notices[0]) {
          // Tie an account refusal to its field (the email, or the password).
          m.fields[code === 'registration-error-email-exists' ? 'billing_email' : 'account_password'] = m.notices[0];
        }
        setFieldErrors(m.fields);
        showNotices(noticesFrom(m.fields, m.notices));
      }
      finish();
    });
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (walletChosen) return; // the wallet's buttons pay; Enter in a field does not place an order
    void placeOrder();
  };

  const payWithWallet = async (funding: FundingSource) => {
    if (busy.current) return;
    if (!check()) return;
    const nonces = data.wallet?.nonces ?? {};
    const form = formRef.current;
    if (!form) return;
    busy.current = true;
    setPlacing(funding);
    setNotices([]);
    flushRefresh();
    await chain.current;
    const formEncoded = new URLSearchParams(new FormData(form) as unknown as Record<string, string>).toString();
    const v = await walletPost('ppc-validate-checkout', { nonce: nonces['ppc-validate-checkout'] ?? '', form_encoded: formEncoded });
    if (!v.success) {
      const errs = walletErrors(v.data);
      showNotices((errs.length ? errs : [WALLET_GENERIC_ERROR]).map((text) => ({ text })));
      if (v.data?.refresh) {
        lastSent.current = '';
        scheduleRefresh(0);
      }
      finish();
      return;
    }
    const c = await walletPost('ppc-create-order', {
      nonce: nonces['ppc-create-order'] ?? '',
      context: 'checkout',
      payment_method: selected?.id || 'ppcp-gateway',
      funding_source: funding,
      form_encoded: formEncoded,
    });
    if (c.success && c.data?.approve_url) {
      browser.go(c.data.approve_url);
      return;
    }
    const errs = walletErrors(c.data);
    showNotices((errs.length ? errs : [WALLET_GENERIC_ERROR]).map((text) => ({ text })));
    finish();
  };

  const openTerms = (e: MouseEvent<HTMLAnchorElement>) => {
    if (!hydrated) return;
    e.preventDefault();
    setTermsOpen(true);
  };

  /** Applies a coupon code: "" when applied, else the refusal (shown at the coupon field). */
  const applyCoupon = (code: string): Promise<string> =>
    enqueue(async () => {
      const r = await storePost<StoreCart>('/cart/apply-coupon', { code }, nonce);
      if (r.ok && r.body) {
        seq.current++;
        applyCart(r.body);
        return '';
      }
      if (r.error?.data?.cart) setCart(r.error.data.cart);
      return decodeEntities(r.error?.message || 'The coupon could not be applied. Please try again.');
    });

  const removeCoupon = (code: string) => {
    void cartWrite('/cart/remove-coupon', { code }).then(() => document.getElementById('checkout_coupon_code')?.focus());
  };

  if (cart.items.length === 0) {
    return (
      <PageContainer className="checkout-page">
        <h1>Checkout</h1>
        <CartEmpty />
      </PageContainer>
    );
  }

  const termsError = fieldErrors.terms || '';
  const showShippingFields = !hydrated || shipTo;

  return (
    <PageContainer className="checkout-page">
      <h1>Checkout</h1>
      <CouponForm onApply={applyCoupon} busy={!!placing} idPrefix="checkout_coupon_code" />
      <form
        ref={formRef}
        name="checkout"
        method="post"
        action="/checkout/"
        className={'checkout woocommerce-checkout' + (placing ? ' processing' : '')}
        noValidate={hydrated}
        onSubmit={onSubmit}
        aria-busy={placing ? true : undefined}
      >
        {/* A field's notice goes once the field is corrected. */}
        <Notices ref={noticeRef} notices={notices.filter((n) => !n.field || fieldErrors[n.field])} />
        <div className="checkout-layout">
          <div className="col2-set checkout-customer" id="customer_details">
            <section className="woocommerce-billing-fields" aria-labelledby="billing-heading">
              <h2 id="billing-heading">Billing details</h2>
              <AddressFields {...addressProps('billing')} phoneRequired={phoneRequired} />
              {data.can_create_account && (
                <CreateAccount
                  checked={createAccount}
                  hydrated={hydrated}
                  error={fieldErrors.account_password || ''}
                  onToggle={(on) => {
                    setCreateAccount(on);
                    if (!on) setFieldErrors((errs) => without(errs, 'account_password'));
                  }}
                  onPasswordInput={(v) => {
                    accountPassword.current = v;
                    if (v) setFieldErrors((errs) => without(errs, 'account_password'));
                  }}
                />
              )}
            </section>
            {needsShipping && (
              <section className="woocommerce-shipping-fields" aria-labelledby="ship-to-different-address">
                <h2 id="ship-to-different-address" className="ship-to-different-address">
                  <ToggleCheckbox id="ship-to-different-address-checkbox" name="ship_to_different_address" checked={shipTo} controls="shipping-address-fields" onToggle={toggleShipTo}>
                    Ship to a different address?
                  </ToggleCheckbox>
                </h2>
                <div className="shipping_address" id="shipping-address-fields" hidden={!showShippingFields}>
                  {showShippingFields && (
                    <AddressFields {...addressProps('shipping')} nativeRequired={hydrated} />
                  )}
                </div>
              </section>
            )}
            <section className="woocommerce-additional-fields" aria-labelledby="additional-heading">
              <h2 id="additional-heading">Additional information</h2>
              <p className="form-row notes" id="order_comments_field">
                <label htmlFor="order_comments">
                  Order notes <span className="optional">(optional)</span>
                </label>
                <span className="woocommerce-input-wrapper">
                  <textarea
                    name="order_comments"
                    id="order_comments"
                    className="input-text"
                    rows={3}
                    placeholder="Notes about your order, e.g. special notes for delivery."
                    value={note}
                    onChange={(e) => setNote(e.target.value)}
                  />
                </span>
              </p>
            </section>
          </div>

          <section className="checkout-review" aria-labelledby="order_review_heading">
            <h2 id="order_review_heading">Your order</h2>
            <div id="order_review" className={'woocommerce-checkout-review-order' + (refreshing ? ' is-blocked' : '')} aria-busy={refreshing || undefined}>
              <div className="review-table-wrap">
                <OrderReview cart={cart} onSelectRate={selectRate} onRemoveCoupon={removeCoupon} />
                {refreshing && (
                  <div className="blockUI blockOverlay" aria-hidden="true">
                    <span>Please wait...</span>
                  </div>
                )}
              </div>
              <div className="screen-reader-text" role="status" aria-live="polite" aria-atomic="true">
                {announcement}
              </div>

              <div id="payment" className="woocommerce-checkout-payment">
                <div className={'checkout-currency-notice' + (currencyNotice ? ' woocommerce-info' : '')} role="status" aria-live="polite">
                  {currencyNotice}
                </div>
                <PaymentMethods methods={data.payment_methods} value={method} onChange={chooseMethod} error={fieldErrors.payment_method || ''} />
                <div className="form-row place-order">
                  <PrivacyText pages={data.pages} purpose="to process your order, to support your visit to this shop" />
                  {data.terms && (
                    <div className="woocommerce-terms-and-conditions-wrapper">
                      <div id="checkout-terms" className="woocommerce-terms-and-conditions checkout-terms-inline">
                        <Html html={data.terms.html} className="terms-content" />
                      </div>
                      <p className={'form-row validate-required' + (termsError ? ' woocommerce-invalid' : '')} id="terms_field">
                        <input
                          type="checkbox"
                          className="woocommerce-form__input woocommerce-form__input-checkbox input-checkbox"
                          name="terms"
                          id="terms"
                          checked={terms}
                          required
                          aria-invalid={termsError ? true : undefined}
                          aria-describedby={termsError ? 'terms-error' : undefined}
                          onChange={(e) => {
                            setTerms(e.target.checked);
                            if (e.target.checked) setFieldErrors((errs) => without(errs, 'terms'));
                          }}
                        />{' '}
                        <label htmlFor="terms" className="woocommerce-form__label woocommerce-form__label-for-checkbox checkbox">
                          I have read and agree to the website terms and conditions{' '}
                          <span className="required" aria-hidden="true">
                            *
                          </span>
                        </label>{' '}
                        <a
                          ref={termsLink}
                          href="#checkout-terms"
                          className="woocommerce-terms-and-conditions-link"
                          onClick={openTerms}
                          aria-haspopup={hydrated ? 'dialog' : undefined}
                        >
                          Read the terms and conditions
                        </a>
                        <input type="hidden" name="terms-field" value="1" />
                      </p>
                      {termsError && (
                        <p className="checkout-inline-error-message" id="terms-error">
                          {termsError}
                        </p>
                      )}
                    </div>
                  )}
                  <AttributionInputs settings={data.settings?.attribution} consent={data.settings?.consent} />
                  <input type="hidden" name="woocommerce-process-checkout-nonce" value={data.process_nonce} />
                  <input type="hidden" name="_wp_http_referer" value="/checkout/" />
                  <input type="hidden" name="wmc_currency" value={cart.totals.currency_code} />
                  {walletChosen ? (
                    <WalletButtons busy={placing && placing !== 'order' ? placing : null} onPay={(f) => void payWithWallet(f)} />
                  ) : (
                    <button
                      type="submit"
                      className="button alt"
                      name="woocommerce_checkout_place_order"
                      id="place_order"
                      value="Place order"
                      disabled={placing === 'order'}
                      aria-busy={placing === 'order' ? true : undefined}
                    >
                      {placing === 'order' ? 'Placing order…' : 'Place order'}
                    </button>
                  )}
                </div>
              </div>
            </div>
          </section>
        </div>
      </form>
      {termsOpen && data.terms && (
        <TermsDialog title={data.terms.title} html={data.terms.html} opener={termsLink.current} onClosed={() => setTermsOpen(false)} />
      )}
    </PageContainer>
  );
}
