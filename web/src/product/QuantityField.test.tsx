import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { QuantityField } from './QuantityField';
import { ProductPage } from './ProductPage';
import { productPage } from '../test/fixtures';

const socks = { name: 'quantity', label: 'Quantity', min: 2, max: 10, step: 2, defaultValue: 2 };

describe('QuantityField', () => {
  it('keeps the input, its label and min/max/step', () => {
    render(<QuantityField {...socks} />);
    const qty = screen.getByRole('spinbutton', { name: 'Quantity' });
    expect(qty).toHaveAttribute('name', 'quantity');
    expect(qty).toHaveAttribute('min', '2');
    expect(qty).toHaveAttribute('max', '10');
    expect(qty).toHaveAttribute('step', '2');
    expect(qty).toHaveValue(2);
  });

  it('server-renders the input alone (the buttons need the app)', () => {
    const html = renderToString(<QuantityField {...socks} />);
    expect(html).toContain('type="number"');
    expect(html).not.toContain('Increase quantity');
    expect(html).not.toContain('<button');
  });

  it('plus goes up a step and stays at max', async () => {
    const user = userEvent.setup();
    render(<QuantityField {...socks} />);
    const qty = screen.getByRole('spinbutton', { name: 'Quantity' });
    const plus = screen.getByRole('button', { name: 'Increase quantity' });
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      await user.click(plus);
      seen.push(Number((qty as HTMLInputElement).value));
    }
    expect(seen).toEqual([4, 6, 8, 10, 10, 10]);
  });

  it('minus goes down a step and stays at min', async () => {
    const user = userEvent.setup();
    render(<QuantityField {...socks} defaultValue={6} />);
    const qty = screen.getByRole('spinbutton', { name: 'Quantity' });
    const minus = screen.getByRole('button', { name: 'Decrease quantity' });
    await user.click(minus);
    expect(qty).toHaveValue(4);
    await user.click(minus);
    expect(qty).toHaveValue(2);
    await user.click(minus);
    expect(qty).toHaveValue(2);
  });

  it('follows the rules from a typed value and raises below-min on leaving the field', async () => {
    const user = userEvent.setup();
    render(<QuantityField {...socks} />);
    const qty = screen.getByRole('spinbutton', { name: 'Quantity' }) as HTMLInputElement;
    await user.clear(qty);
    await user.type(qty, '3');
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
    expect(qty.value).toBe('5');
    await user.click(screen.getByRole('button', { name: 'Decrease quantity' }));
    expect(qty.value).toBe('3');
    await user.click(screen.getByRole('button', { name: 'Decrease quantity' }));
    expect(qty.value).toBe('2'); // 3 - 2 = 1 is below min: raised to 2
    await user.clear(qty);
    await user.type(qty, '1');
    await user.tab();
    expect(qty.value).toBe('2');
  });

  it('formats to the step decimals', async () => {
    const user = userEvent.setup();
    render(<QuantityField name="q" label="Metres" min={0.5} max={3} step={0.5} defaultValue={1} />);
    const qty = screen.getByRole('spinbutton', { name: 'Metres' }) as HTMLInputElement;
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
    expect(qty.value).toBe('1.5');
    expect(qty).toHaveAttribute('inputmode', 'decimal');
  });

  it('fires input and change events so other code can follow the value', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(
      <form onChange={(e) => onChange((e.target as unknown as HTMLInputElement).value)}>
        <QuantityField {...socks} />
      </form>,
    );
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
    expect(onChange).toHaveBeenLastCalledWith('4');
  });

  it('names the product on the buttons when given (grouped rows)', () => {
    render(<QuantityField {...socks} productName="Beanie" label="Beanie quantity" />);
    expect(screen.getByRole('button', { name: 'Reduce quantity of Beanie' })).toHaveAttribute('aria-controls', screen.getByRole('spinbutton').id);
    expect(screen.getByRole('button', { name: 'Increase quantity of Beanie' })).toBeInTheDocument();
  });

  it('does nothing harmful on an empty field: empty counts as 0', () => {
    render(<QuantityField {...socks} />);
    const qty = screen.getByRole('spinbutton') as HTMLInputElement;
    fireEvent.change(qty, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Decrease quantity' }));
    expect(qty.value).toBe('2');
  });
});

describe('quantity buttons on the product forms', () => {
  it('the simple form has the buttons around its quantity', async () => {
    const user = userEvent.setup();
    render(<ProductPage data={productPage(16)} />);
    const qty = screen.getByRole('spinbutton', { name: 'Quantity' }) as HTMLInputElement;
    expect(qty.closest('form')).toHaveClass('cart');
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
    expect(qty.value).toBe('2');
    await user.click(screen.getByRole('button', { name: 'Decrease quantity' }));
    await user.click(screen.getByRole('button', { name: 'Decrease quantity' }));
    expect(qty.value).toBe('1');
  });

  it('the variation form has them too', () => {
    render(<ProductPage data={productPage(59)} />);
    const form = screen.getByRole('spinbutton', { name: 'Quantity' }).closest('form');
    expect(form).toHaveClass('variations_form');
    expect(screen.getByRole('button', { name: 'Increase quantity' }).closest('form')).toBe(form);
  });
});
