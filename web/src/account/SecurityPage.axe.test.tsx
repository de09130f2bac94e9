import { render } from '@testing-library/react';
import axe from 'axe-core';
import { App } from '../App';
import type { AccountSecurityPage } from '../types';
import { securityEnrollment, securityPage } from '../test/fixtures';

// Structural accessibility rules (names, labels, landmarks, ARIA) in every
// state of the page; colour contrast needs a browser (the e2e scans).
const enrollment = securityEnrollment;
const devices = [{ id: 1, label: 'Firefox', created: 'November 1, 2026', expires: 'December 1, 2026' }];

const states: [string, Partial<AccountSecurityPage>][] = [
  ['off', {}],
  ['setting up with a wrong code', { enrollment, notice: { kind: 'error', text: 'Wrong.' }, errors: { confirm_code: 'Wrong.' } }],
  ['codes shown once', { two_factor: true, recovery_codes_left: 10, recovery_codes: ['aaaa-bbbb-cccc-dddd'], notice: { kind: 'message', text: 'On.' } }],
  ['on with devices and errors', { two_factor: true, recovery_codes_left: 2, devices, errors: { disable_password: 'No.', new_codes_code: 'No.' } }],
];

describe('security page accessibility', () => {
  it.each(states)('has no violations: %s', async (_, over) => {
    const { container } = render(<App data={securityPage(over)} />);
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.passes.length).toBeGreaterThan(10);
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
