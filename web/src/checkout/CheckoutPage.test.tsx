import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { App } from '../App';
import { browser } from './api';
import { NOTICE_FOCUS_DELAY, NOTICE_SCROLL_OFFSET } from './Notices';
import { REVIEW_DEBOUNCE_MS, WALLET_GENERIC_ERROR, NETWORK_FAILED } from './CheckoutPage';
import { TERMS_MESSAGE } from './fields';
import { cart, checkoutPage, filledBilling } from './test-data';
import { expectTabWraps } from '../test/focus';
import { ALL_COOKIES, resetPageViewForTests } from '../attribution/attribution';
import type { CheckoutPage, CurrencyBlock, StoreCart } from '../types';

type Call = { url: string; init: RequestInit; body: Record<string, unknown> | null; headers: Record<string, string> };

function json(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** fetch stub: records every call, answers with the handler. */
function mockFetch(handler: (c: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null;
    const c: Call = { url: String(input), init, body, headers: (init.headers || {}) as Record<string, string> };
    calls.push(c);
    return handler(c);
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

function page(over: Partial<CheckoutPage> = {}, filled = false): CheckoutPage {
  const d = checkoutPage(over);
  if (filled) d.checkout = { ...d.checkout, billing_address: { ...filledBilling } };
  return d;
}

const placeOrder = () => screen.getByRole('button', { name: /Place order|Placing order/ });
const acceptTerms = () => fireEvent.click(screen.getByRole('checkbox', { name: /I have read and agree/ }));

let go: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  resetPageViewForTests();
  for (const name of ALL_COOKIES) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
  go = vi.spyOn(browser, 'go').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('checkout page without scripts (server HTML)', () => {
  it('is a classic form with WooCommerce field names posting to /checkout/', () => {
    const html = renderToString(<App data={page()} />);
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const form = doc.querySelector('form[name="checkout"]')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe('/checkout/');
    for (const name of [
      'billing_first_name',
      'billing_last_name',
      'billing_country',
      'billing_address_1',
      'billing_city',
      'billing_state',
      'billing_postcode',
      'billing_phone',
      'billing_email',
      'ship_to_different_address',
      'shipping_first_name',
      'shipping_postcode',
      'order_comments',
      'payment_method',
      'terms',
      'terms-field',
      'shipping_method[0]',
      'woocommerce-process-checkout-nonce',
      'wc_order_attribution_source_type',
      'wc_order_attribution_session_count',
      'wc_order_attribution_user_agent',
    ]) {
      expect(form.querySelector(`[name="${name}"]`), name).not.toBeNull();
    }
    expect(form.querySelectorAll('input[name^="wc_order_attribution_"]').length).toBe(16);
    expect((form.querySelector('[name="woocommerce-process-checkout-nonce"]') as HTMLInputElement).value).toBe('proc-nonce');
    // No scripts yet: the shipping block is shown (nothing could reveal it) and the button is "Place order".
    expect(form.querySelector('.shipping_address')!.hasAttribute('hidden')).toBe(false);
    // ...but its fields must not stop the form when the box is not ticked.
    expect(form.querySelector('#shipping_first_name')!.hasAttribute('required')).toBe(false);
    expect(form.querySelector('#shipping_first_name')!.getAttribute('aria-required')).toBe('true');
    expect(form.querySelector('#billing_first_name')!.hasAttribute('required')).toBe(true);
    expect(form.querySelector('#place_order')!.getAttribute('type')).toBe('submit');
    expect(form.hasAttribute('novalidate')).toBe(false);
  });

  it('shows the server-side errors of a refused post (no-script re-render)', () => {
    render(
      <App
        data={page({
          errors: { notices: ['Billing Email address is not a valid email address.'], fields: { billing_email: 'Billing Email address is not a valid email address.' } },
        })}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Billing Email address is not a valid email address.');
    expect(within(alert).getAllByRole('listitem')).toHaveLength(1);
    const email = document.getElementById('billing_email')!;
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(email.getAttribute('aria-describedby')!)).toHaveTextContent('not a valid email address');
  });
});

describe('validation and notices', () => {
  it('Place order on an empty form: the spec messages inline and in the notice area, which takes focus after 500 ms', () => {
    vi.useFakeTimers();
    const calls = mockFetch(() => json({}));
    render(<App data={page()} />);
    const area = document.querySelector<HTMLElement>('.woocommerce-NoticeGroup-checkout')!;
    area.getBoundingClientRect = () => ({ top: 640, left: 0, right: 0, bottom: 700, width: 0, height: 60, x: 0, y: 640, toJSON() {} });
    fireEvent.click(placeOrder());
    const alert = screen.getByRole('alert');
    const items = within(alert).getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toContain('Billing First name is a required field.');
    expect(items).toContain('Billing ZIP Code is a required field.');
    expect(items).toContain('Billing Email address is a required field.');
    expect(items).toContain(TERMS_MESSAGE);
    expect(items).not.toContain('Billing Company name is a required field.');
    // Each field carries its own message.
    const first = screen.getByRole('textbox', { name: /^First name/ });
    expect(first).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(first.getAttribute('aria-describedby')!)).toHaveTextContent('Billing First name is a required field.');
    const terms = screen.getByRole('checkbox', { name: /I have read and agree/ });
    expect(document.getElementById(terms.getAttribute('aria-describedby')!)).toHaveTextContent(TERMS_MESSAGE);
    // Scrolled with a 100 px offset at once, focused only after the delay.
    expect(window.scrollTo).toHaveBeenCalledWith(expect.objectContaining({ top: 640 - NOTICE_SCROLL_OFFSET }));
    act(() => vi.advanceTimersByTime(NOTICE_FOCUS_DELAY - 1));
    expect(document.activeElement).not.toBe(area);
    act(() => vi.advanceTimersByTime(1));
    expect(document.activeElement).toBe(area);
    // A notice links to its field.
    fireEvent.click(within(alert).getByRole('link', { name: 'Billing First name is a required field.' }));
    expect(document.activeElement).toBe(first);
    // Corrected, its message goes from the field and from the list.
    fireEvent.change(first, { target: { value: 'Ada' } });
    expect(first).not.toHaveAttribute('aria-invalid');
    expect(within(screen.getByRole('alert')).queryByText('Billing First name is a required field.')).toBeNull();
    expect(within(screen.getByRole('alert')).getByText('Billing Last name is a required field.')).toBeInTheDocument();
    // Nothing was sent.
    expect(calls.filter((c) => c.url.includes('/checkout'))).toHaveLength(0);
  });

  it('checks a field when it loses focus and clears the message once it is corrected', () => {
    mockFetch(() => json({}));
    render(<App data={page()} />);
    const email = screen.getByRole('textbox', { name: /^Email address/ });
    fireEvent.change(email, { target: { value: 'a@b' } });
    fireEvent.blur(email);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Billing Email address is not a valid email address.')).toBeInTheDocument();
    fireEvent.change(email, { target: { value: 'ada@example.com' } });
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Billing Email address is not a valid email address.')).toBeNull();
    const phone = screen.getByRole('textbox', { name: /^Phone/ });
    fireEvent.change(phone, { target: { value: '12345' } });
    fireEvent.blur(phone);
    expect(screen.getByText('Billing Phone is not a valid phone number.')).toBeInTheDocument();
  });

  it('a field left by a press shows its message after the press, so the pressed button stays where it was and clicks', async () => {
    const calls = mockFetch(() => json({}));
    render(<App data={page()} />);
    // Left without a press (Tab): the message at once.
    const last = screen.getByRole('textbox', { name: /^Last name/ });
    fireEvent.blur(last);
    expect(last).toHaveAttribute('aria-invalid', 'true');
    const first = screen.getByRole('textbox', { name: /^First name/ });
    first.focus();
    fireEvent.pointerDown(placeOrder());
    fireEvent.blur(first);
    expect(screen.queryByText('Billing First name is a required field.')).toBeNull();
    expect(first).not.toHaveAttribute('aria-invalid');
    fireEvent.pointerUp(placeOrder());
    fireEvent.click(placeOrder());
    // The press's click placed nothing (the form is empty) and showed every message.
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Billing First name is a required field.')).toBeInTheDocument();
    await waitFor(() => expect(first).toHaveAttribute('aria-invalid', 'true'));
    expect(calls.filter((c) => c.url.includes('/checkout'))).toHaveLength(0);
  });
});

describe('fields follow the country', () => {
  it('swaps the state select, text field or nothing, with the country labels and required marks', () => {
    mockFetch(() => json(cart()));
    render(<App data={page()} />);
    const country = screen.getByRole('combobox', { name: /Country \/ Region/ });
    const state = () => document.getElementById('billing_state')!;
    expect(state().tagName).toBe('SELECT');
    expect(within(state() as HTMLElement).getByRole('option', { name: 'California' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: /^State/ })).toBeRequired();
    expect(screen.getByRole('textbox', { name: /^ZIP Code/ })).toBeInTheDocument();
    fireEvent.change(state(), { target: { value: 'CA' } });

    fireEvent.change(country, { target: { value: 'GB' } });
    expect(state().tagName).toBe('INPUT');
    const county = screen.getByRole('textbox', { name: /^County/ });
    expect(county).not.toBeRequired();
    expect(county).toHaveValue(''); // the state is reset with the country
    expect(document.querySelector('label[for="billing_state"]')).toHaveTextContent('County (optional)');
    expect(screen.getByRole('textbox', { name: /^Postcode/ })).toBeRequired();

    fireEvent.change(country, { target: { value: 'DE' } });
    expect(state()).toHaveAttribute('type', 'hidden');
    expect(document.querySelector('label[for="billing_state"]')).toBeNull();
  });

  it('drops a state message when the new country does not ask for a state', () => {
    mockFetch(() => json(cart()));
    render(<App data={page({}, true)} />);
    const state = document.getElementById('billing_state')!;
    fireEvent.change(state, { target: { value: '' } });
    fireEvent.blur(state);
    expect(screen.getByText('Billing State is a required field.')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('combobox', { name: /Country \/ Region/ }), { target: { value: 'GB' } });
    expect(screen.queryByText('Billing State is a required field.')).toBeNull();
  });

  it('"Ship to a different address?" shows and hides the shipping block', () => {
    mockFetch(() => json(cart()));
    render(<App data={page()} />);
    const block = document.getElementById('shipping-address-fields')!;
    expect(block).toHaveAttribute('hidden');
    expect(document.getElementById('shipping_first_name')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Ship to a different address?' }));
    expect(block).not.toHaveAttribute('hidden');
    expect(within(block).getByRole('textbox', { name: /^First name/ })).toHaveAttribute('name', 'shipping_first_name');
  });
});

describe('terms and conditions lightbox', () => {
  it('opens as a modal dialog, keeps focus inside, closes with Escape and gives focus back', () => {
    mockFetch(() => json(cart()));
    render(<App data={page()} />);
    const link = screen.getByRole('link', { name: 'Read the terms and conditions' });
    link.focus();
    fireEvent.click(link);
    const dialog = screen.getByRole('dialog', { name: 'Terms and conditions' });
    expect(dialog).toHaveAttribute('open');
    expect(within(dialog).getByText('Be excellent to each other.')).toBeInTheDocument();
    const close = within(dialog).getByRole('button', { name: 'Close (Esc)' });
    expect(document.activeElement).toBe(close);
    const body = dialog.querySelector<HTMLElement>('.terms-dialog__body')!;
    // Tab from the last stop wraps to the first; Shift+Tab from the first to the last.
    expectTabWraps(dialog, close, body);
    // Escape (the dialog's cancel event).
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(link);
  });
});

describe('order review refresh', () => {
  it('sends the address after a pause with the Nonce header, shows and announces the new total, keeps the newest nonce', async () => {
    let n = 1;
    const calls = mockFetch((c) => {
      if (c.url.endsWith('/cart/update-customer')) return json(cart('3100', '1100'), 200, { Nonce: `nonce-${++n}` });
      if (c.url.endsWith('/cart/select-shipping-rate')) return json(cart('2000', '0', 'local_pickup:2'), 200, { Nonce: `nonce-${++n}` });
      return json({}, 404);
    });
    render(<App data={page({}, true)} />);
    const zip = screen.getByRole('textbox', { name: /^ZIP Code/ });
    fireEvent.change(zip, { target: { value: '9' } });
    fireEvent.change(zip, { target: { value: '90' } });
    fireEvent.change(zip, { target: { value: '90210' } });
    expect(calls).toHaveLength(0); // debounced
    await waitFor(() => expect(calls).toHaveLength(1), { timeout: REVIEW_DEBOUNCE_MS + 1500 });
    expect(calls[0].url).toBe('/wp-json/wc/store/v1/cart/update-customer');
    expect(calls[0].headers.Nonce).toBe('nonce-1');
    expect(calls[0].body).toEqual({
      billing_address: { country: 'US', state: 'NY', postcode: '90210', city: 'Albany' },
      shipping_address: { country: 'US', state: 'NY', postcode: '90210', city: 'Albany' },
    });
    const total = () => document.querySelector('.order-total td')!.textContent;
    await waitFor(() => expect(total()).toBe('$31.00'));
    expect(document.querySelector('#order_review [role="status"]')).toHaveTextContent('Your order was updated. Total: $31.00');
    await waitFor(() => expect(document.querySelector('.blockUI')).toBeNull());

    // The shipping method: sent at once, with the nonce of the last answer.
    fireEvent.click(screen.getByRole('radio', { name: /Local pickup/ }));
    expect(document.querySelector('.blockUI')).not.toBeNull(); // blocked while it refreshes
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1].url).toBe('/wp-json/wc/store/v1/cart/select-shipping-rate');
    expect(calls[1].body).toEqual({ package_id: 0, rate_id: 'local_pickup:2' });
    expect(calls[1].headers.Nonce).toBe('nonce-2');
    await waitFor(() => expect(total()).toBe('$20.00'));
    expect(screen.getByRole('radio', { name: /Local pickup/ })).toBeChecked();
  });
});

describe('place order', () => {
  it('posts the Store API checkout with the attribution extension and goes to the redirect URL', async () => {
    const calls = mockFetch((c) =>
      c.url.endsWith('/checkout')
        ? json({ order_id: 42, status: 'on-hold', order_key: 'k', payment_result: { payment_status: 'success', payment_details: [], redirect_url: '/checkout/order-received/42/?key=k' } }, 200, { Nonce: 'n2' })
        : json(cart()),
    );
    render(<App data={page({}, true)} />);
    fireEvent.change(screen.getByRole('textbox', { name: /Order notes/ }), { target: { value: 'Ring twice' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Cash on delivery' }));
    acceptTerms();
    fireEvent.click(placeOrder());
    expect(placeOrder()).toBeDisabled();
    expect(placeOrder()).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(go).toHaveBeenCalledWith('/checkout/order-received/42/?key=k'));
    const c = calls.find((x) => x.url.endsWith('/checkout'))!;
    expect(c.url).toBe('/wp-json/wc/store/v1/checkout');
    expect(c.headers.Nonce).toBe('nonce-1');
    expect(c.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(c.body).toMatchObject({
      billing_address: { first_name: 'Ada', email: 'ada@example.com', phone: '+1 518 555 0100', country: 'US', state: 'NY' },
      shipping_address: { first_name: 'Ada', postcode: '12207' },
      customer_note: 'Ring twice',
      payment_method: 'cod',
    });
    expect((c.body!.shipping_address as Record<string, unknown>).email).toBeUndefined();
    const attribution = (c.body!.extensions as Record<string, Record<string, string>>)['woocommerce/order-attribution'];
    expect(attribution.source_type).toBe('typein');
    expect(attribution.session_pages).toBe('1');
    // The currency the review showed goes with the order (the server refuses another).
    const shown = (c.body!.extensions as Record<string, Record<string, string>>)['woo-multi-currency'];
    expect(shown.currency).toBe('USD');
    expect((document.querySelector('[name="wmc_currency"]') as HTMLInputElement).value).toBe('USD');
    // The hidden inputs of the classic form carry the same values.
    expect((document.querySelector('[name="wc_order_attribution_source_type"]') as HTMLInputElement).value).toBe('typein');
  });

  it('keeps one Idempotency-Key across a double click and a retry, and starts a new attempt after an answer', async () => {
    let release: (r: Response) => void = () => {};
    let mode: 'hang' | 'fail' | 'refuse' = 'hang';
    const calls = mockFetch((c) => {
      if (!c.url.endsWith('/checkout')) return json(cart());
      if (mode === 'hang') return new Promise<Response>((r) => (release = r));
      if (mode === 'fail') return Promise.reject(new TypeError('Failed to fetch'));
      return json(
        { code: 'woocommerce_rest_checkout_invalid', message: 'Invalid', data: { status: 400, details: { 'billing_address.postcode': 'Please enter a valid postcode / ZIP.' } } },
        400,
      );
    });
    render(<App data={page({}, true)} />);
    acceptTerms();
    const checkoutCalls = () => calls.filter((c) => c.url.endsWith('/checkout'));
    fireEvent.click(placeOrder());
    fireEvent.click(placeOrder());
    fireEvent.submit(document.querySelector('form[name="checkout"]')!);
    await waitFor(() => expect(checkoutCalls()).toHaveLength(1));
    await act(async () => release(new Response('oops', { status: 503 })));
    await waitFor(() => expect(placeOrder()).not.toBeDisabled());
    expect(checkoutCalls()).toHaveLength(1);
    const key = checkoutCalls()[0].headers['Idempotency-Key'];

    mode = 'fail';
    fireEvent.click(placeOrder());
    await screen.findByText(NETWORK_FAILED);
    expect(checkoutCalls()[1].headers['Idempotency-Key']).toBe(key);

    mode = 'refuse';
    fireEvent.click(placeOrder());
    await screen.findByText('Please enter a valid postcode / ZIP.', { selector: '.checkout-inline-error-message' });
    expect(checkoutCalls()[2].headers['Idempotency-Key']).toBe(key);
    expect(screen.getByRole('textbox', { name: /^ZIP Code/ })).toHaveAttribute('aria-invalid', 'true');
    expect(within(screen.getByRole('alert')).getByRole('link', { name: 'Please enter a valid postcode / ZIP.' })).toBeInTheDocument();

    // The server answered: the next press is a new attempt.
    fireEvent.click(placeOrder());
    await waitFor(() => expect(checkoutCalls()).toHaveLength(4));
    expect(checkoutCalls()[3].headers['Idempotency-Key']).not.toBe(key);
    expect(go).not.toHaveBeenCalled();
  });
});

describe('wallet', () => {
  function walletFetch(validate: unknown, create: unknown) {
    return mockFetch((c) => {
      if (c.url === '/?wc-ajax=ppc-validate-checkout') return json(validate);
      if (c.url === '/?wc-ajax=ppc-create-order') return json(create);
      return json(cart());
    });
  }

  it('replaces Place order with PayPal and Pay Later; validates early, creates the order and goes to the approval page', async () => {
    const calls = walletFetch({ success: true, data: {} }, { success: true, data: { id: 'PP-1', approve_url: 'http://127.0.0.1:9/approve?token=PP-1' } });
    render(<App data={page({}, true)} />);
    fireEvent.click(screen.getByRole('radio', { name: 'PayPal' }));
    expect(screen.queryByRole('button', { name: 'Place order' })).toBeNull();
    const group = screen.getByRole('group', { name: 'Pay with PayPal' });
    expect(within(group).getAllByRole('button').map((b) => b.textContent)).toEqual(['PayPal', 'Pay Later']);
    // Client checks first: nothing is sent without the terms.
    fireEvent.click(within(group).getByRole('button', { name: 'Pay Later' }));
    expect(screen.getByRole('alert')).toHaveTextContent(TERMS_MESSAGE);
    expect(calls.filter((c) => c.url.includes('wc-ajax'))).toHaveLength(0);
    acceptTerms();
    fireEvent.click(within(group).getByRole('button', { name: 'Pay Later' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('http://127.0.0.1:9/approve?token=PP-1'));
    const v = calls.find((c) => c.url === '/?wc-ajax=ppc-validate-checkout')!;
    const o = calls.find((c) => c.url === '/?wc-ajax=ppc-create-order')!;
    expect(calls.indexOf(v)).toBeLessThan(calls.indexOf(o));
    expect(v.body!.nonce).toBe('vn');
    const form = new URLSearchParams(String(v.body!.form_encoded));
    expect(form.get('billing_first_name')).toBe('Ada');
    expect(form.get('payment_method')).toBe('ppcp-gateway');
    expect(form.get('terms')).toBe('on');
    expect(form.get('woocommerce-process-checkout-nonce')).toBe('proc-nonce');
    expect(o.body).toMatchObject({ nonce: 'cn', context: 'checkout', payment_method: 'ppcp-gateway', funding_source: 'paylater' });
    expect(o.body!.form_encoded).toBe(v.body!.form_encoded);
  });

  it('shows the validation envelope errors and the generic text for other failures', async () => {
    walletFetch({ success: false, data: { message: 'Invalid', errors: ['Billing Phone is not a valid phone number.'], refresh: false } }, {});
    render(<App data={page({}, true)} />);
    fireEvent.click(screen.getByRole('radio', { name: 'PayPal' }));
    acceptTerms();
    fireEvent.click(screen.getByRole('button', { name: 'PayPal' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Billing Phone is not a valid phone number.');
    vi.unstubAllGlobals();
    walletFetch({ success: true, data: {} }, { success: false, data: { name: 'UNPROCESSABLE_ENTITY', message: 'x', code: 0, details: [] } });
    fireEvent.click(screen.getByRole('button', { name: 'PayPal' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(WALLET_GENERIC_ERROR));
    expect(go).not.toHaveBeenCalled();
  });
});

describe('the currency for the payment method (cart/extensions)', () => {
  const kwd: CurrencyBlock = {
    currency_code: 'KWD',
    currency_symbol: 'KD',
    currency_minor_unit: 3,
    currency_decimal_separator: '.',
    currency_thousand_separator: ',',
    currency_prefix: 'KD ',
    currency_suffix: '',
  };
  /** The test cart written in another currency (the same digits). */
  function cartIn(block: CurrencyBlock, total: string): StoreCart {
    const c = cart(total);
    return {
      ...c,
      totals: { ...c.totals, ...block },
      items: c.items.map((i) => ({ ...i, prices: { ...i.prices, ...block }, totals: { ...i.totals, ...block } })),
      shipping_rates: c.shipping_rates!.map((p) => ({ ...p, shipping_rates: p.shipping_rates.map((r) => ({ ...r, ...block })) })),
    };
  }
  const withSwitch = (c: StoreCart, current: string, update: boolean, notice: string): StoreCart => ({
    ...c,
    extensions: { 'woo-multi-currency': { current_currency: current, wmc_update_checkout: update, notice } },
  });
  const NOTICE = 'PayPal cannot take this order in Kuwaiti dinar (KWD), so it is in United States dollar (USD): $25.00.';
  const total = () => document.querySelector('.order-total td')!.textContent;
  const currencyNotice = () => document.querySelector<HTMLElement>('#payment [role="status"]')!;

  afterEach(() => {
    document.cookie = 'wmc_current_currency_old=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });

  it('choosing the wallet re-renders every amount in the base currency with a notice; bank transfer brings the currency back', async () => {
    let n = 1;
    const calls = mockFetch((c) => {
      const pm = (c.body?.data as { payment_method?: string } | undefined)?.payment_method;
      if (c.url.endsWith('/cart/extensions') && pm === 'ppcp-gateway') return json(withSwitch(cart('2500'), 'USD', true, NOTICE), 200, { Nonce: `nonce-${++n}` });
      if (c.url.endsWith('/cart/extensions')) return json(withSwitch(cartIn(kwd, '7689'), 'KWD', true, ''), 200, { Nonce: `nonce-${++n}` });
      return json({}, 404);
    });
    render(<App data={page({ cart: cartIn(kwd, '7689') })} />);
    expect(total()).toBe('KD 7.689');
    expect(calls).toHaveLength(0); // bank transfer chosen, nothing to settle on load
    expect(currencyNotice()).toHaveAttribute('aria-live', 'polite');
    expect(currencyNotice()).toHaveTextContent('');

    fireEvent.click(screen.getByRole('radio', { name: 'PayPal' }));
    await waitFor(() => expect(total()).toBe('$25.00'));
    expect(calls[0].url).toBe('/wp-json/wc/store/v1/cart/extensions');
    expect(calls[0].body).toEqual({ namespace: 'woo-multi-currency', data: { payment_method: 'ppcp-gateway' } });
    expect(calls[0].headers.Nonce).toBe('nonce-1');
    expect(currencyNotice()).toHaveTextContent(NOTICE);
    expect(currencyNotice()).toHaveClass('woocommerce-info');
    // Every amount follows the cart's own currency: lines and shipping too.
    expect(document.querySelector('#order_review')!.textContent).not.toContain('KD');
    expect(document.querySelector('#order_review [role="status"]')).toHaveTextContent('Your order was updated. Total: $25.00');

    fireEvent.click(screen.getByRole('radio', { name: 'Direct bank transfer' }));
    await waitFor(() => expect(total()).toBe('KD 7.689'));
    expect(calls[1].body).toEqual({ namespace: 'woo-multi-currency', data: { payment_method: 'bacs' } });
    expect(calls[1].headers.Nonce).toBe('nonce-2');
    expect(currencyNotice()).toHaveTextContent('');
    expect(currencyNotice()).not.toHaveClass('woocommerce-info');
  });

  it('an answer without a change keeps the amounts and says nothing', async () => {
    const calls = mockFetch(() => json(withSwitch(cart('2500'), 'USD', false, '')));
    render(<App data={page()} />);
    fireEvent.click(screen.getByRole('radio', { name: 'Cash on delivery' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    await waitFor(() => expect(document.querySelector('.blockUI')).toBeNull());
    expect(total()).toBe('$25.00');
    expect(document.querySelector('#order_review [role="status"]')).toHaveTextContent('');
    expect(currencyNotice()).toHaveTextContent('');
  });

  it('settles the currency on load after a switch (the old-currency cookie), and when the wallet is chosen from the start', async () => {
    document.cookie = 'wmc_current_currency_old=KWD; path=/';
    let calls = mockFetch(() => json(withSwitch(cartIn(kwd, '7689'), 'KWD', true, '')));
    const { unmount } = render(<App data={page()} />);
    await waitFor(() => expect(total()).toBe('KD 7.689'));
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ namespace: 'woo-multi-currency', data: { payment_method: 'bacs' } });
    unmount();
    vi.unstubAllGlobals();

    document.cookie = 'wmc_current_currency_old=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    calls = mockFetch(() => json(withSwitch(cart('2500'), 'USD', true, NOTICE)));
    render(<App data={page({ cart: cartIn(kwd, '7689'), checkout: { ...page().checkout, payment_method: 'ppcp-gateway' } })} />);
    await waitFor(() => expect(currencyNotice()).toHaveTextContent(NOTICE));
    expect(total()).toBe('$25.00');
    expect(calls[0].body).toEqual({ namespace: 'woo-multi-currency', data: { payment_method: 'ppcp-gateway' } });
  });
});
