/** The empty-cart state shared by the cart and checkout pages: WooCommerce's notice and its "Return to shop" link. */
export function CartEmpty() {
  return (
    <>
      <p className="cart-empty woocommerce-info">Your cart is currently empty.</p>
      <p className="return-to-shop">
        <a className="button wc-backward" href="/shop/">
          Return to shop
        </a>
      </p>
    </>
  );
}
