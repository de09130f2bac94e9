import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { staleRefusal, stubDocument, stubFetch, setupScreenTests } from '../test-utils';
import Payments, { PAYMENTS_PATH, PAYPAL_TEST_PATH, type PaymentSettings } from './Payments';

const stored: PaymentSettings = {
  bacs: { enabled: true, title: '', description: '', accounts: [{ account_name: 'Vitrine', bank_name: 'Demo Bank', account_number: '0001', routing_number: '', iban: '', bic: '' }] },
  cod: { enabled: true, title: '', instructions: '' },
  paypal: { enabled: true, client_id: 'sb-client', secret_set: true, environment: 'sandbox' },
  paypal_applies_at_restart: true,
  version: 2,
  updated_at: '2026-11-24T10:00:00Z',
};

const props = setupScreenTests('payments');

describe('the payments screen', () => {
  it('saves the methods with their version, keeping the secret unsent', async () => {
    const calls = stubDocument(PAYMENTS_PATH, stored);
    render(<Payments {...props} />);
    await userEvent.click(await screen.findByLabelText('Offer cash on delivery'));
    await userEvent.click(screen.getByRole('button', { name: 'Add an account' }));
    await waitFor(() => expect(screen.getAllByLabelText('Account name')[1]).toHaveFocus());
    await userEvent.type(screen.getAllByLabelText('IBAN')[1], 'DE89370400440532013000');
    await userEvent.click(screen.getByRole('button', { name: 'Save payment methods' }));
    expect(await screen.findByText(/^Payment methods saved\./)).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toMatchObject({ cod: { enabled: false }, version: 2, bacs: { accounts: [{ account_name: 'Vitrine' }, { iban: 'DE89370400440532013000' }] } });
    expect((put?.body as PaymentSettings).paypal.secret).toBeUndefined();
  });

  it('refuses to overwrite newer methods, offers them, and never loads a secret', async () => {
    const newer = { ...stored, paypal: { ...stored.paypal, client_id: 'their-client', secret: 'must-not-show' }, version: 3 };
    stubDocument(PAYMENTS_PATH, stored, staleRefusal('Someone else saved the payment methods after you opened them.', newer));
    render(<Payments {...props} />);
    await userEvent.type(await screen.findByLabelText(/^Secret/), 'mine');
    await userEvent.click(screen.getByRole('button', { name: 'Save payment methods' }));
    expect(await screen.findByText('Someone else saved the payment methods after you opened them.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load their payment methods' }));
    expect(screen.getByLabelText(/^Client id/)).toHaveValue('their-client');
    expect(screen.getByLabelText(/^Secret/)).toHaveValue('');
    expect(await screen.findByText(/The payment methods saved by someone else are loaded/)).toBeInTheDocument();
  });

  it('removes an account and returns the keyboard to the add button', async () => {
    stubFetch(() => ({ body: stored }));
    render(<Payments {...props} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove account 1' }));
    expect(screen.queryByLabelText('Account name')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add an account' })).toHaveFocus());
  });

  it('ties a refused field to its message and takes the keyboard there', async () => {
    stubFetch((method) =>
      method === 'GET'
        ? { body: stored }
        : { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): bacs.accounts[0].iban', data: { status: 400, params: { 'bacs.accounts[0].iban': 'Not a valid IBAN.' } } } },
    );
    render(<Payments {...props} />);
    await userEvent.type(await screen.findByLabelText('IBAN'), 'XX00');
    await userEvent.click(screen.getByRole('button', { name: 'Save payment methods' }));
    const field = screen.getByLabelText('IBAN');
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveAccessibleDescription(/Not a valid IBAN/);
  });

  it('checks the PayPal credentials and announces PayPal’s answer', async () => {
    let fail = false;
    const calls = stubFetch((method, url) => {
      if (method === 'GET') return { body: stored };
      if (url === PAYPAL_TEST_PATH) {
        return fail
          ? { status: 400, body: { code: 'vitrine_paypal_refused', message: 'PayPal refused the credentials (invalid_client: Client Authentication failed). Nothing was saved.', data: { status: 400 } } }
          : { body: { ok: true, message: 'PayPal accepted the credentials.' } };
      }
      return undefined;
    });
    render(<Payments {...props} />);
    await userEvent.type(await screen.findByLabelText('Secret'), 's3cret');
    await userEvent.click(screen.getByRole('button', { name: 'Check the credentials' }));
    const ok = await screen.findByText('PayPal accepted the credentials.');
    expect(ok.closest('[role="status"]')).not.toBeNull();
    expect(calls.find((c) => c.url === PAYPAL_TEST_PATH)?.body).toEqual({ client_id: 'sb-client', secret: 's3cret', environment: 'sandbox' });
    fail = true;
    await userEvent.click(screen.getByRole('button', { name: 'Check the credentials' }));
    const refused = await screen.findByText(/invalid_client: Client Authentication failed/);
    expect(refused.closest('[role="alert"]')).not.toBeNull();
    expect(screen.queryByText('PayPal accepted the credentials.')).not.toBeInTheDocument();
  });

  it('has no structural accessibility violations', async () => {
    stubFetch(() => ({ body: stored }));
    const { container } = render(<Payments {...props} />);
    await screen.findByLabelText('Offer cash on delivery');
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
