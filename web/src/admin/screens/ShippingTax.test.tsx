import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { fieldRefusal, staleRefusal, stubDocument, stubFetch, setupScreenTests, retype } from '../test-utils';
import ShippingTax, { SHIPPING_TAX_PATH, type ShippingTaxDoc } from './ShippingTax';

const doc: ShippingTaxDoc = {
  prices_include_tax: false,
  tax_rates: [{ id: 1, country: 'US', state: 'CA', rate: '7.25', name: 'CA Tax', priority: 0, shipping: true }],
  zones: [
    {
      id: 1,
      name: 'United States',
      locations: ['US'],
      methods: [
        { instance_id: 2, method_id: 'free_shipping', title: 'Free shipping', cost: '0.00', taxable: false, min_amount: '100.00' },
        { instance_id: 1, method_id: 'flat_rate', title: 'Flat rate', cost: '5.00', taxable: true, min_amount: '0.00' },
      ],
    },
  ],
  rest_of_world: { methods: [{ instance_id: 5, method_id: 'flat_rate', title: 'International', cost: '25.00', taxable: true, min_amount: '0.00' }] },
  version: 0,
  currency: 'USD',
};
const props = setupScreenTests('shipping-tax');

describe('the shipping and tax screen', () => {
  it('loads the settings someone else saved meanwhile instead of overwriting them', async () => {
    const theirs = { ...doc, tax_rates: [{ ...doc.tax_rates[0], rate: '8.00' }], version: 1 };
    stubDocument(SHIPPING_TAX_PATH, doc, staleRefusal('Someone else saved shipping and tax after you opened them.', theirs));
    render(<ShippingTax {...props} />);
    const rate = await screen.findByLabelText('Rate (%)');
    await retype(rate, '9');
    await userEvent.click(screen.getByRole('button', { name: 'Save shipping and tax' }));
    // One notice at a time: the screen's, saying theirs are loaded.
    expect(await screen.findByText(/Someone else saved these settings meanwhile: theirs are loaded/)).toBeInTheDocument();
    expect(screen.getByLabelText('Rate (%)')).toHaveValue('8.00');
  });

  it('edits a rate, adds a zone with a method, and saves the document with its version', async () => {
    const calls = stubFetch((method, url, body) => {
      if (url !== SHIPPING_TAX_PATH) return undefined;
      return method === 'GET' ? { body: doc } : { body: { ...(body as ShippingTaxDoc), version: 1 } };
    });
    render(<ShippingTax {...props} />);
    const cost = (await screen.findAllByLabelText('Cost'))[0];
    await retype(cost, '7.50');
    await userEvent.click(screen.getByRole('button', { name: 'Add a zone' }));
    const names = screen.getAllByLabelText('Zone name');
    await userEvent.type(names[1], 'Canada');
    await userEvent.type(screen.getAllByLabelText('Regions')[1], 'CA');
    await userEvent.click(screen.getByRole('button', { name: 'Add a method to Canada' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save shipping and tax' }));
    expect(await screen.findByText(/Shipping and tax saved\./)).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT')?.body as ShippingTaxDoc;
    expect(put.version).toBe(0);
    expect(put.zones[0].methods[1].cost).toBe('7.50');
    expect(put.zones[1]).toMatchObject({ id: 0, name: 'Canada', locations: ['CA'], methods: [{ instance_id: 0, method_id: 'flat_rate' }] });
  });

  it('shows a refused field by its path and takes the keyboard there', async () => {
    stubDocument(SHIPPING_TAX_PATH, doc, fieldRefusal('tax_rates[0].rate', 'A percentage such as 20 or 7.25.'));
    render(<ShippingTax {...props} />);
    const rate = await screen.findByLabelText('Rate (%)');
    await retype(rate, 'seven');
    await userEvent.click(screen.getByRole('button', { name: 'Save shipping and tax' }));
    await waitFor(() => expect(rate).toHaveFocus());
    expect(rate).toHaveAttribute('aria-invalid', 'true');
    expect(rate).toHaveAccessibleDescription('A percentage such as 20 or 7.25.');
  });

  it('has no structural accessibility violations', async () => {
    stubFetch(() => ({ body: doc }));
    const { container } = render(<ShippingTax {...props} />);
    await screen.findByLabelText('Rate (%)');
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
