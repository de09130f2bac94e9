import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { AccountSecurityPage as SecurityData } from '../types';
import { AccountNav } from './AccountNav';
import { Field as UiField } from '../ui/Field';
import { deviceName } from './device-name';
import './security.css';
import { PageContainer } from '../ui/PageContainer';
import { ColumnHeads } from '../ui/ColumnHeads';

/**
 * The my-account security page: two-factor setup (QR code, the key as text,
 * a confirming code), its status (recovery codes left, new codes, turning it
 * off) and remembered devices. Every form is an ordinary POST that works
 * without scripts; the server answers with this page again (a refusal, the
 * setup, the codes shown once) or a 303 with a notice.
 */

const ACTION = '/my-account/security/';

function Hidden({ action, nonce }: { action: string; nonce: string }) {
  return (
    <>
      <input type="hidden" name="action" value={action} />
      <input type="hidden" name="_wpnonce" value={nonce} />
    </>
  );
}

/**
 * One of the page's titled forms: its heading names it (and its submit
 * button), an intro may follow, then the hidden action and nonce, the
 * fields, and the button.
 */
function ActionForm({ action, nonce, title, intro, primary, children }: { action: string; nonce: string; title: string; intro?: string; primary?: boolean; children: ReactNode }) {
  const heading = `wfls-${action}-heading`;
  return (
    <form method="post" action={ACTION} className="wfls-form" aria-labelledby={heading} noValidate>
      <h3 id={heading}>{title}</h3>
      {intro && <p>{intro}</p>}
      <Hidden action={action} nonce={nonce} />
      {children}
      <p>
        <button type="submit" className={primary ? 'button alt' : 'button'}>
          {title}
        </button>
      </p>
    </form>
  );
}

/** A labelled input of this page: the shop's field (ui/Field.tsx), its hint and error tied to it with aria-describedby. */
function Field({
  id,
  name,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  name: string;
  label: string;
  error?: string;
  hint?: string;
  children: (props: Record<string, unknown>) => ReactNode;
}) {
  return (
    <UiField
      wrapper="p"
      className="form-row"
      invalidClassName="woocommerce-invalid"
      id={id}
      label={label}
      hint={hint}
      hintId={`${id}-hint`}
      hintClassName="description"
      error={error}
      errorId={`${id}-error`}
      errorClassName="field-error"
    >
      {(p) => children({ ...p, name })}
    </UiField>
  );
}

function CodeInput(props: Record<string, unknown>) {
  return (
    <input
      {...props}
      type="text"
      className="input-text wfls-code"
      size={6}
      maxLength={6}
      inputMode="numeric"
      autoComplete="one-time-code"
      spellCheck="false"
    />
  );
}

/** A six-digit code or a recovery code (turning two-factor off takes either). */
function AnyCodeInput(props: Record<string, unknown>) {
  return <input {...props} type="text" className="input-text" maxLength={24} autoComplete="one-time-code" spellCheck="false" autoCapitalize="off" />;
}

function PasswordInput(props: Record<string, unknown>) {
  return <input {...props} type="password" className="input-text" autoComplete="current-password" />;
}

function codesFile(codes: string[], email: string): string {
  const text = ['Recovery codes for ' + email, 'Each code works once, in place of a code from your authenticator app.', '', ...codes, ''].join('\n');
  return 'data:text/plain;charset=utf-8,' + encodeURIComponent(text);
}

function RecoveryCodes({ codes, email }: { codes: string[]; email: string }) {
  return (
    <section className="wfls-recovery-codes" aria-labelledby="wfls-recovery-codes-heading">
      <h3 id="wfls-recovery-codes-heading" tabIndex={-1}>
        Your recovery codes
      </h3>
      <p className="wfls-warning">
        <strong>Save these codes now. They are shown only this once.</strong> Each code works once, in place of a code from your
        authenticator app, if you lose your phone. Keep them somewhere safe, away from your password.
      </p>
      <ol id="wfls-recovery-codes" className="wfls-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <p className="wfls-codes-actions">
        <a className="button" href={codesFile(codes, email)} download="recovery-codes.txt">
          Download as text
        </a>{' '}
        <a className="button" href={ACTION}>
          I have saved my codes
        </a>
      </p>
    </section>
  );
}

