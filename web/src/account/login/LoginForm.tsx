import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { keepTabInside, stopsIn } from '../../lib/focus-trap';
import { useHeldSubmit } from '../../lib/page-hydration';
import type { AccountLoginPage, LoginNotice } from '../../types';
import { LoginNotices } from './LoginNotices';
import { AUTH_FAILED, postAjax, statusFailedText, type LSAnswer } from './api';
import { obtainProof } from './botcheck';
import { FormRow } from './FormRow';
import { useCheckedSubmit } from './checked-submit';

/** Screen-reader status while the invisible bot-check works. */
export { VERIFYING } from './checked-submit';
/** Status while the stronger bot-check works (an account under attack). */
export const VERIFYING_LONGER = 'This account had many failed login attempts, so the check takes a few seconds longer. Please wait…';

/**
 * The login form (WooCommerce's field names) and the two-factor overlay.
 * Spec section 4: the submit is held; a proof of work is obtained (or the
 * last answer's proof reused); the whole form goes to
 * wordfence_ls_authenticate; an error or message is shown above the form
 * (or in the open overlay when it stays open), the code is cleared and the
 * next try gets a new proof; `login: 1` releases the form for the real
 * submit, and `two_factor_required` opens the code overlay, whose Log In
 * button runs the same check with the code. An answer naming a stronger
 * bot-check (`botcheck`: the account is under attack) is not a refusal of
 * the owner: the form solves that challenge and sends the attempt again,
 * once, saying why it takes longer.
 */
