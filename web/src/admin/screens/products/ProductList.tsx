// The products list: views by status with their counts, search, filters
// (type, category, stock), sortable columns, paging, and bulk actions
// behind a confirmation. All of it lives in the address, so a view of the
// catalogue can be bookmarked; the result count and what a bulk action
// changed are announced.

import { useEffect, useState } from 'react';
import { adminCall, withQuery } from '../../api';
import { BASE, Link, type Location } from '../../router';
import { bulkAnswer, DataTable, type BulkAction, type BulkAnswer, type Column } from '../../ui/DataTable';
import { Field } from '../../ui/Field';
import { useCounts, useListData, useListQuery, type ListOptions } from '../../ui/list';
import { formatDate, formatMoney } from '../../ui/format';
import { ADMIN, PRODUCTS, STATUS_LABELS, STOCK_LABELS, TYPE_LABELS, categoryTree, type Category, type Product } from './types';
import './products.css';
import { Options } from '../../../ui/Options';

const PER_PAGE = 20;

const VIEWS: [string, string][] = [
  ['', 'All'],
  ['publish', 'Published'],
  ['draft', 'Drafts'],
  ['future', 'Scheduled'],
  ['private', 'Private'],
  ['trash', 'Trash'],
];

const OPTIONS: ListOptions = {
  base: BASE + 'products/',
  statuses: VIEWS.map(([s]) => s),
  // The orderby values the products API takes; newest first unless asked.
  sorts: { keys: ['title', 'sku', 'price', 'date'], initial: { orderby: 'date', order: 'desc' } },
  filters: ['type', 'category', 'stock_status'],
};

// Every one asks first: a bulk action changes what the shop shows at once.
const BULK: Record<string, BulkAction> = {
  publish: { value: 'publish', label: 'Publish', done: 'published', confirm: {} },
  draft: { value: 'draft', label: 'Move to drafts', done: 'moved to drafts', confirm: {} },
  trash: { value: 'trash', label: 'Move to the trash', done: 'moved to the trash', confirm: { danger: true } },
  restore: { value: 'restore', label: 'Restore as drafts', done: 'restored as drafts', confirm: {} },
  delete: { value: 'delete', label: 'Delete permanently', done: 'deleted permanently', confirm: { danger: true, warning: 'This cannot be undone.' } },
};

function columns(currency: string, wished: Record<string, number> | null): Column<Product>[] {
  return [
    {
      key: 'image',
      header: <span className="screen-reader-text">Image</span>,
      cell: (p) => (p.images[0] ? <img className="pa-thumb" src={p.images[0].src} alt="" width={40} height={40} loading="lazy" /> : null),
    },
    {
      key: 'name',
      header: 'Name',
      rowHeader: true,
      sort: 'title',
      cell: (p) => (
        <>
          <Link to={`${BASE}products/${p.id}/`}>{p.name}</Link>
          {p.type !== 'simple' ? <div className="admin-field__hint">{TYPE_LABELS[p.type]}</div> : null}
        </>
      ),
    },
    { key: 'sku', header: 'SKU', sort: 'sku', cell: (p) => p.sku || '–' },
    {
      key: 'stock',
      header: 'Stock',
      cell: (p) => (
        <>
          {STOCK_LABELS[p.stock_status] ?? p.stock_status}
          {p.manage_stock && p.stock_quantity !== null ? ` (${p.stock_quantity})` : ''}
        </>
      ),
    },
    { key: 'price', header: 'Price', sort: 'price', firstOrder: 'desc', cell: (p) => (p.price ? formatMoney(p.price, currency) : '–') },
    {
      key: 'wishlists',
      header: 'In wishlists',
      cell: (p) => (wished && p.id in wished ? String(wished[p.id]) : '–'),
    },
    { key: 'categories', header: 'Categories', cell: (p) => p.categories.map((c) => c.name).join(', ') || '–' },
    {
      key: 'status',
      header: 'Status',
      cell: (p) => (
        <>
          {STATUS_LABELS[p.status] ?? p.status}
          {p.status === 'future' && p.date_publish_gmt ? (
            <div className="admin-field__hint">
              <time dateTime={p.date_publish_gmt + 'Z'}>{formatDate(p.date_publish_gmt + 'Z')}</time>
            </div>
          ) : null}
        </>
      ),
    },
    { key: 'date', header: 'Date', sort: 'date', firstOrder: 'desc', cell: (p) => <time dateTime={p.date_created_gmt + 'Z'}>{formatDate(p.date_created_gmt + 'Z')}</time> },
  ];
}

