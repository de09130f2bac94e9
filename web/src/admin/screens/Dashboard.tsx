// The dashboard: where to go, and the latest changes made in the admin.

import { useEffect, useState } from 'react';
import { adminCall, withQuery } from '../api';
import { BASE, Link } from '../router';
import { screens, type ScreenProps } from '../screens';
import { formatDate } from '../ui/format';
import { AUDIT_PATH, type AuditEntry } from './Activity';

export default function Dashboard({ data }: ScreenProps) {
  const [recent, setRecent] = useState<AuditEntry[] | null>(null);
  const [failed, setFailed] = useState('');
  useEffect(() => {
    let live = true;
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