function CopyButton({ text }: { text: string }) {
  const [hydrated, setHydrated] = useState(false);
  const [status, setStatus] = useState('');
  useEffect(() => setHydrated(true), []);
  if (!hydrated || typeof navigator === 'undefined' || !navigator.clipboard) return null;
  return (
    <>
      <button
        type="button"
        className="button wfls-copy"
        onClick={() => {
          navigator.clipboard.writeText(text).then(
            () => setStatus('Key copied.'),
            () => setStatus('The key could not be copied: select it and copy it by hand.'),
          );
        }}
      >
        Copy key
      </button>
      <span className="screen-reader-text" role="status" aria-live="polite">
        {status}
      </span>
    </>
  );
}

function Setup({ data }: { data: SecurityData }) {
  const e = data.enrollment!;
  const error = data.errors.confirm_code;
  return (
    <div className="wfls-setup">
      <h3>1. Add the account to your authenticator app</h3>
      <p>Scan this QR code with an authenticator app (such as Aegis, Google Authenticator or 1Password).</p>
      <img className="wfls-qr" src={e.qr} width={240} height={240} alt="QR code to add this account to an authenticator app" />
      <p>
        Cannot scan it? Enter this key in the app instead (spaces do not matter):{' '}
        <code id="wfls-totp-secret" className="wfls-secret" data-secret={e.secret}>
          {e.secret_groups.join(' ')}
        </code>{' '}
        <CopyButton text={e.secret} />
      </p>
      <p>
        <a href={e.otpauth_url}>Open in an authenticator app on this device</a>
      </p>
      <h3>2. Enter the code the app shows</h3>
      <form method="post" action={ACTION} className="wfls-form" noValidate>
        <Hidden action="confirm" nonce={data.nonces.confirm} />
        <Field id="wfls-confirm-code" name="code" label="Six-digit code" error={error}>
          {(p) => <CodeInput {...p} required />}
        </Field>
        <p>
          <button type="submit" className="button alt">
            Turn on two-factor authentication
          </button>
        </p>
      </form>
    </div>
  );
}

function TwoFactorOff({ data }: { data: SecurityData }) {
  if (data.enrollment) return <Setup data={data} />;
  return (
    <>
      <p className="wfls-status">
        Two-factor authentication is <strong>off</strong>.
      </p>
      <p>
        With it on, logging in also asks for a six-digit code from an app on your phone, so a stolen password alone does not open your
        account.
      </p>
      <ActionForm action="enroll" nonce={data.nonces.enroll} title="Set up two-factor authentication" primary>
        <Field
          id="wfls-enroll-password"
          name="password"
          label="Current password"
          hint="Confirm it is you before the setup starts."
          error={data.errors.enroll_password}
        >
          {(p) => <PasswordInput {...p} required />}
        </Field>
      </ActionForm>
    </>
  );
}

function TwoFactorOn({ data }: { data: SecurityData }) {
  const left = data.recovery_codes_left;
  return (
    <>
      <p className="wfls-status">
        Two-factor authentication is <strong>on</strong>.
      </p>
      <p id="wfls-codes-left" className={left <= 3 ? 'wfls-warning' : undefined}>
        {left === 1 ? '1 recovery code left.' : `${left} recovery codes left.`}
        {left <= 3 && ' Make new ones before you run out.'}
      </p>
      <ActionForm action="new-codes" nonce={data.nonces['new-codes']} title="Generate new recovery codes" intro="The codes you have now stop working. Confirm with a code from your app, or with your password.">
        <Field id="wfls-new-codes-code" name="code" label="Six-digit code" error={data.errors.new_codes_code}>
          {(p) => <CodeInput {...p} />}
        </Field>
        <Field id="wfls-new-codes-password" name="password" label="Or your password" error={data.errors.new_codes_password}>
          {(p) => <PasswordInput {...p} />}
        </Field>
      </ActionForm>
      <ActionForm action="disable" nonce={data.nonces.disable} title="Turn off two-factor authentication" intro="Your recovery codes and remembered devices are removed too.">
        <Field id="wfls-disable-password" name="password" label="Password" error={data.errors.disable_password}>
          {(p) => <PasswordInput {...p} required />}
        </Field>
        <Field
          id="wfls-disable-code"
          name="code"
          label="Code from your app, or a recovery code"
          hint="The six-digit code your authenticator app shows now, or one of your unused recovery codes."
          error={data.errors.disable_code}
        >
          {(p) => <AnyCodeInput {...p} required />}
        </Field>
      </ActionForm>
    </>
  );
}

