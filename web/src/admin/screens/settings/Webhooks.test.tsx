import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from '../../AdminApp';
import { adminData, setupAdminTests, stubFetch, retype } from '../../test-utils';
import { disabledReason, MAX_FAILURES, WEBHOOKS_PATH, type Delivery, type Webhook } from './Webhooks';

const orders: Webhook = {
  id: 7,
  name: 'Orders to accounting',
  status: 'active',
  topic: 'order.created',
  delivery_url: 'https://hooks.example/orders',
  date_created_gmt: '2026-11-20T09:00:00',
  date_modified_gmt: null,
};
const broken: Webhook = { ...orders, id: 8, name: 'Stock feed', status: 'disabled', topic: 'product.updated', delivery_url: 'https://feed.example/in' };

function attempt(id: number, code: string, message: string, extra: Partial<Delivery> = {}): Delivery {
  return {
    id,
    delivery_id: 'd' + id,
    topic: 'product.updated',
    duration: '0.215',
    summary: code === '0' ? `Error: ${message}` : `HTTP ${code} ${message}`,
    request_method: 'POST',
    request_url: 'https://feed.example/in',
    request_headers: { 'Content-Type': 'application/json', 'X-WC-Webhook-Topic': 'product.updated', 'X-WC-Webhook-Signature': 'c2lnbmVk' },
    request_body_size: 1834,
    response_code: code,
    response_message: message,
    date_created_gmt: `2026-11-24T10:0${id % 10}:00`,
    ...extra,
  };
}

const failures = [5, 4, 3, 2, 1].map((i) => attempt(i, '500', 'Internal Server Error'));

function api(extra?: (method: string, url: string, body: unknown) => { status?: number; body: unknown; headers?: Record<string, string> } | undefined) {
  return stubFetch((method, url, body) => {
    const a = extra?.(method, url, body);
    if (a) return a;
    if (method === 'GET' && url.startsWith(`${WEBHOOKS_PATH}?`)) return { body: [orders, broken], headers: { 'X-WP-Total': '2', 'X-WP-TotalPages': '1' } };
    if (method === 'GET' && url === `${WEBHOOKS_PATH}/7`) return { body: orders };
    if (method === 'GET' && url === `${WEBHOOKS_PATH}/8`) return { body: broken };
    if (method === 'GET' && url.startsWith(`${WEBHOOKS_PATH}/8/deliveries`)) return { body: failures };
    if (method === 'GET' && url.startsWith(`${WEBHOOKS_PATH}/7/deliveries`)) return { body: [attempt(12, '200', 'OK', { topic: 'order.created' }), attempt(11, '0', 'dial tcp: i/o timeout', { topic: 'ping' })] };
    return undefined;
  });
}

