import type { CartItem } from '../types';
import { decodeEntities } from '../lib/format';

type Variation = CartItem['variation'];

/**
 * A cart or order line's chosen attributes as a description list
 * (WooCommerce's dl.variation, one div.variation-row per attribute), or
 * nothing for a line without attributes. Names and values arrive
 * entity-encoded from the server.
 */
export function LineVariation({ variation }: { variation: Variation }) {
  if (variation.length === 0) return null;
  return (
    <dl className="variation">
      {variation.map((v) => (
        <div key={v.attribute} className="variation-row">
          <dt>{`${decodeEntities(v.attribute)}:`}</dt>
          <dd>{decodeEntities(v.value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The product cell of a line in the order review and order details tables:
 * name, "× quantity" in strong.product-quantity, then the attributes.
 */
export function LineSummary({ name, quantity, variation }: { name: string; quantity: number; variation: Variation }) {
  return (
    <>
      {decodeEntities(name)} <strong className="product-quantity">{`\u00d7\u00a0${quantity}`}</strong>
      <LineVariation variation={variation} />
    </>
  );
}
