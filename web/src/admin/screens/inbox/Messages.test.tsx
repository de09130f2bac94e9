import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from '../../AdminApp';
import { adminData, stubFetch, setupAdminTests } from '../../test-utils';
import type { AdminMessage } from './Messages';

const message = (id: number, over: Partial<AdminMessage> = {}): AdminMessage => ({
  id,
  date: '2026-11-24T10:00:00Z',
  status: 'new',
  form_id: 1,
  form_title: 'Contact form',
  name: `Sender ${id}`,
  email: `s${id}@example.com`,
  subject: `Question ${id}`,
  excerpt: `Is item ${id} in stock?`,
  fields: [
    { name: 'your-name', label: 'Your name', value: `Sender ${id}` },
    { name: 'your-message', label: 'Your message', value: `Is item ${id} in stock?` },
  ],
  files: [
    { id: 7, name: 'photo.png', mime_type: 'image/png', size: 2048, purged: false, download: `/wp-json/vitrine/v1/admin/messages/${id}/files/7` },
    { id: 8, name: 'old.pdf', mime_type: 'application/pdf', size: 100, purged: true, download: '' },
  ],
  replies: [],
  client_ip: '192.0.2.7',
  customer_id: 0,
  ...over,
});

setupAdminTests({ path: '/wp-admin/messages/' });

function api(list: AdminMessage[]) {
  return stubFetch((method, url, body) => {
    const base = '/wp-json/vitrine/v1/admin/messages';
    if (method === 'GET' && url.startsWith(base + '/counts')) return { body: { new: 2, read: 0, replied: 0, trash: 1 } };
    if (method === 'GET' && (url === base || url.startsWith(base + '?'))) return { body: list, headers: { 'X-WP-Total': String(list.length), 'X-WP-TotalPages': '1' } };
    const m = url.match(/\/messages\/(\d+)(\/replies)?/);
    if (!m) return undefined;
    const msg = list.find((x) => x.id === Number(m[1]))!;
    if (method === 'GET') return { body: { ...msg, status: 'read' } };
    if (method === 'POST') {
      const b = body as { subject: string; message: string };
      if (!b.message.trim()) return { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): message', data: { status: 400, params: { message: 'Please type your reply.' } } } };
      return { status: 201, body: { id: 30, date: '2026-11-24T11:00:00Z', author: 'Mia Manager', to: msg.email, subject: b.subject, message: b.message, mail: 'queued' } };
    }
    if (method === 'DELETE') return { body: { ...msg, status: 'trash' } };
    return { body: { ...msg, status: (body as { status: string }).status } };
  });
}

describe('the contact inbox', () => {
  it('opens a message in the reading pane, with its attachments, and answers it by mail', async () => {
    const calls = api([message(1), message(2)]);
    render(<AdminApp data={adminData} />);
    const tabs = await screen.findByRole('navigation', { name: 'Messages by status' });
    await waitFor(() => expect(within(tabs).getByRole('link', { name: /^New/ })).toHaveTextContent('New (2)'));
    await userEvent.click(await screen.findByRole('link', { name: /Sender 1/ }));
    const title = await screen.findByRole('heading', { level: 2, name: 'Question 1' });
    await waitFor(() => expect(title).toHaveFocus());
    expect(window.location.search).toContain('message=1');
    expect(calls.some((c) => c.method === 'GET' && c.url === '/wp-json/vitrine/v1/admin/messages/1')).toBe(true);
    // A plain link carries the REST nonce in _wpnonce (no script adds a header to it).
    expect(screen.getByRole('link', { name: 'photo.png' })).toHaveAttribute('href', '/wp-json/vitrine/v1/admin/messages/1/files/7?_wpnonce=abcdef0123');
    expect(screen.getByText(/old\.pdf \(application\/pdf, 100 bytes\): removed after the retention period\./)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'old.pdf' })).toBeNull();

    // An empty reply is refused in place; a reply is sent and shown.
    expect(screen.getByRole('textbox', { name: 'Subject' })).toHaveValue('Re: Question 1');
    await userEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    const box = screen.getByRole('textbox', { name: /Your reply/ });
    expect(await screen.findByText('Please type your reply.')).toBeInTheDocument();
    expect(box).toHaveFocus();
    await userEvent.type(box, 'Yes, it is.');
    await userEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('Your reply to s1@example.com is on its way.')).toBeInTheDocument();
    const post = calls.filter((c) => c.method === 'POST').at(-1)!;
    expect(post.url).toBe('/wp-json/vitrine/v1/admin/messages/1/replies');
    expect(post.body).toEqual({ subject: 'Re: Question 1', message: 'Yes, it is.' });
    const history = screen.getByRole('heading', { name: 'Replies' }).nextElementSibling as HTMLElement;
    await waitFor(() => expect(within(history).getByText(/to s1@example.com by Mia Manager/).closest('li')).toHaveFocus());
    expect(box).toHaveValue('');
  });

  it('asks before deleting, backs out with Escape, and moves the message to the trash', async () => {
    const calls = api([message(1)]);
    window.history.replaceState(null, '', '/wp-admin/messages/?message=1');
    render(<AdminApp data={adminData} />);
    await screen.findByRole('heading', { level: 2, name: 'Question 1' });
    const del = screen.getByRole('button', { name: 'Delete…' });
    await userEvent.click(del);
    const confirm = screen.getByRole('group', { name: 'Move the message from Sender 1 to the trash?' });
    expect(within(confirm).getByRole('button', { name: 'Move to trash' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete…' })).toHaveFocus());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Delete…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Move to trash' }));
    expect(await screen.findByText(/moved to the trash/)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')!.url).toBe('/wp-json/vitrine/v1/admin/messages/1');
    await waitFor(() => expect(window.location.search).not.toContain('message='));
    expect(screen.getByText('Choose a message in the list to read it.')).toBeInTheDocument();
  });

  it('has no structural accessibility violations with a message open', async () => {
    api([message(1), message(2, { status: 'replied', email: '' })]);
    window.history.replaceState(null, '', '/wp-admin/messages/?message=1');
    const { container } = render(<AdminApp data={adminData} />);
    await screen.findByRole('heading', { level: 2, name: 'Question 1' });
    await screen.findByRole('link', { name: /Sender 2/ });
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
