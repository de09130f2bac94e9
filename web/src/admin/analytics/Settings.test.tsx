import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AdminApp } from '../AdminApp';
import { adminData, fieldRefusal, retype, setupAdminTests, stubFetch } from '../test-utils';
import { SETTINGS_PATH } from './Settings';

const doc = { time_zone: 'UTC', excluded_statuses: ['pending', 'failed', 'cancelled'], statuses: ['pending', 'processing', 'on-hold', 'completed', 'cancelled', 'refunded', 'failed'], version: 3 };

setupAdminTests({ path: '/wp-admin/analytics/settings/' });

describe('the analytics settings', { timeout: 30_000 }, () => {
  it('save the time zone and the statuses left out, with the version loaded', async () => {
    let refuse = true;
    const calls = stubFetch((method, url, body) => {
      if (url !== SETTINGS_PATH) return undefined;
      if (method === 'GET') return { body: doc };
      if (refuse) return fieldRefusal('time_zone', 'time_zone is not a known time zone.');
      return { body: { ...(body as object), statuses: doc.statuses, version: 4 } };
    });
    const { container } = render(<AdminApp data={adminData} />);
    const zone = await screen.findByLabelText('Time zone', {}, { timeout: 10_000 });
    expect(zone).toHaveValue('UTC');
    expect(screen.getByRole('checkbox', { name: 'Failed' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'On hold' })).not.toBeChecked();
    await retype(zone, 'Mars/Olympus');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Failed' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save analytics settings' }));
    await waitFor(() => expect(zone).toHaveFocus());
    expect(zone).toHaveAccessibleDescription(expect.stringContaining('time_zone is not a known time zone.'));
    refuse = false;
    await retype(zone, 'Europe/Paris');
    await userEvent.click(screen.getByRole('button', { name: 'Save analytics settings' }));
    await screen.findByText('Analytics settings saved. The reports follow them now.');
    const puts = calls.filter((c) => c.method === 'PUT');
    expect(puts.at(-1)!.body).toEqual({ time_zone: 'Europe/Paris', excluded_statuses: ['pending', 'cancelled'], version: 3 });
    expect(puts.at(-1)!.headers['X-WP-Nonce']).toBe(adminData.nonce);
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
