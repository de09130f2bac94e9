// The order list: status tabs with their counts, a search by number, name
// or email, and pages. What is shown lives in the address
// (?status=&search=&paged=), so a filtered list can be bookmarked and Back
// returns to it; the result count is announced in a polite live region.

import { useEffect, useState, type FormEvent } from 'react';
import { adminCall, withQuery, type AdminError } from '../../api';
import { BASE, Link, useRouter } from '../../router';
import type { Location } from '../../router';
import { Field } from '../../ui/Field';
import { Pager } from '../../ui/Pager';
import { formatDate, formatMoney } from '../../ui/format';
import { customerName, ORDERS_PATH, STATUS_LABELS, statusLabel, TOTALS_PATH, type OrderSummary } from './types';

const PER_PAGE = 20;
const TABS = ['pending', 'processing', 'on-hold', 'completed', 'cancelled', 'refunded', 'failed'];

function listURL(status: string, search: string, page: number): string {
  return withQuery(BASE + 'orders/', { status, search, paged: page > 1 ? page : undefined });
}

export function OrderList({ location }: { location: Location }) {
  const { navigate } = useRouter();
  const status = location.search.get('status') ?? '';
  const search = location.search.get('search') ?? '';
  const page = Math.max(1, Number.parseInt(location.search.get('paged') ?? '1', 10) || 1);
  const [query, setQuery] = useState(search);
  const [orders, setOrders] = useState<OrderSummary[]>([]);
  const [total, setTotal] = useState(0);
  const [pages, setPages] = useState(0);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<AdminError | null>(null);

  useEffect(() => setQuery(search), [search]);

  useEffect(() => {
    const ctl = new AbortController();
    setLoading(true);
    setError(null);
    void (async () => {
      const [list, totals] = await Promise.all([
        adminCall<OrderSummary[]>('GET', withQuery(ORDERS_PATH, { status, search, page, per_page: PER_PAGE }), undefined, { signal: ctl.signal }),
        adminCall<{ slug: string; total: number }[]>('GET', TOTALS_PATH, undefined, { signal: ctl.signal }),
      ]);
      if (ctl.signal.aborted) return;
      setLoading(false);
      if (!list.ok) {
        setError(list.error);
        setOrders([]);
        return;
      }
      setOrders(list.data);
      setTotal(list.total ?? list.data.length);
      setPages(list.totalPages ?? 1);
      if (totals.ok) setCounts(Object.fromEntries(totals.data.map((t) => [t.slug, t.total])));
    })().catch(() => {});
    return () => ctl.abort();
  }, [status, search, page]);

  const all = Object.values(counts).reduce((a, b) => a + b, 0);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate(listURL(status, query.trim(), 1));
  };
  const shown = status ? STATUS_LABELS[status]?.toLowerCase() ?? status : '';

  return (
    <section aria-labelledby="orders-heading" className="orders">
      <h2 id="orders-heading" className="screen-reader-text">
        Orders list
      </h2>
      <nav aria-label="Order statuses">
        <ul className="orders-tabs">
          <li>
            <Link to={listURL('', search, 1)} aria-current={status === '' ? 'page' : undefined}>
              All <span className="orders-tabs__count">({all})</span>
            </Link>
          </li>
          {TABS.map((s) => (
            <li key={s}>
              <Link to={listURL(s, search, 1)} aria-current={status === s ? 'page' : undefined}>
                {STATUS_LABELS[s]} <span className="orders-tabs__count">({counts[s] ?? 0})</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <form role="search" aria-label="Orders" className="admin-toolbar" onSubmit={submit}>
        <Field label="Search orders" hint="An order number, a customer's name or email.">
          {(p) => <input {...p} type="search" value={query} onChange={(e) => setQuery(e.target.value)} maxLength={100} />}
        </Field>
        <button type="submit">Search</button>
        {search ? (
          <Link to={listURL(status, '', 1)} className="admin-button">
            Clear the search
          </Link>
        ) : null}
      </form>
      {error ? (
        <div role="alert" className="admin-notice admin-notice--error">
          <p>{error.message}</p>
        </div>
      ) : null}
      <table className="admin-table orders-table">
        <caption className="screen-reader-text">Orders, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Date</th>
            <th scope="col">Status</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody aria-busy={loading || undefined}>
          {orders.map((o) => (
            <tr key={o.id}>
              <th scope="row">
                <Link to={`${BASE}orders/${o.id}/`}>
                  #{o.number} {customerName(o)}
                </Link>
                {o.test_payment ? <span className="orders-test"> (test order)</span> : null}
              </th>
              <td>
                <time dateTime={o.date_created_gmt + 'Z'}>{formatDate(o.date_created_gmt + 'Z')}</time>
              </td>
              <td>
                <span className={`order-status order-status--${o.status}`}>{statusLabel(o.status)}</span>
              </td>
              <td>{formatMoney(o.total, o.currency)}</td>
            </tr>
          ))}
          {!loading && orders.length === 0 && !error ? (
            <tr>
              <td colSpan={4}>{search ? 'No order matches this search.' : 'No orders yet.'}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <p aria-live="polite" className="admin-list-status">
        {loading
          ? 'Loading orders…'
          : `${total} ${shown ? shown + ' ' : ''}${total === 1 ? 'order' : 'orders'}${search ? ` matching “${search}”` : ''}.`}
      </p>
      <Pager page={page} totalPages={pages} onPage={(p) => navigate(listURL(status, search, p))} label="Order pages" />
    </section>
  );
}
