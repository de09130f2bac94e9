/**
 * The header cart badge (fragment span.header-cart-count): the number of
 * items, with a spoken form for screen readers. Pages are cached for every
 * visitor, so the browser may swap in the visitor's count before hydration:
 * the text may differ from the server's 0.
 */
export function CartCount({ count }: { count: number }) {
  return (
    <span className="header-cart-count">
      <span className="cart-count count" aria-hidden="true" suppressHydrationWarning>
        {count}
      </span>
      <span className="screen-reader-text" suppressHydrationWarning>{`(${count} ${count === 1 ? 'item' : 'items'})`}</span>
    </span>
  );
}
