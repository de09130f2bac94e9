// The dashboard: what waits for staff, the shop's numbers (a chunk of its own),
// where to go, and the latest changes made in the admin.

import { lazy, Suspense, useEffect, useState } from 'react';
import { adminCall, withQuery } from '../api';
import { BASE, Link } from '../router';
import { screens, type ScreenProps } from '../screens';
import { BackupStatus } from '../ui/BackupStatus';
import { formatDate } from '../ui/format';
import { AUDIT_PATH, type AuditEntry } from './Activity';

// The shop's numbers and their chart come in a chunk of their own, after the dashboard shows.
const Overview = lazy(() => import('../analytics/Overview'));

/** What waits for staff: orders to ship, reviews to moderate, messages to read. */
interface Todo {
  orders: number;
  onHold: number;
  reviews: number;
  messages: number;
}

async function loadTodo(): Promise<Todo | null> {
  const [orders, reviews, messages] = await Promise.all([
    adminCall<{ slug: string; total: number }[]>('GET', '/wp-json/wc/v3/reports/orders/totals'),
    adminCall<Record<string, number>>('GET', '/wp-json/vitrine/v1/admin/reviews/counts'),
    adminCall<Record<string, number>>('GET', '/wp-json/vitrine/v1/admin/messages/counts'),
  ]);
  if (!orders.ok || !reviews.ok || !messages.ok) return null;
  const total = (slug: string) => orders.data.find((t) => t.slug === slug)?.total ?? 0;
  return { orders: total('processing'), onHold: total('on-hold'), reviews: reviews.data.hold ?? 0, messages: messages.data.new ?? 0 };
}

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

export default function Dashboard({ data, location }: ScreenProps) {
  const [recent, setRecent] = useState<AuditEntry[] | null>(null);
  const [failed, setFailed] = useState('');
  const [todo, setTodo] = useState<Todo | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void loadTodo().then((t) => live && setTodo(t));
    void adminCall<AuditEntry[]>('GET', withQuery(AUDIT_PATH, { per_page: 5 })).then((r) => {
      if (!live) return;
      if (r.ok) setRecent(r.data);
      else setFailed(r.error.message);
    });
    return () => {
      live = false;
    };
  }, []);
  return (
    <>
      <p>Welcome, {data.user.name}. This is where {data.site.name} is run.</p>
      <section aria-labelledby="dash-todo">
        <h2 id="dash-todo">Waiting for you</h2>
        {todo === undefined ? <p>Loading…</p> : null}
        {todo === null ? <p>The counts could not be loaded. Reload the page to try again.</p> : null}
        <BackupStatus />
        {todo ? (
          <ul className="admin-tiles admin-todo">
            <li>
              <Link to={`${BASE}orders/?status=processing`}>{plural(todo.orders, 'order to process', 'orders to process')}</Link>
            </li>
            <li>
              <Link to={`${BASE}orders/?status=on-hold`}>{plural(todo.onHold, 'order on hold', 'orders on hold')}</Link>
            </li>
            <li>
              <Link to={`${BASE}reviews/`}>{plural(todo.reviews, 'review to moderate', 'reviews to moderate')}</Link>
            </li>
            <li>
              <Link to={`${BASE}messages/`}>{plural(todo.messages, 'new message', 'new messages')}</Link>
            </li>
          </ul>
        ) : null}
      </section>
      <Suspense fallback={<p className="admin-loading">Loading the shop's numbers…</p>}>
        <Overview location={location} currency={data.site.currency} />
      </Suspense>
      <section aria-labelledby="dash-sections">
        <h2 id="dash-sections">Sections</h2>
        <ul className="admin-tiles">
          {screens
            .filter((s) => s.nav && s.base)
            .map((s) => (
              <li key={s.base}>
                <Link to={`${BASE}${s.base}/`}>{s.title}</Link>
              </li>
            ))}
        </ul>
      </section>
      <section aria-labelledby="dash-recent">
        <h2 id="dash-recent">Latest changes</h2>
        {failed ? <p role="alert">{failed}</p> : null}
        {recent === null && !failed ? <p>Loading…</p> : null}
        {recent && recent.length === 0 ? <p>Nothing has been changed in the admin yet.</p> : null}
        {recent && recent.length > 0 ? (
          <ul className="admin-recent">
            {recent.map((e) => (
              <li key={e.id}>
                <time dateTime={e.date}>{formatDate(e.date)}</time>: {e.actor_name}, {e.summary || e.action}
              </li>
            ))}
          </ul>
        ) : null}
        <p>
          <Link to={`${BASE}activity/`}>All activity</Link>
        </p>
      </section>
    </>
  );
}
