// The audit log: every admin write, newest first, with who made it and
// when; filtered by the kind of object (?object=, so a filtered log can be
// shared), and read further back with "Older entries" (the log pages by
// the last id shown, not by page numbers).

import { useCallback, useEffect, useState } from 'react';
import { adminCall, withQuery, type AdminError } from '../api';
import { BASE } from '../router';
import type { ScreenProps } from '../screens';
import { DataTable, type Column } from '../ui/DataTable';
import { Field } from '../ui/Field';
import { useListQuery } from '../ui/list';
import { formatDate } from '../ui/format';
import { Options } from '../../ui/Options';

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
  ['webhook', 'Webhooks'],
  ['api_key', 'REST API keys'],
];

const PER_PAGE = 50;

const COLUMNS: Column<AuditEntry>[] = [
  { key: 'when', header: 'When', cell: (e) => <time dateTime={e.date}>{formatDate(e.date)}</time> },
  { key: 'who', header: 'Who', cell: (e) => e.actor_name },
  {
    key: 'what',
    header: 'What',
    cell: (e) => (
      <>
        <code>{e.action}</code>
        {e.object_id ? ` ${e.object} #${e.object_id}` : ''}
      </>
    ),
  },
  { key: 'details', header: 'Details', cell: (e) => e.summary },
];

export default function Activity({ location }: ScreenProps) {
  const query = useListQuery(location, { base: BASE + 'activity/', filters: ['object'] });
  const object = query.filter('object');
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

  const n = entries.length;
  return (
    <section aria-labelledby="activity-heading">
      <h2 id="activity-heading" className="screen-reader-text">
        Changes made in the admin
      </h2>
      <DataTable
        label="Changes, newest first"
        noun={{ one: 'change', many: 'changes' }}
        query={query}
        data={{ rows: entries, total: n, loading, error, reload: () => void load(object) }}
        columns={COLUMNS}
        filters={
          <Field label="Show">
            {(p) => (
              // The filter replaces the address: Back leaves the log, as it did before the filter.
              <select {...p} value={object} onChange={(e) => query.go({ object: e.target.value }, { replace: true })}>
                <Options items={OBJECTS} />
              </select>
            )}
          </Field>
        }
        empty="Nothing has been changed in the admin yet."
        summary={`${n} ${n === 1 ? 'change' : 'changes'} shown.`}
        footer={
          more ? (
            <button type="button" disabled={loading} onClick={() => void load(object, entries[entries.length - 1]?.id)}>
              Older entries
            </button>
          ) : null
        }
      />
    </section>
  );
}
