import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { SearchForm } from '../ui/SearchForm';
import { nav } from '../test/fixtures';

const results = {
  suggestions: [
    { type: 'Product', id: 3, value: 'Everyday Hoodie', url: '/product/everyday-hoodie/', img: '/m/h.svg', price: '<span class="amount">$60.00</span>' },
    { type: 'Product', id: 4, value: 'Zip Hoodie', url: '/product/zip-hoodie/', img: '', price: '<span class="amount">$70.00</span>' },
  ],
};

describe('live search form', () => {
  let assign: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    vi.useFakeTimers();
    assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function setup(body: unknown = results) {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    render(<SearchForm idBase="test-search" live categories={nav} minChars={3} />);
    const input = screen.getByRole('combobox', { name: 'Search for products' });
    return { input, fetchMock };
  }

  async function type(input: HTMLElement, value: string) {
    fireEvent.change(input, { target: { value } });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
  }

  it('is a combobox controlling a listbox; suggestions show image, name and price', async () => {
    const { input, fetchMock } = setup();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    await type(input, 'ho');
    expect(fetchMock).not.toHaveBeenCalled();
    await type(input, 'hood');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect((fetchMock.mock.calls[0] as unknown[])[0]).toBe(
      '/wp-admin/admin-ajax.php?action=flatsome_ajax_search_products&query=hood',
    );
    expect(input).toHaveAttribute('aria-expanded', 'true');
    const listbox = screen.getByRole('listbox', { name: 'Search suggestions' });
    expect(input).toHaveAttribute('aria-controls', listbox.id);
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Everyday Hoodie$60.00', 'Zip Hoodie$70.00']);
    expect(options[0].querySelector('img')).toHaveAttribute('src', '/m/h.svg');
    expect(options[0].querySelector('.search-suggestion__price .amount')).not.toBeNull();
    expect(screen.getByText('2 suggestions available')).toBeInTheDocument();
  });

  it('ArrowDown + Enter goes to the active suggestion', async () => {
    const { input } = setup();
    await type(input, 'hood');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(input).toHaveAttribute('aria-activedescendant', options[0].id);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input).toHaveAttribute('aria-activedescendant', options[1].id);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(assign).toHaveBeenCalledWith('/product/zip-hoodie/');
  });

  it('"No results" is shown but never navigated to; Enter submits the form', async () => {
    const { input } = setup({ suggestions: [{ id: -1, value: 'No results', url: '' }] });
    await type(input, 'zzzz');
    const option = within(screen.getByRole('listbox')).getByRole('option');
    expect(option).toHaveTextContent('No results');
    expect(option).toHaveAttribute('aria-disabled', 'true');
    expect(document.querySelector('.live-search [role=status]')).toHaveTextContent('No results');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input).not.toHaveAttribute('aria-activedescendant');
    const ev = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    input.dispatchEvent(ev);
    expect(ev.defaultPrevented).toBe(false); // the form submits to /?s=…&post_type=product
    fireEvent.click(option);
    expect(assign).not.toHaveBeenCalled();
  });

  it('Escape closes the panel, a second Escape clears the text', async () => {
    const { input } = setup();
    await type(input, 'hood');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).toHaveValue('hood');
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(input).toHaveValue('');
  });

  it('the category select filters with product_cat and is only submitted when chosen', async () => {
    const { input, fetchMock } = setup();
    const select = screen.getByRole('combobox', { name: 'Category' }) as HTMLSelectElement;
    expect(select.options[0].text).toBe('All categories');
    expect(select).not.toHaveAttribute('name');
    await type(input, 'hood');
    fireEvent.change(select, { target: { value: '18' } });
    expect(select).toHaveAttribute('name', 'product_cat');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect((fetchMock.mock.calls.at(-1) as unknown[])[0]).toBe(
      '/wp-admin/admin-ajax.php?action=flatsome_ajax_search_products&query=hood&product_cat=18',
    );
  });

  it('a plain form without live search', () => {
    render(<SearchForm idBase="test-search" />);
    const input = screen.getByRole('searchbox', { name: 'Search for products' });
    expect(input).not.toHaveAttribute('aria-expanded');
    expect(input.closest('form')).toHaveAttribute('action', '/');
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});
