import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { App } from '../App';
import type { AccountPage } from '../types';
import { countries, filledBilling, orderReceivedPage } from '../checkout/test-data';

function accountPage(over: Partial<AccountPage> = {}): AccountPage {
  const base = orderReceivedPage();
  return {
    page: 'account',
    site: base.site,
    url: '/my-account/',
    nav: base.nav,
    settings: base.settings,
    section: 'dashboard',
    logout_url: '/my-account/customer-logout/?_wpnonce=abc',
    customer: { display_name: 'Ada L.', email: 'ada@example.com', email_verified: true },
    notice: '',
    errors: null,
    ...over,
  };
}

function row(id: number) {
  return {
    id,
    number: String(id),
    date_created: '2026-03-01T10:00:00Z',
    date: 'March 1, 2026',
    status: 'on-hold',
    status_label: 'On hold',
    total: '$25.00 for 2 items',
    url: `/my-account/view-order/${id}/`,
  };
}

describe('account pages', () => {
  it('greets the customer on the dashboard, with the log-out link and the navigation', () => {
    render(<App data={accountPage()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'My account' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Account pages' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    const main = document.querySelector('.woocommerce-MyAccount-content') as HTMLElement;
    expect(main).toHaveTextContent('Hello Ada L. (not Ada L.? Log out)');
    expect(within(main).getByRole('link', { name: 'Log out' })).toHaveAttribute('href', '/my-account/customer-logout/?_wpnonce=abc');
    expect(within(main).getByRole('link', { name: 'recent orders' })).toHaveAttribute('href', '/my-account/orders/');
  });

  it('shows a success notice in a polite live region', () => {
    render(<App data={accountPage({ notice: 'Account details changed successfully.' })} />);
    const region = screen.getByText('Account details changed successfully.').closest('[role="status"]');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toHaveClass('account-status');
  });

  it('lists orders in a focusable, labelled region that scrolls sideways, with paging links', () => {
    const data = accountPage({
      section: 'orders',
      orders: { rows: [row(12), row(11)], page: 1, pages: 2, total: 12, prev_url: '', next_url: '/my-account/orders/2/' },
    });
    render(<App data={data} />);
    const region = screen.getByRole('region', { name: /Your orders, newest first \(page 1 of 2\)/ });
    expect(region).toHaveClass('account-orders-scroll');
    expect(region).toHaveAttribute('tabindex', '0');
    const table = within(region).getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Order', 'Date', 'Status', 'Total', 'Actions']);
    const first = within(table).getAllByRole('row')[1];
    expect(first).toHaveTextContent('#12');
    expect(first).toHaveTextContent('On hold');
    expect(first).toHaveTextContent('$25.00 for 2 items');
    expect(within(first).getByRole('link', { name: 'View order 12' })).toHaveAttribute('href', '/my-account/view-order/12/');
    expect(screen.getByRole('navigation', { name: 'Orders pages' })).toHaveTextContent('Next');
    expect(screen.queryByRole('link', { name: 'Previous' })).toBeNull();
  });

  it('says when there are no orders yet', () => {
    render(<App data={accountPage({ section: 'orders', orders: { rows: [], page: 1, pages: 1, total: 0, prev_url: '', next_url: '' } })} />);
    expect(screen.getByText('No order has been made yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows one order, and only a notice for an order that is not the customer’s', () => {
    const order = orderReceivedPage().order!;
    render(<App data={accountPage({ section: 'view-order', order })} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Order #42' })).toBeInTheDocument();
    expect(screen.getByText(/was placed on/)).toHaveTextContent('Order #42 was placed on March 1, 2026 and is currently On hold.');
    expect(screen.getByRole('heading', { name: 'Billing address' }).nextElementSibling).toHaveTextContent('12 Analytical Row');
    document.body.innerHTML = '';
    render(<App data={accountPage({ section: 'view-order', errors: { notices: ['Invalid order.'], fields: {} } })} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid order.');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the address book with add and edit links', () => {
    const lines = ['Ada Lovelace', '12 Analytical Row', 'Albany, NY 12207'];
    render(<App data={accountPage({ section: 'edit-address', addresses: { billing: filledBilling, shipping: null, billing_lines: lines, shipping_lines: [] } })} />);
    expect(screen.getByRole('link', { name: 'Edit billing address' })).toHaveAttribute('href', '/my-account/edit-address/billing/');
    expect(screen.getByRole('link', { name: 'Add shipping address' })).toHaveAttribute('href', '/my-account/edit-address/shipping/');
    expect(screen.getByText('You have not set up this type of address yet.')).toBeInTheDocument();
  });

  it("shows a saved address as the server's lines, each on its own line, then the phone and email (never run together)", () => {
    const lines = ['New Comer', '1 Main St', 'Austin, TX 73301'];
    const billing = { ...filledBilling, first_name: 'New', last_name: 'Comer', address_1: '1 Main St', city: 'Austin', state: 'TX', postcode: '73301', phone: '5125550100', email: 'newcomer1@example.com' };
    const data = accountPage({ section: 'edit-address', addresses: { billing, shipping: null, billing_lines: lines, shipping_lines: [] } });
    for (const html of [renderToString(<App data={data} />), (render(<App data={data} />), document.querySelector('.billing-address address')!.innerHTML)]) {
      // Lines and contact parts are separated by line breaks, in order, with nothing else between them.
      const text = html.replace(/<br\s*\/?>/g, '\n').replace(/<[^>]+>/g, '');
      expect(text).toContain('New Comer\n1 Main St\nAustin, TX 73301\n5125550100\nnewcomer1@example.com');
    }
    const address = document.querySelector('.billing-address address') as HTMLElement;
    expect(address.querySelector('.woocommerce-customer-details--phone')).toHaveTextContent('5125550100');
    expect(address.querySelector('.woocommerce-customer-details--email')).toHaveTextContent('newcomer1@example.com');
    expect(address).not.toHaveTextContent('73301 Austin'); // the server's order, not the client's
  });

  it('renders the address form with the checkout fields, the nonce, and field errors tied to their inputs; focus goes to the errors', () => {
    const data = accountPage({
      section: 'edit-address',
      address_form: { kind: 'billing', values: { ...filledBilling, last_name: '' }, nonce: 'n0nce12345' },
      countries,
      errors: { notices: ['Billing Last name is a required field.'], fields: { billing_last_name: 'Billing Last name is a required field.' } },
    });
    const { container } = render(<App data={data} />);
    const form = container.querySelector('form.account-address-form') as HTMLFormElement;
    expect(form).toHaveAttribute('action', '/my-account/edit-address/billing/');
    expect(form).toHaveAttribute('method', 'post');
    expect((form.querySelector('input[name="woocommerce-edit-address-nonce"]') as HTMLInputElement).value).toBe('n0nce12345');
    const last = screen.getByLabelText(/^Last name/);
    expect(last).toHaveAttribute('aria-invalid', 'true');
    expect(last).toHaveAttribute('aria-describedby', 'billing_last_name-error');
    expect(document.getElementById('billing_last_name-error')).toHaveTextContent('Billing Last name is a required field.');
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('link', { name: 'Billing Last name is a required field.' })).toHaveAttribute('href', '#billing_last_name');
    expect(document.activeElement).toBe(alert.parentElement);
    expect(screen.getByRole('button', { name: 'Save address' })).toBeInTheDocument();
  });

  it('renders account details and delete forms with nonces; password fields are empty', async () => {
    const data = accountPage({
      section: 'edit-account',
      account_form: { first_name: 'Ada', last_name: 'Lovelace', display_name: 'Ada L.', email: 'ada@example.com', nonce: 'aaaaaaaaaa', delete_nonce: 'bbbbbbbbbb', privacy_nonce: 'cccccccccc' },
      errors: { notices: ['Your current password is incorrect.'], fields: { password_current: 'Your current password is incorrect.' } },
    });
    const html = renderToString(<App data={data} />);
    expect(html).toContain('name="save-account-details-nonce" value="aaaaaaaaaa"');
    expect(html).toContain('name="delete-account-nonce" value="bbbbbbbbbb"');
    expect(html).toContain('name="privacy-request-nonce" value="cccccccccc"');
    render(<App data={data} />);
    expect(screen.getByLabelText(/^First name/)).toHaveValue('Ada');
    expect(screen.getByLabelText(/^Email address/)).toHaveValue('ada@example.com');
    const current = screen.getByLabelText('Current password (leave blank to leave unchanged)');
    expect(current).toHaveValue('');
    expect(current).toHaveAttribute('aria-invalid', 'true');
    expect(current).toHaveAttribute('aria-describedby', 'password_current-error');
    expect(screen.getByRole('group', { name: 'Password change' })).toBeInTheDocument();
    const del = screen.getByRole('region', { name: 'Delete account' });
    expect(within(del).getByLabelText(/^Password/)).toHaveAttribute('autocomplete', 'current-password');
    const data2 = screen.getByRole('region', { name: 'Your personal data' });
    expect(within(data2).getByRole('button', { name: 'Request a copy of my data' })).toHaveAttribute('value', 'export_personal_data');
    expect(within(data2).getByRole('button', { name: 'Request erasure of my data' })).toHaveAttribute('value', 'remove_personal_data');
    // Keyboard: the details form's fields come in order.
    const user = userEvent.setup();
    (screen.getByLabelText(/^First name/) as HTMLInputElement).focus();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText(/^Last name/));
  });
});
