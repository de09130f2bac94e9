import type { Crumb } from '../types';
import { decodeEntities } from '../lib/format';
import { escapeHtml } from '../lib/html';

/**
 * The page's trail, its items written as HTML (lib/html.ts: every page has
 * one, and it has no handlers); the last is the current page.
 */
export function Breadcrumbs({ items }: { items: Crumb[] }) {
  if (!items || items.length === 0) return null;
  let html = '';
  items.forEach((c, i) => {
    const last = i === items.length - 1;
    const name = escapeHtml(decodeEntities(c.name));
    html += last || !c.url ? `<li><span${last ? ' aria-current="page"' : ''}>${name}</span></li>` : `<li><a href="${escapeHtml(c.url)}">${name}</a></li>`;
  });
  return (
    <nav className="woocommerce-breadcrumb breadcrumbs" aria-label="Breadcrumb">
      <ol dangerouslySetInnerHTML={{ __html: html }} />
    </nav>
  );
}
