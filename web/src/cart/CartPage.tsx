import { useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import type { CartItem, CartPage as CartPageData, StoreCart } from '../types';
import { decodeEntities, formatPrice } from '../lib/format';
import { LazyImage } from '../ui/LazyImage';
import { restFetch } from '../lib/rest';
import { QuantityField } from '../product/QuantityField';
import { LineVariation } from '../ui/LineItem';
import { CartEmpty } from './CartEmpty';
import { removeHref } from './MiniCart';
import { applyFragments, storeFragments, wcAjax } from './add-to-cart';
import './cart.css';
import { ExpressWallet } from '../wallet/ExpressWallet';
import { onCurrencySwitch } from '../currency/store';
import { CouponForm, CouponRows } from './CouponForm';
import { ChosenShippingRows, TaxRows } from '../checkout/OrderReview';
import { ProductGrid } from '../listing/ProductGrid';
import { FreeShippingProgress } from './FreeShippingProgress';
import { PageContainer } from '../ui/PageContainer';
import { ColumnHeads } from '../ui/ColumnHeads';

const API = '/wp-json/wc/store/v1/cart';

function Amount({ value }: { value: string }) {
  return (
    <span className="woocommerce-Price-amount amount">
      <bdi>{value}</bdi>
    </span>
  );
}

interface Notice {
  kind: 'message' | 'error';
  text: string;
  undo?: CartItem;
}

/** A Store API cart write; answers the cart (or the error's data.cart) and the next nonce. */
async function cartWrite(path: string, body: unknown, nonce: string) {
  const res = await restFetch(`${API}/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Nonce: nonce },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as (StoreCart & { message?: string; data?: { cart?: StoreCart } }) | null;
  const next = res.headers.get('Nonce') || nonce;
  if (!res.ok) return { cart: json?.data?.cart ?? null, nonce: next, error: decodeEntities(json?.message || 'The cart could not be updated.') };
  return { cart: json, nonce: next, error: '' };
}

/** The header count and mini cart follow the cart page's changes. */
async function refreshFragments() {
  try {
    const a = await wcAjax('get_refreshed_fragments', new URLSearchParams({ time: String(Date.now()) }));
    if (a?.fragments) {
      applyFragments(a.fragments);
      storeFragments(a);
    }
  } catch {
    // the header keeps its count
  }
}

/**
 * The cart page (spec sections 4 and 9): lines with image, name, options,
 * unit price, quantity and line total; "Update cart" sends the changed
 * quantities (Store API update-item), the remove links remove a line
 * (remove-item) with an Undo that adds it again. Without scripts the remove
 * links are /cart/?remove_item=KEY&_wpnonce=…, which the server answers.
 * The coupon form applies a code (apply-coupon; its refusal is shown at the
 * field) and each coupon's totals row has a remove link (remove-coupon);
 * both work without scripts too (nojs_cart.go).
 * The totals open with the free-shipping progress line (the server's,
 * FreeShippingProgress.tsx), and "You may also like" lists the cart's
 * cross-sells as the listing's cards: their add buttons go through the
 * page's add-to-cart queue, after which the page reads the cart again, so
 * the new line, the totals and the progress line follow, and a card whose
 * product is now in the cart leaves the list.
 */
export function CartPage({ data }: { data: CartPageData }) {
  const [cart, setCart] = useState<StoreCart>(data.cart);
  const [nonce, setNonce] = useState(data.nonce);
  const [notices, setNotices] = useState<Notice[]>(() =>
    (data.notices ?? []).map((n) => ({ kind: n.kind === 'error' ? 'error' : 'message', text: decodeEntities(n.text) })),
  );
  const setNotice = (n: Notice | null) => setNotices(n ? [n] : []);
  const [busy, setBusy] = useState(false);
  const crossRef = useRef<HTMLElement>(null);
  const totalsTitle = useRef<HTMLHeadingElement>(null);
  const refocus = useRef(false);
  const inCart = new Set(cart.items.map((it) => it.id));
  const crossSells = (data.cross_sells ?? []).filter((p) => !inCart.has(p.id));

  // Another tab changed the cart (cart-sync.ts), or the shopper switched
  // currency (the cart is priced in it): show the cart as the server has it now.
  useEffect(() => {
    const reload = (clearNotices: boolean) =>
      restFetch(API)
        .then((r) => (r.ok ? (r.json() as Promise<StoreCart>) : null))
        .then((c) => {
          if (c && Array.isArray(c.items)) {
            setCart(c);
            if (clearNotices) setNotices([]);
          }
        })
        .catch(() => undefined);
    const onSynced = () => void reload(true);
    // A card's add button on this page (a cross-sell): the cart gained a
    // line. If the card leaves the list with the focus in it, the focus
    // goes to the list's heading (or the totals' when the list is empty).
    const onAdded = (e: Event) => {
      const button = (e as CustomEvent<{ button?: Element }>).detail?.button;
      refocus.current = !!button && !!crossRef.current?.contains(button);
      void reload(true);
    };
    document.addEventListener('vitrine:cart-synced', onSynced);
    document.addEventListener('vitrine:added-to-cart', onAdded);
    const stopFollowing = onCurrencySwitch(() => reload(false));
    return () => {
      document.removeEventListener('vitrine:cart-synced', onSynced);
      document.removeEventListener('vitrine:added-to-cart', onAdded);
      stopFollowing();
    };
  }, []);

  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    (crossRef.current?.querySelector<HTMLElement>('h2') ?? totalsTitle.current)?.focus();
  }, [cart]);

  const run = async (steps: { path: string; body: unknown }[], done?: (ok: boolean) => Notice | null) => {
    setBusy(true);
    let n = nonce;
    let error = '';
    let latest: StoreCart | null = null;
    for (const s of steps) {
      const r = await cartWrite(s.path, s.body, n).catch(() => ({ cart: null, nonce: n, error: 'The cart could not be updated.' }));
      n = r.nonce;
      if (r.cart) latest = r.cart;
      if (r.error) {
        error = r.error;
        break;
      }
    }
    setNonce(n);
    if (latest) setCart(latest);
    setNotice(error ? { kind: 'error', text: error } : (done?.(true) ?? null));
    setBusy(false);
    void refreshFragments();
  };

  const update = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const steps: { path: string; body: unknown }[] = [];
    for (const it of cart.items) {
      const el = form.querySelector<HTMLInputElement>(`input[name="cart[${it.key}][qty]"]`);
      if (!el) continue;
      const q = Number(el.value);
      if (el.value !== '' && q !== it.quantity) {
        steps.push(q === 0 ? { path: 'remove-item', body: { key: it.key } } : { path: 'update-item', body: { key: it.key, quantity: q } });
      }
    }
    if (steps.length === 0) return;
    void run(steps, () => ({ kind: 'message', text: 'Cart updated.' }));
  };

  const remove = (e: MouseEvent, it: CartItem) => {
    e.preventDefault();
    const name = decodeEntities(it.name);
    void run([{ path: 'remove-item', body: { key: it.key } }], () => ({ kind: 'message', text: `\u201c${name}\u201d removed.`, undo: it }));
  };

  const applyCoupon = async (code: string): Promise<string> => {
    setBusy(true);
    const r = await cartWrite('apply-coupon', { code }, nonce).catch(() => ({
      cart: null,
      nonce,
      error: 'The coupon could not be applied. Please try again.',
    }));
    setNonce(r.nonce);
    if (r.cart) setCart(r.cart);
    setNotice(r.error ? null : { kind: 'message', text: 'Coupon code applied successfully.' });
    setBusy(false);
    if (!r.error) void refreshFragments();
    return r.error;
  };

  const removeCoupon = (code: string) => {
    void run([{ path: 'remove-coupon', body: { code } }], () => ({ kind: 'message', text: 'Coupon has been removed.' })).then(() =>
      // The link is gone: the coupon field is where the shopper continues.
      document.getElementById('coupon_code')?.focus(),
    );
  };

  const undo = (e: MouseEvent, it: CartItem) => {
    e.preventDefault();
    void run([{ path: 'add-item', body: { id: it.id, quantity: it.quantity, variation: it.variation } }]);
  };

  const noticeEl = (
    <div className="woocommerce-notices-wrapper" role="status" aria-live="polite">
      {notices.map((notice, i) => (
        <div
          key={i}
          className={notice.kind === 'error' ? 'woocommerce-error' : 'woocommerce-message'}
          role={notice.kind === 'error' ? 'alert' : undefined}
        >
          {notice.text}
          {notice.undo && (
            <>
              {' '}
              <a href="#" className="restore-item" onClick={(e) => undo(e, notice.undo!)}>
                Undo?
              </a>
            </>
          )}
        </div>
      ))}
    </div>
  );

  if (cart.items.length === 0) {
    return (
      <PageContainer className="cart-page">
        <h1>Cart</h1>
        {noticeEl}
        <CartEmpty />
      </PageContainer>
    );
  }

  return (
    <PageContainer className="cart-page">
      <h1>Cart</h1>
      {noticeEl}
      <form className="woocommerce-cart-form" action="/cart/" method="post" onSubmit={update} aria-busy={busy || undefined}>
        <table className="shop_table cart woocommerce-cart-form__contents">
          <caption className="screen-reader-text">Products in your cart</caption>
          <ColumnHeads
            scoped={false}
            columns={[
              { label: 'Remove item', className: 'product-remove', hidden: true },
              { label: 'Thumbnail image', className: 'product-thumbnail', hidden: true },
              { label: 'Product', className: 'product-name' },
              { label: 'Price', className: 'product-price' },
              { label: 'Quantity', className: 'product-quantity' },
              { label: 'Subtotal', className: 'product-subtotal' },
            ]}
          />
          <tbody>
            {cart.items.map((it, i) => {
              const name = decodeEntities(it.name);
              const img = it.images[0];
              const lim = it.quantity_limits;
              return (
                <tr key={it.key} className="woocommerce-cart-form__cart-item cart_item">
                  <td className="product-remove">
                    <a
                      href={removeHref(it.key, data.remove_nonce)}
                      className="remove"
                      aria-label={`Remove ${name} from cart`}
                      data-product_id={it.id}
                      onClick={(e) => remove(e, it)}
                    >
                      ×
                    </a>
                  </td>
                  <td className="product-thumbnail">
                    {img && <LazyImage src={img.thumbnail || img.src} width={64} height={64} alt="" eager={i < 4} />}
                  </td>
                  <td className="product-name" data-title="Product">
                    <a href={it.permalink}>{name}</a>
                    <LineVariation variation={it.variation} />
                  </td>
                  <td className="product-price" data-title="Price">
                    <Amount value={formatPrice(it.prices.price, it.prices)} />
                  </td>
                  <td className="product-quantity" data-title="Quantity">
                    {lim && !lim.editable ? (
                      <>
                        {it.quantity}
                        <input type="hidden" name={`cart[${it.key}][qty]`} value={it.quantity} />
                      </>
                    ) : (
                      <QuantityField
                        key={`${it.key}-${it.quantity}`}
                        name={`cart[${it.key}][qty]`}
                        label={`${name} quantity`}
                        productName={name}
                        defaultValue={it.quantity}
                        min={0}
                        max={lim && lim.maximum > 0 ? lim.maximum : undefined}
                        step={lim?.multiple_of || 1}
                      />
                    )}
                  </td>
                  <td className="product-subtotal" data-title="Subtotal">
                    <Amount value={formatPrice(it.totals.line_total, it.totals)} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <p className="actions">
          <button type="submit" className="button" name="update_cart" value="Update cart" disabled={busy}>
            Update cart
          </button>
        </p>
      </form>
      <CouponForm onApply={applyCoupon} busy={busy} />
      <div className="cart-collaterals">
        <div className="cart_totals">
          <h2 ref={totalsTitle} tabIndex={-1}>
            Cart totals
          </h2>
          <FreeShippingProgress cart={cart} />
          <table className="shop_table">
            <tbody>
              <tr className="cart-subtotal">
                <th scope="row">Subtotal</th>
                <td data-title="Subtotal">
                  <Amount value={formatPrice(cart.totals.total_items, cart.totals)} />
                </td>
              </tr>
              <CouponRows coupons={cart.coupons} currency={cart.totals} nonce={data.remove_nonce} onRemove={removeCoupon} />
              <ChosenShippingRows cart={cart} />
              <TaxRows totals={cart.totals} />
              <tr className="order-total">
                <th scope="row">Total</th>
                <td data-title="Total">
                  <strong>
                    <Amount value={formatPrice(cart.totals.total_price, cart.totals)} />
                  </strong>
                </td>
              </tr>
            </tbody>
          </table>
          <p className="wc-proceed-to-checkout">
            <a href="/checkout/" className="checkout-button button alt wc-forward">
              Proceed to checkout
            </a>
          </p>
          <ExpressWallet context="cart" enabled={!!data.settings.wallet} />
        </div>
      </div>
      {crossSells.length > 0 && (
        <section className="cross-sells products-section" aria-labelledby="cross-sells-title" ref={crossRef}>
          <h2 id="cross-sells-title" tabIndex={-1}>
            You may also like…
          </h2>
          <ProductGrid products={crossSells} headingLevel={3} eagerCount={0} />
        </section>
      )}
    </PageContainer>
  );
}
