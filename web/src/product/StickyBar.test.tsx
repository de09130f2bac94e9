import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { ProductPage } from './ProductPage';
import { stickyShouldShow } from './StickyBar';
import { colourSizeSwatches, colourSizeVariation, productPage } from '../test/fixtures';
import { MockIO, mockIntersectionObserver } from '../test/intersection';
import type { ProductPage as ProductData } from '../types';

describe('stickyShouldShow', () => {
  it.each([
    [{ isIntersecting: true, boundingClientRect: { bottom: 300 }, rootBounds: { top: 0 } }, false, 'form in view'],
    [{ isIntersecting: true, boundingClientRect: { bottom: 5 }, rootBounds: { top: 0 } }, false, 'form partly in view'],
    [{ isIntersecting: false, boundingClientRect: { bottom: -20 }, rootBounds: { top: 0 } }, true, 'scrolled past the form'],
    [{ isIntersecting: false, boundingClientRect: { bottom: 0 }, rootBounds: { top: 0 } }, true, 'form just left the top'],
    [{ isIntersecting: false, boundingClientRect: { bottom: 1400 }, rootBounds: { top: 0 } }, false, 'form still below the fold'],
    [{ isIntersecting: false, boundingClientRect: { bottom: -1 }, rootBounds: null }, true, 'no root bounds: the viewport top is 0'],
  ])('%j -> %s (%s)', (entry, want, _case) => {
    expect(stickyShouldShow(entry)).toBe(want);
  });
});

// The observer (the newest unless named) reports the add-to-cart area in or out of view, its bottom at bottom px.
const fire = (isIntersecting: boolean, bottom: number, io = MockIO.instances.at(-1)!) => io.report({ isIntersecting, boundingClientRect: { bottom }, rootBounds: { top: 0 } });

// The bar's element, shown or not (a hidden section has no accessible name, so no region role).
const region = () => document.querySelector<HTMLElement>('section.sticky-add-to-cart')!;

