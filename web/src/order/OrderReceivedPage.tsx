import type { CurrencyBlock, OrderReceivedPage as OrderReceivedData } from '../types';
import { decodeEntities, formatPrice } from '../lib/format';
import { LineSummary } from '../ui/LineItem';
import './order.css';
import { PageContainer } from '../ui/PageContainer';
import { ColumnHeads } from '../ui/ColumnHeads';

type Order = NonNullable<OrderReceivedData['order']>;

/** Amounts may come as integer minor units or as text already formatted by the server. */
export function money(v: string, c: CurrencyBlock): string {
  const s = String(v ?? '').trim();
  return /^-?\d+$/.test(s) ? formatPrice(s, c) : decodeEntities(s);
}

/**
 * An address as the server's formatter wrote it (its country's order of
 * parts, state and country by name): one text line each, joined by line
 * breaks, then the phone and email on their own lines. Lines are text,
 * never markup.
 */
export function AddressLines({ lines, phone, email }: { lines: string[]; phone?: string; email?: string }) {
  const rows: { text: string; className?: string }[] = (lines ?? []).filter(Boolean).map((text) => ({ text }));
  if (phone) rows.push({ text: decodeEntities(phone), className: 'woocommerce-customer-details--phone' });
  if (email) rows.push({ text: decodeEntities(email), className: 'woocommerce-customer-details--email' });
  return (
    <address>
      {rows.map((r, i) => (
        <span key={i} className={r.className ? `${r.className} address-line` : 'address-line'}>
          {i > 0 && <br />}
          {r.text}
        </span>
      ))}
    </address>
  );
}

/** A bank transfer's accounts: a definition list each (Bank, Account name, Account number, sort code, IBAN, BIC). */
export function BankAccounts({ accounts }: { accounts: Order['bank_accounts'] }) {
  return (
    <>
      {accounts.map((a, i) => (
        <dl key={i} className="wc-bacs-bank-details order_details bacs_details">
          {a.details.map((d) => (
            <div key={d.label} className="bacs-detail">
              <dt>{d.label}</dt>
              <dd>
                <strong>{d.value}</strong>
              </dd>
            </div>
          ))}
        </dl>
      ))}
    </>
  );
}

function Received({ order }: { order: Order }) {
  const c = order.currency;
  const total = order.totals.find((t) => /^total/i.test(t.label.replace(/[:\s]+$/, '')));
  const bank = order.bank_accounts ?? [];
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
          Date:{' '}
          <strong>
            <time dateTime={order.date_created}>{order.date}</time>
          </strong>
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

      {order.instructions && order.payment_method !== 'bacs' && (
        <section className="order-instructions" aria-labelledby="order-instructions-heading">
          <h2 id="order-instructions-heading">Payment instructions</h2>
          {/* The payment settings' text: plain text, never markup. */}
          <div className="order-instructions__text payment-text">{order.instructions}</div>
        </section>
      )}
      {order.payment_method === 'bacs' && (order.instructions || bank.length > 0) && (
        <section className="order-instructions" aria-labelledby="order-instructions-heading">
          <h2 id="order-instructions-heading">Our bank details</h2>
          {/* The payment settings' text and the accounts: plain text, never markup. */}
          {order.instructions && <div className="order-instructions__text payment-text">{order.instructions}</div>}
          <BankAccounts accounts={bank} />
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
            <ColumnHeads
              columns={[
                { label: 'Product', className: 'woocommerce-table__product-name product-name' },
                { label: 'Total', className: 'woocommerce-table__product-table product-total' },
              ]}
            />
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
              <AddressLines lines={order.billing_address_lines} phone={order.billing_address?.phone} email={order.billing_address?.email} />
            </div>
            {order.shipping_address_lines?.length > 0 && (
              <div className="woocommerce-column woocommerce-column--shipping-address">
                <h3 className="woocommerce-column__title">Shipping address</h3>
                <AddressLines lines={order.shipping_address_lines} />
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
    <PageContainer className="order-received-page">
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
    </PageContainer>
  );
}
