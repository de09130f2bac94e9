import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { colourSizeSwatches, colourSizeVariation, productPage } from '../test/fixtures';
import type { ProductPage, Variation } from '../types';
import { VariationForm } from './VariationForm';
import { MSG_NO_MATCH, MSG_RESET, MSG_SELECT, MSG_UNAVAILABLE } from './variations';

const v = (id: number, color: string, size: string, over: Partial<Variation> = {}): Variation =>
  colourSizeVariation(id, color, size, { price_html: `<span class="price">$${id}.00</span>`, sku: `SKU-${id}`, ...over });

const swatches = colourSizeSwatches(
  [
    ['navy', 'Navy', '#1f3a5f'],
    ['olive', 'Olive', '#6b6b3a'],
    ['rust', 'Rust', '#b5522b'],
  ],
  ['s', 'm'],
);

const variations = [
  v(1, 'navy', 's', { is_in_stock: false }),
  v(2, 'navy', 'm'),
  v(3, 'olive', 'm', { is_pre_order: 'yes', pre_order_label: 'Pre-order now', pre_order_date: '2026-12-11T09:00:00Z' }),
  v(4, 'rust', 's'),
];

function page(over: Partial<ProductPage> = {}): ProductPage {
  const d = productPage(59);
  return {
    ...d,
    swatches,
    variations,
    product: {
      ...d.product,
      add_to_cart: { ...d.product.add_to_cart, single_text: 'Add to cart' },
      variations: variations.map((x) => ({
        id: x.variation_id,
        attributes: [
          { name: 'Color', value: x.attributes.attribute_pa_color },
          { name: 'Size', value: x.attributes.attribute_pa_size },
        ],
      })),
    },
    ...over,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

const button = () => screen.getByRole('button', { name: /Add to cart|Pre-order now/ });
const radio = (group: string, name: RegExp | string) =>
  within(screen.getByRole('radiogroup', { name: group })).getByRole('radio', { name });

async function mounted() {
  await screen.findByRole('radiogroup', { name: 'Color' });
}

describe('VariationForm', () => {
  it('renders on the server without browser globals: selects and their swatches (the stylesheet shows one), button needing a selection', () => {
    const html = renderToString(<VariationForm data={page()} />);
    expect(html).toContain('name="attribute_pa_color"');
    // The swatches are in the HTML, so hydration moves nothing; the select
    // they drive is not hidden from assistive technology until they work.
    expect(html).toContain('role="radiogroup"');
    expect(html).toContain('class="variation-select--swatched"');
    expect(html).not.toMatch(/<select[^>]*aria-hidden/);
    expect(html).toContain('disabled wc-variation-selection-needed');
  });

  it('goes from selection needed to a shown variation, and to unavailable', async () => {
    const shown = vi.fn();
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{"low_stock_remaining":2}'));
    const { container } = render(<VariationForm data={page()} onShow={shown} />);
    await mounted();
    expect(button()).toHaveClass('disabled', 'wc-variation-selection-needed');
    fireEvent.click(radio('Color', 'Navy'));
    expect(container.querySelector('th')).toHaveTextContent('Color: Navy');
    expect((container.querySelector('select[name="attribute_pa_color"]') as HTMLSelectElement).value).toBe('navy');
    expect(button()).toHaveClass('wc-variation-selection-needed');
    // Navy S is out of stock: crossed out and not clickable.
    const s = radio('Size', 'S');
    expect(s).toHaveClass('no-stock');
    expect(s).toHaveAccessibleDescription('Out of stock'); // its tooltip
    expect(s).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(radio('Size', 'M'));
    expect(button()).not.toHaveClass('disabled');
    expect(container.querySelector('.woocommerce-variation-price')).toHaveTextContent('$2.00');
    expect(container.querySelector('input.variation_id')).toHaveValue('2');
    await waitFor(() => expect(shown).toHaveBeenLastCalledWith(expect.objectContaining({ variation: variations[1] })));
    // Exact stock from the Store API for an embedded variation.
    expect(await screen.findByText('Only 2 left')).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledWith('/wp-json/wc/store/v1/products/2', expect.anything());
  });

  it('alerts the right message on a disabled button and resets with an announcement', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}'));
    const { container } = render(<VariationForm data={page({ settings: { ...page().settings, clickable_out_of_stock: true } })} />);
    await mounted();
    fireEvent.click(button());
    expect(alert).toHaveBeenLastCalledWith(MSG_SELECT);
    fireEvent.click(radio('Color', 'Navy'));
    fireEvent.click(radio('Size', /^S/));
    expect(button()).toHaveClass('disabled', 'wc-variation-is-unavailable');
    fireEvent.click(button());
    expect(alert).toHaveBeenLastCalledWith(MSG_UNAVAILABLE);
    fireEvent.click(screen.getByRole('link', { name: 'Clear' }));
    expect(screen.getByRole('status', { hidden: true, name: '' }).textContent ?? '').toBeDefined();
    expect(container.querySelector('[role="status"].screen-reader-text')).toHaveTextContent(MSG_RESET);
    expect(button()).toHaveClass('wc-variation-selection-needed');
    expect(container.querySelector('.single_variation')).not.toHaveClass('is-shown');
  });

  it('swaps the label for pre-order and shows the date, restores it for another colour', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}'));
    const { container } = render(<VariationForm data={page()} />);
    await mounted();
    fireEvent.click(radio('Color', 'Olive'));
    fireEvent.click(radio('Size', 'M'));
    expect(button()).toHaveTextContent('Pre-order now');
    await waitFor(() => expect(container.querySelector('.pre-order-availability time')).toHaveAttribute('dateTime', '2026-12-11T09:00:00Z'));
    // Its availability is the date alone: the stock line ("… in stock") is not beside it.
    const shown = () => container.querySelector('.woocommerce-variation-availability')!.textContent ?? '';
    expect(shown()).toMatch(/^Available on /);
    expect(shown()).not.toMatch(/in stock/i);
    fireEvent.click(radio('Color', 'Navy'));
    expect(button()).toHaveTextContent('Add to cart');
    expect(container.querySelector('.pre-order-availability')).toBeNull();
    expect(shown()).toMatch(/in stock/i);
  });

  it('disables values no variation has with the other choices', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}'));
    render(<VariationForm data={page()} />);
    await mounted();
    fireEvent.click(radio('Color', 'Olive'));
    expect(radio('Size', 'S')).toHaveClass('disabled');
    fireEvent.click(radio('Size', 'S'));
    expect(radio('Size', 'S')).toHaveAttribute('aria-checked', 'false');
  });

  it('clears on reselect only when the setting is on', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}'));
    const { unmount } = render(<VariationForm data={page()} />);
    await mounted();
    fireEvent.click(radio('Color', 'Navy'));
    fireEvent.click(radio('Color', 'Navy'));
    expect(radio('Color', 'Navy')).toHaveAttribute('aria-checked', 'true');
    unmount();
    render(<VariationForm data={page({ settings: { ...page().settings, clear_on_reselect: true } })} />);
    await mounted();
    fireEvent.click(radio('Color', 'Navy'));
    fireEvent.click(radio('Color', 'Navy'));
    expect(radio('Color', 'Navy')).toHaveAttribute('aria-checked', 'false');
  });

  it('moves and selects with arrow keys, skipping what cannot be chosen; Space selects', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}'));
    render(<VariationForm data={page()} />);
    await mounted();
    const navy = radio('Color', 'Navy');
    expect(navy).toHaveAttribute('tabindex', '0');
    expect(radio('Color', 'Olive')).toHaveAttribute('tabindex', '-1');
    fireEvent.keyDown(navy, { key: 'ArrowRight' });
    expect(radio('Color', 'Olive')).toHaveAttribute('aria-checked', 'true');
    expect(document.activeElement).toBe(radio('Color', 'Olive'));
    fireEvent.keyDown(radio('Color', 'Olive'), { key: 'ArrowLeft' });
    expect(radio('Color', 'Navy')).toHaveAttribute('aria-checked', 'true');
    // Size with navy: S is out of stock, so arrows skip to M; Space on M selects it.
    const m = radio('Size', 'M');
    fireEvent.keyDown(m, { key: ' ' });
    expect(m).toHaveAttribute('aria-checked', 'true');
    fireEvent.keyDown(m, { key: 'ArrowRight' });
    expect(m).toHaveAttribute('aria-checked', 'true');
  });

  it('asks get_variation only when every attribute has a value, and shows no match', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('false'));
    const { container } = render(<VariationForm data={page({ variations: [] })} />);
    await mounted();
    fireEvent.click(radio('Color', 'Rust'));
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.click(radio('Size', 'S'));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/?wc-ajax=get_variation');
    expect((init as RequestInit).method).toBe('POST');
    expect((init as RequestInit).body).toBe('product_id=59&attribute_pa_color=rust&attribute_pa_size=s');
    expect(await screen.findByText(MSG_NO_MATCH)).toBeInTheDocument();
    expect(button()).toHaveClass('wc-variation-selection-needed');
    expect(container.querySelector('.single_variation')).not.toHaveClass('is-shown');
  });

  it('uses a get_variation answer, and learns its stock', async () => {
    const answer = v(1, 'navy', 's', { is_in_stock: false });
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(JSON.stringify(answer)));
    render(<VariationForm data={page({ variations: [] })} />);
    await mounted();
    fireEvent.click(radio('Color', 'Navy'));
    expect(radio('Size', 'S')).not.toHaveClass('no-stock'); // not known yet
    fireEvent.click(radio('Size', 'S'));
    await waitFor(() => expect(button()).toHaveClass('wc-variation-is-unavailable'));
    expect(radio('Size', /^S/)).toHaveClass('no-stock');
  });

  it("crosses out an out-of-stock value from the page's availability list at once, without get_variation", async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('false'));
    const availability = variations.map((x) => ({
      id: x.variation_id,
      attributes: { pa_color: x.attributes.attribute_pa_color, pa_size: x.attributes.attribute_pa_size },
      in_stock: x.is_in_stock,
      purchasable: true,
    }));
    render(<VariationForm data={page({ variations: [], variation_availability: availability })} />);
    await mounted();
    expect(radio('Size', 'S')).not.toHaveClass('no-stock'); // Rust S is in stock
    fireEvent.click(radio('Color', 'Navy'));
    const s = radio('Size', 'S');
    expect(s).toHaveClass('no-stock');
    expect(s).toHaveAccessibleDescription('Out of stock');
    expect(s).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(s); // not clickable: nothing chosen, nothing asked
    expect(s).toHaveAttribute('aria-checked', 'false');
    expect(radio('Size', 'M')).not.toHaveClass('no-stock');
    // Olive has no S at all: disabled, not crossed out.
    fireEvent.click(radio('Color', 'Olive'));
    expect(radio('Size', 'S')).toHaveClass('disabled');
    expect(radio('Size', 'S')).not.toHaveClass('no-stock');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('applies the selection named by the URL after hydration and keeps the URL in step', async () => {
    window.history.replaceState(null, '', '/product/x/?attribute_pa_color=navy&attribute_pa_size=m&utm=1');
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}'));
    const { container } = render(<VariationForm data={page()} />);
    await waitFor(() => expect(container.querySelector('input.variation_id')).toHaveValue('2'));
    fireEvent.click(radio('Size', /^S/)); // out of stock: refused
    fireEvent.click(radio('Color', 'Rust')); // no rust M: refused
    fireEvent.click(radio('Color', 'Olive'));
    await waitFor(() => expect(window.location.search).toBe('?utm=1&attribute_pa_color=olive&attribute_pa_size=m'));
    fireEvent.click(screen.getByRole('link', { name: 'Clear' }));
    await waitFor(() => expect(window.location.search).toBe('?utm=1'));
  });

  it('hides the quantity for a sold-individually variation and clamps it otherwise', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}'));
    const vs = [v(2, 'navy', 'm', { is_sold_individually: 'yes' }), v(4, 'rust', 's', { min_qty: 1, max_qty: 3 })];
    const { container } = render(<VariationForm data={page({ variations: vs })} />);
    await mounted();
    const qty = container.querySelector('input.qty') as HTMLInputElement;
    fireEvent.change(qty, { target: { value: '7' } });
    fireEvent.click(radio('Color', 'Rust'));
    fireEvent.click(radio('Size', 'S'));
    await waitFor(() => expect((container.querySelector('input.qty') as HTMLInputElement).value).toBe('3'));
    fireEvent.click(screen.getByRole('link', { name: 'Clear' }));
    fireEvent.click(radio('Color', 'Navy'));
    fireEvent.click(radio('Size', 'M'));
    await act(async () => {});
    expect(container.querySelector('input.qty')).toBeNull();
    expect(container.querySelector('input[type="hidden"][name="quantity"]')).toHaveValue('1');
  });
});
