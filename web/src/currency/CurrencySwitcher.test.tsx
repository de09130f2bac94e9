import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { CurrencySwitchers } from './CurrencySwitcher';
import { getCurrencyState, onCurrencySwitch, resetCurrencyState } from './store';
import { Price } from '../ui/Price';
import { product } from '../test/fixtures';
import type { SwitcherCurrency } from '../types';

const list: SwitcherCurrency[] = [
  { code: 'USD', symbol: '$', name: 'US dollar' },
  { code: 'EUR', symbol: '€', name: 'Euro' },
  { code: 'JPY', symbol: '¥', name: 'Japanese yen' },
];

let calls: string[] = [];
const realFetch = globalThis.fetch;

beforeEach(() => {
  resetCurrencyState();
  sessionStorage.clear();
  document.cookie = 'wmc_current_currency=; Path=/; Max-Age=0';
  calls = [];
  window.fetch = (async (_u: string, init?: RequestInit) => {
    calls.push(String(init?.body));
    const code = /wmc_current_currency=([A-Z]{3})/.exec(document.cookie)?.[1] ?? 'USD';
    const ids = new URLSearchParams(String(init?.body)).getAll('pids[]');
    return {
      ok: true,
      json: async () => ({
        success: true,
        data: { prices: Object.fromEntries(ids.map((i) => [i, `<span class="amount">${code} ${i}</span>`])), current_currency: code, current_country: '' },
      }),
    } as Response;
  }) as typeof fetch;
});
afterAll(() => {
  window.fetch = realFetch;
});

function Page({ page = 'listing' }: { page?: string }) {
  return (
    <>
      <CurrencySwitchers currencies={list} base="USD" page={page} />
      <Price prices={product(15).prices} id={15} />
      <Price prices={product(16).prices} id={16} />
    </>
  );
}

