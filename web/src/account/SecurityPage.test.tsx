import { render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { App } from '../App';
import { securityEnrollment, securityPage } from '../test/fixtures';

const page = securityPage;
const enrollment = securityEnrollment;

function hidden(form: HTMLFormElement) {
  const fd = new FormData(form);
  return { action: fd.get('action'), nonce: fd.get('_wpnonce') };
}

describe('security page', () => {
  it('offers setup when two-factor is off, in the account navigation', () => {
    render(<App data={page()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Security' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Security' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Log out' })).toHaveAttribute('href', '/my-account/customer-logout/?_wpnonce=abc');
    const button = screen.getByRole('button', { name: 'Set up two-factor authentication' });
    const form = button.closest('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/my-account/security/');
    expect(hidden(form)).toEqual({ action: 'enroll', nonce: 'n-enroll' });
    // The setup starts only with the current password.
    const pw = within(form).getByLabelText('Current password');
    expect(pw).toHaveAttribute('type', 'password');
    expect(pw).toHaveAttribute('name', 'password');
    expect(pw).toHaveAttribute('autocomplete', 'current-password');
    expect(pw).toBeRequired();
    expect(screen.getByText('No device is remembered.')).toBeInTheDocument();
  });

  it('ties a refused setup password to its field and focuses it', () => {
    const msg = 'The password is not correct.';
    render(<App data={page({ notice: { kind: 'error', text: msg }, errors: { enroll_password: msg } })} />);
    const pw = document.getElementById('wfls-enroll-password')!;
    expect(pw).toHaveAttribute('aria-invalid', 'true');
    expect(pw.getAttribute('aria-describedby')).toBe('wfls-enroll-password-error wfls-enroll-password-hint');
    expect(document.getElementById('wfls-enroll-password-error')).toHaveTextContent(msg);
    expect(pw).toHaveFocus();
  });

  it('shows the QR code, the key as text and a labelled code field while setting up', () => {
    render(<App data={page({ enrollment })} />);
    expect(screen.getByRole('img', { name: /QR code/ })).toHaveAttribute('src', enrollment.qr);
    const secret = document.getElementById('wfls-totp-secret')!;
    expect(secret).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(secret).toHaveAttribute('data-secret', enrollment.secret);
    expect(screen.getByRole('link', { name: /Open in an authenticator app/ })).toHaveAttribute('href', enrollment.otpauth_url);
    const code = screen.getByLabelText('Six-digit code');
    expect(code).toHaveAttribute('id', 'wfls-confirm-code');
    expect(code).toHaveAttribute('name', 'code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('size', '6');
    expect(code).not.toHaveAttribute('aria-invalid');
    expect(hidden(code.closest('form')!)).toEqual({ action: 'confirm', nonce: 'n-confirm' });
  });

  it('ties a wrong code to its field, announces it and focuses the field', () => {
    const msg = 'The code is not correct. Check the time on your device and try the current code.';
    render(<App data={page({ enrollment, notice: { kind: 'error', text: msg }, errors: { confirm_code: msg } })} />);
    const code = screen.getByLabelText('Six-digit code');
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(code.getAttribute('aria-describedby')!)).toHaveTextContent(msg);
    expect(within(screen.getByRole('alert')).getByText(msg)).toBeInTheDocument();
    expect(code).toHaveFocus();
  });

  it('shows new recovery codes once, with a download and a warning, and focuses them', () => {
    const codes = Array.from({ length: 10 }, (_, i) => `abcd-efgh-ijkl-mno${i}`);
    render(<App data={page({ two_factor: true, recovery_codes_left: 10, recovery_codes: codes, notice: { kind: 'message', text: 'Two-factor authentication is on.' } })} />);
    const list = document.getElementById('wfls-recovery-codes')!;
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(list).toHaveTextContent('abcd-efgh-ijkl-mno9');
    expect(screen.getByText(/They are shown only this once/)).toBeInTheDocument();
    const download = screen.getByRole('link', { name: 'Download as text' });
    expect(download).toHaveAttribute('download', 'recovery-codes.txt');
    expect(decodeURIComponent(download.getAttribute('href')!)).toContain('abcd-efgh-ijkl-mno0\nabcd-efgh-ijkl-mno1');
    expect(screen.getByRole('heading', { name: 'Your recovery codes' })).toHaveFocus();
    expect(screen.getByText('Two-factor authentication is on.').closest('[role="status"]')).not.toBeNull();
  });

  it('shows the status, the codes left and the new-codes and turn-off forms when on', () => {
    render(<App data={page({ two_factor: true, recovery_codes_left: 2 })} />);
    expect(screen.getByText(/Two-factor authentication is/)).toHaveTextContent('Two-factor authentication is on.');
    expect(document.getElementById('wfls-codes-left')).toHaveTextContent('2 recovery codes left. Make new ones before you run out.');
    const newCodes = screen.getByRole('form', { name: 'Generate new recovery codes' }) as HTMLFormElement;
    expect(hidden(newCodes)).toEqual({ action: 'new-codes', nonce: 'n-codes' });
    expect(within(newCodes).getByLabelText('Six-digit code')).toHaveAttribute('autocomplete', 'one-time-code');
    expect(within(newCodes).getByLabelText('Or your password')).toHaveAttribute('type', 'password');
    const off = screen.getByRole('form', { name: 'Turn off two-factor authentication' }) as HTMLFormElement;
    expect(hidden(off)).toEqual({ action: 'disable', nonce: 'n-disable' });
    expect(within(off).getByLabelText('Password')).toHaveAttribute('autocomplete', 'current-password');
    // Turning it off also takes a code from the app or a recovery code.
    const code = within(off).getByLabelText('Code from your app, or a recovery code');
    expect(code).toHaveAttribute('name', 'code');
    expect(code).toBeRequired();
    expect(code).toHaveAttribute('maxlength', '24');
    expect(screen.queryByRole('button', { name: 'Set up two-factor authentication' })).not.toBeInTheDocument();
  });

  it('ties a wrong password to the turn-off field', () => {
    render(<App data={page({ two_factor: true, recovery_codes_left: 10, notice: { kind: 'error', text: 'The password is not correct.' }, errors: { disable_password: 'The password is not correct.' } })} />);
    const pw = document.getElementById('wfls-disable-password')!;
    expect(pw).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(pw.getAttribute('aria-describedby')!)).toHaveTextContent('The password is not correct.');
    expect(pw).toHaveFocus();
  });

  it('ties a wrong code to the turn-off code field', () => {
    const msg = 'The code is not correct. Check the time on your device and try the current code.';
    render(<App data={page({ two_factor: true, recovery_codes_left: 10, notice: { kind: 'error', text: msg }, errors: { disable_code: msg } })} />);
    const code = document.getElementById('wfls-disable-code')!;
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById('wfls-disable-code-error')).toHaveTextContent(msg);
    expect(code).toHaveFocus();
  });

  it('lists remembered devices as text, each with its own forget button', () => {
    const label = '<img src=x onerror=alert(1)> Firefox on Linux';
    const html = renderToString(<App data={page({ devices: [{ id: 7, label, created: 'November 1, 2026', expires: 'December 1, 2026' }, { id: 9, label: '', created: 'November 2, 2026', expires: 'December 2, 2026' }] })} />);
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)> Firefox on Linux');
    render(<App data={page({ devices: [{ id: 7, label, created: 'November 1, 2026', expires: 'December 1, 2026' }] })} />);
    const row = screen.getByRole('rowheader', { name: label }).closest('tr')!;
    expect(row).toHaveTextContent('November 1, 2026');
    expect(row).toHaveTextContent('December 1, 2026');
    const forget = within(row).getByRole('button', { name: `Forget ${label}` });
    const fd = new FormData(forget.closest('form')!);
    expect([fd.get('action'), fd.get('_wpnonce'), fd.get('device')]).toEqual(['forget-device', 'n-dev', '7']);
    expect(hidden(screen.getByRole('button', { name: 'Forget all devices' }).closest('form')!)).toEqual({ action: 'forget-all', nonce: 'n-all' });
  });
});
