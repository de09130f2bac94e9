import type { StorePrices } from '../types';
import type { ReactNode } from 'react';
import { formatPrice } from '../lib/format';
import { usePriceOverride } from '../currency/store';

function Amount({ value }: { value: string }) {
  return (
    <span className="woocommerce-Price-amount amount">
      <bdi>{value}</bdi>
    </span>
  );
}

/**
 * The multi-currency wrapper: base-currency price markup inside
 * `<span class="wmc-cache-pid" data-wmc_product_id="id">`, which the price
 * refresh fills with the price call's HTML in the shopper's currency. Once an
 * answer is known for the id, the wrapper's content is that HTML (React owns
 * no children then, so the refresh may also set innerHTML directly).
 */
export function PriceWrap({ id, children, html }: { id: number; children?: ReactNode; html?: string }) {
  const override = usePriceOverride(id);
  const content = override ?? html;
  if (content !== undefined)
    return <span className="wmc-cache-pid" data-wmc_product_id={id} dangerouslySetInnerHTML={{ __html: content }} />;
  return (
    <span className="wmc-cache-pid" data-wmc_product_id={id}>
      {children}
    </span>
  );
}

/**
 * WooCommerce-style price markup built from Store API prices (never
 * price_html). With `id` (the product's), the amounts sit in the
 * multi-currency wrapper inside the `.price` span.
 */
export function Price({ prices, className = 'price', id }: { prices: StorePrices; className?: string; id?: number }) {
  const inner = <PriceInner prices={prices} />;
  return <span className={className}>{id ? <PriceWrap id={id}>{inner}</PriceWrap> : inner}</span>;
}

function PriceInner({ prices }: { prices: StorePrices }) {
  const range = prices.price_range;
  if (range && range.min_amount !== range.max_amount) {
    const min = formatPrice(range.min_amount, prices);
    const max = formatPrice(range.max_amount, prices);
    return (
      <>
        <span aria-hidden="true">
          <Amount value={min} /> <span className="price-sep">–</span> <Amount value={max} />
        </span>
        <span className="screen-reader-text">{`Price range: ${min} through ${max}`}</span>
      </>
    );
  }
  const current = range ? range.min_amount : prices.price;
  const onSale =
    !range &&
    prices.regular_price !== '' &&
    prices.sale_price !== '' &&
    prices.regular_price !== prices.price &&
    prices.sale_price === prices.price;
  if (current === '' || current == null) return null;
  if (onSale) {
    const was = formatPrice(prices.regular_price, prices);
    const now = formatPrice(prices.price, prices);
    return (
      <>
        <del aria-hidden="true">
          <Amount value={was} />
        </del>{' '}
        <span className="screen-reader-text">{`Original price was: ${was}.`}</span>
        <ins aria-hidden="true">
          <Amount value={now} />
        </ins>
        <span className="screen-reader-text">{`Current price is: ${now}.`}</span>
      </>
    );
  }
  return <Amount value={formatPrice(current, prices)} />;
}