describe('CurrencySwitchers', () => {
  it('renders nothing for one currency', () => {
    const { container } = render(<CurrencySwitchers currencies={[list[0]]} base="USD" page="listing" />);
    expect(container.innerHTML).toBe('');
  });

  it("carries CURCY's switcher classes: .woo-multi-currency.wmc-shortcode with data-layout, and ours", () => {
    const { container } = render(<Page />);
    const header = container.querySelector<HTMLElement>('.woo-multi-currency.wmc-shortcode');
    expect(header).not.toBeNull();
    expect(header!.classList.contains('currency-switcher--header')).toBe(true);
    expect(header!.dataset.layout).toBe('default');
    expect(header!.querySelector('select')).not.toBeNull();
    expect(container.querySelectorAll('.woo-multi-currency.wmc-shortcode')).toHaveLength(1);
    expect(container.querySelector('.woo-multi-currency.wmc-sidebar.currency-sidebar')).not.toBeNull();
  });

  it('server-renders the base with wrappers around base prices', () => {
    const html = renderToString(<Page />);
    expect(html).toContain('data-wmc_product_id="15"');
    expect(html).toMatch(/<option selected value="USD">/);
  });

  it('the header select is labelled and switching updates every price with one call and announces it', async () => {
    const { container } = render(<Page />);
    const select = screen.getByRole('combobox', { name: 'Currency' }) as HTMLSelectElement;
    expect(select.tagName).toBe('SELECT');
    expect(select.value).toBe('USD');
    fireEvent.change(select, { target: { value: 'EUR' } });
    await waitFor(() => expect(screen.getByText('Prices shown in EUR')).toBeInTheDocument());
    expect(document.cookie).toContain('wmc_current_currency=EUR');
    expect(calls).toHaveLength(1);
    expect(new URLSearchParams(calls[0]).getAll('pids[]')).toEqual(['15', '16']);
    const texts = [...container.querySelectorAll('.wmc-cache-pid')].map((e) => e.textContent);
    expect(texts).toEqual(['EUR 15', 'EUR 16']);
    expect(select.value).toBe('EUR');
    // The sidebar marks the same currency.
    expect(container.querySelector('.currency-sidebar__tab')!.textContent).toContain('EUR');
    expect(container.querySelector('[aria-live="polite"]')!.textContent).toBe('Prices shown in EUR');
    expect(getCurrencyState().current).toBe('EUR');
  });

  it('refreshes on load when the cookie names another currency', async () => {
    document.cookie = 'wmc_current_currency=JPY; Path=/';
    const { container } = render(<Page />);
    await waitFor(() => expect(container.querySelector('[data-wmc_product_id="15"]')!.textContent).toBe('JPY 15'));
    expect(calls).toHaveLength(1);
  });

  it('does not refresh on the checkout; a choice there is kept for the next page, where it is applied', async () => {
    document.cookie = 'wmc_current_currency=EUR; Path=/';
    const { unmount } = render(<Page page="checkout" />);
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(calls).toHaveLength(0);
    fireEvent.change(screen.getByRole('combobox', { name: 'Currency' }), { target: { value: 'JPY' } });
    expect(screen.getByText('Prices will be shown in JPY on the next page')).toBeInTheDocument();
    expect(document.cookie).toContain('wmc_current_currency=EUR'); // the checkout's cart stays in EUR
    expect(calls).toHaveLength(0);
    unmount();
    // The next page: the cookie is set before its price refresh, which asks once, in JPY.
    const { container } = render(<Page />);
    await waitFor(() => expect(container.querySelector('[data-wmc_product_id="15"]')!.textContent).toBe('JPY 15'));
    expect(document.cookie).toContain('wmc_current_currency=JPY');
    expect(calls).toHaveLength(1);
    expect(sessionStorage.getItem('vitrine_currency_next_page')).toBeNull();
  });

  it('on the cart page a switch makes no price call: the followers (cart, mini cart) refresh, then it is announced', async () => {
    const followed: string[] = [];
    let release!: () => void;
    const stop = onCurrencySwitch(
      (code) =>
        new Promise<void>((r) => {
          followed.push(code);
          release = r;
        }),
    );
    try {
      render(<Page page="cart" />);
      const select = screen.getByRole('combobox', { name: 'Currency' }) as HTMLSelectElement;
      fireEvent.change(select, { target: { value: 'JPY' } });
      expect(document.cookie).toContain('wmc_current_currency=JPY');
      expect(select.value).toBe('JPY');
      await waitFor(() => expect(followed).toEqual(['JPY']));
      expect(screen.queryByText('Prices shown in JPY')).toBeNull();
      await act(async () => release());
      await waitFor(() => expect(screen.getByText('Prices shown in JPY')).toBeInTheDocument());
      expect(calls).toHaveLength(0);
    } finally {
      stop();
    }
  });

  it('on the listing a switch also runs the followers; on the checkout they do not run', async () => {
    const followed: string[] = [];
    const stop = onCurrencySwitch((code) => void followed.push(code));
    try {
      const { unmount } = render(<Page />);
      fireEvent.change(screen.getByRole('combobox', { name: 'Currency' }), { target: { value: 'EUR' } });
      await waitFor(() => expect(screen.getByText('Prices shown in EUR')).toBeInTheDocument());
      expect(followed).toEqual(['EUR']);
      unmount();
      render(<Page page="checkout" />);
      fireEvent.change(screen.getByRole('combobox', { name: 'Currency' }), { target: { value: 'JPY' } });
      await act(async () => {
        await new Promise((r) => setTimeout(r, 0));
      });
      expect(followed).toEqual(['EUR']);
    } finally {
      stop();
    }
  });

  it('marks the currency of a page rendered for the visitor (server and hydration alike), else the cookie after hydration', async () => {
    const cart = (shown?: string) => <CurrencySwitchers currencies={list} base="USD" page="cart" shown={shown} />;
    expect(renderToString(cart('EUR'))).toMatch(/<option selected value="EUR">/);
    const { unmount } = render(cart('EUR'));
    expect((screen.getByRole('combobox', { name: 'Currency' }) as HTMLSelectElement).value).toBe('EUR');
    unmount();
    document.cookie = 'wmc_current_currency=JPY; Path=/';
    expect(renderToString(<CurrencySwitchers currencies={list} base="USD" page="order-received" />)).toMatch(/<option selected value="USD">/);
    render(<CurrencySwitchers currencies={list} base="USD" page="order-received" />);
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Currency' }) as HTMLSelectElement).value).toBe('JPY'));
  });

  it('on a page without prices (contact, about, my account, 404) it marks the cookie\'s currency, and a choice there is marked and announced', async () => {
    document.cookie = 'wmc_current_currency=JPY; Path=/';
    for (const page of ['contact', 'page', 'my-account', 'not-found', 'search']) {
      expect(renderToString(<CurrencySwitchers currencies={list} base="USD" page={page} />)).toMatch(/<option selected value="USD">/);
      const { unmount } = render(<CurrencySwitchers currencies={list} base="USD" page={page} />);
      await waitFor(() => expect((screen.getByRole('combobox', { name: 'Currency' }) as HTMLSelectElement).value).toBe('JPY'));
      expect(screen.getByRole('button', { name: 'Currency: JPY' })).toBeTruthy();
      unmount();
    }
    expect(calls).toHaveLength(0);
    const { container } = render(<CurrencySwitchers currencies={list} base="USD" page="contact" />);
    const select = screen.getByRole('combobox', { name: 'Currency' }) as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('JPY'));
    fireEvent.change(select, { target: { value: 'EUR' } });
    await waitFor(() => expect(container.querySelector('[aria-live="polite"]')!.textContent).toBe('Prices shown in EUR'));
    expect(select.value).toBe('EUR');
    expect(document.cookie).toMatch(/wmc_current_currency=EUR/);
  });

  it('the sidebar opens by keyboard, moves focus, marks the current currency and closes on Escape', async () => {
    const { container } = render(<Page />);
    const tab = container.querySelector<HTMLButtonElement>('.currency-sidebar__tab')!;
    expect(tab).toHaveAccessibleName('Currency: USD');
    expect(tab).toHaveAttribute('aria-expanded', 'false');
    const panel = document.getElementById(tab.getAttribute('aria-controls')!)!;
    expect(panel.hidden).toBe(true);
    fireEvent.click(tab);
    expect(tab).toHaveAttribute('aria-expanded', 'true');
    expect(panel.hidden).toBe(false);
    const options = [...panel.querySelectorAll('button')];
    expect(document.activeElement).toBe(options[0]);
    expect(options[0]).toHaveAttribute('aria-current', 'true');
    fireEvent.keyDown(options[0], { key: 'ArrowDown' });
    expect(document.activeElement).toBe(options[1]);
    fireEvent.keyDown(options[1], { key: 'ArrowUp' });
    fireEvent.keyDown(options[0], { key: 'ArrowUp' });
    expect(document.activeElement).toBe(options[2]);
    fireEvent.keyDown(options[2], { key: 'Escape' });
    expect(panel.hidden).toBe(true);
    expect(document.activeElement).toBe(tab);
    // Choose EUR from the list: closes, focus back on the tab, prices converted.
    fireEvent.click(tab);
    fireEvent.click([...panel.querySelectorAll('button')][1]);
    expect(document.activeElement).toBe(tab);
    await waitFor(() => expect(tab).toHaveAccessibleName('Currency: EUR'));
    expect(container.querySelector('[data-wmc_product_id="16"]')!.textContent).toBe('EUR 16');
    fireEvent.click(tab);
    expect([...panel.querySelectorAll('button')][1]).toHaveAttribute('aria-current', 'true');
  });

  it('the sidebar list, a dropdown under its tab in the header, closes on a press outside or Tab out', () => {
    const { container } = render(
      <>
        <Page />
        <a href="/elsewhere/">Elsewhere</a>
      </>,
    );
    const tab = container.querySelector<HTMLButtonElement>('.currency-sidebar__tab')!;
    const panel = document.getElementById(tab.getAttribute('aria-controls')!)!;
    const elsewhere = screen.getByRole('link', { name: 'Elsewhere' });
    fireEvent.click(tab);
    expect(panel.hidden).toBe(false);
    fireEvent.pointerDown(panel.querySelector('button')!);
    expect(panel.hidden).toBe(false); // inside: stays
    fireEvent.pointerDown(elsewhere);
    expect(panel.hidden).toBe(true);
    expect(tab).toHaveAttribute('aria-expanded', 'false');

    fireEvent.click(tab);
    expect(panel.hidden).toBe(false);
    act(() => elsewhere.focus());
    expect(panel.hidden).toBe(true);
    expect(document.activeElement).toBe(elsewhere);
  });
});
