import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from '../AdminApp';
import { adminData, fieldRefusal, setupAdminTests, stubFetch } from '../test-utils';
import { PRIVACY_PATH, type PrivacyRequest } from './Privacy';

const base: PrivacyRequest = {
  id: 3,
  type: 'erase',
  email: 'carla@example.com',
  user_id: 9,
  source: 'customer',
  status: 'confirmed',
  date_created: '2026-11-20T09:00:00Z',
  confirm_expires: '2026-11-21T09:00:00Z',
  date_confirmed: '2026-11-20T10:00:00Z',
  date_completed: null,
  download_expires: null,
  downloaded: false,
  has_export: false,
  result: null,
};

const exported: PrivacyRequest = { ...base, id: 2, type: 'export', status: 'completed', email: 'bob@example.com', has_export: true, date_completed: '2026-11-20T10:00:00Z' };

async function axeClean(container: HTMLElement) {
  const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

describe('Privacy requests', () => {
  setupAdminTests({ path: '/wp-admin/privacy/' });

  it('lists the requests with their state, approves a confirmed erasure after a confirmation, and offers a kept export', async () => {
    const calls = stubFetch((method, url) => {
      if (method === 'GET' && url === PRIVACY_PATH) return { body: [base, exported] };
      if (method === 'POST' && url === `${PRIVACY_PATH}/3/approve`)
        return {
          body: { ...base, status: 'completed', email: '', result: { orders_anonymised: 2, reviews: 1, reviews_mode: 'anonymise', contact_messages_deleted: 1, account_deleted: true } },
        };
      return undefined;
    });
    const { container } = render(<AdminApp data={adminData} />);
    const row = (await screen.findByText('carla@example.com', {}, { timeout: 5000 })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Confirmed: waiting for your approval')).toBeInTheDocument();
    const dl = screen.getByRole('link', { name: 'Download export of bob@example.com' });
    expect(dl.getAttribute('href')).toMatch(new RegExp(`^${PRIVACY_PATH}/2/export\\?_wpnonce=`));
    await axeClean(container);

    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: 'Erase data of carla@example.com' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Erase the personal data of carla@example.com?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Erase personal data' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Personal data erased: 2 orders anonymised, 1 reviews anonymised, 1 messages deleted, account deleted.'));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(screen.getByText('Erased (request #3)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Erase data of/ })).toBeNull();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Requests' })).toHaveFocus());
  });

  it('adds a request for an address; a refused address is shown on its field', async () => {
    let refuse = true;
    const calls = stubFetch((method, url, body) => {
      if (method === 'GET' && url === PRIVACY_PATH) return { body: [] };
      if (method === 'POST' && url === PRIVACY_PATH) {
        if (refuse) return fieldRefusal('email', 'Enter a valid email address.');
        return { status: 201, body: { ...base, id: 7, status: 'pending', confirm_expires: '2999-01-01T00:00:00Z', type: (body as { type: string }).type, email: (body as { email: string }).email, source: 'staff' } };
      }
      return undefined;
    });
    const { container } = render(<AdminApp data={adminData} />);
    await screen.findByText('No privacy requests yet.', {}, { timeout: 5000 });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    const email = screen.getByLabelText(/^Email address/);
    expect(email).toHaveFocus();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.type(email, 'nope');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(email).toHaveAccessibleDescription(/Enter a valid email address./));
    await axeClean(container);
    refuse = false;
    await user.selectOptions(screen.getByLabelText('Type'), 'erase');
    await user.clear(email);
    await user.type(email, 'dora@example.com');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('A confirmation link was emailed to dora@example.com.'));
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ type: 'erase', email: 'dora@example.com' });
    const row = screen.getByText('dora@example.com').closest('tr') as HTMLElement;
    expect(within(row).getByText('Waiting for the person to confirm')).toBeInTheDocument();
    expect(email).toHaveValue('');
  });
});
