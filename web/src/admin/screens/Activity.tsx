// The audit log: every admin write, newest first, with who made it and
// when; filtered by the kind of object, paged by "Older entries".

import { useCallback, useEffect, useState } from 'react';
import { adminCall, withQuery, type AdminError } from '../api';
import type { ScreenProps } from '../screens';
import { Field } from '../ui/Field';
import { formatDate } from '../ui/format';

export interface AuditEntry {
  id: number;
  date: string;
  actor_id: number;
  actor_name: string;
  action: string;
  object: string;
  object_id: number;
  summary: string;
  client_ip: string;
}

export const AUDIT_PATH = '/wp-json/vitrine/v1/admin/audit';

const OBJECTS: [string, string][] = [
  ['', 'Everything'],
  ['product', 'Products'],
  ['category', 'Categories'],
  ['tag', 'Tags'],
  ['attribute', 'Attributes'],
  ['media', 'Media'],
  ['order', 'Orders'],
  ['coupon', 'Coupons'],
  ['review', 'Reviews'],
  ['message', 'Messages'],
  ['settings', 'Settings'],
  ['currency', 'Currencies'],
];

const PER_PAGE = 50;

export default function Activity(_: ScreenProps) {
  const [object, setObject] = useState('');
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<AdminError | null>(null);

  const load = useCallback(async (obj: string, before?: number) => {
    setLoading(true);
    setError(null);
    const r = await adminCall<AuditEntry[]>('GET', withQuery(AUDIT_PATH, { object: obj, before, per_page: PER_PAGE }));
    setLoading(false);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    setEntries((old) => (before ? [...old, ...r.data] : r.data));
    setMore(r.data.length === PER_PAGE);
  }, []);

  useEffect(() => {
    void load(object);
  }, [object, load]);

  return (
    <section aria-labelledby="activity-heading">
      <h2 id="activity-heading" className="screen-reader-text">
        Changes made in the admin
      </h2>
      <div className="admin-toolbar">
        <Field label="Show">
          {(p) => (
            <select {...p} value={object} onChange={(e) => setObject(e.target.value)}>
              {OBJECTS.map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {error ? (
        <div role="alert" className="admin-notice admin-notice--error">
          <p>{error.message}</p>
        </div>
      ) : null}
      <table className="admin-table">
        <caption className="screen-reader-text">Changes, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody aria-busy={loading || undefined}>
          {entries.map((e) => (
            <tr key={e.id}>
              <td>
                <time dateTime={e.date}>{formatDate(e.date)}</time>
              </td>
              <td>{e.actor_name}</td>
              <td>
                <code>{e.action}</code>
                {e.object_id ? ` ${e.object} #${e.object_id}` : ''}
              </td>
              <td>{e.summary}</td>
            </tr>
          ))}
          {!loading && entries.length === 0 && !error ? (
            <tr>
              <td colSpan={4}>Nothing has been changed in the admin yet.</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <p aria-live="polite" className="admin-list-status">
        {loading ? 'Loading…' : `${entries.length} ${entries.length === 1 ? 'change' : 'changes'} shown.`}
      </p>
      {more ? (
        <button type="button" disabled={loading} onClick={() => void load(object, entries[entries.length - 1]?.id)}>
          Older entries
        </button>
      ) : null}
    </section>
  );
}
