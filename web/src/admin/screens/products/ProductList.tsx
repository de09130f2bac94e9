// The products list: views by status with their counts, search, filters
// (type, category, stock), paging, and bulk actions behind a
// confirmation. The result count is announced; after a bulk action the
// notice says what changed and focus goes to it.

import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { adminCall, withQuery, type AdminError } from '../../api';
import { BASE, Link } from '../../router';
import { Field } from '../../ui/Field';
import { Notices, useNotices } from '../../ui/Notices';
import { Pager } from '../../ui/Pager';
import { formatDate, formatMoney } from '../../ui/format';
import { Confirm } from './Confirm';
import { ADMIN, PRODUCTS, STATUS_LABELS, STOCK_LABELS, TYPE_LABELS, categoryTree, type Category, type Product } from './types';
import './products.css';

const PER_PAGE = 20;

const VIEWS: [string, string][] = [
  ['', 'All'],
  ['publish', 'Published'],
  ['draft', 'Drafts'],
  ['future', 'Scheduled'],
  ['private', 'Private'],
  ['trash', 'Trash'],
];

const BULK: Record<string, { label: string; verb: string; danger?: boolean }> = {
  publish: { label: 'Publish', verb: 'published' },
  draft: { label: 'Move to drafts', verb: 'moved to drafts' },
  trash: { label: 'Move to the trash', verb: 'moved to the trash', danger: true },
  restore: { label: 'Restore as drafts', verb: 'restored as drafts' },
  delete: { label: 'Delete permanently', verb: 'deleted permanently', danger: true },
};

interface Filters {
  status: string;
  search: string;
  type: string;
  category: string;
  stock_status: string;
  page: number;
}

