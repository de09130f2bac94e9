import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { Router, useRouter } from '../router';
import { bulkAnswer, DataTable, type Bulk, type Column } from './DataTable';
import { useListQuery, type ListData, type QueryPatch } from './list';

interface Thing {
  id: number;
  name: string;
}

const things: Thing[] = [
  { id: 1, name: 'Alpha' },
  { id: 2, name: 'Beta' },
  { id: 3, name: 'Gamma' },
  { id: 4, name: 'Delta' },
];

const columns: Column<Thing>[] = [
  { key: 'name', header: 'Name', rowHeader: true, sort: 'name', cell: (t) => t.name },
  { key: 'id', header: 'Number', sort: 'id', firstOrder: 'desc', cell: (t) => `#${t.id}` },
  { key: 'note', header: 'Note', cell: () => '–' },
];

function Things({ data = {}, bulk, onGo }: { data?: Partial<ListData<Thing>>; bulk?: Bulk<Thing>; onGo?: (p: QueryPatch | undefined) => void }) {
  const { location } = useRouter();
  const query = useListQuery(location, {
    base: '/wp-admin/things/',
    statuses: ['', 'open'],
    sorts: { keys: ['name', 'id'], initial: { orderby: 'id', order: 'desc' } },
  });
  const spied = { ...query, go: (p?: QueryPatch, o?: { replace?: boolean }) => (onGo?.(p), query.go(p, o)) };
  return (
    <DataTable
      label="Things"
      noun={{ one: 'thing', many: 'things' }}
      query={spied}
      data={{ rows: things, total: things.length, totalPages: 3, loading: false, error: null, reload: () => {}, ...data }}
      columns={columns}
      rowLabel={(t) => t.name}
      tabs={{ label: 'Things by status', items: [{ status: '', label: 'All' }, { status: 'open', label: 'Open' }], counts: { '': 4, open: 1 } }}
      search={{ label: 'Search things' }}
      bulk={bulk}
      empty="No things found."
      pagerLabel="Thing pages"
    />
  );
}

function show(ui: React.ReactElement) {
  return render(<Router>{ui}</Router>);
}

const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
const box = (name: string) => screen.getByRole('checkbox', { name: `Select ${name}` });

beforeEach(() => {
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  window.history.replaceState(null, '', '/wp-admin/things/');
});

