import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from '../../AdminApp';
import { adminData, stubFetch, setupAdminTests } from '../../test-utils';
import { detail } from './fixtures';
import type { OrderDetail } from './types';

const ORDER = '/wp-json/wc/v3/orders/12';

setupAdminTests({ path: '/wp-admin/orders/12/' });

async function shown() {
  return screen.findByRole('heading', { level: 2, name: /Order #12/ }, { timeout: 5000 });
}

describe('the order screen', () => {
  it('shows the lines, addresses, attribution, notes and mail log', async () => {
    stubFetch((m, u) => (m === 'GET' && u === ORDER ? { body: detail() } : undefined));
    render(<AdminApp data={adminData} />);
    await shown();
    const items = screen.getByRole('table', { name: 'Items of order #12' });
    expect(within(items).getByRole('rowheader', { name: /Desk Lamp/ })).toBeInTheDocument();
    expect(screen.getByText('newsletter')).toBeInTheDocument();
    expect(screen.getByText('Source')).toBeInTheDocument();
    expect(screen.getAllByText('1 Main St').length).toBe(2);
    // The server's lines, in its order, one a line (never rebuilt from the fields).
    const billing = screen.getByRole('heading', { name: 'Billing address' }).nextElementSibling as HTMLElement;
    expect(billing.innerHTML.replace(/<br\s*\/?>/g, '\n').replace(/<[^>]+>/g, '')).toBe('Ada Lovelace\n1 Main St\nSacramento, CA 95814');
    expect(screen.getByText('Order status changed from Pending to Processing.')).toBeInTheDocument();
    const mails = screen.getByRole('table', { name: /Mails of order #12/ });
    expect(within(mails).getByText('Waiting to be sent')).toBeInTheDocument();
    expect(within(mails).getByText(/^Sent /)).toBeInTheDocument();
  });

  it("says when an order's personal data was removed", async () => {
    const d = detail();
    d.date_anonymised_gmt = '2026-05-04T10:00:00';
    stubFetch((m, u) => (m === 'GET' && u === ORDER ? { body: d } : undefined));
    render(<AdminApp data={adminData} />);
    await shown();
    expect(screen.getByText(/Personal data removed on/)).toBeInTheDocument();
    expect(screen.getByText(/Personal data removed on/).querySelector('time')).toHaveAttribute('dateTime', '2026-05-04T10:00:00Z');
  });

  it('says nothing of the kind for an order that holds its data', async () => {
    stubFetch((m, u) => (m === 'GET' && u === ORDER ? { body: detail() } : undefined));
    render(<AdminApp data={adminData} />);
    await shown();
    expect(screen.queryByText(/Personal data removed/)).toBeNull();
  });

  it('shows "No address." for an order without a shipping address', async () => {
    const d = detail();
    d.vitrine_address_lines = { billing: d.vitrine_address_lines.billing, shipping: [] };
    stubFetch((m, u) => (m === 'GET' && u === ORDER ? { body: d } : undefined));
    render(<AdminApp data={adminData} />);
    await shown();
    expect(screen.getByRole('heading', { name: 'Shipping address' }).nextElementSibling).toHaveTextContent('No address.');
  });

  it('changes the status and announces it', async () => {
    const calls = stubFetch((m, u, body) => {
      if (m === 'GET' && u === ORDER) return { body: detail() };
      if (m === 'PUT' && u === ORDER) return { body: { ...detail(), status: (body as { status: string }).status, next_statuses: ['refunded'] } };
      return undefined;
    });
    render(<AdminApp data={adminData} />);
    await shown();
    await userEvent.click(screen.getByRole('button', { name: 'Change status' }));
    expect(screen.getByText('Choose the new status.')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('New status'), 'completed');
    await userEvent.click(screen.getByRole('button', { name: 'Change status' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Order #12 is now completed.');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ status: 'completed' });
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Completed');
  });

  it('refunds by keyboard, with per-line amounts, one idempotency key for a retried submit, and focus on the refunds', async () => {
    let posts = 0;
    const refunded: OrderDetail = {
      ...detail(),
      total_refunded: '45.00',
      refund_left: '50.00',
      refunds: [
        {
          id: 5,
          amount: '45.00',
          reason: 'Broken',
          refunded_payment: true,
          method: 'ppcp-gateway',
          status: 'completed',
          provider_refund_id: 'REFUND123',
          author: 'Mia Manager',
          date_created_gmt: '2026-11-24T10:00:00',
          line_items: [{ id: 1, quantity: 1, refund_total: '45.00' }],
          restock_items: true,
        },
      ],
    };
    const calls = stubFetch((m, u) => {
      if (m === 'GET' && u === ORDER) return { body: posts >= 2 ? refunded : detail() };
      if (m === 'POST' && u === ORDER + '/refunds') {
        posts++;
        if (posts === 1) return { status: 503, body: { code: 'vitrine_refund_pending', message: 'PayPal did not answer. The refund is pending.', data: { status: 503 } } };
        return { status: 201, body: refunded.refunds[0] };
      }
      return undefined;
    });
    render(<AdminApp data={adminData} />);
    await shown();
    const open = screen.getByRole('button', { name: 'Refund…' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    open.focus();
    await userEvent.keyboard('{Enter}');
    expect(open).toHaveAttribute('aria-expanded', 'true');
    const qty = screen.getByRole('spinbutton', { name: 'Quantity of Desk Lamp to refund' });
    await waitFor(() => expect(qty).toHaveFocus());
    await userEvent.keyboard('1');
    expect(screen.getByRole('textbox', { name: 'Amount to refund for Desk Lamp' })).toHaveValue('45.00');
    expect(screen.getByRole('textbox', { name: /Refund amount/ })).toHaveValue('45.00');
    await userEvent.type(screen.getByRole('textbox', { name: /Reason/ }), 'Broken');
    const submit = screen.getByRole('button', { name: 'Refund $45.00 through PayPal' });
    await userEvent.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('PayPal did not answer');
    await userEvent.click(submit);
    expect(await screen.findByRole('status')).toHaveTextContent('Refunded $45.00 through PayPal.');
    await waitFor(() => expect(screen.getByRole('heading', { level: 3, name: 'Refunds' })).toHaveFocus());

    const refundCalls = calls.filter((c) => c.method === 'POST');
    expect(refundCalls).toHaveLength(2);
    expect(refundCalls[0].headers['Idempotency-Key']).toBeTruthy();
    expect(refundCalls[1].headers['Idempotency-Key']).toBe(refundCalls[0].headers['Idempotency-Key']);
    expect(refundCalls[1].body).toEqual({ amount: '45.00', reason: 'Broken', line_items: [{ id: 1, quantity: 1, refund_total: '45.00' }], restock_items: true });
    const table = screen.getByRole('table', { name: 'Refunds of order #12' });
    expect(within(table).getByText('REFUND123')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refund…' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('finishes a refund left pending', async () => {
    const pending: OrderDetail = {
      ...detail(),
      refunds: [
        {
          id: 6,
          amount: '10.00',
          reason: '',
          refunded_payment: true,
          method: 'ppcp-gateway',
          status: 'pending',
          provider_refund_id: '',
          author: 'Mia Manager',
          date_created_gmt: '2026-11-24T10:00:00',
          line_items: [],
          restock_items: false,
        },
      ],
    };
    const finished = { ...pending, refunds: [{ ...pending.refunds[0], status: 'completed' as const, provider_refund_id: 'REFUND999' }] };
    const calls = stubFetch((m, u) => {
      if (m === 'GET' && u === ORDER) return { body: pending };
      if (m === 'POST' && u === '/wp-json/vitrine/v1/admin/orders/12/refunds/6/finish') return { body: finished };
      return undefined;
    });
    render(<AdminApp data={adminData} />);
    await shown();
    expect(screen.getByText(/Pending: the provider has not answered/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /^Finish this refund/ }));
    expect(await screen.findByRole('status')).toHaveTextContent('Refunded $10.00 through PayPal.');
    expect(screen.getByText('REFUND999')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('shows a refused refund on its field', async () => {
    stubFetch((m, u) => {
      if (m === 'GET' && u === ORDER) return { body: { ...detail(), refund_method: 'manual', payment_method_title: 'Direct bank transfer' } };
      if (m === 'POST') return { status: 400, body: { code: 'woocommerce_rest_invalid_refund_amount', message: 'Invalid refund amount: it is more than what is left to refund.', data: { status: 400 } } };
      return undefined;
    });
    render(<AdminApp data={adminData} />);
    await shown();
    await userEvent.click(screen.getByRole('button', { name: 'Refund…' }));
    await userEvent.type(screen.getByRole('textbox', { name: /Refund amount/ }), '500');
    await userEvent.click(screen.getByRole('button', { name: 'Record a manual refund of $500.00' }));
    const amount = screen.getByRole('textbox', { name: /Refund amount/ });
    await waitFor(() => expect(amount).toHaveAttribute('aria-invalid', 'true'));
    expect(amount).toHaveAccessibleDescription(/more than what is left to refund/);
  });

  it('adds a note to the customer and sends a mail again', async () => {
    const calls = stubFetch((m, u, body) => {
      if (m === 'GET' && u === ORDER) return { body: detail() };
      if (m === 'POST' && u === ORDER + '/notes') {
        const b = body as { note: string; customer_note: boolean };
        return { status: 201, body: { id: 9, note: b.note, customer_note: b.customer_note, added_by_user: 3, author: 'Mia Manager', date_created: '2026-11-24T11:00:00Z' } };
      }
      if (m === 'POST' && u === '/wp-json/vitrine/v1/admin/orders/12/emails') return { status: 202, body: { queued: true } };
      return undefined;
    });
    render(<AdminApp data={adminData} />);
    await shown();
    await userEvent.type(screen.getByRole('textbox', { name: /^Note/ }), 'Your lamp ships tomorrow.');
    await userEvent.selectOptions(screen.getByLabelText('Note type'), 'customer');
    await userEvent.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Note added and mailed to the customer.');
    const list = screen.getByRole('list', { name: 'Notes, newest first' });
    await waitFor(() => expect(list).toHaveFocus());
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('Your lamp ships tomorrow.');
    expect(screen.getByRole('textbox', { name: /^Note/ })).toHaveValue('');
    expect(calls.find((c) => c.url.endsWith('/notes'))?.body).toEqual({ note: 'Your lamp ships tomorrow.', customer_note: true });

    await userEvent.selectOptions(screen.getByLabelText('Mail to send again'), 'new_order');
    await userEvent.click(screen.getByRole('button', { name: 'Send again' }));
    expect(await screen.findByText('New-order notice (to the shop): queued to be sent again.')).toBeInTheDocument();
    expect(calls.find((c) => c.url.endsWith('/emails'))?.body).toEqual({ kind: 'new_order' });
  });

  it('has no structural accessibility violations, with the refund form open', async () => {
    stubFetch((m, u) => (m === 'GET' && u === ORDER ? { body: detail() } : undefined));
    const { container } = render(<AdminApp data={adminData} />);
    await shown();
    await userEvent.click(screen.getByRole('button', { name: 'Refund…' }));
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
