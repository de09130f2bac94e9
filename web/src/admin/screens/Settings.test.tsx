import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { adminData, fieldRefusal, stubDocument, stubFetch, setupScreenTests, retype } from '../test-utils';
import { Router } from '../router';
import Settings, { SETTINGS_PATH, TEST_MAIL_PATH, type ShopSettings } from './Settings';

const stored: ShopSettings = {
  name: 'Vitrine',
  tagline: 'Shop well',
  address: { address_1: '', address_2: '', city: '', postcode: '', state: '', country: '' },
  email: '',
  phone: '',
  social: { facebook: '', instagram: '', x: '', pinterest: '', youtube: '', tiktok: '' },
  store_notice: '',
  coming_soon: false,
  infinite_scroll: 'spinner',
  infinite_scroll_history: 'push',
  erasure_reviews: 'anonymise',
  zoom: false,
  lightbox: true,
  page_loader: false,
  header_hide_on_scroll: false,
  clear_on_reselect: false,
  clickable_out_of_stock: false,
  deselect_conflicting: false,
  consent_banner: false,
  version: 3,
  updated_at: '2026-11-24T10:00:00Z',
};

const props = setupScreenTests('settings');

describe('the settings screen', () => {
  it('saves the changed settings with the version they were based on', async () => {
    const calls = stubDocument(SETTINGS_PATH, stored);
    render(<Router><Settings {...props} /></Router>);
    const name = await screen.findByLabelText(/Shop name/);
    await retype(name, 'Maison Vitrine');
    await userEvent.click(screen.getByLabelText('Coming soon'));
    await userEvent.selectOptions(screen.getByLabelText('Infinite scroll'), 'button');
    const consent = screen.getByRole('checkbox', { name: 'Ask shoppers to accept or reject non-essential cookies' });
    expect(consent).toHaveAccessibleDescription(/Global Privacy Control/);
    await userEvent.click(consent);
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText(/^Settings saved\./)).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toMatchObject({ name: 'Maison Vitrine', coming_soon: true, infinite_scroll: 'button', consent_banner: true, version: 3 });
    expect(put?.headers['X-WP-Nonce']).toBe(adminData.nonce);
  });

  it('ties a refused field to its message and takes the keyboard there', async () => {
    stubDocument(SETTINGS_PATH, stored, fieldRefusal('address.country', 'A two-letter country code (ISO 3166-1), such as US or DE.'));
    render(<Router><Settings {...props} /></Router>);
    await userEvent.type(await screen.findByLabelText('Country code'), 'Narnia');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    const field = screen.getByLabelText('Country code');
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/A two-letter country code/);
  });

  it('refuses to overwrite newer settings and offers to load them', async () => {
    const newer = { ...stored, name: 'Their Name', version: 4 };
    stubFetch((method) =>
      method === 'GET'
        ? { body: stored }
        : { status: 409, body: { code: 'vitrine_settings_stale', message: 'Someone else saved the settings after you opened them.', data: { status: 409, current: newer } } },
    );
    render(<Router><Settings {...props} /></Router>);
    await userEvent.type(await screen.findByLabelText('Tagline'), '!');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Someone else saved the settings after you opened them.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load their settings' }));
    expect(screen.getByLabelText(/Shop name/)).toHaveValue('Their Name');
  });

  it('sends a test message and shows the mail server’s refusal', async () => {
    let fail = false;
    const calls = stubFetch((method, url, body) => {
      if (method === 'GET') return { body: stored };
      if (url === TEST_MAIL_PATH) {
        return fail
          ? { status: 502, body: { code: 'vitrine_mail_failed', message: 'The mail server refused the message: 550 no such user', data: { status: 502 } } }
          : { body: { sent: true, to: (body as { to: string }).to } };
      }
      return undefined;
    });
    render(<Router><Settings {...props} /></Router>);
    await userEvent.type(await screen.findByLabelText('Send a test message to'), 'owner@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send test message' }));
    expect(await screen.findByText(/A test message was sent to owner@example.com/)).toBeInTheDocument();
    expect(calls.find((c) => c.url === TEST_MAIL_PATH)?.body).toEqual({ to: 'owner@example.com' });
    fail = true;
    await userEvent.click(screen.getByRole('button', { name: 'Send test message' }));
    expect(await screen.findByText(/550 no such user/)).toBeInTheDocument();
  });

  it('has no structural accessibility violations', async () => {
    stubFetch(() => ({ body: stored }));
    const { container } = render(<Router><Settings {...props} /></Router>);
    await screen.findByLabelText(/Shop name/);
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

it('edits the footer\'s contact details and social profiles, and shows a refused profile on its field', async () => {
  const user = userEvent.setup();
  const sent: unknown[] = [];
  stubFetch((method, _url, body) => {
    if (method === 'PUT') {
      sent.push(body);
      return { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): social.instagram', data: { status: 400, params: { 'social.instagram': 'An https address of at most 300 characters.' } } } };
    }
    return { status: 200, body: stored };
  });
  render(<Router><Settings {...props} /></Router>);
  await user.type(await screen.findByLabelText('Public email address'), 'hello@shop.example');
  await user.type(screen.getByLabelText('Instagram profile'), 'http://insta');
  await user.click(screen.getByRole('button', { name: /Save/ }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toMatchObject({ email: 'hello@shop.example', social: { instagram: 'http://insta' }, version: 3 });
  await screen.findByText('An https address of at most 300 characters.');
});
