import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { ExpressWallet, chosenProduct, walletNav } from './ExpressWallet';

type Call = { url: string; body: Record<string, unknown> | null };

function stubFetch(answers: Record<string, unknown[]>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      calls.push({ url, body: typeof init.body === 'string' ? JSON.parse(init.body) : null });
      const ep = url.replace('/?wc-ajax=', '');
      const next = answers[ep]?.shift() ?? { success: false };
      return new Response(JSON.stringify(next), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

const params = (n: string) => ({ success: true, data: { nonces: { 'ppc-change-cart': `cc-${n}`, 'ppc-create-order': `co-${n}` } } });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('ExpressWallet', () => {
  it('is in the server HTML with disabled buttons (no shift at hydration), nothing without the wallet, and asks nothing on mount', async () => {
    const html = renderToString(<ExpressWallet context="cart" enabled />);
    expect(html).toContain('class="express-wallet"');
    expect(html.match(/<button[^>]* disabled[\s/>]/g)).toHaveLength(2);
    expect(renderToString(<ExpressWallet context="cart" enabled={false} />)).toBe('');
    const calls = stubFetch({});
    const off = render(<ExpressWallet context="cart" enabled={false} />);
    expect(screen.queryByRole('button')).toBeNull();
    off.unmount();
    render(<ExpressWallet context="cart" enabled />);
    expect(await screen.findByRole('button', { name: 'PayPal' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Pay Later' })).toBeVisible();
    // Enabled once the app runs.
    expect(screen.getByRole('button', { name: 'PayPal' })).toBeEnabled();
    expect(calls).toHaveLength(0);
  });

  it('product page: changes the cart to the chosen product, creates the order with fresh nonces and follows the approval URL', async () => {
    const go = vi.spyOn(walletNav, 'go').mockImplementation(() => {});
    const calls = stubFetch({
      'ppc-cart-script-params': [params('a'), params('b')],
      'ppc-change-cart': [{ success: true, data: [] }],
      'ppc-create-order': [{ success: true, data: { id: 'PP1', approve_url: 'http://127.0.0.1/approve?token=PP1' } }],
    });
    document.body.innerHTML =
      '<form class="cart"><select name="attribute_pa_color"><option value="rust" selected>Rust</option></select><input name="quantity" value="3"></form>';
    render(<ExpressWallet context="product" productId={42} enabled />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pay Later' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('http://127.0.0.1/approve?token=PP1'));
    const change = calls.find((c) => c.url.endsWith('ppc-change-cart'))!;
    expect(change.body).toEqual({ nonce: 'cc-a', products: [{ id: 42, quantity: '3', variations: [{ name: 'attribute_pa_color', value: 'rust' }] }] });
    const create = calls.find((c) => c.url.endsWith('ppc-create-order'))!;
    expect(create.body).toEqual({ nonce: 'co-b', context: 'product', payment_method: 'ppcp-gateway', funding_source: 'paylater' });
    expect(JSON.stringify(calls.map((c) => c.body))).not.toMatch(/amount|price|total/);
  });

  it('shows the refusal in an alert and lets the buyer try again', async () => {
    stubFetch({
      'ppc-cart-script-params': [params('a')],
      'ppc-create-order': [{ success: false, data: { message: 'x', errors: ['Cannot create order from empty cart.'] } }],
    });
    render(<ExpressWallet context="cart" enabled />);
    const paypal = await screen.findByRole('button', { name: 'PayPal' });
    fireEvent.click(paypal);
    expect(await screen.findByText('Cannot create order from empty cart.')).toHaveAttribute('role', 'alert');
    expect(paypal).toHaveAttribute('aria-disabled', 'false');
  });

  it('refuses an unchosen variation without calling the server', async () => {
    const calls = stubFetch({ 'ppc-cart-script-params': [params('a')] });
    document.body.innerHTML = '<form class="cart"><select name="attribute_size"><option value="" selected>Choose</option></select></form>';
    render(<ExpressWallet context="product" productId={7} enabled />);
    fireEvent.click(await screen.findByRole('button', { name: 'PayPal' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select some product options');
    expect(calls.some((c) => c.url.includes('ppc-change-cart'))).toBe(false);
  });

  it('reads quantity 1 when the form has none', () => {
    document.body.innerHTML = '<form class="cart"></form>';
    expect(chosenProduct(5)).toEqual({ id: 5, quantity: '1', variations: [] });
  });
});
