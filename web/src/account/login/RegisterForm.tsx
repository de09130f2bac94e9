import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { pageHydrated, useHeldSubmit } from '../../lib/page-hydration';
import type { AccountLoginPage, LoginNotice } from '../../types';
import { LoginNotices } from './LoginNotices';
import { REGISTER_FAILED } from './api';
import { obtainProof } from './botcheck';
import { useCheckedSubmit } from './checked-submit';
import { SupportDialog } from './SupportDialog';
import { FormRow } from './FormRow';
import { PrivacyText } from '../../ui/PrivacyText';

/** Where the refusal's "Message to Support" link points (internal/myaccount). */
const SUPPORT_ANCHOR = '#wfls-support';

/**
 * The registration form (WooCommerce's field names). Spec section 4: the
 * submit is held until the proof of work is obtained, then the form is
 * released and submitted. A registration the bot-check refused comes back
 * with a "Message to Support" link (and its token in the page data), which
 * opens the support overlay.
 */
export function RegisterForm({ data, proofHost }: { data: AccountLoginPage; proofHost: () => HTMLElement }) {
  const formRef = useRef<HTMLFormElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  useHeldSubmit(formRef, submitRef);
  const noticesRef = useRef<HTMLDivElement>(null);
  const [notices, setNotices] = useState<LoginNotice[]>(data.form === 'register' ? data.notices : []);
  const { busy, status, setStatus, onSubmit, release } = useCheckedSubmit(submitRef, (form) => check(form));
  const [support, setSupport] = useState<HTMLElement | null>(null);

  useEffect(() => {
    if (data.form === 'register' && data.notices.length > 0) noticesRef.current?.focus();
  }, [data]);

  const check = async (form: HTMLFormElement) => {
    let payload: string;
    try {
      payload = await obtainProof(data.botcheck.register, proofHost());
    } catch {
      setNotices([{ kind: 'error', html: REGISTER_FAILED }]);
      noticesRef.current?.focus();
      return;
    }
    const input = form.elements.namedItem('wfls-captcha') as HTMLInputElement | null;
    if (input) input.value = payload;
    setStatus('Creating your account…');
    release(form);
  };

  // A press on the link before the page hydrated only moved to its anchor
  // (#wfls-support): once hydrated, the overlay opens for it, and the anchor
  // leaves the address so that a reload does not open the overlay again.
  useEffect(() => {
    let live = true;
    void pageHydrated().then(() => {
      if (!live || window.location.hash !== SUPPORT_ANCHOR || !data.support_nonce) return;
      const a = noticesRef.current?.querySelector<HTMLElement>('a.wfls-registration-captcha-contact');
      if (!a) return;
      history.replaceState(history.state, '', window.location.pathname + window.location.search);
      setSupport(a);
    });
    return () => {
      live = false;
    };
  }, [data]);

  // The refusal's "Message to Support" link opens the overlay.
  const onNoticeClick = (e: MouseEvent<HTMLDivElement>) => {
    const a = (e.target as HTMLElement).closest('a.wfls-registration-captcha-contact');
    if (!a || !data.support_nonce) return;
    e.preventDefault();
    setSupport(a as HTMLElement);
  };

  return (
    <>
      <form ref={formRef} className="woocommerce-form woocommerce-form-register register" method="post" action="/my-account/" onSubmit={onSubmit} data-hold-until-hydrated="">
        <LoginNotices id="register-notices" ref={noticesRef} notices={notices} onClick={onNoticeClick} />
        <FormRow label="Email address" type="email" name="email" id="reg_email" autoComplete="email" required defaultValue={data.values.reg_email} />
        <FormRow
          label="Password"
          type="password"
          name="password"
          id="reg_password"
          autoComplete="new-password"
          required
          minLength={12}
          help="At least 12 characters; a common password or your email address is refused."
        />
        <input type="hidden" name="woocommerce-register-nonce" value={data.register_nonce} />
        <input type="hidden" name="redirect" value={data.redirect} />
        <input type="hidden" name="wfls-captcha" defaultValue="" />
        <PrivacyText pages={data.pages} purpose="to manage your account and to support your visit to this shop" />
        <p className="woocommerce-form-row form-row">
          <button ref={submitRef} type="submit" className="woocommerce-Button woocommerce-button button woocommerce-form-register__submit" name="register" value="Register" aria-disabled={busy || undefined}>
            Register
          </button>
        </p>
        <p className="screen-reader-text" role="status" aria-live="polite">
          {status}
        </p>
      </form>
      {support && (
        <SupportDialog
          ajaxUrl={data.ajax_url}
          nonce={data.support_nonce}
          fields={() => {
            const email = (document.getElementById('reg_email') as HTMLInputElement | null)?.value ?? '';
            return { email, username: '' };
          }}
          opener={support}
          onClosed={() => setSupport(null)}
        />
      )}
    </>
  );
}
