// Back-in-stock alerts (internal/alerts, through
// /wp-json/vitrine/v1/admin/stock-alerts): the items shoppers wait for,
// most waited first, with how many wait, have not confirmed their address
// yet, were mailed, and unsubscribed. Per product, the same figures are at
// /wp-json/vitrine/v1/admin/stock-alerts/{id}.

import { useEffect, useState } from 'react';
import { adminCall } from '../api';
import type { ScreenProps } from '../screens';
import { AdminTable } from '../ui/AdminTable';

export const ALERTS_PATH = '/wp-json/vitrine/v1/admin/stock-alerts';

export interface AlertCounts {
  product_id: number;
  name: string;
  pending: number;
  waiting: number;
  sent: number;
  unsubscribed: number;
}

export default function Alerts(_: ScreenProps) {
  const [rows, setRows] = useState<AlertCounts[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    const ac = new AbortController();
    adminCall<AlertCounts[]>('GET', ALERTS_PATH, undefined, { signal: ac.signal }).then((r) => {
      if (ac.signal.aborted) return;
      if (r.ok) setRows(r.data);
      else setError(r.error.message);
    });
    return () => ac.abort();
  }, []);
  if (error) return <p role="alert">{error}</p>;
  return (
    <>
      <p className="admin-field__hint">
        Shoppers ask to be emailed when an out-of-stock product or variation is back. Each is emailed once, when its stock returns; guests confirm their
        address first.
      </p>
      <AdminTable caption="Back-in-stock alerts by item" columns={['Item', 'Waiting', 'Not confirmed', 'Emailed', 'Unsubscribed']} busy={rows === null}>
        {rows === null ? (
          <tr>
            <td colSpan={5}>Loading…</td>
          </tr>
        ) : rows.length === 0 ? (
          <tr>
            <td colSpan={5}>No one has asked for an alert yet.</td>
          </tr>
        ) : (
          rows.map((r) => (
            <tr key={r.product_id}>
              <td>
                {r.name} <span className="admin-field__hint">#{r.product_id}</span>
              </td>
              <td>{r.waiting}</td>
              <td>{r.pending}</td>
              <td>{r.sent}</td>
              <td>{r.unsubscribed}</td>
            </tr>
          ))
        )}
      </AdminTable>
    </>
  );
}
