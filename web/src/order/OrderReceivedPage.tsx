import type { Address, CurrencyBlock, OrderReceivedPage as OrderReceivedData } from '../types';
import { decodeEntities, formatDate, formatPrice } from '../lib/format';
import { LineSummary } from '../ui/LineItem';
import './order.css';

type Order = NonNullable<OrderReceivedData['order']>;

/** Amounts may come as integer minor units or as text already formatted by the server. */
export function money(v: string, c: CurrencyBlock): string {
  const s = String(v ?? '').trim();
  return /^-?\d+$/.test(s) ? formatPrice(s, c) : decodeEntities(s);
}

export function AddressLines({ a, withContact }: { a: Address; withContact: boolean }) {
  const lines = [
    [a.first_name, a.last_name].filter(Boolean).join(' '),
    a.company,
    a.address_1,
    a.address_2,
    [a.postcode, a.city].filter(Boolean).join(' '),
    a.state,
    a.country,
  ]
    .map((l) => decodeEntities(String(l || '')).trim())
    .filter(Boolean);
  return (
    <address>
      {lines.map((l, i) => (
        <span key={i} className="address-line">
          {l}
        </span>
      ))}
      {withContact && a.phone && <span className="woocommerce-customer-details--phone address-line">{decodeEntities(a.phone)}</span>}
      {withContact && a.email && <span className="woocommerce-customer-details--email address-line">{decodeEntities(a.email)}</span>}
    </address>
  );
}

export function hasAddress(a: Address | undefined): a is Address {
  return !!a && !!(a.address_1 || a.city || a.first_name);
}

function Received({ order }: { order: Order }) {
  const c = order.currency;
  const total = order.totals.find((t) => /^total/i.test(t.label.replace(/[:\s]+$/, '')));
  return (
    <div className="woocommerce-order">
      {order.test_order && (
        <p className="woocommerce-notice woocommerce-info order-test-notice" role="note">
          <strong>{order.test_notice || 'Test order: paid in a sandbox, no money was taken.'}</strong>
        </p>
      )}
      <p className="woocommerce-notice woocommerce-notice--success woocommerce-thankyou-order-received" role="status">
        Thank you. Your order has been received.
      </p>
      <ul className="woocommerce-order-overview woocommerce-thankyou-order-details order_details">
        <li className="woocommerce-order-overview__order order">
          Order number: <strong>{order.number}</strong>
        </li>
        <li className="woocommerce-order-overview__date date">
          Date: <strong>{formatDate(order.date_created)}</strong>
        </li>
        {order.billing_address?.email && (
          <li className="woocommerce-order-overview__email email">
            Email: <strong>{decodeEntities(order.billing_address.email)}</strong>
          </li>
        )}
        {total && (
          <li className="woocommerce-order-overview__total total">
            Total: <strong>{money(total.value, c)}</strong>
          </li>
        )}
        {order.payment_method_title && (
          <li className="woocommerce-order-overview__payment-method method">
            Payment method: <strong>{decodeEntities(order.payment_method_title)}</strong>
          </li>
        )}
      </ul>

      {order.instructions && (
        <section className="order-instructions" aria-labelledby="order-instructions-heading">
          <h2 id="order-instructions-heading">{order.payment_method === 'bacs' ? 'Our bank details' : 'Payment instructions'}</h2>
          {/* The payment settings' text and account details: plain text, never markup. */}
          <div className="order-instructions__text payment-text">{order.instructions}</div>
        </section>
      )}

      <OrderDetails order={order} />
    </div>
  );
}

/** An order's lines, totals and addresses: the order-received page and the account's order page. */
export function OrderDetails({ order }: { order: Order }) {
  const c = order.currency;
  return (
    <>
        <section className="woocommerce-order-details" aria-labelledby="order-details-heading">
          <h2 id="order-details-heading" className="woocommerce-order-details__title">
            Order details
          </h2>
          <table className="woocommerce-table woocommerce-table--order-details shop_table order_details">
            <thead>
              <tr>
                <th scope="col" className="woocommerce-table__product-name product-name">
                  Product
                </th>
                <th scope="col" className="woocommerce-table__product-table product-total">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((l, i) => (
                <tr key={i} className="woocommerce-table__line-item order_item">
                  <td className="woocommerce-table__product-name product-name">
                    <LineSummary name={l.name} quantity={l.quantity} variation={l.variation} />
                  </td>
                  <td className="woocommerce-table__product-total product-total">{money(l.total, c)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              {order.totals.map((t, i) => (
                <tr key={i}>
                  <th scope="row">{decodeEntities(t.label).replace(/:\s*$/, '')}</th>
                  <td>{money(t.value, c)}</td>
                </tr>
              ))}
              {order.customer_note && (
                <tr>
                  <th scope="row">Note</th>
                  <td className="order-note">{decodeEntities(order.customer_note)}</td>
                </tr>
              )}
            </tfoot>
          </table>
        </section>

        <section className="woocommerce-customer-details" aria-labelledby="customer-details-heading">
          <h2 id="customer-details-heading" className="screen-reader-text">
            Addresses
          </h2>
          <div className="order-addresses">
            <div className="woocommerce-column woocommerce-column--billing-address">
              <h3 className="woocommerce-column__title">Billing address</h3>
              <AddressLines a={order.billing_address} withContact />
            </div>
            {hasAddress(order.shipping_address) && (
              <div className="woocommerce-column woocommerce-column--shipping-address">
                <h3 className="woocommerce-column__title">Shipping address</h3>
                <AddressLines a={order.shipping_address} withContact={false} />
              </div>
            )}
          </div>
        </section>
    </>
  );
}

/**
 * The order-received page (/checkout/order-received/{id}/?key=...): the
 * thank-you notice, the overview, the payment instructions (bank details for
 * a bank transfer), the order details and the addresses. Without the right
 * key the server sends order: null and nothing of the order is shown.
 */
export function OrderReceivedPage({ data }: { data: OrderReceivedData }) {
  return (
    <div className="container order-received-page">
      <h1>Order received</h1>
      {data.order ? (
        <Received order={data.order} />
      ) : (
        <>
          <p className="woocommerce-notice woocommerce-info" role="status">
            This order cannot be shown. Open the order from the link in your confirmation email: the page needs the order's key.
          </p>
          <p>
            <a className="button" href="/shop/">
              Return to shop
            </a>
          </p>
        </>
      )}
    </div>
  );
}
