// The status filter of the moderation queue and the inbox: links (each
// status has an address that can be bookmarked) with their counts, the
// current one marked with aria-current.

import { BASE, Link } from '../../router';

export interface Tab {
  status: string;
  label: string;
}

export function StatusTabs({ base, label, tabs, current, counts }: { base: string; label: string; tabs: Tab[]; current: string; counts: Record<string, number> | null }) {
  return (
    <nav aria-label={label}>
      <ul className="inbox-tabs">
        {tabs.map((t) => {
          const n = counts?.[t.status];
          return (
            <li key={t.status}>
              <Link to={`${BASE}${base}/?status=${t.status}`} aria-current={t.status === current ? 'page' : undefined}>
                {t.label}
                {n !== undefined ? <span className="inbox-count"> ({n})</span> : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The status in the address, when it is one of the tabs; else the first. */
export function statusOf(search: URLSearchParams, tabs: Tab[]): string {
  const s = search.get('status') ?? '';
  return tabs.some((t) => t.status === s) ? s : tabs[0].status;
}

/** A positive page number from the address, else 1. */
export function pageOf(search: URLSearchParams): number {
  const n = Number.parseInt(search.get('page') ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : 1;
}
