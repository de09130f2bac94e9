import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { App } from '../App';
import { browser } from './api';
import { cart, checkoutPage, filledBilling } from './test-data';
import { ALL_COOKIES, resetPageViewForTests } from '../attribution/attribution';
import type { CheckoutPage } from '../types';

// "Create an account?" on the checkout (visitors only).

type Call = { url: string; body: Record<string, unknown> | null };

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function mockFetch(handler: (c: Call) => Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const c = { url: String(input), body: typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null };
      calls.push(c);
      return handler(c);
    }),
  );
  return calls;
}

function page(over: Partial<CheckoutPage> = {}): CheckoutPage {
  const d = checkoutPage(over);
  d.checkout = { ...d.checkout, billing_address: { ...filledBilling } };
  return d;
}

let go: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  resetPageViewForTests();
  for (const name of ALL_COOKIES) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  go = vi.spyOn(browser, 'go').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const placeOrder = () => screen.getByRole('button', { name: /Place order|Placing order/ });
const acceptTerms = () => fireEvent.click(screen.getByRole('checkbox', { name: /I have read and agree/ }));

describe('create an account at checkout', () => {
  it('is not offered to a customer', () => {
    render(<App data={page({ can_create_account: false })} />);
    expect(screen.queryByRole('checkbox', { name: 'Create an account?' })).toBeNull();
  });

  it('works without scripts: the classic names, the password shown and not required before hydration', () => {
    const html = renderToString(<App data={page({ can_create_account: true })} />);
    expect(html).toContain('name="createaccount"');
    expect(html).toContain('name="account_password"');
    expect(html).not.toMatch(/id="create-account-fields"[^>]*hidden/);
    expect(html).not.toMatch(/name="account_password"[^>]*required/);
  });

  it('shows the password field while ticked, asks for a password, and sends create_account with customer_password', async () => {
    const calls = mockFetch((c) =>
      c.url.endsWith('/checkout')
        ? json({ order_id: 7, customer_id: 3, payment_result: { payment_status: 'success', payment_details: [], redirect_url: '/checkout/order-received/7/?key=k' } })
        : json(cart()),
    );
    render(<App data={page({ can_create_account: true })} />);
    const box = screen.getByRole('checkbox', { name: 'Create an account?' });
    expect(box).toHaveAttribute('aria-controls', 'create-account-fields');
    expect(document.getElementById('create-account-fields')).not.toBeVisible();
    fireEvent.click(box);
    const pw = screen.getByLabelText(/Create account password/);
    expect(pw).toBeVisible();
    expect(pw).toHaveAttribute('type', 'password');
    expect(pw).toHaveAttribute('autocomplete', 'new-password');

    acceptTerms();
    fireEvent.click(placeOrder());
    expect(pw).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(pw.getAttribute('aria-describedby')!)).toHaveTextContent('Please enter an account password.');
    expect(calls.some((c) => c.url.endsWith('/checkout'))).toBe(false);

    fireEvent.change(pw, { target: { value: 'correct horse battery staple' } });
    expect(pw).not.toHaveAttribute('aria-invalid');
    fireEvent.click(placeOrder());
    await waitFor(() => expect(go).toHaveBeenCalledWith('/checkout/order-received/7/?key=k'));
    const c = calls.find((x) => x.url.endsWith('/checkout'))!;
    expect(c.body).toMatchObject({ create_account: true, customer_password: 'correct horse battery staple' });
  });

  it('does not send an account request when the box is not ticked', async () => {
    const calls = mockFetch((c) =>
      c.url.endsWith('/checkout')
        ? json({ order_id: 7, payment_result: { payment_status: 'success', payment_details: [], redirect_url: '/checkout/order-received/7/?key=k' } })
        : json(cart()),
    );
    render(<App data={page({ can_create_account: true })} />);
    acceptTerms();
    fireEvent.click(placeOrder());
    await waitFor(() => expect(go).toHaveBeenCalled());
    const c = calls.find((x) => x.url.endsWith('/checkout'))!;
    expect(c.body).not.toHaveProperty('create_account');
    expect(c.body).not.toHaveProperty('customer_password');
  });

  it('ties a taken email to the billing email field', async () => {
    mockFetch((c) =>
      c.url.endsWith('/checkout')
        ? json({ code: 'registration-error-email-exists', message: 'An account is already registered with your email address. Please log in.', data: { status: 400 } }, 400)
        : json(cart()),
    );
    render(<App data={page({ can_create_account: true })} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Create an account?' }));
    fireEvent.change(screen.getByLabelText(/Create account password/), { target: { value: 'correct horse battery staple' } });
    acceptTerms();
    fireEvent.click(placeOrder());
    const email = screen.getByLabelText(/^Email address/);
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(document.getElementById('billing_email-error')).toHaveTextContent('already registered');
  });
});
