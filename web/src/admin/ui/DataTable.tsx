// The admin's one list component: status tabs with their counts, a search,
// the screen's filters, bulk actions on the rows chosen with checkboxes,
// sortable columns, a count in a polite live region, the empty and the
// error states, and page links. What is listed lives in the address
// (ui/list.ts): the tabs and the pager are links, a sort or a search is a
// new address. The rows show as a table (columns) or, where a row is a
// card with its own actions (a review, a message), as a list (item).

import { useEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import { decodeEntities, type AdminResult } from '../api';
import { Link, useRouter } from '../router';
import { Confirm } from './Confirm';
import { Field } from './Field';
import type { ListData, ListQuery, SortOrder } from './list';
import { Pager } from './Pager';
import './data-table.css';

export interface Column<Row> {
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** This column's cell names the row: a th scope="row". */
  rowHeader?: boolean;
  /** The orderby value that sorts by this column; absent: it does not sort. */
  sort?: string;
  /** The order of a first click on it: dates and amounts read best newest or largest first. */
  firstOrder?: SortOrder;
}

export interface Tab {
  status: string;
  label: string;
}

export interface BulkAction {
  value: string;
  label: string;
  /** What the result says happened to the rows: "moved to the trash". */
  done: string;
  /** Ask first, in a dialog that names the rows; danger marks its confirm button, warning adds a line. */
  confirm?: { danger?: boolean; warning?: string };
}

/** The result of a bulk action: per row, or the whole request refused. */
export type BulkOutcome<Row> = { done: number; failed: { row: Row; message: string }[] } | { refused: string };

export interface Bulk<Row> {
  actions: BulkAction[];
  run: (action: string, rows: Row[]) => Promise<BulkOutcome<Row>>;
}

/**
 * Runs a bulk action as one call per row, one after the other (the shop's
 * rules refuse some rows and not others: each answer is the row's result).
 */
export async function eachRow<Row>(rows: Row[], call: (row: Row) => Promise<AdminResult<unknown>>): Promise<BulkOutcome<Row>> {
  let done = 0;
  const failed: { row: Row; message: string }[] = [];
  for (const row of rows) {
    const r = await call(row);
    if (r.ok) done++;
    else failed.push({ row, message: r.error.message });
  }
  return { done, failed };
}

/**
 * The admin API's answer to a …/bulk request as a BulkOutcome: changed
 * counts what was done (not rows already as the action leaves them); items,
 * when the action ran row by row, carry each refusal.
 */
export function bulkAnswer<Row extends { id: number }>(rows: Row[], r: AdminResult<BulkAnswer>): BulkOutcome<Row> {
  if (!r.ok) return { refused: r.error.message };
  const failed = (r.data.items ?? []).flatMap((it) => {
    const row = rows.find((x) => x.id === it.id);
    return it.error && row ? [{ row, message: decodeEntities(it.error.message) }] : [];
  });
  return { done: r.data.changed, failed };
}

export interface BulkAnswer {
  action: string;
  changed: number;
  items?: { id: number; changed: boolean; error?: { code: string; message: string } }[];
}

export interface Noun {
  one: string;
  many: string;
}

interface Common<Row> {
  /** What a row is: "order" / "orders", in the counts, the checkboxes' names and the results. */
  noun: Noun;
  /** The table's caption (for screen readers), or the list's name. */
  label: string;
  query: ListQuery;
  data: ListData<Row>;
  /** A row's name: "#12 Ada Lovelace"; its checkbox is "Select #12 Ada Lovelace". */
  rowLabel?: (row: Row) => string;
  tabs?: { label: string; items: Tab[]; counts: Record<string, number> | null };
  search?: { label: string; hint?: string; maxLength?: number };
  /** Shown between the tabs and the search. */
  intro?: ReactNode;
  /** The screen's own filters, a row of controls under the search. */
  filters?: ReactNode;
  /** What the list says when it has no rows (and no error). */
  empty: ReactNode;
  /** The count line; by default "2 orders." or "1 order matching “ada”.". */
  summary?: string;
  loadingText?: string;
  /** The page links' name ("Order pages"); absent: the list is not paged. */
  pagerLabel?: string;
  /** A pane beside the rows (the message being read). */
  aside?: ReactNode;
  /** Under the rows, instead of or after the pager ("Older entries"). */
  footer?: ReactNode;
  /** The count line, for a screen that moves focus there when the row it was on is gone. */
  statusRef?: Ref<HTMLParagraphElement>;
  /** More classes for the table, or for the list. */
  className?: string;
}

interface TableLayout<Row> {
  columns: Column<Row>[];
  /** Bulk actions (tables only: the checkbox is the first cell of a row). */
  bulk?: Bulk<Row>;
  item?: never;
}

interface ListLayout<Row> {
  item: (row: Row) => ReactNode;
  columns?: never;
  bulk?: never;
}

export type DataTableProps<Row> = Common<Row> & (TableLayout<Row> | ListLayout<Row>);

const count = (n: number, noun: Noun) => `${n} ${n === 1 ? noun.one : noun.many}`;

/** "3 orders marked completed. 1 failed: #12 Ada Lovelace: it is refunded." */
export function bulkSummary<Row>(done: number, failed: { row: Row; message: string }[], noun: Noun, verb: string, name: (row: Row) => string): string {
  const head = `${count(done, noun)} ${verb}.`;
  if (failed.length === 0) return head;
  const why = failed.map((f) => `${name(f.row)}: ${f.message.replace(/\.$/, '')}`).join('; ');
  return `${head} ${failed.length} failed: ${why}.`;
}

export function DataTable<Row extends { id: number }>(props: DataTableProps<Row>) {
  const { noun, label, query, data, tabs, search, intro, filters, empty, pagerLabel, aside, footer, statusRef } = props;
  const rowLabel = props.rowLabel ?? ((r: Row) => `${noun.one} ${r.id}`);
  const { navigate } = useRouter();
  const selection = useSelection(data.rows);

  const summary =
    props.summary ?? `${count(data.total, noun)}${query.search ? ` matching “${query.search}”` : ''}.`;

  const rows = props.columns ? (
    <Table columns={props.columns} props={props} selection={props.bulk ? selection : null} rowLabel={rowLabel} />
  ) : (
    <ul className={['admin-list', props.className].filter(Boolean).join(' ')} aria-label={label} aria-busy={data.loading || undefined}>
      {data.rows.map((r) => (
        <li key={r.id}>{props.item(r)}</li>
      ))}
    </ul>
  );
  const rowsPart = (
    <>
      <p ref={statusRef} tabIndex={-1} aria-live="polite" className="admin-list-status">
        {data.loading ? (props.loadingText ?? 'Loading…') : summary}
      </p>
      {rows}
      {props.item && !data.loading && data.rows.length === 0 && !data.error ? <p className="admin-list-empty">{empty}</p> : null}
      {pagerLabel && data.totalPages !== undefined ? (
        <Pager page={query.page} totalPages={data.totalPages} onPage={(p) => navigate(query.href({ paged: p }))} label={pagerLabel} />
      ) : null}
      {footer}
    </>
  );

  return (
    <>
      {tabs ? <StatusTabs query={query} {...tabs} /> : null}
      {intro}
      {search ? <SearchBox query={query} name={capitalize(noun.many)} {...search} /> : null}
      {filters ? <div className="admin-toolbar admin-filters">{filters}</div> : null}
      {props.bulk ? <BulkBar bulk={props.bulk} noun={noun} rowLabel={rowLabel} selection={selection} data={data} query={query} /> : null}
      {data.error ? (
        <div role="alert" className="admin-notice admin-notice--error">
          <p>{data.error.message}</p>
          <button type="button" onClick={data.reload}>
            Try again
          </button>
        </div>
      ) : null}
      {aside ? (
        <div className="admin-list-panes">
          <div>{rowsPart}</div>
          <div>{aside}</div>
        </div>
      ) : (
        rowsPart
      )}
    </>
  );
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function StatusTabs({ query, label, items, counts }: { query: ListQuery; label: string; items: Tab[]; counts: Record<string, number> | null }) {
  return (
    <nav aria-label={label}>
      <ul className="admin-tabs">
        {items.map((t) => {
          const n = counts?.[t.status];
          return (
            <li key={t.status}>
              <Link to={query.href({ status: t.status })} aria-current={t.status === query.status ? 'page' : undefined}>
                {t.label}
                {n !== undefined ? (
                  <>
                    {' '}
                    <span className="admin-tabs__count">({n})</span>
                  </>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The search: Enter (or the button) searches, a link clears it; the box follows the address. */
function SearchBox({ query, name, label, hint, maxLength }: { query: ListQuery; name: string; label: string; hint?: string; maxLength?: number }) {
  const [text, setText] = useState(query.search);
  useEffect(() => setText(query.search), [query.search]);
  return (
    <form
      role="search"
      aria-label={name}
      className="admin-toolbar admin-search"
      onSubmit={(e) => {
        e.preventDefault();
        query.go({ search: text.trim() });
      }}
    >
      <Field label={label} hint={hint}>
        {(p) => <input {...p} type="search" value={text} onChange={(e) => setText(e.target.value)} maxLength={maxLength} />}
      </Field>
      <button type="submit">Search</button>
      {query.search ? (
        <Link to={query.href({ search: undefined })} className="admin-button">
          Clear the search
        </Link>
      ) : null}
    </form>
  );
}

interface Selection {
  ids: Set<number>;
  /** Toggles the row at index; range: every row from the last one toggled takes its new state (Shift). */
  toggle: (index: number, range: boolean) => void;
  setAll: (on: boolean) => void;
  set: (ids: number[]) => void;
}

function useSelection<Row extends { id: number }>(rows: Row[]): Selection {
  const [ids, setIds] = useState<Set<number>>(() => new Set());
  const anchor = useRef<number | null>(null);
  // Rows that left the list (another page, a search) leave the selection.
  useEffect(() => {
    anchor.current = null;
    setIds((s) => {
      const here = new Set(rows.map((r) => r.id));
      const kept = [...s].filter((id) => here.has(id));
      return kept.length === s.size ? s : new Set(kept);
    });
  }, [rows]);
  return {
    ids,
    toggle: (index, range) => {
      const on = !ids.has(rows[index].id);
      const from = range && anchor.current !== null ? Math.min(anchor.current, index) : index;
      const to = range && anchor.current !== null ? Math.max(anchor.current, index) : index;
      const next = new Set(ids);
      for (const r of rows.slice(from, to + 1)) {
        if (on) next.add(r.id);
        else next.delete(r.id);
      }
      anchor.current = index;
      setIds(next);
    },
    setAll: (on) => setIds(on ? new Set(rows.map((r) => r.id)) : new Set()),
    set: (list) => setIds(new Set(list)),
  };
}

function Table<Row extends { id: number }>({ columns, props, selection, rowLabel }: { columns: Column<Row>[]; props: Common<Row>; selection: Selection | null; rowLabel: (r: Row) => string }) {
  const { query, data, noun, label, empty } = props;
  const all = selection !== null && data.rows.length > 0 && data.rows.every((r) => selection.ids.has(r.id));
  const some = selection !== null && !all && data.rows.some((r) => selection.ids.has(r.id));
  const span = columns.length + (selection ? 1 : 0);
  return (
    <table className={['admin-table', props.className].filter(Boolean).join(' ')}>
      <caption className="screen-reader-text">{label}</caption>
      <thead>
        <tr>
          {selection ? (
            <td className="admin-table__check">
              <Checkbox label={`Select all ${noun.many} on this page`} checked={all} indeterminate={some} onChange={() => selection.setAll(!all)} />
            </td>
          ) : null}
          {columns.map((c) => (
            <HeaderCell key={c.key} column={c} query={query} />
          ))}
        </tr>
      </thead>
      <tbody aria-busy={data.loading || undefined}>
        {data.rows.map((row, i) => (
          <tr key={row.id} className={selection?.ids.has(row.id) ? 'admin-table__chosen' : undefined}>
            {selection ? (
              <td className="admin-table__check">
                <Checkbox label={`Select ${rowLabel(row)}`} checked={selection.ids.has(row.id)} onChange={(shift) => selection.toggle(i, shift)} />
              </td>
            ) : null}
            {columns.map((c) =>
              c.rowHeader ? (
                <th key={c.key} scope="row">
                  {c.cell(row)}
                </th>
              ) : (
                <td key={c.key}>{c.cell(row)}</td>
              ),
            )}
          </tr>
        ))}
        {data.rows.length === 0 && !data.error ? (
          <tr className="admin-table__only">
            {/* While the first page loads the row keeps the place the empty state will take. */}
            <td colSpan={span}>{data.loading ? '\u00a0' : empty}</td>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}

function HeaderCell<Row>({ column, query }: { column: Column<Row>; query: ListQuery }) {
  if (!column.sort || !query.sort) return <th scope="col">{column.header}</th>;
  const active = query.sort.orderby === column.sort;
  const order = active ? query.sort.order : undefined;
  const next: SortOrder = active ? (order === 'asc' ? 'desc' : 'asc') : (column.firstOrder ?? 'asc');
  return (
    <th scope="col" aria-sort={order === 'asc' ? 'ascending' : order === 'desc' ? 'descending' : undefined}>
      <button type="button" className="admin-sort" onClick={() => query.go({ orderby: column.sort, order: next })}>
        {column.header}
        <span className="admin-sort__mark" aria-hidden="true">
          {order === 'asc' ? '▲' : order === 'desc' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}

/**
 * A row's checkbox. The change comes from a click (a pointer's, or the one
 * Space makes), which says whether Shift was held: Shift chooses a range.
 */
function Checkbox({ label, checked, indeterminate = false, onChange }: { label: string; checked: boolean; indeterminate?: boolean; onChange: (shift: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  // The click, not the change: its event says whether Shift was held (a change event does not).
  return <input ref={ref} type="checkbox" aria-label={label} checked={checked} onClick={(e) => onChange(e.shiftKey)} />;
}

function BulkBar<Row extends { id: number }>({ bulk, noun, rowLabel, selection, data, query }: { bulk: Bulk<Row>; noun: Noun; rowLabel: (r: Row) => string; selection: Selection; data: ListData<Row>; query: ListQuery }) {
  const [choice, setChoice] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const action = bulk.actions.find((a) => a.value === choice);
  const chosen = data.rows.filter((r) => selection.ids.has(r.id));

  // A result speaks of the rows it was about: another view of the list drops it.
  const view = query.href({ paged: query.page });
  useEffect(() => setResult(null), [view]);

  const run = async () => {
    if (!action) return;
    setConfirming(false);
    setBusy(true);
    const out = await bulk.run(action.value, chosen);
    setBusy(false);
    if ('refused' in out) {
      setResult({ ok: false, text: out.refused });
    } else {
      setResult({ ok: out.failed.length === 0, text: bulkSummary(out.done, out.failed, noun, action.done, rowLabel) });
      // What failed stays chosen, to try again or look at.
      selection.set(out.failed.map((f) => f.row.id));
      if (out.failed.length === 0) setChoice('');
      data.reload();
    }
    resultRef.current?.focus();
  };

  const names = chosen.map(rowLabel);
  return (
    <>
      <div className="admin-toolbar admin-bulk">
        <Field label="Bulk action">
          {(p) => (
            <select {...p} value={action ? choice : ''} onChange={(e) => setChoice(e.target.value)}>
              <option value="">Choose an action</option>
              {bulk.actions.map((a) => (
                <option key={a.value} value={a.value}>
                  {a.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="button" disabled={!action || chosen.length === 0 || busy} onClick={() => (action?.confirm ? setConfirming(true) : void run())}>
          Apply to {chosen.length} selected
        </button>
      </div>
      <div ref={resultRef} tabIndex={-1} aria-live="polite" className="admin-bulk__result">
        {result ? <p className={result.ok ? 'admin-notice admin-notice--success' : 'admin-notice admin-notice--error'}>{result.text}</p> : null}
      </div>
      {confirming && action ? (
        <Confirm
          title={`${action.label}: ${count(chosen.length, noun)}?`}
          confirmLabel={action.label}
          danger={action.confirm?.danger}
          onConfirm={() => void run()}
          onCancel={() => setConfirming(false)}
        >
          <p>{names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '')}</p>
          {action.confirm?.warning ? <p>{action.confirm.warning}</p> : null}
        </Confirm>
      ) : null}
    </>
  );
}
