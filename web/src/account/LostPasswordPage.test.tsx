import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { App } from '../App';
import { nav, settings, site, usd } from '../test/fixtures';
import type { LostPasswordPage, VerifyEmailPage } from '../types';

function lost(over: Partial<LostPasswordPage> = {}): LostPasswordPage {
  return { page: 'account-lost-password', site: { ...site, currency: usd }, url: '/my-account/lost-password/', nav, settings, stage: 'request', nonce: 'abc123', login: '', ...over };
}

function verify(over: Partial<VerifyEmailPage> = {}): VerifyEmailPage {
  return { page: 'account-verify-email', site: { ...site, currency: usd }, url: '/my-account/verify-email/', nav, settings, outcome: 'verified', logged_in: false, ...over };
}

/** The page's own content (the layout has live regions of its own, such as the mini cart's). */
const inPage = () => within(document.querySelector('.account-links-page') as HTMLElement);

describe('lost-password page', () => {
  it('asks for a username or email in a labelled field, with the nonce, posting to itself (also without scripts)', () => {
    const html = renderToString(<App data={lost()} />);
    expect(html).toContain('action="/my-account/lost-password/"');
    expect(html).toContain('name="woocommerce-lost-password-nonce" value="abc123"');
    render(<App data={lost()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Lost password' })).toBeInTheDocument();
    const input = screen.getByLabelText(/Username or email/);
    expect(input).toHaveAttribute('name', 'user_login');
    expect(input).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByRole('button', { name: 'Reset password' })).toHaveAttribute('type', 'submit');
  });

  it('shows a refusal as an alert that takes focus, keeps what was typed and marks the field', () => {
    render(<App data={lost({ error: 'Enter a username or email address.', field: 'user_login', login: 'ada' })} />);
    const alert = inPage().getByRole('alert');
    expect(alert).toHaveTextContent('Enter a username or email address.');
    expect(alert).toHaveFocus();
    expect(screen.getByRole('link', { name: 'Enter a username or email address.' })).toHaveAttribute('href', '#user_login');
    const input = screen.getByLabelText(/Username or email/);
    expect(input).toHaveValue('ada');
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });

  it('answers the same neutral notice whoever asked, as a status', () => {
    render(<App data={lost({ stage: 'sent' })} />);
    expect(inPage().getByRole('status')).toHaveTextContent('If an account matches that email or username, we have sent a link to reset its password.');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('asks for the new password twice and refuses a mismatch before sending', () => {
    render(<App data={lost({ stage: 'reset', login: 'ada@example.com', nonce: 'n0nce' })} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Reset password' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    const p1 = screen.getByLabelText(/^New password/);
    const p2 = screen.getByLabelText(/Re-enter new password/);
    expect(p1).toHaveAttribute('autocomplete', 'new-password');
    expect(p1).toHaveAccessibleDescription(/At least 12 characters/);
    expect(document.querySelector('input[name="woocommerce-reset-password-nonce"]')).toHaveValue('n0nce');
    // The key never appears in the page: it lives in an HttpOnly cookie.
    expect(document.body.innerHTML).not.toMatch(/reset_key|name="key"/);
    fireEvent.input(p1, { target: { value: 'correct horse battery' } });
    fireEvent.input(p2, { target: { value: 'correct horse battery!' } });
    const form = p1.closest('form')!;
    // Seen after React's handler (delegated at the root): was it stopped?
    let sent = true;
    const seen = (e: Event) => {
      sent = !e.defaultPrevented;
      e.preventDefault();
    };
    document.addEventListener('submit', seen);
    act(() => {
      fireEvent.submit(form);
    });
    document.removeEventListener('submit', seen);
    expect(sent).toBe(false);
    expect(inPage().getByRole('alert')).toHaveTextContent('Passwords do not match.');
    expect(p2).toHaveFocus();
    expect(p2).toHaveAttribute('aria-invalid', 'true');
  });

  it('says a dead link is invalid and offers a new one; a reset links to the login', () => {
    const { unmount } = render(<App data={lost({ stage: 'invalid' })} />);
    expect(inPage().getByRole('alert')).toHaveTextContent('This key is invalid or has already been used. Please reset your password again if needed.');
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/my-account/lost-password/');
    unmount();
    render(<App data={lost({ stage: 'done' })} />);
    expect(inPage().getByRole('status')).toHaveTextContent('Your password has been reset successfully.');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/my-account/');
  });
});

describe('verify-email page', () => {
  it('shows the outcome of the link', () => {
    const { unmount } = render(<App data={verify()} />);
    expect(inPage().getByRole('status')).toHaveTextContent('your email address is verified');
    expect(screen.getByRole('link', { name: 'Log in to your account' })).toBeInTheDocument();
    unmount();
    render(<App data={verify({ outcome: 'invalid' })} />);
    expect(inPage().getByRole('alert')).toHaveTextContent('invalid, has expired or has already been used');
  });

  it('offers a new link to a logged-in customer, with the nonce', () => {
    render(<App data={verify({ outcome: 'pending', logged_in: true, nonce: 'v1' })} />);
    const button = screen.getByRole('button', { name: 'Send a new verification link' });
    expect(button.closest('form')).toHaveAttribute('action', '/my-account/verify-email/');
    expect(document.querySelector('input[name="_wpnonce"]')).toHaveValue('v1');
    expect(screen.getByRole('link', { name: 'Go to your account' })).toBeInTheDocument();
  });
});
