import type { FragmentsPage } from '../types';
import { MiniCart } from './MiniCart';
import { CartCount } from './CartCount';
import { formatPrice } from '../lib/format';

/**
 * One cart fragment rendered alone (page kind "fragments"): its output is
 * exactly the element its selector names, so the server can send it as the
 * fragment's outer HTML. Selectors: internal/server/wcajax_cart.go.
 */
export function Fragment({ data }: { data: FragmentsPage }) {
  switch (data.fragment) {
    case 'cart_count':
      return (
        <CartCount
          count={data.cart.items_count}
          total={data.cart.items.length > 0 ? formatPrice(data.cart.totals.total_items, data.cart.totals) : ''}
        />
      );
    default:
      return <MiniCart cart={data.cart} removeNonce={data.remove_nonce} />;
  }
}
