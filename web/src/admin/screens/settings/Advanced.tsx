// Settings > Advanced, where WooCommerce keeps them: the REST API keys
// (/wp-admin/settings/advanced/keys/, the default) and the webhooks
// (/wp-admin/settings/advanced/webhooks/, .../new/, .../<id>/).

import { BASE, Link } from '../../router';
import type { ScreenProps } from '../../screens';
import ApiKeys from './ApiKeys';
import Webhooks from './Webhooks';
import './advanced.css';

export const SETTINGS_BASE = `${BASE}settings/`;
export const ADVANCED_BASE = `${SETTINGS_BASE}advanced/`;

/** The settings' tabs: General (the shop) and Advanced (REST API, webhooks). */
export function SettingsTabs({ current }: { current: 'general' | 'advanced' }) {
  return (
    <nav aria-label="Settings">
      <ul className="settings-tabs">
        <li>
          <Link to={SETTINGS_BASE} aria-current={current === 'general' ? 'page' : undefined}>
            General
          </Link>
        </li>
        <li>
          <Link to={ADVANCED_BASE} aria-current={current === 'advanced' ? 'page' : undefined}>
            Advanced
          </Link>
        </li>
      </ul>
    </nav>
  );
}

/** params: the path after /wp-admin/settings/advanced/. */
export default function Advanced({ data, params, location }: ScreenProps) {
  const section = params[0] === 'webhooks' ? 'webhooks' : 'keys';
  return (
    <>
      <SettingsTabs current="advanced" />
      <nav aria-label="Advanced settings">
        <ul className="settings-tabs settings-subtabs">
          <li>
            <Link to={`${ADVANCED_BASE}keys/`} aria-current={section === 'keys' ? 'page' : undefined}>
              REST API
            </Link>
          </li>
          <li>
            <Link to={`${ADVANCED_BASE}webhooks/`} aria-current={section === 'webhooks' ? 'page' : undefined}>
              Webhooks
            </Link>
          </li>
        </ul>
      </nav>
      {section === 'webhooks' ? <Webhooks data={data} params={params.slice(1)} location={location} /> : <ApiKeys data={data} params={[]} location={location} />}
    </>
  );
}
