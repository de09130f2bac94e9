import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { cartLine, eurDE, usd } from '../test/fixtures';
import type { CurrencyBlock, StoreCart } from '../types';
import { FreeShippingProgress, freeShippingOf } from './FreeShippingProgress';

const eur: CurrencyBlock = { ...eurDE, currency_suffix: ' €' };

function cart(progress: Record<string, unknown> | undefined, cur: CurrencyBlock = usd): StoreCart {
  return {
    items: [cartLine('k1', 'Cotton Tank Top', 2)],
    items_count: 2,
    totals: { ...cur, total_items: '4400', total_price: '4400' },
    extensions: progress ? { 'woo-multi-currency': { current_currency: cur.currency_code }, 'vitrine/free-shipping': progress } : {},
  };
}

describe('FreeShippingProgress', () => {
  it("below the minimum: how much more, in the cart's currency, and a labelled bar at the amount", () => {
    render(<FreeShippingProgress cart={cart({ ...usd, min_amount: '10000', amount: '8800', remaining: '1200', reached: false })} />);
    const bar = screen.getByRole('progressbar', { name: 'Add $12.00 more for free shipping' });
    expect(bar).toHaveAttribute('max', '10000');
    expect(bar).toHaveAttribute('value', '8800');
    expect(document.querySelector('.free-shipping-progress')).not.toHaveClass('is-reached');
  });

  it('in another currency the amount is written in it', () => {
    render(<FreeShippingProgress cart={cart({ ...eur, min_amount: '9200', amount: '4048', remaining: '5152', reached: false }, eur)} />);
    expect(screen.getByRole('progressbar', { name: 'Add 51,52 € more for free shipping' })).toHaveAttribute('max', '9200');
  });

  it('at and above the minimum: "You get free shipping" and a full bar', () => {
    for (const amount of ['10000', '13200']) {
      const { unmount } = render(
        <FreeShippingProgress cart={cart({ ...usd, min_amount: '10000', amount, remaining: '0', reached: true })} />,
      );
      const bar = screen.getByRole('progressbar', { name: 'You get free shipping' });
      expect(bar).toHaveAttribute('value', '10000');
      expect(document.querySelector('.free-shipping-progress')).toHaveClass('is-reached');
      unmount();
    }
  });

  it('nothing when the zone has no minimum (no extension) or the data is not the expected shape', () => {
    const { container } = render(<FreeShippingProgress cart={cart(undefined)} />);
    expect(container).toBeEmptyDOMElement();
    expect(freeShippingOf(cart({ min_amount: 10000 }))).toBeNull();
  });
});
