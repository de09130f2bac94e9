import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { vi, type Mock } from 'vitest';
import { NotifyForm, NOTIFY_ACTION } from './NotifyForm';
import { soldOutOptions } from './ProductPage';
import type { ProductPage as ProductData } from '../types';

vi.mock('../account/login/botcheck', () => ({ obtainProof: vi.fn() }));
import { obtainProof } from '../account/login/botcheck';

const proof = obtainProof as unknown as Mock;

afterEach(() => {
  vi.restoreAllMocks();
  proof.mockReset();
});

function answer(status: number, body: unknown) {
  return vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

describe('NotifyForm', () => {
  it('renders the same guest form on the server, posting without scripts', () => {
    const html = renderToString(<NotifyForm itemId={42} productName="Jug" />);
    expect(html).toContain(`action="${NOTIFY_ACTION}"`);
    expect(html).toContain('name="product_id" value="42"');
    expect(html).toContain('name="email"');
    expect(html).not.toContain('@');
  });

  it('refuses a bad address in its field, sending nothing', async () => {
    const user = userEvent.setup();
    const fetch = answer(200, {});
    render(<NotifyForm itemId={42} productName="Jug" />);
    const field = screen.getByRole('textbox', { name: /Email address/ });
    await user.type(field, 'nope{Enter}');
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('posts a guest with the bot-check proof and reads the answer out', async () => {
    const user = userEvent.setup();
    proof.mockResolvedValue('PROOF');
    const fetch = answer(200, { status: 'pending', message: 'Please check your inbox.' });
    render(<NotifyForm itemId={42} productName="Jug" />);
    await user.type(screen.getByRole('textbox', { name: /Email address/ }), 'ann@example.com{Enter}');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Please check your inbox.'));
    const body = new URLSearchParams(String(fetch.mock.calls[0][1]?.body));
    expect(body.get('product_id')).toBe('42');
    expect(body.get('email')).toBe('ann@example.com');
    expect(body.get('altcha')).toBe('PROOF');
  });

  it('shows a refusal in the alert, and a customer needs one click', async () => {
    const user = userEvent.setup();
    answer(409, { code: 'vitrine_alert_in_stock', message: 'This product is in stock: you can buy it now.' });
    render(<NotifyForm itemId={7} productName="Jug" user={{ logged_in: true, can_edit_pages: false }} />);
    expect(screen.queryByRole('textbox')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Notify me' }));
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent('This product is in stock'));
    expect(alert).toHaveFocus();
    expect(proof).not.toHaveBeenCalled();
  });

  it('offers a variable product\'s sold-out options, posting the one chosen', async () => {
    const user = userEvent.setup();
    const fetch = answer(200, { status: 'waiting', message: 'We will email you.' });
    const options = [
      { id: 51, label: 'Red / L' },
      { id: 52, label: 'Blue / any Size' },
    ];
    expect(renderToString(<NotifyForm itemId={50} productName="Tee" options={options} />)).not.toContain('type="hidden" name="product_id"');
    render(<NotifyForm itemId={50} productName="Tee" options={options} user={{ logged_in: true, can_edit_pages: false }} />);
    const select = screen.getByRole('combobox', { name: 'Sold-out option' });
    expect(select).toHaveValue('51');
    await user.selectOptions(select, 'Blue / any Size');
    await user.click(screen.getByRole('button', { name: 'Notify me' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('We will email you.'));
    expect(new URLSearchParams(String(fetch.mock.calls[0][1]?.body)).get('product_id')).toBe('52');
  });
});

describe('soldOutOptions', () => {
  const swatches = [
    { key: 'pa_color', name: 'Color', type: 'color' as const, options: [{ slug: 'red', name: 'Red', color: '', image: '' }] },
    { key: 'pa_size', name: 'Size', type: 'label' as const, options: [{ slug: 'l', name: 'L', color: '', image: '' }] },
  ];
  it('names the visible sold-out variations by their values, embedded or by status', () => {
    const variation = (id: number, attributes: Record<string, string>, inStock: boolean, visible = true) =>
      ({ variation_id: id, attributes, is_in_stock: inStock, variation_is_visible: visible }) as unknown as ProductData['variations'][number];
    const embedded = {
      swatches,
      variations: [
        variation(1, { attribute_pa_color: 'red', attribute_pa_size: 'l' }, false),
        variation(2, { attribute_pa_color: 'red', attribute_pa_size: '' }, false),
        variation(3, { attribute_pa_color: 'red', attribute_pa_size: 'l' }, true),
        variation(4, { attribute_pa_color: 'red', attribute_pa_size: 'l' }, false, false),
      ],
    } as unknown as ProductData;
    expect(soldOutOptions(embedded)).toEqual([
      { id: 1, label: 'Red / L' },
      { id: 2, label: 'Red / any Size' },
    ]);
    const byStatus = {
      swatches,
      variations: [],
      variation_availability: [
        { id: 7, attributes: { pa_color: 'red', pa_size: 'l' }, in_stock: false, purchasable: true },
        { id: 8, attributes: { pa_color: 'red', pa_size: 'l' }, in_stock: true, purchasable: true },
      ],
    } as unknown as ProductData;
    expect(soldOutOptions(byStatus)).toEqual([{ id: 7, label: 'Red / L' }]);
  });
});
