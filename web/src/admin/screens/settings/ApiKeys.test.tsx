import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from '../../AdminApp';
import { adminData, fieldRefusal, setupAdminTests, stubFetch } from '../../test-utils';
import { API_KEYS_PATH, type ApiKey, type CreatedKey } from './ApiKeys';

const admin = { ...adminData, user: { id: 1, name: 'Ada Admin', role: 'administrator' } };

const sync: ApiKey = {
  id: 4,
  description: 'Stock sync',
  permissions: 'read_write',
  truncated_key: 'a1b2c3d',
  user_id: 3,
  user: { id: 3, name: 'Mia Manager', email: 'mia@example.com', role: 'shop_manager' },
  date_created: '2026-11-20T09:00:00Z',
  last_access: '2026-11-24T10:00:00Z',
};

const users = [
  { id: 1, email: 'ada@example.com', first_name: 'Ada', last_name: 'Admin', username: 'ada', role: 'administrator' },
  { id: 3, email: 'mia@example.com', first_name: 'Mia', last_name: 'Manager', username: 'mia', role: 'shop_manager' },
  { id: 9, email: 'carla@example.com', first_name: 'Carla', last_name: 'Customer', username: 'carla', role: 'customer' },
];

const made: CreatedKey = {
  id: 5,
  description: 'Accounting',
  permissions: 'read',
  truncated_key: '9f8e7d6',
  user_id: 9,
  user: { id: 9, name: 'Carla Customer', email: 'carla@example.com', role: 'customer' },
  date_created: '2026-11-24T11:00:00Z',
  last_access: null,
  consumer_key: 'ck_' + '1'.repeat(33) + '9f8e7d6',
  consumer_secret: 'cs_' + '2'.repeat(40),
};

/** The key routes and the user search; extra answers first. */
function api(extra?: (method: string, url: string, body: unknown) => { status?: number; body: unknown } | undefined) {
  return stubFetch((method, url, body) => {
    const a = extra?.(method, url, body);
    if (a) return a;
    if (method === 'GET' && url === API_KEYS_PATH) return { body: [sync] };
    if (method === 'GET' && url.startsWith('/wp-json/wc/v3/customers?')) {
      const q = new URL(url, 'http://x').searchParams.get('search') ?? '';
      return { body: users.filter((u) => u.email.includes(q)) };
    }
    return undefined;
  });
}

async function axeClean(container: HTMLElement) {
  const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

describe('Settings > Advanced > REST API', () => {
  setupAdminTests({ path: '/wp-admin/settings/advanced/keys/' });

  it('lists the keys with their user, permissions, truncated key and last access', async () => {
    api();
    const { container } = render(<AdminApp data={admin} />);
    const cell = await screen.findByText('Stock sync', {}, { timeout: 5000 });
    const row = cell.closest('tr') as HTMLElement;
    expect(within(row).getByText('Mia Manager (mia@example.com)')).toBeInTheDocument();
    expect(within(row).getByText('Read/Write')).toBeInTheDocument();
    expect(within(row).getByText('…a1b2c3d')).toBeInTheDocument();
    expect(within(row).getByText((_, el) => el?.tagName === 'TIME' && el.getAttribute('datetime') === sync.last_access)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'REST API' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Advanced' })).toHaveAttribute('aria-current', 'page');
    await axeClean(container);
  });

  it('adds a key for a user found by search, shows the key and secret once with copy buttons, focused', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    let attempt = 0;
    const calls = api((method, url) => {
      if (method === 'POST' && url === API_KEYS_PATH) {
        attempt++;
        return attempt === 1 ? fieldRefusal('description', 'A description is required, up to 200 characters.') : { status: 201, body: made };
      }
      return undefined;
    });
    const { container } = render(<AdminApp data={admin} />);
    await screen.findByText('Stock sync', {}, { timeout: 5000 });
    await userEvent.click(screen.getByRole('button', { name: 'Add key' }));
    expect(screen.getByRole('heading', { name: 'Add a key' })).toHaveFocus();

    // Nothing typed: refused here, the field focused and described.
    await userEvent.click(screen.getByRole('button', { name: 'Generate API key' }));
    const description = screen.getByLabelText(/^Description/);
    await waitFor(() => expect(description).toHaveFocus());
    expect(description).toHaveAccessibleDescription(/Describe what the key is for/);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.type(description, 'Accounting');
    await userEvent.type(screen.getByLabelText(/^Find a user/), 'carla');
    const user = screen.getByLabelText(/^User/);
    await waitFor(() => expect(within(user).getByRole('option', { name: /Carla Customer/ })).toBeInTheDocument());
    await userEvent.selectOptions(user, '9');
    await userEvent.selectOptions(screen.getByLabelText(/^Permissions/), 'read');
    await axeClean(container);

    // The server's refusal goes to its field.
    await userEvent.click(screen.getByRole('button', { name: 'Generate API key' }));
    await waitFor(() => expect(screen.getByLabelText(/^Description/)).toHaveFocus());
    expect(screen.getByLabelText(/^Description/)).toHaveAccessibleDescription(/A description is required/);

    await userEvent.click(screen.getByRole('button', { name: 'Generate API key' }));
    const panel = await screen.findByRole('heading', { name: /API key generated/ });
    await waitFor(() => expect(panel).toHaveFocus());
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ description: 'Accounting', user_id: 9, permissions: 'read' });
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.headers['X-WP-Nonce']).toBe(admin.nonce);
    expect(screen.getByText(/They will not be shown again/)).toBeInTheDocument();
    expect(screen.getByLabelText('Consumer key')).toHaveValue(made.consumer_key);
    expect(screen.getByLabelText('Consumer secret')).toHaveValue(made.consumer_secret);
    expect(screen.getByRole('status')).toHaveTextContent('API key “Accounting” generated.');
    // The list has the new key, by its last characters only.
    expect(screen.getByText('…9f8e7d6')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Copy consumer secret' }));
    expect(writeText).toHaveBeenCalledWith(made.consumer_secret);
    expect(screen.getByRole('status')).toHaveTextContent('Consumer secret copied.');
    await axeClean(container);

    // Done: the secret leaves the page, the keyboard goes back to the list.
    await userEvent.click(screen.getByRole('button', { name: 'I have copied them' }));
    expect(screen.queryByDisplayValue(made.consumer_secret)).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'REST API keys' })).toHaveFocus());
  });

  it('revokes a key after a confirmation, and keeps it when cancelled', async () => {
    const calls = api((method, url) => (method === 'DELETE' && url === `${API_KEYS_PATH}/4` ? { body: { deleted: true } } : undefined));
    render(<AdminApp data={admin} />);
    await screen.findByText('Stock sync', {}, { timeout: 5000 });
    const revoke = screen.getByRole('button', { name: 'Revoke key Stock sync' });
    await userEvent.click(revoke);
    let dialog = screen.getByRole('alertdialog', { name: 'Revoke the key “Stock sync”?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(revoke).toHaveFocus();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(revoke);
    dialog = screen.getByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    expect(await screen.findByText(/API key “Stock sync” revoked/)).toBeInTheDocument();
    expect(screen.queryByText('…a1b2c3d')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'REST API keys' })).toHaveFocus());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([`${API_KEYS_PATH}/4`]);
  });

  it('tells a shop manager that keys are an administrator’s, without asking the server', async () => {
    const calls = api();
    render(<AdminApp data={adminData} />);
    expect(await screen.findByText(/Only an administrator can see, add or revoke REST API keys/, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith(API_KEYS_PATH))).toBe(false);
  });
});
