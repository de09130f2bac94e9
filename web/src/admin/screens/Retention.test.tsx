import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { fieldRefusal, retype, staleRefusal, stubDocument, setupScreenTests } from '../test-utils';
import Retention, { RETENTION_PATH, type RetentionSettings } from './Retention';

const stored: RetentionSettings = {
  inactive_account_months: 0,
  guest_order_months: 24,
  failed_order_months: 0,
  version: 2,
  updated_at: '2026-11-24T10:00:00Z',
  last_run: { at: '2026-11-29T13:00:00Z', accounts_deleted: 0, account_orders_anonymised: 0, guest_orders_anonymised: 3, orders_deleted: 0, more: false },
  batch: 200,
  every_seconds: 3600,
};

const props = setupScreenTests('retention');

describe('the data retention screen', () => {
  it('shows the periods and the last run, and saves the periods as numbers with their version', async () => {
    const calls = stubDocument(RETENTION_PATH, stored);
    render(<Retention {...props} />);
    const guest = await screen.findByLabelText(/^Remove personal data from guest orders after/);
    expect(guest).toHaveValue(24);
    expect(guest).toHaveAccessibleDescription(/Amounts, items and taxes are kept/);
    expect(screen.getByText(/3 orders anonymised\./)).toBeInTheDocument();
    await retype(screen.getByLabelText(/^Delete cancelled and failed orders after/), '6');
    await userEvent.click(screen.getByRole('button', { name: 'Save data retention' }));
    expect(await screen.findByText(/^Data retention saved\./)).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({ version: 2, inactive_account_months: 0, guest_order_months: 24, failed_order_months: 6 });
  });

  it('says when no run happened yet', async () => {
    stubDocument(RETENTION_PATH, { ...stored, last_run: null });
    render(<Retention {...props} />);
    expect(await screen.findByText(/No run yet/)).toBeInTheDocument();
  });

  it('ties a refused period to its message and takes the keyboard there', async () => {
    stubDocument(RETENTION_PATH, stored, fieldRefusal('inactive_account_months', 'Use a number of months from 0 (keep for ever) to 1200.'));
    render(<Retention {...props} />);
    await retype(await screen.findByLabelText(/^Delete inactive customer accounts after/), '5000');
    await userEvent.click(screen.getByRole('button', { name: 'Save data retention' }));
    const field = screen.getByLabelText(/^Delete inactive customer accounts after/);
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveAccessibleDescription(/Use a number of months from 0/);
  });

  it('refuses to overwrite newer settings and offers them', async () => {
    const newer = { ...stored, guest_order_months: 36, version: 3 };
    stubDocument(RETENTION_PATH, stored, staleRefusal('Someone else saved the data retention settings after you opened them.', newer));
    render(<Retention {...props} />);
    await retype(await screen.findByLabelText(/^Remove personal data from guest orders after/), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Save data retention' }));
    expect(await screen.findByText('Someone else saved the data retention settings after you opened them.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load their data retention settings' }));
    expect(screen.getByLabelText(/^Remove personal data from guest orders after/)).toHaveValue(36);
  });

  it('has no structural accessibility violations', async () => {
    stubDocument(RETENTION_PATH, stored);
    const { container } = render(<Retention {...props} />);
    await screen.findByLabelText(/^Remove personal data from guest orders after/);
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations).toEqual([]);
  });
});
