import type { Crumb } from '../types';
import { decodeEntities } from '../lib/format';

export function Breadcrumbs({ items }: { items: Crumb[] }) {
  if (!items || items.length === 0) return null;
  return (
    <nav className="woocommerce-breadcrumb breadcrumbs" aria-label="Breadcrumb">
      <ol>
        {items.map((c, i) => {
          const last = i === items.length - 1;
          return (
            <li key={i}>
              {last || !c.url ? (
                <span aria-current={last ? 'page' : undefined}>{decodeEntities(c.name)}</span>
              ) : (
                <a href={c.url}>{decodeEntities(c.name)}</a>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
