import { render, screen } from '@testing-library/react';
import { Price } from './Price';
import { product } from '../test/fixtures';

describe('Price', () => {
  it('renders a simple price', () => {
    const { container } = render(<Price prices={product(15).prices} />);
    expect(container.textContent).toBe('€18.00');
    expect(container.querySelector('del')).toBeNull();
  });

  it('renders a sale with del/ins and screen-reader text', () => {
    const p = product(16); // Beanie: on sale
    p.prices = { ...p.prices, regular_price: '2000', sale_price: '1800', price: '1800' };
    const { container } = render(<Price prices={p.prices} />);
    expect(container.querySelector('del')).toHaveTextContent('€20.00');
    expect(container.querySelector('ins')).toHaveTextContent('€18.00');
    expect(screen.getByText('Original price was: €20.00.')).toHaveClass('screen-reader-text');
    expect(screen.getByText('Current price is: €18.00.')).toHaveClass('screen-reader-text');
  });

  it('renders a range for variable products', () => {
    const { container } = render(<Price prices={product(59).prices} />);
    expect(screen.getByText('Price range: €17.00 through €22.00')).toBeInTheDocument();
    const amounts = [...container.querySelectorAll('.amount')].map((e) => e.textContent);
    expect(amounts).toEqual(['€17.00', '€22.00']);
    expect(container.querySelector('del')).toBeNull();
  });

  it('renders a single price when the range is collapsed', () => {
    const p = product(59);
    p.prices = { ...p.prices, price_range: { min_amount: '2200', max_amount: '2200' } };
    const { container } = render(<Price prices={p.prices} />);
    expect(container.textContent).toBe('€22.00');
  });
});
