import type { AccountPage, AccountOrderView } from '../types';
import { decodeEntities } from '../lib/format';
import { OrderDetails } from '../order/OrderReceivedPage';
import { ColumnHeads } from '../ui/ColumnHeads';

type Orders = NonNullable<AccountPage['orders']>;

/** WooCommerce's columns of the orders table, each with its header classes. */
const ORDER_COLUMNS = (
  [
    ['Order', 'number'],
    ['Date', 'date'],
    ['Status', 'status'],
    ['Total', 'total'],
    ['Actions', 'actions'],
  ] as const
).map(([label, key]) => ({ label, className: `woocommerce-orders-table__header woocommerce-orders-table__header-order-${key}` }));

/**
 * The orders table (WooCommerce's columns). It sits in a container that
 * scrolls sideways on narrow touch screens (spec); the container is a
 * labelled, focusable region so keyboard users can scroll it too.
 */
export function OrdersTable({ orders }: { orders: Orders }) {
  if (orders.total === 0) {
    return (
      <div className="woocommerce-info account-no-orders">
        <p>No order has been made yet.</p>
        <a className="button" href="/shop/">
          Browse products
        </a>
      </div>
    );
  }
  return (
    <>
      {orders.rows.length > 0 && (
        <div className="account-orders-scroll" role="region" aria-labelledby="account-orders-caption" tabIndex={0}>
          <table className="woocommerce-orders-table woocommerce-MyAccount-orders shop_table shop_table_responsive my_account_orders account-orders-table">
            <caption id="account-orders-caption" className="screen-reader-text">
              Your orders, newest first{orders.pages > 1 ? ` (page ${orders.page} of ${orders.pages})` : ''}
            </caption>
            <ColumnHeads columns={ORDER_COLUMNS} />
            <tbody>
              {orders.rows.map((o) => (
                <tr key={o.id} className={`woocommerce-orders-table__row woocommerce-orders-table__row--status-${o.status} order`}>
                  <th scope="row" className="woocommerce-orders-table__cell woocommerce-orders-table__cell-order-number">
                    <a href={o.url} aria-label={`View order number ${o.number}`}>
                      #{o.number}
                    </a>
                  </th>
                  <td className="woocommerce-orders-table__cell woocommerce-orders-table__cell-order-date">
                    <time dateTime={o.date_created}>{o.date}</time>
                  </td>
                  <td className="woocommerce-orders-table__cell woocommerce-orders-table__cell-order-status">{o.status_label}</td>
                  <td className="woocommerce-orders-table__cell woocommerce-orders-table__cell-order-total">{decodeEntities(o.total)}</td>
                  <td className="woocommerce-orders-table__cell woocommerce-orders-table__cell-order-actions">
                    <a href={o.url} className="woocommerce-button button view" aria-label={`View order ${o.number}`}>
                      View
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(orders.prev_url || orders.next_url) && (
        <nav className="woocommerce-pagination woocommerce-pagination--without-numbers" aria-label="Orders pages">
          {orders.prev_url && (
            <a className="woocommerce-button woocommerce-button--previous button" href={orders.prev_url}>
              Previous
            </a>
          )}
          {orders.next_url && (
            <a className="woocommerce-button woocommerce-button--next button" href={orders.next_url}>
              Next
            </a>
          )}
        </nav>
      )}
      {orders.rows.length === 0 && (
        <p>
          <a href="/my-account/orders/">Back to your orders</a>
        </p>
      )}
    </>
  );
}

/** One order: when and in what state, the lines and totals, the addresses. */
export function ViewOrder({ order }: { order?: AccountOrderView }) {
  if (!order) {
    return (
      <p>
        <a href="/my-account/orders/">Back to your orders</a>
      </p>
    );
  }
  return (
    <div className="woocommerce-order account-order">
      <p>
        Order #<mark className="order-number">{order.number}</mark> was placed on{' '}
        <mark className="order-date">
          <time dateTime={order.date_created}>{order.date}</time>
        </mark>{' '}
        and is
        currently <mark className="order-status">{statusLabel(order.status)}</mark>.
      </p>
      {order.test_order && (
        <p className="woocommerce-info" role="note">
          {order.test_notice || 'Test order: paid in a sandbox, no money was taken.'}
        </p>
      )}
      <OrderDetails order={order} />
      <p>
        <a href="/my-account/orders/">Back to your orders</a>
      </p>
    </div>
  );
}

const labels: Record<string, string> = { pending: 'Pending payment', 'on-hold': 'On hold', 'checkout-draft': 'Draft' };

function statusLabel(s: string): string {
  return labels[s] || (s ? s[0].toUpperCase() + s.slice(1) : '');
}
