// The Analytics screen: /wp-admin/analytics/ is the overview, and
// /wp-admin/analytics/<report>/ each report (revenue, orders, products,
// variations, categories, coupons, taxes, stock, customers);
// /wp-admin/analytics/settings/ the time zone and the statuses left out. Its chunk, with
// the chart code, loads only when an analytics screen (or the dashboard's
// overview) is opened.

import type { ScreenProps } from '../screens';
import { BASE, Link } from '../router';
import Overview from './Overview';
import AnalyticsSettings from './Settings';
import { Report } from './Report';
import { REPORTS, reportOf } from './reports';
import './analytics.css';

export default function Analytics({ params, location, data }: ScreenProps) {
  const slug = params[0] ?? '';
  const config = slug && slug !== 'settings' ? reportOf(slug) : undefined;
  const range = new URLSearchParams();
  for (const k of ['period', 'compare', 'after', 'before', 'interval']) {
    const v = location.search.get(k);
    if (v) range.set(k, v);
  }
  const keep = range.toString() ? `?${range}` : '';
  return (
    <>
      <nav aria-label="Reports" className="an-nav">
        <ul className="admin-tabs">
          <li>
            <Link to={`${BASE}analytics/${keep}`} aria-current={!slug ? 'page' : undefined}>
              Overview
            </Link>
          </li>
          {REPORTS.map((r) => (
            <li key={r.slug}>
              <Link to={`${BASE}analytics/${r.slug}/${keep}`} aria-current={r.slug === slug ? 'page' : undefined}>
                {r.title}
              </Link>
            </li>
          ))}
          <li>
            <Link to={`${BASE}analytics/settings/`} aria-current={slug === 'settings' ? 'page' : undefined}>
              Settings
            </Link>
          </li>
        </ul>
      </nav>
      {slug === 'settings' ? <AnalyticsSettings /> : null}
      {slug && slug !== 'settings' && !config ? (
        <div role="alert" className="admin-notice admin-notice--error">
          <p>There is no such report.</p>
        </div>
      ) : null}
      {config ? <Report key={config.slug} config={config} location={location} currency={data.site.currency} /> : null}
      {!slug ? <Overview location={location} currency={data.site.currency} /> : null}
    </>
  );
}