export function LoginForm({ data, proofHost }: { data: AccountLoginPage; proofHost: () => HTMLElement }) {
  const formRef = useRef<HTMLFormElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const noticesRef = useRef<HTMLDivElement>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);
  useHeldSubmit(formRef, submitRef);
  const codeRef = useRef<HTMLInputElement>(null);
  const [notices, setNotices] = useState<LoginNotice[]>(data.form === 'login' ? data.notices : []);
  const [overlayNotices, setOverlayNotices] = useState<LoginNotice[]>([]);
  const { busy, status, setStatus, onSubmit, release } = useCheckedSubmit(submitRef, (form) => check(form));
  const [payload, setPayload] = useState('');
  const [proof, setProof] = useState('');
  const [overlay, setOverlay] = useState(false);

  // A refused submit re-rendered by the server: move focus to its notice.
  useEffect(() => {
    if (data.form === 'login' && data.notices.length > 0) noticesRef.current?.focus();
  }, [data]);

  // The prompt exists only while it is needed (the plugin's script builds
  // its own when no #wfls-prompt-overlay is on the page): focus moves into
  // it when it appears.
  useEffect(() => {
    if (overlay) codeRef.current?.focus();
  }, [overlay]);

  const closeOverlay = () => {
    setOverlay(false);
    setOverlayNotices([]);
    if (codeRef.current) codeRef.current.value = '';
    submitRef.current?.focus();
  };

  // A modal prompt: Escape closes it, Tab stays inside it.
  const onPromptKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      closeOverlay();
      return;
    }
    keepTabInside(e, () => stopsIn(wrapperRef.current, 'input:not([type=hidden]):not([disabled]), button:not([disabled]), a[href]'));
  };

  const show = (n: LoginNotice, inOverlay: boolean) => {
    if (inOverlay) {
      setOverlayNotices([n]);
      codeRef.current?.focus();
    } else {
      setNotices([n]);
      noticesRef.current?.focus();
    }
  };

  const check = async (form: HTMLFormElement) => {
    const overlayOpen = overlay;
    let jwt = proof;
    let challengeUrl = data.botcheck.login;
    let res: Awaited<ReturnType<typeof postAjax<LSAnswer>>>;
    for (let attempt = 0; ; attempt++) {
      let captcha = '';
      if (!jwt) {
        try {
          captcha = await obtainProof(challengeUrl, proofHost());
        } catch {
          show({ kind: 'error', html: AUTH_FAILED }, overlayOpen);
          return;
        }
      }
      const body = new URLSearchParams();
      new FormData(form).forEach((v, k) => body.append(k, typeof v === 'string' ? v : ''));
      body.set('wfls-captcha', captcha);
      body.set('wfls-captcha-jwt', jwt);
      body.set('action', 'wordfence_ls_authenticate');
      res = await postAjax<LSAnswer>(data.ajax_url, body);
      // Whatever the answer, the proof sent is spent.
      jwt = '';
      // An account under attack: pass the stronger check and try again, once.
      if (attempt === 0 && res.ok && res.data.error && res.data.botcheck) {
        challengeUrl = res.data.botcheck;
        setStatus(VERIFYING_LONGER);
        continue;
      }
      break;
    }
    if (!res.ok) {
      setProof('');
      setPayload('');
      setOverlay(false);
      show({ kind: 'error', html: res.status === 403 || res.status === 503 ? statusFailedText(res.status) : AUTH_FAILED }, false);
      return;
    }
    const a = res.data;
    setProof(a.captcha ?? '');
    if (a.error || a.message) {
      if (codeRef.current) codeRef.current.value = '';
      setPayload('');
      const n: LoginNotice = a.error ? { kind: 'error', html: a.error } : { kind: 'message', html: a.message! };
      const stay = overlayOpen && a.reset === false;
      if (!stay) setOverlay(false);
      show(n, stay);
      return;
    }
    if (a.login === 1 && a.two_factor_required) {
      setOverlayNotices([]);
      setOverlay(true);
      codeRef.current?.focus();
      return;
    }
    if (a.login === 1) {
      // Release the form: the real POST carries the proof just received.
      setStatus('Logging in…');
      const jwtInput = form.elements.namedItem('wfls-captcha-jwt') as HTMLInputElement | null;
      if (jwtInput) jwtInput.value = a.captcha ?? '';
      const capInput = form.elements.namedItem('wfls-captcha') as HTMLInputElement | null;
      if (capInput) capInput.value = '';
      release(form);
      return;
    }
    show({ kind: 'error', html: AUTH_FAILED }, overlayOpen);
  };

  return (
    <form ref={formRef} className="woocommerce-form woocommerce-form-login login" method="post" action="/my-account/" onSubmit={onSubmit} data-hold-until-hydrated="">
      <LoginNotices id="login-notices" ref={noticesRef} notices={notices} />
      <FormRow
        label="Username or email address"
        type="text"
        name="username"
        id="username"
        autoComplete="username"
        required
        defaultValue={data.values.username}
      />
      <FormRow label="Password" type="password" name="password" id="password" autoComplete="current-password" required />
      <input type="hidden" name="woocommerce-login-nonce" value={data.login_nonce} />
      <input type="hidden" name="redirect" value={data.redirect} />
      <input type="hidden" name="wfls-captcha" value={payload} readOnly />
      {/* With its id: the plugin's script finds the field by id and sets it, rather than appending a second one. */}
      <input type="hidden" name="wfls-captcha-jwt" id="wfls-captcha-jwt" value={proof} readOnly />
      <p className="form-row">
        <button ref={submitRef} type="submit" className="woocommerce-button button woocommerce-form-login__submit" name="login" value="Log in" aria-disabled={busy || undefined}>
          Log in
        </button>
      </p>
      <p className="woocommerce-LostPassword lost_password">
        <a href={data.lost_password_url}>Lost your password?</a>
      </p>
      <p className="screen-reader-text" role="status" aria-live="polite">
        {status}
      </p>
      {overlay && (
        // The plugin's shape: div#wfls-prompt-overlay > div#wfls-prompt-wrapper
        // holding input#wfls-token, the optional #wfls-remember-device and
        // input#wfls-token-submit. Rendered only once the code is asked for.
        <div id="wfls-prompt-overlay" className="wfls-prompt" onKeyDown={onPromptKey}>
          <div
            ref={wrapperRef}
            id="wfls-prompt-wrapper"
            role="dialog"
            aria-modal="true"
            aria-labelledby="wfls-prompt-title"
            aria-describedby="wfls-prompt-help"
          >
            <h2 id="wfls-prompt-title">Two-factor authentication</h2>
            <LoginNotices id="wfls-prompt-notices" notices={overlayNotices} />
            <p className="woocommerce-form-row form-row">
              <label htmlFor="wfls-token">Authentication code</label>
              <input
                ref={codeRef}
                type="text"
                name="wfls-token"
                id="wfls-token"
                className="input input-text"
                size={6}
                autoComplete="one-time-code"
                inputMode="numeric"
                aria-describedby="wfls-prompt-help"
              />
            </p>
            <p id="wfls-prompt-help" className="wfls-overlay__help">
              Enter the 6-digit code from your authenticator app, or one of your recovery codes.
            </p>
            {data.remember_device && (
              <p className="form-row wfls-remember-device-wrapper">
                <label className="woocommerce-form__label woocommerce-form__label-for-checkbox" htmlFor="wfls-remember-device">
                  <input type="checkbox" name="wfls-remember-device" id="wfls-remember-device" value="1" /> Remember for 30 days
                </label>
              </p>
            )}
            <p className="submit wfls-overlay__actions">
              <input
                type="submit"
                name="wfls-token-submit"
                id="wfls-token-submit"
                className="button button-primary button-large alt"
                value="Log In"
                aria-disabled={busy || undefined}
              />
              <button type="button" className="button wfls-overlay__cancel" onClick={closeOverlay}>
                Cancel
              </button>
            </p>
          </div>
        </div>
      )}
    </form>
  );
}
