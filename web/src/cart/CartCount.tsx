/**
 * The header cart badge (fragment span.header-cart-count): the number of
 * items and, once the cart is known, its subtotal, with a spoken form for
 * screen readers. Pages are cached for every visitor, so the browser may
 * swap in the visitor's count before hydration: the texts may differ from
 * the server's 0 (the elements are always there, so the structure matches,
 * and hydration writes the browser's render of the texts).
 */
export function CartCount({ count, total = '' }: { count: number; total?: string }) {
  const spoken = `(${count} ${count === 1 ? 'item' : 'items'}${total ? `, ${total}` : ''})`;
  return (
    <span className="header-cart-count">
      <span className="cart-count count" aria-hidden="true">
        {count}
      </span>
      <span className="header-cart-total" aria-hidden="true">
        {total}
      </span>
      <span className="screen-reader-text">
        {spoken}
      </span>
    </span>
  );
}
