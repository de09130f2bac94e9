import type { StoreCart } from '../types';
import { decodeEntities, formatPrice } from '../lib/format';
import { LineVariation } from '../ui/LineItem';

function Amount({ value }: { value: string }) {
  return (
    <span className="woocommerce-Price-amount amount">
      <bdi>{value}</bdi>
    </span>
  );
}

/**
 * The link that removes a line without scripts: the server refuses it
 * without the session's _wpnonce (a cross-site link must not empty a cart).
 */
export function removeHref(key: string, nonce?: string): string {
  const href = `/cart/?remove_item=${encodeURIComponent(key)}`;
  return nonce ? `${href}&_wpnonce=${encodeURIComponent(nonce)}` : href;
}

/**
 * The mini cart (WooCommerce's div.widget_shopping_cart_content): the
 * fragment the server sends after every cart change, and the content of the
 * header cart dropdown.
 */
export function MiniCart({ cart, removeNonce }: { cart: StoreCart; removeNonce?: string }) {
  if (cart.items.length === 0) {
    return (
      <div className="widget_shopping_cart_content">
        <p className="woocommerce-mini-cart__empty-message">No products in the cart.</p>
      </div>
    );
  }
  return (
    <div className="widget_shopping_cart_content">
      <ul className="woocommerce-mini-cart cart_list product_list_widget">
        {cart.items.map((it) => {
          const name = decodeEntities(it.name);
          const img = it.images[0];
          return (
            <li key={it.key} className="woocommerce-mini-cart-item mini_cart_item">
              <a
                href={removeHref(it.key, removeNonce)}
                className="remove remove_from_cart_button"
                data-cart_item_key={it.key}
                data-product_id={it.id}
                aria-label={`Remove ${name} from cart`}
              >
                ×
              </a>
              <a href={it.permalink} className="mini-cart-item__link">
                {img && (
                  <img
                    src={img.thumbnail || img.src}
                    width={64}
                    height={64}
                    alt=""
                    loading="lazy"
                    decoding="async"
                    className="attachment-woocommerce_thumbnail"
                  />
                )}
                {name}
              </a>
              <LineVariation variation={it.variation} />
              <span className="quantity">
                {`${it.quantity} × `}
                <Amount value={formatPrice(it.prices.price, it.prices)} />
              </span>
            </li>
          );
        })}
      </ul>
      <p className="woocommerce-mini-cart__total total">
        <strong>Subtotal:</strong> <Amount value={formatPrice(cart.totals.total_items, cart.totals)} />
      </p>
      <p className="woocommerce-mini-cart__buttons buttons">
        <a href="/cart/" className="button wc-forward">
          View cart
        </a>
        <a href="/checkout/" className="button checkout wc-forward">
          Checkout
        </a>
      </p>
    </div>
  );
}