export function ProductList({ currency }: { currency: string }) {
  const [filters, setFilters] = useState<Filters>({ status: '', search: '', type: '', category: '', stock_status: '', page: 1 });
  const [searchText, setSearchText] = useState('');
  const [rows, setRows] = useState<Product[]>([]);
  const [total, setTotal] = useState(0);
  const [pages, setPages] = useState(0);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [cats, setCats] = useState<Category[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<AdminError | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [bulk, setBulk] = useState('');
  const [confirming, setConfirming] = useState(false);
  const { notices, push, dismiss } = useNotices();
  const noticeRef = useRef<HTMLDivElement>(null);

  const load = useCallback(async (f: Filters) => {
    setLoading(true);
    setError(null);
    const [list, c] = await Promise.all([
      adminCall<Product[]>('GET', withQuery(PRODUCTS, { ...f, status: f.status, per_page: PER_PAGE })),
      adminCall<Record<string, number>>('GET', ADMIN + '/products/counts'),
    ]);
    setLoading(false);
    if (!list.ok) {
      setError(list.error);
      setRows([]);
      return;
    }
    setRows(list.data);
    setTotal(list.total ?? list.data.length);
    setPages(list.totalPages ?? 1);
    setSelected(new Set());
    if (c.ok) setCounts(c.data);
  }, []);

  useEffect(() => {
    void load(filters);
  }, [filters, load]);

  useEffect(() => {
    void adminCall<Category[]>('GET', PRODUCTS + '/categories').then((r) => r.ok && setCats(r.data));
  }, []);

  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, page: 1, ...patch }));
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    set({ search: searchText.trim() });
  };
  const toggle = (id: number) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  const allChosen = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const actions = filters.status === 'trash' ? ['restore', 'delete'] : ['publish', 'draft', 'trash'];

  const apply = async () => {
    setConfirming(false);
    const ids = [...selected];
    const r = await adminCall<{ changed: number }>('POST', ADMIN + '/products/bulk', { action: bulk, ids });
    if (!r.ok) {
      push('error', r.error.message);
    } else {
      const n = r.data.changed;
      push('success', `${n} ${n === 1 ? 'product' : 'products'} ${BULK[bulk].verb}.`);
      setBulk('');
      await load(filters);
    }
    noticeRef.current?.focus();
  };

  const names = rows.filter((r) => selected.has(r.id)).map((r) => r.name);
  return (
    <section aria-labelledby="pa-list-heading">
      <h2 id="pa-list-heading" className="screen-reader-text">
        Products
      </h2>
      <p>
        <Link to={BASE + 'products/new/'} className="admin-button">
          Add new product
        </Link>
      </p>
      <div ref={noticeRef} tabIndex={-1}>
        <Notices notices={notices} dismiss={dismiss} />
      </div>
      <ul className="pa-views" aria-label="Show products by status">
        {VIEWS.map(([status, label]) => (
          <li key={status}>
            <button type="button" aria-pressed={filters.status === status} onClick={() => set({ status })}>
              {label} ({status ? (counts[status] ?? 0) : (counts.all ?? 0)})
            </button>
          </li>
        ))}
      </ul>
      <form role="search" className="admin-toolbar" onSubmit={onSearch} aria-label="Products">
        <Field label="Search products">
          {(p) => <input {...p} type="search" value={searchText} onChange={(e) => setSearchText(e.target.value)} />}
        </Field>
        <button type="submit">Search</button>
      </form>
      <div className="admin-toolbar">
        <Field label="Product type">
          {(p) => (
            <select {...p} value={filters.type} onChange={(e) => set({ type: e.target.value })}>
              <option value="">Any type</option>
              {Object.entries(TYPE_LABELS).map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Category">
          {(p) => (
            <select {...p} value={filters.category} onChange={(e) => set({ category: e.target.value })}>
              <option value="">Any category</option>
              {categoryTree(cats).map(({ cat, depth }) => (
                <option key={cat.id} value={cat.id}>
                  {'\u2014 '.repeat(depth) + cat.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Stock status">
          {(p) => (
            <select {...p} value={filters.stock_status} onChange={(e) => set({ stock_status: e.target.value })}>
              <option value="">Any stock status</option>
              {Object.entries(STOCK_LABELS).map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="admin-toolbar pa-bulk">
        <Field label="Bulk action">
          {(p) => (
            <select {...p} value={bulk} onChange={(e) => setBulk(e.target.value)}>
              <option value="">Choose an action</option>
              {actions.map((a) => (
                <option key={a} value={a}>
                  {BULK[a].label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="button" disabled={!bulk || selected.size === 0} onClick={() => setConfirming(true)}>
          Apply to {selected.size} selected
        </button>
      </div>
      {error ? (
        <div role="alert" className="admin-notice admin-notice--error">
          <p>{error.message}</p>
        </div>
      ) : null}
      <table className="admin-table">
        <caption className="screen-reader-text">Products, newest first</caption>
        <thead>
          <tr>
            <td>
              <input
                type="checkbox"
                aria-label="Select all products on this page"
                checked={allChosen}
                onChange={() => setSelected(allChosen ? new Set() : new Set(rows.map((r) => r.id)))}
              />
            </td>
            <th scope="col">
              <span className="screen-reader-text">Image</span>
            </th>
            <th scope="col">Name</th>
            <th scope="col">SKU</th>
            <th scope="col">Stock</th>
            <th scope="col">Price</th>
            <th scope="col">Categories</th>
            <th scope="col">Status</th>
            <th scope="col">Date</th>
          </tr>
        </thead>
        <tbody aria-busy={loading || undefined}>
          {rows.map((p) => (
            <tr key={p.id}>
              <td>
                <input type="checkbox" aria-label={`Select ${p.name}`} checked={selected.has(p.id)} onChange={() => toggle(p.id)} />
              </td>
              <td>{p.images[0] ? <img className="pa-thumb" src={p.images[0].src} alt="" width={40} height={40} loading="lazy" /> : null}</td>
              <th scope="row">
                <Link to={`${BASE}products/${p.id}/`}>{p.name}</Link>
                {p.type !== 'simple' ? <div className="admin-field__hint">{TYPE_LABELS[p.type]}</div> : null}
              </th>
              <td>{p.sku || '–'}</td>
              <td>
                {STOCK_LABELS[p.stock_status] ?? p.stock_status}
                {p.manage_stock && p.stock_quantity !== null ? ` (${p.stock_quantity})` : ''}
              </td>
              <td>{p.price ? formatMoney(p.price, currency) : '–'}</td>
              <td>{p.categories.map((c) => c.name).join(', ') || '–'}</td>
              <td>
                {STATUS_LABELS[p.status] ?? p.status}
                {p.status === 'future' && p.date_publish_gmt ? (
                  <div className="admin-field__hint">
                    <time dateTime={p.date_publish_gmt + 'Z'}>{formatDate(p.date_publish_gmt + 'Z')}</time>
                  </div>
                ) : null}
              </td>
              <td>
                <time dateTime={p.date_created_gmt + 'Z'}>{formatDate(p.date_created_gmt + 'Z')}</time>
              </td>
            </tr>
          ))}
          {!loading && rows.length === 0 && !error ? (
            <tr>
              <td colSpan={9}>No products found.</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <p aria-live="polite" className="admin-list-status">
        {loading ? 'Loading…' : `${total} ${total === 1 ? 'product' : 'products'} found.`}
      </p>
      <Pager page={filters.page} totalPages={pages} label="Product pages" onPage={(page) => setFilters((f) => ({ ...f, page }))} />
      {confirming ? (
        <Confirm
          title={`${BULK[bulk].label}: ${selected.size} ${selected.size === 1 ? 'product' : 'products'}?`}
          confirmLabel={BULK[bulk].label}
          danger={BULK[bulk].danger}
          onConfirm={() => void apply()}
          onCancel={() => setConfirming(false)}
        >
          <p>{names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '')}</p>
          {bulk === 'delete' ? <p>This cannot be undone.</p> : null}
        </Confirm>
      ) : null}
    </section>
  );
}