async function axeClean(container: HTMLElement) {
  const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

describe('why a disabled webhook is disabled', () => {
  it('names the failures in a row and the last answer, or the last failure alone', () => {
    expect(disabledReason(failures)).toMatch(new RegExp(`after ${MAX_FAILURES} failed deliveries in a row.*HTTP 500 Internal Server Error`));
    expect(disabledReason([attempt(3, '0', 'connection refused'), attempt(2, '200', 'OK')])).toMatch(/^Its last delivery failed, .*Error: connection refused\.$/);
    expect(disabledReason([attempt(3, '204', 'No Content'), ...failures])).toBeNull();
    expect(disabledReason([])).toBeNull();
  });
});

describe('Settings > Advanced > Webhooks', () => {
  setupAdminTests({ path: '/wp-admin/settings/advanced/webhooks/' });

  it('lists the webhooks, a disabled one with why, and deletes one after a confirmation', async () => {
    let deleted = false;
    const calls = api((method, url) => {
      if (method === 'DELETE' && url === `${WEBHOOKS_PATH}/7?force=true`) {
        deleted = true;
        return { body: orders };
      }
      return undefined;
    });
    const { container } = render(<AdminApp data={adminData} />);
    const link = await screen.findByRole('link', { name: 'Orders to accounting' }, { timeout: 5000 });
    expect(link).toHaveAttribute('href', '/wp-admin/settings/advanced/webhooks/7/');
    const row = link.closest('tr') as HTMLElement;
    expect(within(row).getByText('Active')).toBeInTheDocument();
    expect(within(row).getByText('Order created')).toBeInTheDocument();
    expect(within(row).getByText('https://hooks.example/orders')).toBeInTheDocument();
    const brokenRow = screen.getByRole('link', { name: 'Stock feed' }).closest('tr') as HTMLElement;
    expect(await within(brokenRow).findByText(/disabled it after 5 failed deliveries in a row.*HTTP 500 Internal Server Error/)).toBeInTheDocument();
    // Only the disabled webhook's log is read for that.
    expect(calls.filter((c) => c.url.includes('/deliveries')).map((c) => c.url)).toEqual([`${WEBHOOKS_PATH}/8/deliveries?per_page=5`]);
    expect(screen.getByRole('link', { name: 'Webhooks' })).toHaveAttribute('aria-current', 'page');
    await axeClean(container);

    await userEvent.click(screen.getByRole('button', { name: 'Delete webhook Orders to accounting' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete the webhook “Orders to accounting”?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete permanently' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Webhook “Orders to accounting” deleted.');
    expect(deleted).toBe(true);
    expect(screen.queryByRole('link', { name: 'Orders to accounting' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Webhooks', level: 2 })).toHaveFocus());
  });

  it('creates a webhook with a filled-in secret; a refused URL is shown and focused; the new webhook opens', async () => {
    let attempts = 0;
    const calls = api((method, url, body) => {
      if (method === 'POST' && url === WEBHOOKS_PATH) {
        attempts++;
        if (attempts === 1) {
          return {
            status: 400,
            body: { code: 'woocommerce_rest_shop_webhook_invalid_delivery_url', message: 'Webhook delivery URL must not point to a loopback, private or link-local address.', data: { status: 400 } },
          };
        }
        return { status: 201, body: { ...orders, id: 9, ...(body as object) } };
      }
      if (method === 'GET' && url === `${WEBHOOKS_PATH}/9`) return { body: { ...orders, id: 9, name: 'Coupons out', topic: 'coupon.created' } };
      if (method === 'GET' && url.startsWith(`${WEBHOOKS_PATH}/9/deliveries`)) return { body: [] };
      return undefined;
    });
    window.history.replaceState(null, '', '/wp-admin/settings/advanced/webhooks/new/');
    const { container } = render(<AdminApp data={adminData} />);
    const secret = await screen.findByLabelText(/^Secret/, {}, { timeout: 5000 });
    expect((secret as HTMLInputElement).value).toMatch(/^[0-9a-f]{48}$/);
    await userEvent.type(screen.getByLabelText(/^Name/), 'Coupons out');
    await userEvent.selectOptions(screen.getByLabelText(/^Topic/), 'coupon.created');
    await userEvent.selectOptions(screen.getByLabelText(/^Status/), 'paused');
    const url = screen.getByLabelText(/^Delivery URL/);
    await userEvent.type(url, 'http://10.0.0.5/hook');
    await axeClean(container);
    await userEvent.click(screen.getByRole('button', { name: 'Save webhook' }));
    await waitFor(() => expect(url).toHaveFocus());
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(url).toHaveAccessibleDescription(/must not point to a loopback/);

    await retype(url, 'https://coupons.example/in');
    await userEvent.click(screen.getByRole('button', { name: 'Save webhook' }));
    expect(await screen.findByText('Webhook “Coupons out” created.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/wp-admin/settings/advanced/webhooks/9/');
    const sent = calls.filter((c) => c.method === 'POST').at(-1)?.body as Record<string, string>;
    expect(sent).toEqual({ name: 'Coupons out', status: 'paused', topic: 'coupon.created', delivery_url: 'https://coupons.example/in', secret: (secret as HTMLInputElement).value });
    expect(await screen.findByText('No deliveries yet.')).toBeInTheDocument();
  });

  it('edits a webhook (an empty secret is kept) and shows its delivery log, each attempt expandable', async () => {
    const calls = api((method, url, body) => (method === 'PUT' && url === `${WEBHOOKS_PATH}/7` ? { body: { ...orders, ...(body as object) } } : undefined));
    window.history.replaceState(null, '', '/wp-admin/settings/advanced/webhooks/7/');
    const { container } = render(<AdminApp data={adminData} />);
    const name = await screen.findByLabelText(/^Name/, {}, { timeout: 5000 });
    await waitFor(() => expect(name).toHaveValue('Orders to accounting'));
    expect(screen.getByLabelText(/^Secret/)).toHaveValue('');

    const log = await screen.findByRole('table', { name: 'Delivery attempts, newest first' });
    const rows = within(log).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('200 OK')).toBeInTheDocument();
    expect(within(rows[0]).getByText('0.21 s')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Ping')).toBeInTheDocument();
    expect(within(rows[1]).getByText(/No answer dial tcp: i\/o timeout/)).toBeInTheDocument();
    const details = within(rows[0]).getByText('Request and response');
    await userEvent.click(details);
    expect(details.closest('details')).toHaveAttribute('open');
    expect(within(rows[0]).getByText(/X-WC-Webhook-Signature: c2lnbmVk/)).toBeInTheDocument();
    expect(within(rows[0]).getByText('1834 bytes (not kept)')).toBeInTheDocument();
    await axeClean(container);

    await retype(name, 'Orders to the ledger');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Webhook “Orders to the ledger” saved.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ name: 'Orders to the ledger', status: 'active', topic: 'order.created', delivery_url: 'https://hooks.example/orders' });
    await waitFor(() => expect(screen.getByRole('heading', { name: /Edit webhook/ })).toHaveFocus());
  });

  it('shows on its form why a disabled webhook is disabled', async () => {
    api();
    window.history.replaceState(null, '', '/wp-admin/settings/advanced/webhooks/8/');
    render(<AdminApp data={adminData} />);
    expect(await screen.findByText(/disabled it after 5 failed deliveries in a row/, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Status/)).toHaveValue('disabled');
  });
});
