import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { vi, type Mock } from 'vitest';
import { App } from '../../App';
import type { AccountLoginPage } from '../../types';
import { nav, settings, site } from '../../test/fixtures';
import { AUTH_FAILED, SUPPORT_FAILED, statusFailedText } from './api';

vi.mock('./botcheck', () => ({ obtainProof: vi.fn() }));
import { obtainProof } from './botcheck';

const proof = obtainProof as unknown as Mock;

function loginPage(over: Partial<AccountLoginPage> = {}): AccountLoginPage {
  return {
    page: 'account-login',
    site,
    url: '/my-account/',
    nav,
    settings,
    login_nonce: 'ln12345678',
    register_nonce: 'rn12345678',
    ajax_url: '/wp-admin/admin-ajax.php',
    botcheck: { login: '/wp-json/vitrine/v1/botcheck/login', register: '/wp-json/vitrine/v1/botcheck/register' },
    remember_device: true,
    lost_password_url: '/my-account/lost-password/',
    redirect: '',
    values: { username: '', reg_email: '' },
    form: 'login',
    notices: [],
    support_nonce: '',
    ...over,
  };
}

/** A fetch mock answering the queued answers in order; records each body. */
function mockFetch(...answers: { status?: number; body?: unknown; fail?: boolean }[]) {
  const bodies: URLSearchParams[] = [];
  const fn = vi.fn(async (_url: string, init: RequestInit) => {
    bodies.push(new URLSearchParams(String(init.body)));
    const a = answers.shift();
    if (!a || a.fail) throw new TypeError('network');
    return new Response(typeof a.body === 'string' ? a.body : JSON.stringify(a.body), { status: a.status ?? 200 });
  });
  vi.stubGlobal('fetch', fn);
  return { fn, bodies };
}

let cleanups: (() => void)[] = [];

/**
 * Records the form's real (released) submits: a submit the app did not
 * hold reaches the document with its default intact (jsdom cannot
 * navigate, so it is stopped here).
 */
function catchRealSubmit(form: HTMLFormElement) {
  const sent: FormData[] = [];
  const on = (e: Event) => {
    if (e.target !== form || e.defaultPrevented) return;
    sent.push(new FormData(form, (e as SubmitEvent).submitter ?? undefined));
    e.preventDefault();
  };
  document.addEventListener('submit', on);
  cleanups.push(() => document.removeEventListener('submit', on));
  return sent;
}

async function fillLogin(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/Username or email address/), 'ann@example.com');
  await user.type(screen.getByLabelText(/^Password/, { selector: '#password' }), 'correct horse battery');
}

function loginForm(): HTMLFormElement {
  return document.querySelector('form.woocommerce-form-login') as HTMLFormElement;
}

const startUrl = window.location.href;

beforeEach(() => {
  proof.mockReset();
  proof.mockResolvedValue('PAYLOAD');
});
afterEach(() => {
  vi.unstubAllGlobals();
  cleanups.forEach((f) => f());
  cleanups = [];
  history.replaceState(null, '', startUrl);
});

