// The shop's settings: name and address, the store notice, coming-soon
// mode and the storefront's switches. A save sends the version the form
// was loaded with; when someone else saved in between, the server refuses
// and the screen offers their settings instead of overwriting them.
// Settings > Advanced (/wp-admin/settings/advanced/…) holds the REST API
// keys and the webhooks (settings/Advanced.tsx).

import { Fragment, useState, type FormEvent } from 'react';
import { adminCall, paramError } from '../api';
import type { ScreenProps } from '../screens';
import { Field } from '../ui/Field';
import { useSettingsForm } from '../ui/settings-form';
import { formatDate } from '../ui/format';
import { CheckResult, LastSaved, NewerOffer, section, SettingsForm } from '../ui/SettingsParts';
import Advanced, { SettingsTabs } from './settings/Advanced';

export const SETTINGS_PATH = '/wp-json/vitrine/v1/admin/settings';

export interface ShopSettings {
  name: string;
  tagline: string;
  address: { address_1: string; address_2: string; city: string; postcode: string; state: string; country: string };
  /** The footer's public contact details and social profiles (https addresses). */
  email: string;
  phone: string;
  social: Record<SocialNetwork, string>;
  store_notice: string;
  coming_soon: boolean;
  infinite_scroll: 'spinner' | 'button' | 'off';
  infinite_scroll_history: 'push' | 'replace';
  zoom: boolean;
  lightbox: boolean;
  page_loader: boolean;
  header_hide_on_scroll: boolean;
  clear_on_reselect: boolean;
  clickable_out_of_stock: boolean;
  deselect_conflicting: boolean;
  /** What a privacy erasure does to the person's reviews ("" is anonymise). */
  erasure_reviews: '' | 'anonymise' | 'delete';
  consent_banner: boolean;
  /** The fall, in percent, that mails a price-drop alert ("" is 10). */
  price_drop_percent?: string;
  version: number;
  updated_at?: string;
}

type SocialNetwork = 'facebook' | 'instagram' | 'x' | 'pinterest' | 'youtube' | 'tiktok';
const NETWORKS: [SocialNetwork, string][] = [
  ['facebook', 'Facebook'],
  ['instagram', 'Instagram'],
  ['x', 'X'],
  ['pinterest', 'Pinterest'],
  ['youtube', 'YouTube'],
  ['tiktok', 'TikTok'],
];

type Flag = 'coming_soon' | 'zoom' | 'lightbox' | 'page_loader' | 'header_hide_on_scroll' | 'clear_on_reselect' | 'clickable_out_of_stock' | 'deselect_conflicting' | 'consent_banner';

export const TEST_MAIL_PATH = '/wp-json/vitrine/v1/admin/settings/test-mail';

/** Sends a test message through the shop's mail server and says how it went. */
function TestMail({ defaultTo }: { defaultTo: string }) {
  const [to, setTo] = useState(defaultTo);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (sending) return;
    setSending(true);
    setResult(null);
    const r = await adminCall<{ to: string }>('POST', TEST_MAIL_PATH, { to });
    setSending(false);
    setFieldError(r.ok ? undefined : paramError(r.error, 'to'));
    setResult(r.ok ? { ok: true, text: `A test message was sent to ${r.data.to}. Check that it arrived.` } : { ok: false, text: r.error.message });
  };
  return (
    <form className="admin-card" onSubmit={(e) => void send(e)} noValidate aria-labelledby="test-mail-title">
      <h2 id="test-mail-title">Mail</h2>
      <p className="admin-field__hint">Order emails, account emails and replies go out through the mail server the shop was started with.</p>
      <Field label="Send a test message to" error={fieldError}>
        {(p) => <input {...p} type="email" autoComplete="email" value={to} onChange={(e) => setTo(e.target.value)} />}
      </Field>
      <button type="submit" disabled={sending}>
        {sending ? 'Sending…' : 'Send test message'}
      </button>
      <CheckResult result={result} />
    </form>
  );
}

export default function Settings(props: ScreenProps) {
  if (props.params[0] === 'advanced') return <Advanced {...props} params={props.params.slice(1)} />;
  return (
    <>
      <SettingsTabs current="general" />
      <GeneralSettings />
    </>
  );
}

