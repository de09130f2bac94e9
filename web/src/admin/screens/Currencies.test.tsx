import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { stubFetch, setupScreenTests, retype } from '../test-utils';
import Currencies, { CURRENCIES_PATH, type CurrencyRow } from './Currencies';

const usd: CurrencyRow = { code: 'USD', name: 'United States dollar', base: true, decimals: 2, symbol: '$', position: 'left', thousand_separator: ',', decimal_separator: '.', rate: '1', rate_date: '', rounding: 'none', step: 1, ending: 0, enabled: true, order: 0 };
const eur: CurrencyRow = { ...usd, code: 'EUR', name: 'Euro', base: false, symbol: '€', position: 'right_space', thousand_separator: '.', decimal_separator: ',', rate: '0.92', rate_date: '2026-11-20', order: 1 };
const props = setupScreenTests('currencies');

describe('the currencies screen', () => {
  it('edits a currency’s rate, with focus on the form and back on its row after saving', async () => {
    let rows = [usd, eur];
    const calls = stubFetch((method, url, body) => {
      if (method === 'GET' && url === CURRENCIES_PATH) return { body: rows };
      if (method === 'PUT' && url === `${CURRENCIES_PATH}/EUR`) {
        rows = [usd, { ...eur, ...(body as CurrencyRow) }];
        return { body: rows[1] };
      }
      return undefined;
    });
    render(<Currencies {...props} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit EUR' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Edit EUR' })).toHaveFocus());
    const rate = screen.getByRole('textbox', { name: 'Rate' });
    await retype(rate, '0.95');
    await userEvent.click(screen.getByRole('button', { name: 'Save currency' }));
    expect(await screen.findByRole('status')).toHaveTextContent('EUR saved.');
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ code: 'EUR', rate: '0.95', symbol: '€' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit EUR' })).toHaveFocus());
    expect(within(screen.getByRole('table')).getByText('0.95')).toBeInTheDocument();
  });

  it('adds a currency and shows the server’s refusal by its field', async () => {
    stubFetch((method, url) => {
      if (method === 'GET') return { body: [usd] };
      if (url.endsWith('/CHF')) return { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): rate', data: { status: 400, params: { rate: 'A rate is a positive decimal number.' } } } };
      return undefined;
    });
    render(<Currencies {...props} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add a currency' }));
    await userEvent.type(screen.getByLabelText(/Currency code/), 'chf');
    expect(screen.getByLabelText(/Currency code/)).toHaveValue('CHF');
    expect(screen.getByLabelText(/Currency code/)).toHaveFocus(); // typing does not move focus
    await userEvent.type(screen.getByRole('textbox', { name: 'Rate' }), '-1');
    await userEvent.click(screen.getByRole('button', { name: 'Save currency' }));
    expect(await screen.findByText('A rate is a positive decimal number.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Rate' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('has no structural accessibility violations with the form open', async () => {
    stubFetch(() => ({ body: [usd, eur] }));
    const { container } = render(<Currencies {...props} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit EUR' }));
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