describe('login page', () => {
  it('renders both forms on the server with WooCommerce names, labels and the no-script notice', () => {
    const html = renderToString(<App data={loginPage()} />);
    for (const s of ['name="username"', 'name="password"', 'name="woocommerce-login-nonce"', 'value="ln12345678"', 'id="reg_email"', 'name="woocommerce-register-nonce"', 'Lost your password?', '<noscript>']) {
      expect(html).toContain(s);
    }
    render(<App data={loginPage()} />);
    expect(screen.getByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Register' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Email address/)).toHaveAttribute('name', 'email');
    // No username is asked at registration (accounts made here log in by email).
    expect(document.getElementById('reg_username')).toBeNull();
    expect(screen.getAllByRole('textbox').map((el) => el.getAttribute('name'))).toEqual(['username', 'email']);
  });

  it('logs in without two-factor: proof, ajax with the whole form, then the real submit with the returned proof', async () => {
    const user = userEvent.setup();
    const { bodies } = mockFetch({ body: { login: 1, captcha: 'SIGNED' } });
    render(<App data={loginPage()} />);
    const sent = catchRealSubmit(loginForm());
    await fillLogin(user);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(proof).toHaveBeenCalledWith('/wp-json/vitrine/v1/botcheck/login', expect.anything());
    const b = bodies[0];
    expect(b.get('action')).toBe('wordfence_ls_authenticate');
    expect(b.get('username')).toBe('ann@example.com');
    expect(b.get('password')).toBe('correct horse battery');
    expect(b.get('wfls-captcha')).toBe('PAYLOAD');
    expect(b.get('woocommerce-login-nonce')).toBe('ln12345678');
    expect(b.has('wfls-token')).toBe(false);
    const real = sent[0];
    expect(real.get('wfls-captcha-jwt')).toBe('SIGNED');
    expect(real.get('login')).toBe('Log in');
    expect(real.get('password')).toBe('correct horse battery');
  });

  it('passes the stronger check an account under attack asks for, then logs in (once; a second refusal is shown)', async () => {
    const user = userEvent.setup();
    const stepUp = { error: '<strong>ERROR</strong>: This account had many failed login attempts recently.', reset: true, botcheck: '/wp-json/vitrine/v1/botcheck/login-strong' };
    const { bodies } = mockFetch({ body: stepUp }, { body: { login: 1, captcha: 'SIGNED' } });
    proof.mockResolvedValueOnce('PAYLOAD').mockResolvedValueOnce('STRONG');
    render(<App data={loginPage()} />);
    const sent = catchRealSubmit(loginForm());
    await fillLogin(user);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(proof).toHaveBeenNthCalledWith(1, '/wp-json/vitrine/v1/botcheck/login', expect.anything());
    expect(proof).toHaveBeenNthCalledWith(2, '/wp-json/vitrine/v1/botcheck/login-strong', expect.anything());
    expect(bodies[1].get('wfls-captcha')).toBe('STRONG');
    expect(bodies[1].get('password')).toBe('correct horse battery');
    expect(sent[0].get('wfls-captcha-jwt')).toBe('SIGNED');
    expect(document.getElementById('login-notices')).toBeEmptyDOMElement();

    // Refused again after the stronger check: the answer is shown, no loop.
    cleanups.forEach((f) => f());
    cleanups = [];
    proof.mockReset();
    proof.mockResolvedValue('PAYLOAD');
    const again = mockFetch({ body: stepUp }, { body: stepUp });
    const sent2 = catchRealSubmit(loginForm());
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(document.getElementById('login-notices')).toHaveTextContent('many failed login attempts'));
    expect(again.fn).toHaveBeenCalledTimes(2);
    expect(sent2).toHaveLength(0);
  });

  it('shows an error above the form in the alert region and redoes the proof next time', async () => {
    const user = userEvent.setup();
    const { bodies } = mockFetch(
      { body: { error: '<strong>ERROR</strong>: The username or password you entered is incorrect.', reset: true } },
      { body: { message: 'Check your email', reset: true } },
    );
    render(<App data={loginPage()} />);
    catchRealSubmit(loginForm());
    await fillLogin(user);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const region = document.getElementById('login-notices')!;
    await waitFor(() => expect(region).toHaveTextContent('The username or password you entered is incorrect.'));
    expect(region).toHaveAttribute('role', 'alert');
    expect(region).toHaveFocus();
    proof.mockResolvedValue('PAYLOAD2');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(region).toHaveTextContent('Check your email'));
    expect(region.querySelector('.woocommerce-message')).not.toBeNull();
    expect(proof).toHaveBeenCalledTimes(2);
    expect(bodies[1].get('wfls-captcha')).toBe('PAYLOAD2');
  });

  it('on 403 and 503 shows the status text; on other failures the generic text', async () => {
    const user = userEvent.setup();
    mockFetch({ status: 403, body: '-1' }, { status: 503, body: { error: 'x' } }, { fail: true }, { status: 200, body: 'not json' });
    render(<App data={loginPage()} />);
    catchRealSubmit(loginForm());
    await fillLogin(user);
    const region = document.getElementById('login-notices')!;
    const button = screen.getByRole('button', { name: 'Log in' });
    const expected = [statusFailedText(403), statusFailedText(503), AUTH_FAILED, AUTH_FAILED];
    for (const html of expected) {
      await user.click(button);
      const text = html.replace(/<[^>]+>/g, '');
      await waitFor(() => expect(region).toHaveTextContent(text));
    }
    expect(region).toHaveTextContent('ERROR: An error was encountered while trying to authenticate. Please try again.');
  });

  it('asks for the code in an accessible overlay, keeps it on a wrong code, and submits with the code', async () => {
    const user = userEvent.setup();
    const { bodies } = mockFetch(
      { body: { login: 1, two_factor_required: true, captcha: 'P1' } },
      { body: { error: 'The two-factor code you entered is incorrect.', reset: false, captcha: 'P2' } },
      { body: { login: 1, captcha: 'P3' } },
    );
    render(<App data={loginPage()} />);
    const sent = catchRealSubmit(loginForm());
    await fillLogin(user);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const code = await screen.findByLabelText('Authentication code');
    await waitFor(() => expect(code).toHaveFocus());
    expect(code).toHaveAttribute('size', '6');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    // The plugin's shape: div#wfls-prompt-overlay > div#wfls-prompt-wrapper
    // holding #wfls-token, #wfls-remember-device and input#wfls-token-submit.
    const dialog = document.getElementById('wfls-prompt-overlay')!;
    expect(dialog.tagName).toBe('DIV');
    const wrapper = dialog.querySelector(':scope > div#wfls-prompt-wrapper')!;
    expect(wrapper).not.toBeNull();
    expect(wrapper).toHaveAttribute('role', 'dialog');
    expect(wrapper).toHaveAttribute('aria-modal', 'true');
    expect(within(dialog).getByRole('dialog', { name: 'Two-factor authentication' })).toBe(wrapper);
    expect(wrapper.contains(code)).toBe(true);
    expect(code.id).toBe('wfls-token');
    expect(within(dialog).getByLabelText('Remember for 30 days')).toHaveAttribute('id', 'wfls-remember-device');
    expect(within(dialog).getByLabelText('Remember for 30 days')).toHaveAttribute('value', '1');
    const submit = wrapper.querySelector('input#wfls-token-submit[type=submit]')!;
    expect(submit).not.toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Log In' })).toBe(submit);
    expect(document.querySelectorAll('#wfls-prompt-overlay')).toHaveLength(1);

    await user.type(code, '000000');
    await user.click(within(dialog).getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(document.getElementById('wfls-prompt-notices')).toHaveTextContent('incorrect'));
    expect(document.getElementById('wfls-prompt-overlay')).toBe(dialog);
    expect(code).toHaveValue('');
    expect(bodies[1].get('wfls-token')).toBe('000000');
    expect(bodies[1].get('wfls-captcha-jwt')).toBe('P1');
    expect(proof).toHaveBeenCalledTimes(1); // the proof carried over: no new proof of work

    await user.type(code, '123456');
    await user.click(within(dialog).getByLabelText('Remember for 30 days'));
    await user.click(within(dialog).getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(bodies[2].get('wfls-captcha-jwt')).toBe('P2');
    expect(sent[0].get('wfls-token')).toBe('123456');
    expect(sent[0].get('wfls-remember-device')).toBe('1');
    expect(sent[0].get('wfls-captcha-jwt')).toBe('P3');
  });

  it('closes the overlay on Escape and returns focus to the Log in button; reset true closes it too', async () => {
    const user = userEvent.setup();
    mockFetch(
      { body: { login: 1, two_factor_required: true, captcha: 'P1' } },
      { body: { login: 1, two_factor_required: true, captcha: 'P2' } },
      { body: { error: 'Too many failed login attempts.', reset: true } },
    );
    render(<App data={loginPage()} />);
    catchRealSubmit(loginForm());
    await fillLogin(user);
    const button = screen.getByRole('button', { name: 'Log in' });
    await user.click(button);
    const code = await screen.findByLabelText('Authentication code');
    await waitFor(() => expect(code).toHaveFocus());
    // Tab stays inside the prompt.
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    cancel.focus();
    await user.tab();
    expect(code).toHaveFocus();
    await user.tab({ shift: true });
    expect(cancel).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.getElementById('wfls-prompt-overlay')).toBeNull());
    expect(button).toHaveFocus();

    await user.click(button);
    const again = await screen.findByLabelText('Authentication code');
    await waitFor(() => expect(again).toHaveFocus());
    const dialog = document.getElementById('wfls-prompt-overlay')!;
    await user.type(again, '111111');
    await user.click(within(dialog).getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(document.getElementById('login-notices')).toHaveTextContent('Too many failed login attempts.'));
    expect(document.getElementById('wfls-prompt-overlay')).toBeNull();
  });

  it('renders no #wfls-prompt-overlay before the code is asked for, and gives the proof field its id', async () => {
    // The plugin's script builds its prompt only when no element has that
    // id, and finds wfls-captcha-jwt by id.
    const html = renderToString(<App data={loginPage()} />);
    expect(html).not.toContain('wfls-prompt-overlay');
    expect(html).not.toContain('wfls-token');
    expect(html).toContain('id="wfls-captcha-jwt"');
    const user = userEvent.setup();
    mockFetch({ body: { error: 'The username or password you entered is incorrect.', reset: false } });
    render(<App data={loginPage()} />);
    expect(document.getElementById('wfls-prompt-overlay')).toBeNull();
    expect(document.getElementById('wfls-captcha-jwt')).toHaveAttribute('name', 'wfls-captcha-jwt');
    await fillLogin(user);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(document.getElementById('login-notices')).toHaveTextContent('incorrect'));
    // A refused password (reset false) asks for no code.
    expect(document.getElementById('wfls-prompt-overlay')).toBeNull();
  });

  it('hides the remember-device box when the setting is off', async () => {
    const user = userEvent.setup();
    mockFetch({ body: { login: 1, two_factor_required: true, captcha: 'P1' } });
    render(<App data={loginPage({ remember_device: false })} />);
    await fillLogin(user);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByLabelText('Authentication code');
    expect(screen.queryByLabelText('Remember for 30 days')).toBeNull();
  });

  it('shows a server refusal with the entered login and moves focus to it', () => {
    render(<App data={loginPage({ notices: [{ kind: 'error', html: '<strong>ERROR</strong>: Bad' }], values: { username: 'ann', reg_email: '' } })} />);
    expect(document.getElementById('login-notices')).toHaveTextContent('ERROR: Bad');
    expect(document.getElementById('login-notices')).toHaveFocus();
    expect(screen.getByLabelText(/Username or email address/)).toHaveValue('ann');
  });
});