function GeneralSettings() {
  const settings = useSettingsForm<ShopSettings>({
    path: SETTINGS_PATH,
    saved: 'Settings saved. The shop shows them within a few seconds.',
    stale: { offer: true, taken: 'The settings saved by someone else are loaded. Make your changes again and save.' },
  });
  const { doc: form, setDoc: setForm, loadError, error, newer, takeNewer } = settings;

  if (loadError) return <p role="alert">{loadError}</p>;
  if (!form) return <p>Loading…</p>;

  const set = <K extends keyof ShopSettings>(k: K, v: ShopSettings[K]) => setForm({ ...form, [k]: v });
  const setAddress = (k: keyof ShopSettings['address'], v: string) => setForm({ ...form, address: { ...form.address, [k]: v } });
  const err = (field: string) => paramError(error, field);

  const text = (label: string, field: string, value: string, onChange: (v: string) => void, opts: { required?: boolean; hint?: string; autoComplete?: string } = {}) => (
    <Field label={label} error={err(field)} hint={opts.hint} required={opts.required}>
      {(p) => <input {...p} data-field={field} type="text" value={value} required={opts.required} autoComplete={opts.autoComplete ?? 'off'} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
  const check = (label: string, k: Flag, hint?: string) => (
    <div className="admin-check">
      <input id={`set-${k}`} type="checkbox" checked={form[k]} onChange={(e) => set(k, e.target.checked)} aria-describedby={hint ? `set-${k}-hint` : undefined} />
      <label htmlFor={`set-${k}`}>{label}</label>
      {hint ? (
        <p id={`set-${k}-hint`} className="admin-field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );

  return (
    <>
    <SettingsForm state={settings} saveLabel="Save settings">
      {newer ? (
        <NewerOffer load="Load their settings" onLoad={takeNewer}>
          <p>
            Saved by someone else on {newer.updated_at ? formatDate(newer.updated_at) : 'another screen'}: the shop is now called “{newer.name}”.
          </p>
        </NewerOffer>
      ) : null}
      <LastSaved doc={form} what="these settings are" />
      {section(
        'General',
        <>
          {text('Shop name', 'name', form.name, (v) => set('name', v), { required: true })}
          {text('Tagline', 'tagline', form.tagline, (v) => set('tagline', v), { hint: 'Shown after the name in the home page’s title.' })}
        </>,
      )}
      {section(
        'Shop address',
        <>
          {text('Address line 1', 'address.address_1', form.address.address_1, (v) => setAddress('address_1', v))}
          {text('Address line 2', 'address.address_2', form.address.address_2, (v) => setAddress('address_2', v))}
          {text('City', 'address.city', form.address.city, (v) => setAddress('city', v))}
          {text('Postcode', 'address.postcode', form.address.postcode, (v) => setAddress('postcode', v))}
          {text('State or county', 'address.state', form.address.state, (v) => setAddress('state', v))}
          {text('Country code', 'address.country', form.address.country, (v) => setAddress('country', v), { hint: 'Two letters, such as US or DE.' })}
        </>,
      )}
      {section(
        'Contact details and social profiles',
        <>
          <p className="admin-field__hint">Shown in every page’s footer; leave a field empty to show none.</p>
          {text('Public email address', 'email', form.email ?? '', (v) => set('email', v), { autoComplete: 'email' })}
          {text('Phone number', 'phone', form.phone ?? '', (v) => set('phone', v), { autoComplete: 'tel' })}
          {NETWORKS.map(([k, label]) => (
            <Fragment key={k}>
              {text(`${label} profile`, `social.${k}`, form.social?.[k] ?? '', (v) => set('social', { ...(form.social ?? ({} as Record<SocialNetwork, string>)), [k]: v }), {
                hint: k === 'facebook' ? 'An https address, such as https://www.facebook.com/yourshop.' : undefined,
              })}
            </Fragment>
          ))}
        </>,
      )}
      {section(
        'Storefront',
        <>
          <Field label="Store notice" error={err('store_notice')} hint="Shown above the header of every page until a shopper dismisses it. Plain text or simple HTML; leave empty for none.">
            {(p) => <textarea {...p} data-field="store_notice" rows={3} value={form.store_notice} onChange={(e) => set('store_notice', e.target.value)} />}
          </Field>
          {check('Coming soon', 'coming_soon', 'Visitors and customers see a coming-soon page; shop managers and administrators browse as usual.')}
          <Field label="Infinite scroll" error={err('infinite_scroll')}>
            {(p) => (
              <select {...p} data-field="infinite_scroll" value={form.infinite_scroll} onChange={(e) => set('infinite_scroll', e.target.value as ShopSettings['infinite_scroll'])}>
                <option value="spinner">Load more products near the end of the page</option>
                <option value="button">A “View more” button</option>
                <option value="off">Page links only</option>
              </select>
            )}
          </Field>
          <Field label="Address bar while scrolling" error={err('infinite_scroll_history')}>
            {(p) => (
              <select {...p} data-field="infinite_scroll_history" value={form.infinite_scroll_history} onChange={(e) => set('infinite_scroll_history', e.target.value as ShopSettings['infinite_scroll_history'])}>
                <option value="push">Add each loaded page to the history</option>
                <option value="replace">Replace the address</option>
              </select>
            )}
          </Field>
          {check('Zoom product images on hover', 'zoom')}
          {check('Open product images full screen', 'lightbox')}
          {check('Show a loading overlay between pages', 'page_loader')}
          {check('Hide the header while scrolling down', 'header_hide_on_scroll')}
        </>,
      )}
      {section(
        'Swatches',
        <>
          {check('Clicking the chosen swatch clears it', 'clear_on_reselect')}
          {check('Out-of-stock swatches can be chosen', 'clickable_out_of_stock')}
          {check('Choosing an unavailable value clears the other choices', 'deselect_conflicting', 'Otherwise the choice is refused.')}
        </>,
      )}
      {section(
        'Alerts',
        <>
          {text('Price-drop threshold (%)', 'price_drop_percent', form.price_drop_percent ?? '', (v) => set('price_drop_percent', v), {
            hint: 'Customers who opted in are emailed when a wishlisted item’s price falls by at least this much (10 when blank), at most once a day.',
          })}
        </>,
      )}
      {section(
        'Privacy',
        <>
          <Field label="Reviews when a person’s data is erased" error={err('erasure_reviews')} hint="Privacy requests: an approved erasure does this to the person’s reviews.">
            {(p) => (
              <select {...p} data-field="erasure_reviews" value={form.erasure_reviews || 'anonymise'} onChange={(e) => set('erasure_reviews', e.target.value as ShopSettings['erasure_reviews'])}>
                <option value="anonymise">Anonymise them: keep the text and rating under “Anonymous”</option>
                <option value="delete">Delete them</option>
              </select>
            )}
          </Field>
          {check(
            'Ask shoppers to accept or reject non-essential cookies',
            'consent_banner',
            'A banner asks before order attribution and recently viewed products are stored; a footer link reopens it. Shops selling in the EU need it. Browsers sending Global Privacy Control are refused either way.',
          )}
        </>,
      )}
    </SettingsForm>
    <TestMail defaultTo="" />
    </>
  );
}
