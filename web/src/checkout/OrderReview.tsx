import type { CurrencyBlock, ShippingPackage, StoreCart } from '../types';
import { decodeEntities, formatPrice } from '../lib/format';
import { LineSummary } from '../ui/LineItem';
import { CouponRows } from '../cart/CouponForm';
import { ColumnHeads } from '../ui/ColumnHeads';

function Amount({ minor, currency }: { minor: string | number | null | undefined; currency: CurrencyBlock }) {
  return (
    <span className="woocommerce-Price-amount amount">
      <bdi>{formatPrice(minor ?? '0', currency)}</bdi>
    </span>
  );
}

export const NO_SHIPPING_MESSAGE =
  'There are no shipping options available. Please ensure that your address has been entered correctly, or contact us if you need any help.';

function rateInputId(pkg: number, rateId: string): string {
  return `shipping_method_${pkg}_${rateId.replace(/[^a-zA-Z0-9_-]/g, '')}`;
}

export function RateLabel({ name, price, currency }: { name: string; price: string; currency: CurrencyBlock }) {
  const free = !price || /^0+$/.test(price);
  return (
    <>
      {decodeEntities(name)}
      {!free && (
        <>
          : <Amount minor={price} currency={currency} />
        </>
      )}
    </>
  );
}

function ShippingRow({
  pkg,
  index,
  count,
  onSelect,
}: {
  pkg: ShippingPackage;
  index: number;
  count: number;
  onSelect: (pkg: number, rateId: string) => void;
}) {
  const title = count > 1 ? decodeEntities(pkg.name) || `Shipping ${index + 1}` : 'Shipping';
  const rates = pkg.shipping_rates || [];
  const name = `shipping_method[${pkg.package_id}]`;
  let body;
  if (rates.length === 0) {
    body = <p className="woocommerce-shipping-note">{NO_SHIPPING_MESSAGE}</p>;
  } else if (rates.length === 1) {
    const r = rates[0];
    body = (
      <p className="woocommerce-shipping-method-single">
        <input type="hidden" name={name} id={rateInputId(pkg.package_id, r.rate_id)} value={r.rate_id} />
        <RateLabel name={r.name} price={r.price} currency={r} />
      </p>
    );
  } else {
    body = (
      <fieldset className="shipping-methods-fieldset">
        <legend className="screen-reader-text">{`${title} method`}</legend>
        <ul className="woocommerce-shipping-methods" id={index === 0 ? 'shipping_method' : undefined}>
          {rates.map((r) => {
            const id = rateInputId(pkg.package_id, r.rate_id);
            return (
              <li key={r.rate_id}>
                <input
                  type="radio"
                  name={name}
                  id={id}
                  value={r.rate_id}
                  className="shipping_method"
                  checked={r.selected}
                  onChange={() => onSelect(pkg.package_id, r.rate_id)}
                />
                <label htmlFor={id}>
                  <RateLabel name={r.name} price={r.price} currency={r} />
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
    );
  }
  return (
    <tr className="woocommerce-shipping-totals shipping">
      <th scope="row">{title}</th>
      <td data-title={title}>{body}</td>
    </tr>
  );
}

/**
 * The totals' tax rows: one per tax rate (its label and amount), else one
 * "Tax" row when there is tax without lines; nothing without tax. The
 * checkout's order review and the cart page's totals share them.
 */
export function TaxRows({ totals: t }: { totals: StoreCart['totals'] }) {
  const taxLines = t.tax_lines || [];
  const totalTax = t.total_tax || '0';
  if (taxLines.length > 0)
    return (
      <>
        {taxLines.map((l, i) => (
          <tr key={`${l.name}-${i}`} className="tax-rate">
            <th scope="row">{decodeEntities(l.name)}</th>
            <td data-title={decodeEntities(l.name)}>
              <Amount minor={l.price} currency={t} />
            </td>
          </tr>
        ))}
      </>
    );
  if (!/[1-9]/.test(totalTax)) return null;
  return (
    <tr className="tax-total">
      <th scope="row">Tax</th>
      <td data-title="Tax">
        <Amount minor={totalTax} currency={t} />
      </td>
    </tr>
  );
}

/**
 * The cart page's shipping rows: each package's chosen rate (its name and
 * price), read-only — it is chosen at the checkout; nothing when the cart
 * needs no shipping.
 */
export function ChosenShippingRows({ cart }: { cart: StoreCart }) {
  const packages = cart.needs_shipping ? cart.shipping_rates || [] : [];
  return (
    <>
      {packages.map((p, i) => {
        const title = packages.length > 1 ? decodeEntities(p.name) || `Shipping ${i + 1}` : 'Shipping';
        const rates = p.shipping_rates || [];
        const r = rates.find((x) => x.selected) ?? rates[0];
        return (
          <tr key={p.package_id} className="woocommerce-shipping-totals shipping">
            <th scope="row">{title}</th>
            <td data-title={title}>{r ? <RateLabel name={r.name} price={r.price} currency={r} /> : NO_SHIPPING_MESSAGE}</td>
          </tr>
        );
      })}
    </>
  );
}

/**
 * The order review table (WooCommerce's woocommerce-checkout-review-order-table):
 * lines, subtotal, shipping choices per package (radios named
 * shipping_method[<package id>]), taxes and the total, from the Store API cart.
 */
export function OrderReview({
  cart,
  onSelectRate,
  onRemoveCoupon = () => undefined,
  removeNonce,
}: {
  cart: StoreCart;
  onSelectRate: (pkg: number, rateId: string) => void;
  /** Removes an applied coupon (its row's link). */
  onRemoveCoupon?: (code: string) => void;
  /** The session's _wpnonce for the remove links without scripts. */
  removeNonce?: string;
}) {
  const t = cart.totals;
  const packages = cart.needs_shipping ? cart.shipping_rates || [] : [];
  return (
    <table className="shop_table woocommerce-checkout-review-order-table">
      <caption className="screen-reader-text">Your order</caption>
      <ColumnHeads columns={[{ label: 'Product', className: 'product-name' }, { label: 'Subtotal', className: 'product-total' }]} />
      <tbody>
        {cart.items.map((it) => (
          <tr key={it.key} className="cart_item">
            <td className="product-name">
              <LineSummary name={it.name} quantity={it.quantity} variation={it.variation} />
            </td>
            <td className="product-total">
              <Amount minor={it.totals.line_subtotal} currency={it.totals} />
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className="cart-subtotal">
          <th scope="row">Subtotal</th>
          <td>
            <Amount minor={t.total_items} currency={t} />
          </td>
        </tr>
        <CouponRows coupons={cart.coupons} currency={t} nonce={removeNonce} onRemove={onRemoveCoupon} />
        {packages.map((p, i) => (
          <ShippingRow key={p.package_id} pkg={p} index={i} count={packages.length} onSelect={onSelectRate} />
        ))}
        <TaxRows totals={t} />
        <tr className="order-total">
          <th scope="row">Total</th>
          <td>
            <strong>
              <Amount minor={t.total_price} currency={t} />
            </strong>
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