describe('registration', () => {
  function registerForm(): HTMLFormElement {
    return document.querySelector('form.woocommerce-form-register') as HTMLFormElement;
  }

  it('obtains the proof before submitting the form', async () => {
    const user = userEvent.setup();
    render(<App data={loginPage()} />);
    const sent = catchRealSubmit(registerForm());
    await user.type(screen.getByLabelText(/Email address/), 'new@example.com');
    await user.type(document.getElementById('reg_password') as HTMLElement, 'a long enough password');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(proof).toHaveBeenCalledWith('/wp-json/vitrine/v1/botcheck/register', expect.anything());
    expect(sent[0].get('wfls-captcha')).toBe('PAYLOAD');
    expect(sent[0].get('register')).toBe('Register');
    expect(sent[0].get('email')).toBe('new@example.com');
  });

  it('shows an error when the proof cannot be obtained, and does not submit', async () => {
    const user = userEvent.setup();
    proof.mockRejectedValue(new Error('no worker'));
    render(<App data={loginPage()} />);
    const sent = catchRealSubmit(registerForm());
    await user.type(screen.getByLabelText(/Email address/), 'new@example.com');
    await user.type(document.getElementById('reg_password') as HTMLElement, 'a long enough password');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(document.getElementById('register-notices')).toHaveTextContent('not a robot'));
    expect(sent).toHaveLength(0);
  });

  const refused = () =>
    loginPage({
      form: 'register',
      support_nonce: '1700000000.abc',
      values: { username: '', reg_email: 'ivy@example.com' },
      notices: [{ kind: 'error', html: 'Refused. <a href="#wfls-support" class="wfls-registration-captcha-contact">Message to Support</a>' }],
    });

  it('opens the support overlay from the refusal, sends the message and disables the form on success', async () => {
    const user = userEvent.setup();
    const { bodies } = mockFetch({ body: { message: 'Message sent' } });
    render(<App data={refused()} />);
    const link = screen.getByRole('link', { name: 'Message to Support' });
    await user.click(link);
    const dialog = await screen.findByRole('dialog', { name: 'Message to Support' });
    const text = within(dialog).getByLabelText('Message');
    await waitFor(() => expect(text).toHaveFocus());
    await user.type(text, 'Please help');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(document.getElementById('wfls-support-notices')).toHaveTextContent('Message sent'));
    expect(text).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeDisabled();
    const b = bodies[0];
    expect(b.get('action')).toBe('wordfence_ls_register_support');
    expect(b.get('wfls-message')).toBe('Please help');
    expect(b.get('wfls-message-nonce')).toBe('1700000000.abc');
    expect(b.get('email')).toBe('ivy@example.com');
    expect(b.get('username')).toBe('');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Message to Support' })).toBeNull());
    expect(link).toHaveFocus();
  });

  it('opens the overlay for a press on the link made before the page hydrated', async () => {
    // Before hydration the link only moved the page to its anchor.
    history.replaceState(null, '', '/my-account/#wfls-support');
    render(<App data={refused()} />);
    const dialog = await screen.findByRole('dialog', { name: 'Message to Support' });
    await waitFor(() => expect(within(dialog).getByLabelText('Message')).toHaveFocus());
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/my-account/');
  });

  it('does not open the overlay for the anchor where no refusal link is shown', async () => {
    history.replaceState(null, '', '/my-account/#wfls-support');
    render(<App data={loginPage()} />);
    await screen.findByRole('button', { name: 'Register' });
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.queryByRole('dialog', { name: 'Message to Support' })).toBeNull();
  });

  it('shows the failure text when sending fails, and lets the visitor retry', async () => {
    const user = userEvent.setup();
    mockFetch({ fail: true }, { body: { error: 'Too many messages' } });
    render(<App data={refused()} />);
    await user.click(screen.getByRole('link', { name: 'Message to Support' }));
    const dialog = await screen.findByRole('dialog', { name: 'Message to Support' });
    const text = within(dialog).getByLabelText('Message');
    await user.type(text, 'Hello');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(document.getElementById('wfls-support-notices')).toHaveTextContent(SUPPORT_FAILED));
    expect(text).not.toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(document.getElementById('wfls-support-notices')).toHaveTextContent('Too many messages'));
  });
});

describe('log-out confirmation', () => {
  it('links to the log-out URL with its nonce', () => {
    render(<App data={{ page: 'account-logout', site, url: '/my-account/customer-logout/', nav, settings, logout_url: '/my-account/customer-logout/?_wpnonce=abc' }} />);
    expect(screen.getByRole('link', { name: 'Confirm and log out' })).toHaveAttribute('href', '/my-account/customer-logout/?_wpnonce=abc');
  });
});
