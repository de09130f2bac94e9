import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { LostPasswordPage as LostPasswordData } from '../types';
import { InputField } from '../ui/Field';
import { PageContainer } from '../ui/PageContainer';
import './account-links.css';

/** Moves focus to the notice once the page is interactive, so it is read out first. */
function useFocusOnMount<T extends HTMLElement>(active: boolean) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (active) ref.current?.focus();
  }, [active]);
  return ref;
}

function ErrorNotice({ text, field }: { text: string; field?: string }) {
  const ref = useFocusOnMount<HTMLDivElement>(true);
  return (
    <div ref={ref} className="woocommerce-notices-wrapper" tabIndex={-1} role="alert">
      <ul className="woocommerce-error">
        <li>{field ? <a href={`#${field}`}>{text}</a> : text}</li>
      </ul>
    </div>
  );
}

function RequestForm({ data }: { data: LostPasswordData }) {
  const bad = data.field === 'user_login';
  return (
    <form method="post" action="/my-account/lost-password/" className="woocommerce-ResetPassword lost_reset_password">
      <p>Lost your password? Please enter your username or email address. You will receive a link to create a new password via email.</p>
      <InputField
        wrapper="p"
        className="woocommerce-form-row form-row"
        label="Username or email"
        controlClassName="woocommerce-Input"
        type="text"
        name="user_login"
        id="user_login"
        autoComplete="username"
        required
        aria-invalid={bad || undefined}
        defaultValue={data.login}
        maxLength={254}
      />
      <input type="hidden" name="woocommerce-lost-password-nonce" value={data.nonce} />
      <input type="hidden" name="wc_reset_password" value="true" />
      <p className="woocommerce-form-row form-row">
        <button type="submit" className="woocommerce-Button button" value="Reset password">
          Reset password
        </button>
      </p>
    </form>
  );
}

function ResetForm({ data }: { data: LostPasswordData }) {
  const [mismatch, setMismatch] = useState(false);
  const second = useRef<HTMLInputElement>(null);
  // Checked in the browser too, so a typo is caught without a round trip;
  // the server checks again.
  const submit = (e: FormEvent<HTMLFormElement>) => {
    const f = e.currentTarget;
    const p1 = (f.elements.namedItem('password_1') as HTMLInputElement).value;
    const p2 = (f.elements.namedItem('password_2') as HTMLInputElement).value;
    if (p1 !== p2) {
      e.preventDefault();
      setMismatch(true);
      second.current?.focus();
    }
  };
  const err1 = data.field === 'password_1';
  const err2 = data.field === 'password_2' || mismatch;
  return (
    <form method="post" action="/my-account/lost-password/" className="woocommerce-ResetPassword lost_reset_password" onSubmit={submit}>
      <p>
        Enter a new password below for <strong>{data.login}</strong>.
      </p>
      <input type="text" name="username" autoComplete="username" value={data.login} readOnly hidden />
      <InputField
        wrapper="p"
        className="woocommerce-form-row form-row"
        label="New password"
        controlClassName="woocommerce-Input"
        type="password"
        name="password_1"
        id="password_1"
        autoComplete="new-password"
        required
        minLength={12}
        aria-invalid={err1 || undefined}
        hint="At least 12 characters. A few unrelated words make a strong password."
        hintId="password_hint"
        hintClassName="description"
      />
      <InputField
        ref={second}
        wrapper="p"
        className="woocommerce-form-row form-row"
        label="Re-enter new password"
        controlClassName="woocommerce-Input"
        type="password"
        name="password_2"
        id="password_2"
        autoComplete="new-password"
        required
        aria-invalid={err2 || undefined}
        error={mismatch ? 'Passwords do not match.' : undefined}
        errorId="password_2_error"
        errorClassName="field-error"
        errorRole="alert"
        onInput={() => setMismatch(false)}
      />
      <input type="hidden" name="woocommerce-reset-password-nonce" value={data.nonce} />
      <input type="hidden" name="wc_reset_password" value="true" />
      <p className="woocommerce-form-row form-row">
        <button type="submit" className="woocommerce-Button button" value="Save">
          Save
        </button>
      </p>
    </form>
  );
}

function Message({ kind, children }: { kind: 'info' | 'success' | 'error'; children: React.ReactNode }) {
  const ref = useFocusOnMount<HTMLDivElement>(true);
  return (
    <div ref={ref} tabIndex={-1} className={`woocommerce-message woocommerce-${kind === 'error' ? 'error' : kind === 'success' ? 'message' : 'info'} account-link-notice account-link-notice--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** WooCommerce's lost-password page: ask for a link, then set a new password from it. */
export function LostPasswordPage({ data }: { data: LostPasswordData }) {
  const heading = data.stage === 'reset' || data.stage === 'done' ? 'Reset password' : 'Lost password';
  return (
    <PageContainer className="account-links-page">
      <h1>{heading}</h1>
      {data.error && <ErrorNotice text={data.error} field={data.field || undefined} />}
      {data.stage === 'request' && <RequestForm data={data} />}
      {data.stage === 'reset' && <ResetForm data={data} />}
      {data.stage === 'sent' && (
        <Message kind="info">
          <p>If an account matches that email or username, we have sent a link to reset its password.</p>
        </Message>
      )}
      {data.stage === 'done' && (
        <Message kind="success">
          <p>Your password has been reset successfully.</p>
          <p>
            <a className="button" href="/my-account/">
              Log in
            </a>
          </p>
        </Message>
      )}
      {data.stage === 'invalid' && (
        <Message kind="error">
          <p>This key is invalid or has already been used. Please reset your password again if needed.</p>
          <p>
            <a href="/my-account/lost-password/">Request a new link</a>
          </p>
        </Message>
      )}
    </PageContainer>
  );
}
