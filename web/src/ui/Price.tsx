import type { StorePrices } from '../types';
import { formatPrice } from '../lib/format';

function Amount({ value }: { value: string }) {
  return (
    <span className="woocommerce-Price-amount amount">
      <bdi>{value}</bdi>
    </span>
  );
}

/** WooCommerce-style price markup built from Store API prices (never price_html). */
export function Price({ prices, className = 'price' }: { prices: StorePrices; className?: string }) {
  const range = prices.price_range;
  if (range && range.min_amount !== range.max_amount) {
    const min = formatPrice(range.min_amount, prices);
    const max = formatPrice(range.max_amount, prices);
    return (
      <span className={className}>
        <span aria-hidden="true">
          <Amount value={min} /> <span className="price-sep">–</span> <Amount value={max} />
        </span>
        <span className="screen-reader-text">{`Price range: ${min} through ${max}`}</span>
      </span>
    );
  }
  const current = range ? range.min_amount : prices.price;
  const onSale =
    !range &&
    prices.regular_price !== '' &&
    prices.sale_price !== '' &&
    prices.regular_price !== prices.price &&
    prices.sale_price === prices.price;
  if (current === '' || current == null) return <span className={className} />;
  if (onSale) {
    const was = formatPrice(prices.regular_price, prices);
    const now = formatPrice(prices.price, prices);
    return (
      <span className={className}>
        <del aria-hidden="true">
          <Amount value={was} />
        </del>{' '}
        <span className="screen-reader-text">{`Original price was: ${was}.`}</span>
        <ins aria-hidden="true">
          <Amount value={now} />
        </ins>
        <span className="screen-reader-text">{`Current price is: ${now}.`}</span>
      </span>
    );
  }
  return (
    <span className={className}>
      <Amount value={formatPrice(current, prices)} />
    </span>
  );
}