/** The counts answer as the views' counts ("all" is All's). */
function viewCounts(c: Record<string, number>): Record<string, number> {
  return Object.fromEntries(VIEWS.map(([s]) => [s, (s ? c[s] : c.all) ?? 0]));
}

export function ProductList({ currency, location }: { currency: string; location: Location }) {
  const query = useListQuery(location, OPTIONS);
  const { status, search, page, sort, filter } = query;
  const url = withQuery(PRODUCTS, {
    status,
    search,
    type: filter('type'),
    category: filter('category'),
    stock_status: filter('stock_status'),
    orderby: sort?.orderby,
    order: sort?.order,
    page,
    per_page: PER_PAGE,
  });
  const data = useListData<Product>(url);
  const { counts } = useCounts(ADMIN + '/products/counts', viewCounts, data);
  // How many shoppers' wishlists hold each product of the page: one call per page shown.
  const [wished, setWished] = useState<Record<string, number> | null>(null);
  const ids = data.rows.map((p) => p.id).join(',');
  useEffect(() => {
    setWished(null);
    if (!ids) return;
    let live = true;
    void adminCall<Record<string, number>>('GET', withQuery(ADMIN + '/wishlists/counts', { include: ids })).then((r) => {
      if (live && r.ok) setWished(r.data);
    });
    return () => {
      live = false;
    };
  }, [ids]);
  const [cats, setCats] = useState<Category[]>([]);

  useEffect(() => {
    void adminCall<Category[]>('GET', PRODUCTS + '/categories').then((r) => r.ok && setCats(r.data));
  }, []);

  const select = (label: string, name: string, any: string, options: [string | number, string][]) => (
    <Field label={label}>
      {(p) => (
        <select {...p} value={filter(name)} onChange={(e) => query.go({ [name]: e.target.value })}>
          <option value="">{any}</option>
          <Options items={options} />
        </select>
      )}
    </Field>
  );

  const n = data.total;
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
      <DataTable
        label="Products"
        noun={{ one: 'product', many: 'products' }}
        query={query}
        data={data}
        columns={columns(currency, wished)}
        rowLabel={(p) => p.name}
        tabs={{ label: 'Show products by status', items: VIEWS.map(([s, l]) => ({ status: s, label: l })), counts }}
        search={{ label: 'Search products' }}
        filters={
          <>
            {select('Product type', 'type', 'Any type', Object.entries(TYPE_LABELS))}
            {select('Category', 'category', 'Any category', categoryTree(cats).map(({ cat, depth }) => [cat.id, '\u2014 '.repeat(depth) + cat.name]))}
            {select('Stock status', 'stock_status', 'Any stock status', Object.entries(STOCK_LABELS))}
          </>
        }
        bulk={{
          actions: status === 'trash' ? [BULK.restore, BULK.delete] : [BULK.publish, BULK.draft, BULK.trash],
          run: async (action, rows) => bulkAnswer(rows, await adminCall<BulkAnswer>('POST', ADMIN + '/products/bulk', { action, ids: rows.map((p) => p.id) })),
        }}
        empty="No products found."
        summary={`${n} ${n === 1 ? 'product' : 'products'} found.`}
        pagerLabel="Product pages"
      />
    </section>
  );
}
