// The order list: status tabs with their counts, a search by number, name
// or email, pages, and a status change for the orders chosen. What is shown
// lives in the address (?status=&search=&paged=), so a filtered list can be
// bookmarked and Back returns to it; the result count is announced.

import { adminCall, withQuery } from '../../api';
import { BASE, Link } from '../../router';
import type { Location } from '../../router';
import { DataTable, eachRow, type BulkAction, type Column } from '../../ui/DataTable';
import { useCounts, useListData, useListQuery } from '../../ui/list';
import { formatDate, formatMoney } from '../../ui/format';
import { customerName, ORDERS_PATH, STATUS_LABELS, statusLabel, TOTALS_PATH, type OrderSummary } from './types';

const PER_PAGE = 20;
const TABS = ['pending', 'processing', 'on-hold', 'completed', 'cancelled', 'refunded', 'failed'];
const STATUSES = ['', ...TABS];

const orderName = (o: OrderSummary) => `#${o.number} ${customerName(o)}`;

const COLUMNS: Column<OrderSummary>[] = [
  {
    key: 'order',
    header: 'Order',
    rowHeader: true,
    cell: (o) => (
      <>
        <Link to={`${BASE}orders/${o.id}/`}>{orderName(o)}</Link>
        {o.test_payment ? <span className="orders-test"> (test order)</span> : null}
        {o.date_anonymised_gmt ? <span className="orders-test"> (personal data removed)</span> : null}
      </>
    ),
  },
  { key: 'date', header: 'Date', cell: (o) => <time dateTime={o.date_created_gmt + 'Z'}>{formatDate(o.date_created_gmt + 'Z')}</time> },
  { key: 'status', header: 'Status', cell: (o) => <span className={`order-status order-status--${o.status}`}>{statusLabel(o.status)}</span> },
  { key: 'total', header: 'Total', cell: (o) => formatMoney(o.total, o.currency) },
];

// The statuses staff move orders to by hand; the shop's rules refuse the
// moves an order cannot make (a refunded order stays refunded), row by row.
const BULK: BulkAction[] = [
  { value: 'processing', label: 'Change status to processing', done: 'changed to processing' },
  { value: 'on-hold', label: 'Change status to on hold', done: 'put on hold' },
  { value: 'completed', label: 'Change status to completed', done: 'completed' },
  { value: 'cancelled', label: 'Change status to cancelled', done: 'cancelled', confirm: { danger: true, warning: 'Their items go back in stock.' } },
];

/** The totals report as tab counts: every status, and All their sum. */
function tabCounts(totals: { slug: string; total: number }[]): Record<string, number> {
  const by = Object.fromEntries(totals.map((t) => [t.slug, t.total]));
  return Object.fromEntries([['', totals.reduce((a, t) => a + t.total, 0)], ...TABS.map((s) => [s, by[s] ?? 0])]);
}

export function OrderList({ location }: { location: Location }) {
  const query = useListQuery(location, { base: BASE + 'orders/', statuses: STATUSES });
  const { status, search, page } = query;
  const url = withQuery(ORDERS_PATH, { status, search, page, per_page: PER_PAGE });
  const data = useListData<OrderSummary>(url);
  const { counts } = useCounts(TOTALS_PATH, tabCounts, data);
  const shown = status ? (STATUS_LABELS[status]?.toLowerCase() ?? status) : '';
  const n = data.total;

  return (
    <section aria-labelledby="orders-heading" className="orders">
      <h2 id="orders-heading" className="screen-reader-text">
        Orders list
      </h2>
      <DataTable
        label="Orders, newest first"
        noun={{ one: 'order', many: 'orders' }}
        query={query}
        data={data}
        columns={COLUMNS}
        rowLabel={orderName}
        className="orders-table"
        tabs={{ label: 'Order statuses', items: [{ status: '', label: 'All' }, ...TABS.map((s) => ({ status: s, label: STATUS_LABELS[s] }))], counts }}
        search={{ label: 'Search orders', hint: "An order number, a customer's name or email.", maxLength: 100 }}
        bulk={{ actions: BULK, run: (to, rows) => eachRow(rows, (o) => adminCall('PUT', `${ORDERS_PATH}/${o.id}`, { status: to })) }}
        empty={search ? 'No order matches this search.' : 'No orders yet.'}
        loadingText="Loading orders…"
        summary={`${n} ${shown ? shown + ' ' : ''}${n === 1 ? 'order' : 'orders'}${search ? ` matching “${search}”` : ''}.`}
        pagerLabel="Order pages"
      />
    </section>
  );
}
