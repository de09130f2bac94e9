import { render } from '@testing-library/react';
import axe from 'axe-core';
import { App } from '../App';
import type { AccountSecurityPage } from '../types';
import { nav, settings, site } from '../test/fixtures';

// Structural accessibility rules (names, labels, landmarks, ARIA) in every
// state of the page; colour contrast needs a browser (the e2e scans).
const base: AccountSecurityPage = {
  page: 'account-security',
  site,
  url: '/my-account/security/',
  nav,
  settings,
  logout_url: '/my-account/customer-logout/?_wpnonce=abc',
  email: 'ada@example.com',
  two_factor: false,
  recovery_codes_left: 0,
  enrollment: null,
  recovery_codes: null,
  devices: [],
  notice: null,
  errors: {},
  nonces: { enroll: 'a', confirm: 'b', 'new-codes': 'c', disable: 'd', 'forget-device': 'e', 'forget-all': 'f' },
};
const enrollment = { secret: 'JBSWY3DPEHPK3PXP', secret_groups: ['JBSW', 'Y3DP', 'EHPK', '3PXP'], qr: 'data:image/png;base64,iVBORw0KGgo=', otpauth_url: 'otpauth://totp/x' };
const devices = [{ id: 1, label: 'Firefox', created: 'November 1, 2026', expires: 'December 1, 2026' }];

const states: [string, Partial<AccountSecurityPage>][] = [
  ['off', {}],
  ['setting up with a wrong code', { enrollment, notice: { kind: 'error', text: 'Wrong.' }, errors: { confirm_code: 'Wrong.' } }],
  ['codes shown once', { two_factor: true, recovery_codes_left: 10, recovery_codes: ['aaaa-bbbb-cccc-dddd'], notice: { kind: 'message', text: 'On.' } }],
  ['on with devices and errors', { two_factor: true, recovery_codes_left: 2, devices, errors: { disable_password: 'No.', new_codes_code: 'No.' } }],
];

describe('security page accessibility', () => {
  it.each(states)('has no violations: %s', async (_, over) => {
    const { container } = render(<App data={{ ...base, ...over }} />);
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.passes.length).toBeGreaterThan(10);
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
