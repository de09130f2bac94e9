import { render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { App } from '../App';
import { orderReceivedPage } from '../checkout/test-data';

describe('order-received page', () => {
  it('thanks the shopper and shows the overview, bank details, lines, totals and addresses', () => {
    render(<App data={orderReceivedPage()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Order received' })).toBeInTheDocument();
    expect(screen.getByText('Thank you. Your order has been received.')).toBeInTheDocument();
    const overview = document.querySelector('.woocommerce-order-overview') as HTMLElement;
    expect(within(overview).getByText('42')).toBeInTheDocument();
    expect(overview).toHaveTextContent('Date: March 1, 2026');
    expect(overview).toHaveTextContent('Email: ada@example.com');
    expect(overview).toHaveTextContent('Total: $25.00');
    expect(overview).toHaveTextContent('Payment method: Direct bank transfer');
    const bank = screen.getByRole('region', { name: 'Our bank details' });
    expect(bank).toHaveTextContent('Use your order number as the reference.');
    // Each account a definition list: label, then its value.
    const terms = within(bank).getAllByRole('term').map((t) => [t.textContent, t.nextElementSibling?.textContent]);
    expect(terms).toEqual([
      ['Bank', 'Demo Bank'],
      ['Account name', 'Vitrine Ltd'],
      ['Account number', '12345678'],
      ['IBAN', 'DE00 1234 5678 9012 3456 78'],
    ]);
    expect(within(bank).getAllByRole('definition')).toHaveLength(4);
    const table = screen.getByRole('table');
    expect(within(table).getByText('Beanie', { exact: false })).toBeInTheDocument();
    expect(within(table).getByText('× 2')).toBeInTheDocument();
    expect(within(table).getByRole('rowheader', { name: 'Shipping' }).nextElementSibling).toHaveTextContent('$5.00');
    expect(within(table).getByRole('rowheader', { name: 'Total' }).nextElementSibling).toHaveTextContent('$25.00');
    expect(within(table).getByRole('rowheader', { name: 'Note' }).nextElementSibling).toHaveTextContent('Leave at the door');
    expect(screen.getByRole('heading', { name: 'Billing address' }).nextElementSibling).toHaveTextContent('12 Analytical Row');
    expect(screen.getByRole('heading', { name: 'Shipping address' })).toBeInTheDocument();
  });

  it("shows the server's date, in a <time> with the RFC 3339 date (the date was empty when the two disagreed)", () => {
    const html = renderToString(<App data={orderReceivedPage()} />);
    expect(html).toMatch(/Date:.*<time datetime="2026-03-01T09:05:07Z">March 1, 2026<\/time>/);
    render(<App data={orderReceivedPage()} />);
    const date = document.querySelector('.woocommerce-order-overview__date time') as HTMLElement;
    expect(date).toHaveTextContent('March 1, 2026');
    expect(date).toHaveAttribute('datetime', '2026-03-01T09:05:07Z');
  });

  it("shows the addresses as the server's lines, one a line, in the country's order; no shipping block without lines", () => {
    const data = orderReceivedPage();
    data.order!.billing_address = { ...data.order!.billing_address, country: 'FR', city: 'Paris', postcode: '75002', state: '' };
    data.order!.billing_address_lines = ['Ada Lovelace', '12 Analytical Row', '75002 PARIS', 'France'];
    data.order!.shipping_address_lines = [];
    const html = renderToString(<App data={data} />);
    const address = html.slice(html.indexOf('<address>'), html.indexOf('</address>'));
    const text = address.replace(/<br\s*\/?>/g, '\n').replace(/<[^>]+>/g, '');
    expect(text).toBe('Ada Lovelace\n12 Analytical Row\n75002 PARIS\nFrance\n+1 518 555 0100\nada@example.com');
    render(<App data={data} />);
    expect(screen.queryByRole('heading', { name: 'Shipping address' })).toBeNull();
  });

  it('shows the instructions of another offline method under "Payment instructions", without bank details', () => {
    const data = orderReceivedPage();
    Object.assign(data.order!, { payment_method: 'cod', payment_method_title: 'Cash on delivery', instructions: 'Pay with cash upon delivery.', bank_accounts: [] });
    render(<App data={data} />);
    expect(screen.getByRole('region', { name: 'Payment instructions' })).toHaveTextContent('Pay with cash upon delivery.');
    expect(screen.queryByRole('region', { name: 'Our bank details' })).toBeNull();
    expect(document.querySelector('.bacs_details')).toBeNull();
  });

  it('shows server-formatted amounts as they are', () => {
    const data = orderReceivedPage();
    data.order!.totals = [{ label: 'Total:', value: '$25.00 (includes $2.00 Tax)' }];
    render(<App data={data} />);
    expect(screen.getByRole('rowheader', { name: 'Total' }).nextElementSibling).toHaveTextContent('$25.00 (includes $2.00 Tax)');
  });

  it('marks a test order with a visible notice (also in the server HTML), and a real order without one', () => {
    const data = orderReceivedPage();
    data.order!.test_order = true;
    data.order!.test_notice = 'Test order: paid in the built-in sandbox, no money was taken.';
    expect(renderToString(<App data={data} />)).toContain('Test order: paid in the built-in sandbox, no money was taken.');
    render(<App data={data} />);
    expect(screen.getByRole('note')).toHaveTextContent('Test order: paid in the built-in sandbox');
  });

  it('shows no test notice on a real order', () => {
    render(<App data={orderReceivedPage()} />);
    expect(screen.queryByText(/Test order/)).toBeNull();
  });

  it('without the right key shows no order, only a clear notice (also in the server HTML)', () => {
    const data = orderReceivedPage(null);
    const html = renderToString(<App data={data} />);
    expect(html).toContain('This order cannot be shown');
    expect(html).not.toContain('Thank you');
    render(<App data={data} />);
    expect(document.querySelector('.order-received-page .woocommerce-info')).toHaveTextContent("the page needs the order's key");
    expect(screen.queryByRole('table')).toBeNull();
  });
});