describe('StickyAddToCart', () => {
  mockIntersectionObserver();

  it('is not in the server HTML', () => {
    const html = renderToString(<ProductPage data={productPage(16)} />);
    expect(html).not.toContain('sticky-add-to-cart');
  });

  it('observes the add-to-cart area and shows only when it is scrolled past', () => {
    const { container } = render(<ProductPage data={productPage(16)} />);
    const io = MockIO.instances.at(-1)!;
    expect(io.first).toBe(container.querySelector('.product-cart-area'));
    expect(io.first!.querySelector('form.cart')).not.toBeNull();

    // Hidden at first: inert and out of the accessibility tree.
    expect(region()).not.toBeNull();
    expect(region()).toHaveAttribute('inert');
    expect(region()).toHaveAttribute('aria-hidden', 'true');
    expect(screen.queryByRole('region', { name: /^Add to cart: / })).toBeNull();

    fire(false, -40, io); // scrolled past
    expect(region()).toHaveClass('is-visible');
    expect(region()).not.toHaveAttribute('inert');
    expect(region()).not.toHaveAttribute('aria-hidden');
    const bar = screen.getByRole('region', { name: 'Add to cart: Beanie' });
    expect(bar.querySelector('img')).toHaveAttribute('alt', '');
    expect(bar).toHaveTextContent('Beanie');
    expect(bar.querySelector('.price')).not.toBeNull();

    fire(true, 400, io); // back in view
    expect(region()).not.toHaveClass('is-visible');
    expect(region()).toHaveAttribute('inert');

    fire(false, 2000, io); // below the fold (never shown then)
    expect(region()).not.toHaveClass('is-visible');
  });

  it('submits the real form for a simple product', async () => {
    const user = userEvent.setup();
    const { container } = render(<ProductPage data={productPage(16)} />);
    const form = container.querySelector<HTMLFormElement>('.summary form.cart')!;
    const submitted = vi.fn((e: SubmitEvent) => {
      e.preventDefault();
      return (e.submitter as HTMLButtonElement | null)?.value;
    });
    form.addEventListener('submit', submitted);
    fire(false, -40);
    await user.click(within(region()).getByRole('button', { name: 'Add to cart' }));
    expect(submitted).toHaveBeenCalledTimes(1);
    expect(submitted.mock.results[0].value).toBe('16');
  });

  it('brings a variable product back to its form and focuses the first choice', async () => {
    const user = userEvent.setup();
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    render(<ProductPage data={productPage(59)} />);
    fire(false, -40);
    await user.click(screen.getByRole('button', { name: 'Select options' }));
    expect(scrolled).toHaveBeenCalled();
    expect(screen.getByRole('combobox', { name: 'Color' })).toHaveFocus();
  });

  // A variable product whose variations are all in the page: Navy or Black, in S or L.
  function variable(): ProductData {
    const d = productPage(59);
    const swatches = colourSizeSwatches(
      [
        ['navy', 'Navy', '#1f3a5f'],
        ['black', 'Black', '#111111'],
      ],
      ['s', 'l'],
    );
    const variations = [
      colourSizeVariation(71, 'navy', 's', { price_html: '<span class="price">$71.00</span>' }),
      colourSizeVariation(72, 'black', 'l', { price_html: '<span class="price">$72.00</span>' }),
      colourSizeVariation(73, 'black', 's', { price_html: '<span class="price">$73.00</span>', is_in_stock: false }),
    ];
    return {
      ...d,
      swatches,
      variations,
      settings: { ...d.settings, clickable_out_of_stock: true },
      product: {
        ...d.product,
        add_to_cart: { ...d.product.add_to_cart, text: 'Select options', single_text: 'Add to cart' },
        variations: variations.map((x) => ({
          id: x.variation_id,
          attributes: [
            { name: 'Color', value: x.attributes.attribute_pa_color },
            { name: 'Size', value: x.attributes.attribute_pa_size },
          ],
        })),
      },
    };
  }

  const swatch = (group: string, name: string) =>
    within(screen.getByRole('radiogroup', { name: group })).getByRole('radio', { name });

  it('after a full choice (Black / L) it says "Add to cart", shows the price, and adds through the form\'s own button', async () => {
    const { container } = render(<ProductPage data={variable()} />);
    await screen.findByRole('radiogroup', { name: 'Color' });
    const form = container.querySelector<HTMLFormElement>('.summary form.variations_form')!;
    const submitted = vi.fn((e: SubmitEvent) => {
      e.preventDefault();
      return { by: e.submitter, variation: new FormData(form).get('variation_id') };
    });
    form.addEventListener('submit', submitted);
    fire(false, -40);
    const bar = () => screen.getByRole('region', { name: /^Add to cart: / });
    expect(within(bar()).getByRole('button', { name: /^(Select options|Add to cart)$/ })).toHaveTextContent('Select options');

    fireEvent.click(swatch('Color', 'Black'));
    expect(within(bar()).getByRole('button', { name: /^(Select options|Add to cart)$/ })).toHaveTextContent('Select options'); // half a choice
    fireEvent.click(swatch('Size', 'L'));
    const button = within(bar()).getByRole('button', { name: 'Add to cart' });
    expect(bar().querySelector('.price')).toHaveTextContent('$72.00');

    fireEvent.click(button);
    expect(submitted).toHaveBeenCalledTimes(1);
    const sent = submitted.mock.results[0].value;
    expect(sent.by).toBe(form.querySelector('button.single_add_to_cart_button'));
    expect(sent.variation).toBe('72');
  });

  it('a chosen variation that cannot be bought, or half a choice, opens the choice instead of adding', async () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    const { container } = render(<ProductPage data={variable()} />);
    await screen.findByRole('radiogroup', { name: 'Color' });
    const form = container.querySelector<HTMLFormElement>('.summary form.variations_form')!;
    const submitted = vi.fn((e: SubmitEvent) => e.preventDefault());
    form.addEventListener('submit', submitted);
    fire(false, -40);

    fireEvent.click(swatch('Color', 'Black'));
    fireEvent.click(swatch('Size', 'S')); // out of stock
    const button = within(screen.getByRole('region', { name: /^Add to cart: / })).getByRole('button', { name: 'Select options' });
    fireEvent.click(button);
    expect(submitted).not.toHaveBeenCalled();
    expect(scrolled).toHaveBeenCalled();
    expect(form.contains(document.activeElement)).toBe(true);
  });

  it('is not there for external products', () => {
    render(<ProductPage data={productPage(35)} />);
    expect(region()).toBeNull();
  });

  it('disconnects its observer on unmount', () => {
    const { unmount } = render(<ProductPage data={productPage(16)} />);
    const io = MockIO.instances.at(-1)!;
    unmount();
    expect(io.disconnected).toBe(true);
  });
});