describe('the admin table', () => {
  it('sorts by a header button: aria-sort follows the address, a second click reverses, the default stays out of the address', async () => {
    const go = vi.fn();
    show(<Things onGo={go} />);
    expect(header('Number')).toHaveAttribute('aria-sort', 'descending');
    expect(header('Name')).not.toHaveAttribute('aria-sort');
    expect(header('Note')).not.toHaveAttribute('aria-sort');
    expect(within(header('Note')).queryByRole('button')).toBeNull();

    await userEvent.click(within(header('Name')).getByRole('button', { name: /Name/ }));
    expect(go).toHaveBeenLastCalledWith({ orderby: 'name', order: 'asc' });
    expect(window.location.search).toBe('?orderby=name&order=asc');
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Number')).not.toHaveAttribute('aria-sort');

    await userEvent.click(within(header('Name')).getByRole('button', { name: /Name/ }));
    expect(go).toHaveBeenLastCalledWith({ orderby: 'name', order: 'desc' });
    expect(header('Name')).toHaveAttribute('aria-sort', 'descending');

    // A column's first click sorts its own way (numbers: largest first), which here is the default.
    await userEvent.click(within(header('Number')).getByRole('button', { name: /Number/ }));
    expect(go).toHaveBeenLastCalledWith({ orderby: 'id', order: 'desc' });
    expect(window.location.search).toBe('');
  });

  it('keeps the list in the address: tabs, search (Enter, clear) and pages, a new query starting at page 1', async () => {
    window.history.replaceState(null, '', '/wp-admin/things/?paged=2&message=9');
    show(<Things />);
    const tabs = screen.getByRole('navigation', { name: 'Things by status' });
    expect(within(tabs).getByRole('link', { name: 'All (4)' })).toHaveAttribute('aria-current', 'page');
    // A tab is a new list: page 1, and what is not the list's (an open message) is left behind.
    expect(within(tabs).getByRole('link', { name: 'Open (1)' })).toHaveAttribute('href', '/wp-admin/things/?status=open');

    const search = screen.getByRole('searchbox', { name: 'Search things' });
    search.focus();
    await userEvent.keyboard(' beta {Enter}');
    expect(window.location.search).toBe('?search=beta');
    expect(screen.getByText('4 things matching “beta”.')).toHaveAttribute('aria-live', 'polite');
    await userEvent.click(screen.getByRole('link', { name: 'Clear the search' }));
    expect(window.location.search).toBe('');
    expect(search).toHaveValue('');

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(window.location.search).toBe('?paged=2');
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
  });

  it('chooses rows: select-all is mixed when some are chosen, Space toggles a row, Shift chooses a range', async () => {
    show(<Things bulk={{ actions: [{ value: 'archive', label: 'Archive', done: 'archived' }], run: async () => ({ done: 0, failed: [] }) }} />);
    const all = screen.getByRole('checkbox', { name: 'Select all things on this page' }) as HTMLInputElement;
    expect(all.indeterminate).toBe(false);

    box('Beta').focus();
    await userEvent.keyboard(' ');
    expect(box('Beta')).toBeChecked();
    expect(all).not.toBeChecked();
    expect(all.indeterminate).toBe(true);
    expect(screen.getByRole('button', { name: 'Apply to 1 selected' })).toBeDisabled(); // no action chosen yet

    await userEvent.keyboard(' ');
    expect(box('Beta')).not.toBeChecked();
    expect(all.indeterminate).toBe(false);

    // Shift+Space: from the last row toggled to this one.
    await userEvent.keyboard(' ');
    box('Delta').focus();
    await userEvent.keyboard('{Shift>} {/Shift}');
    expect([box('Alpha'), box('Beta'), box('Gamma'), box('Delta')].map((b) => (b as HTMLInputElement).checked)).toEqual([false, true, true, true]);
    // Shift+click the other way clears the range it spans.
    await userEvent.click(box('Gamma'));
    await userEvent.keyboard('{Shift>}');
    await userEvent.click(box('Beta'));
    await userEvent.keyboard('{/Shift}');
    expect([box('Alpha'), box('Beta'), box('Gamma'), box('Delta')].map((b) => (b as HTMLInputElement).checked)).toEqual([false, false, false, true]);

    await userEvent.click(all);
    expect(all).toBeChecked();
    expect(all.indeterminate).toBe(false);
    expect(screen.getByRole('button', { name: 'Apply to 4 selected' })).toBeInTheDocument();
    await userEvent.click(all);
    expect(screen.getAllByRole('checkbox').filter((b) => (b as HTMLInputElement).checked)).toEqual([]);
  });

  it('asks before a bulk action, runs it and announces each row’s result in a polite live region, keeping the failed rows chosen', async () => {
    const run = vi.fn(async (_: string, rows: Thing[]) => ({ done: rows.length - 1, failed: [{ row: rows[1], message: 'It is locked.' }] }));
    const reload = vi.fn();
    show(<Things data={{ reload }} bulk={{ actions: [{ value: 'archive', label: 'Archive', done: 'archived', confirm: { warning: 'Archived things leave the shop.' } }], run }} />);
    await userEvent.click(box('Alpha'));
    await userEvent.click(box('Gamma'));
    await userEvent.click(box('Delta'));
    await userEvent.selectOptions(screen.getByLabelText('Bulk action'), 'archive');
    await userEvent.click(screen.getByRole('button', { name: 'Apply to 3 selected' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Archive: 3 things?' });
    expect(dialog).toHaveTextContent('Alpha, Gamma, Delta');
    expect(dialog).toHaveTextContent('Archived things leave the shop.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Archive' }));

    expect(run).toHaveBeenCalledWith('archive', [things[0], things[2], things[3]]);
    const result = await screen.findByText('2 things archived. 1 failed: Gamma: It is locked.');
    const live = result.closest('[aria-live]');
    expect(live).toHaveAttribute('aria-live', 'polite');
    await waitFor(() => expect(live).toHaveFocus());
    expect(reload).toHaveBeenCalled();
    expect(box('Gamma')).toBeChecked();
    expect(box('Alpha')).not.toBeChecked();
  });

  it('says a refused bulk request in the same place', async () => {
    show(<Things bulk={{ actions: [{ value: 'archive', label: 'Archive', done: 'archived' }], run: async () => ({ refused: 'Sorry, you are not allowed to do that.' }) }} />);
    await userEvent.click(box('Alpha'));
    await userEvent.selectOptions(screen.getByLabelText('Bulk action'), 'archive');
    await userEvent.click(screen.getByRole('button', { name: 'Apply to 1 selected' }));
    expect(await screen.findByText('Sorry, you are not allowed to do that.')).toBeInTheDocument();
    expect(box('Alpha')).toBeChecked();
  });

  it('says when there is nothing, and when the list could not be read, with a retry', async () => {
    const { unmount } = show(<Things data={{ rows: [], total: 0, totalPages: 0 }} />);
    expect(screen.getByRole('cell', { name: 'No things found.' })).toBeInTheDocument();
    expect(screen.getByText('0 things.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Thing pages' })).toBeNull();
    unmount();

    const reload = vi.fn();
    show(<Things data={{ rows: [], total: 0, error: { code: 'http_500', message: 'The shop answered with an error (500).', status: 500 }, reload }} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The shop answered with an error (500).');
    expect(screen.queryByText('No things found.')).toBeNull();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('loads without moving anything: the rows stay, marked busy, and the count line keeps its place', () => {
    const { rerender } = show(<Things data={{ loading: true, rows: [] }} />);
    // The first load holds the empty state's place with a blank row.
    const placeholder = screen.getAllByRole('row').at(-1)!;
    expect(placeholder).toHaveTextContent(/^\s*$/);
    expect(screen.getByText('Loading…')).toHaveAttribute('aria-live', 'polite');
    rerender(
      <Router>
        <Things data={{ loading: true }} />
      </Router>,
    );
    expect(screen.getAllByRole('rowheader').map((c) => c.textContent)).toEqual(['Alpha', 'Beta', 'Gamma', 'Delta']);
    expect(screen.getAllByRole('rowgroup')[1]).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('navigation', { name: 'Thing pages' })).toBeInTheDocument();
  });

  it('shows card rows as a named list', () => {
    function Cards() {
      const { location } = useRouter();
      const query = useListQuery(location, { base: '/wp-admin/things/' });
      return (
        <DataTable
          label="Things"
          noun={{ one: 'thing', many: 'things' }}
          query={query}
          data={{ rows: [], total: 0, loading: false, error: null, reload: () => {} }}
          item={(t: Thing) => <article>{t.name}</article>}
          empty="Nothing here."
        />
      );
    }
    show(<Cards />);
    expect(screen.getByRole('list', { name: 'Things' })).toBeInTheDocument();
    expect(screen.getByText('Nothing here.')).toBeInTheDocument();
  });

  it('has no structural accessibility violations, rows chosen and the confirmation open', async () => {
    const { container } = show(<Things bulk={{ actions: [{ value: 'archive', label: 'Archive', done: 'archived', confirm: {} }], run: async () => ({ done: 1, failed: [] }) }} />);
    const rules = { rules: { 'color-contrast': { enabled: false } } };
    await userEvent.click(box('Beta'));
    let res = await axe.run(container, rules);
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await userEvent.selectOptions(screen.getByLabelText('Bulk action'), 'archive');
    await userEvent.click(screen.getByRole('button', { name: 'Apply to 1 selected' }));
    screen.getByRole('alertdialog');
    res = await axe.run(container, rules);
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

describe('a bulk answer', () => {
  const ok = (data: unknown) => ({ ok: true as const, status: 200, data, total: null, totalPages: null, headers: new Headers() }) as Parameters<typeof bulkAnswer>[1];
  it('counts what changed and names each refused row', () => {
    const answer = ok({ action: 'trash', changed: 1, items: [{ id: 1, changed: true }, { id: 2, changed: false }, { id: 3, changed: false, error: { code: 'rest_invalid', message: 'It is &quot;locked&quot;.' } }] });
    expect(bulkAnswer(things.slice(0, 3), answer)).toEqual({ done: 1, failed: [{ row: things[2], message: 'It is "locked".' }] });
    expect(bulkAnswer(things, ok({ action: 'trash', changed: 4 }))).toEqual({ done: 4, failed: [] });
  });
  it('passes a refused request on', () => {
    expect(bulkAnswer(things, { ok: false, status: 403, error: { code: 'rest_forbidden', message: 'Sorry.', status: 403 } })).toEqual({ refused: 'Sorry.' });
  });
});