function Devices({ data }: { data: SecurityData }) {
  return (
    // Not a named section: the scrollable table below is the one region
    // named by the heading (landmark names stay unique).
    <section className="wfls-devices">
      <h2 id="wfls-devices-heading">Remembered devices</h2>
      <p>A remembered device is not asked for a two-factor code for 30 days.</p>
      {data.devices.length === 0 ? (
        <p id="wfls-no-devices">No device is remembered.</p>
      ) : (
        <>
          <div className="wfls-devices-table-wrap" role="region" aria-labelledby="wfls-devices-heading" tabIndex={0}>
            <table className="shop_table wfls-devices-table">
              <ColumnHeads columns={['Device', 'Remembered on', 'Until', { label: 'Actions', hidden: true }]} />
              <tbody>
                {data.devices.map((d) => (
                  <tr key={d.id}>
                    <th scope="row" className="wfls-device-label" title={d.label || undefined}>
                      {deviceName(d.label)}
                    </th>
                    <td>{d.created}</td>
                    <td>{d.expires}</td>
                    <td>
                      <form method="post" action={ACTION}>
                        <Hidden action="forget-device" nonce={data.nonces['forget-device']} />
                        <input type="hidden" name="device" value={String(d.id)} />
                        <button type="submit" className="button" aria-label={`Forget ${deviceName(d.label)}`}>
                          Forget
                        </button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <form method="post" action={ACTION} className="wfls-form">
            <Hidden action="forget-all" nonce={data.nonces['forget-all']} />
            <button type="submit" className="button">
              Forget all devices
            </button>
          </form>
        </>
      )}
    </section>
  );
}

export function SecurityPage({ data }: { data: SecurityData }) {
  const noticeRef = useRef<HTMLDivElement>(null);
  const codes = data.recovery_codes && data.recovery_codes.length > 0 ? data.recovery_codes : null;
  // After a form's answer, move focus where the answer is: the first field
  // in error, else the codes shown once, else the notice.
  useEffect(() => {
    const firstError = Object.keys(data.errors)[0];
    const field = firstError ? document.getElementById('wfls-' + firstError.replace(/_/g, '-')) : null;
    const target = field ?? (codes ? document.getElementById('wfls-recovery-codes-heading') : null) ?? (data.notice ? noticeRef.current : null);
    target?.focus();
    // Once, on load: each answer is a new page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const n = data.notice;
  return (
    <PageContainer className="account-page account-security-page">
      <h1>Security</h1>
      <div className="woocommerce account-layout">
        <AccountNav current="security" logoutUrl={data.logout_url} />
        <div className="woocommerce-MyAccount-content">
          <div className="woocommerce-notices-wrapper" ref={noticeRef} tabIndex={-1}>
            {n && n.kind === 'error' && (
              <div role="alert">
                <p className="woocommerce-error">{n.text}</p>
              </div>
            )}
            {n && n.kind !== 'error' && (
              <div role="status">
                <p className="woocommerce-message">{n.text}</p>
              </div>
            )}
          </div>
          <section className="wfls-two-factor" aria-labelledby="wfls-2fa-heading">
            <h2 id="wfls-2fa-heading">Two-factor authentication</h2>
            {codes && <RecoveryCodes codes={codes} email={data.email} />}
            {data.two_factor ? <TwoFactorOn data={data} /> : <TwoFactorOff data={data} />}
          </section>
          <Devices data={data} />
        </div>
      </div>
    </PageContainer>
  );
}
