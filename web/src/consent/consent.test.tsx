import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../App';
import { Layout } from '../layout/Layout';
import { ConsentBanner } from './ConsentBanner';
import { allows, choose, CONSENT_COOKIE, consentCookie, readChoice, resetConsentForTests, type ConsentSettings } from './consent';
import { ALL_COOKIES, resetPageViewForTests, trackPageView } from '../attribution/attribution';
import { AttributionTracker } from '../attribution/AttributionInputs';
import { readViewed, rememberViewed } from '../product/recently-viewed';
import { listingPage } from '../test/fixtures';
import { expectHydratesCleanly } from '../test/hydrate';
import type { ListingPage } from '../types';

const ON: ConsentSettings = { banner: true };
const PAGES = [{ url: '/privacy-policy/', title: 'Privacy Policy' }];

function wipeCookies() {
  for (const name of [CONSENT_COOKIE, ...ALL_COOKIES]) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
}

beforeEach(() => {
  wipeCookies();
  localStorage.clear();
  resetConsentForTests();
  resetPageViewForTests();
});
afterEach(() => {
  vi.unstubAllGlobals();
  wipeCookies();
  localStorage.clear();
});

function withBanner(): ListingPage {
  const page = listingPage();
  return { ...page, pages: PAGES, settings: { ...page.settings!, consent: ON } };
}

describe('the consent rule', () => {
  it('allows non-essential storage only as the shopper and the shop say', () => {
    // Banner on: only an Accept allows; GPC refuses whatever the cookie says.
    expect(allows(ON, '', false)).toBe(false);
    expect(allows(ON, 'granted', false)).toBe(true);
    expect(allows(ON, 'denied', false)).toBe(false);
    expect(allows(ON, 'granted', true)).toBe(false);
    // Banner off: as before, but a Reject or GPC still refuses.
    expect(allows(undefined, '', false)).toBe(true);
    expect(allows({ banner: false }, '', false)).toBe(true);
    expect(allows({ banner: false }, 'denied', false)).toBe(false);
    expect(allows({ banner: false }, '', true)).toBe(false);
  });

  it('reads and writes its cookie', () => {
    expect(readChoice('a=1; vitrine_consent=granted; b=2')).toBe('granted');
    expect(readChoice('vitrine_consent=denied')).toBe('denied');
    expect(readChoice('vitrine_consent=yes')).toBe('');
    expect(readChoice('')).toBe('');
    expect(consentCookie('denied', true)).toBe('vitrine_consent=denied; path=/; max-age=15724800; SameSite=Lax; Secure');
  });
});

describe('the consent banner', () => {
  it('is not in the server HTML, so every viewer shares one cached page, and hydrates cleanly', async () => {
    const data = withBanner();
    const html = renderToString(<App data={data} />);
    expect(html).not.toContain('consent-banner');
    expect(html).toContain('Cookie settings'); // the footer's button is in the shared page
    await expectHydratesCleanly(html, data, { name: 'banner on' });
  });

  it('appears after load without taking focus; Tab reaches it, Enter on Reject remembers the refusal', async () => {
    const user = userEvent.setup();
    render(
      <>
        <ConsentBanner settings={ON} pages={PAGES} />
        <main id="content" tabIndex={-1}>
          <a href="/shop/">Shop</a>
        </main>
      </>,
    );
    const region = await screen.findByRole('region', { name: 'Cookie consent' });
    expect(region).toHaveAccessibleDescription(/With your permission/);
    expect(document.activeElement).toBe(document.body);
    expect(screen.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', '/privacy-policy/');
    const accept = screen.getByRole('button', { name: 'Accept' });
    const reject = screen.getByRole('button', { name: 'Reject' });
    // Equal prominence: the same classes.
    expect(accept.className).toBe(reject.className);

    await user.tab(); // the privacy link
    await user.tab();
    expect(accept).toHaveFocus();
    await user.tab();
    expect(reject).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).toBeNull();
    expect(document.cookie).toContain('vitrine_consent=denied');
    expect(screen.getByRole('status')).toHaveTextContent('only essential cookies');
    expect(document.getElementById('content')).toHaveFocus();
  });

  it('records attribution only after Accept, and deletes it on a later Reject', async () => {
    const user = userEvent.setup();
    render(
      <>
        <ConsentBanner settings={ON} pages={PAGES} />
        <AttributionTracker settings={{ enabled: true, lifetime_months: 6 }} consent={ON} />
      </>,
    );
    await screen.findByRole('region', { name: 'Cookie consent' });
    expect(document.cookie).not.toMatch(/sbjs_/);
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(document.cookie).toContain('vitrine_consent=granted');
    expect(document.cookie).toContain('sbjs_current=');
    expect(screen.getByRole('status')).toHaveTextContent('accepted');
    act(() => choose('denied'));
    expect(document.cookie).not.toMatch(/sbjs_/);
  });

  it('is not shown under Global Privacy Control, which stores nothing non-essential', async () => {
    vi.stubGlobal('navigator', { ...navigator, userAgent: navigator.userAgent, globalPrivacyControl: true });
    document.cookie = 'sbjs_current=typ%3Dtypein; path=/';
    rememberViewed(7);
    render(<ConsentBanner settings={ON} pages={PAGES} />);
    await waitFor(() => expect(screen.getByRole('status')).toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).toBeNull();
    expect(trackPageView({ enabled: true, lifetime_months: 6 }, ON)).toBeNull();
    expect(document.cookie).not.toMatch(/sbjs_/);
    // Even in a shop without the banner.
    resetPageViewForTests();
    expect(trackPageView({ enabled: true, lifetime_months: 6 }, { banner: false })).toBeNull();
    act(() => choose('denied'));
    expect(readViewed()).toEqual([]);
  });

  it('shows nothing when the shop does not ask', async () => {
    const { container } = render(<ConsentBanner settings={{ banner: false }} pages={PAGES} />);
    await act(async () => {});
    expect(container.innerHTML).toBe('');
  });

  it('reopens from the footer with the focus in it; Escape closes it and focus goes back', async () => {
    const user = userEvent.setup();
    document.cookie = 'vitrine_consent=denied; path=/';
    render(<Layout data={withBanner()}>page</Layout>);
    await act(async () => {});
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).toBeNull();
    const settings = screen.getByRole('button', { name: 'Cookie settings' });
    await user.click(settings);
    const region = await screen.findByRole('region', { name: 'Cookie consent' });
    await waitFor(() => expect(region).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).toBeNull();
    expect(settings).toHaveFocus();
    expect(document.cookie).toContain('vitrine_consent=denied');

    // Reopened, Accept changes the choice and focus goes back to the link.
    await user.click(settings);
    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(document.cookie).toContain('vitrine_consent=granted');
    expect(settings).toHaveFocus();
  });

  it('reopened under Global Privacy Control, it says so and offers only Close', async () => {
    vi.stubGlobal('navigator', { ...navigator, userAgent: navigator.userAgent, globalPrivacyControl: true });
    const user = userEvent.setup();
    render(<Layout data={withBanner()}>page</Layout>);
    await act(async () => {});
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).toBeNull();
    const settings = screen.getByRole('button', { name: 'Cookie settings' });
    await user.click(settings);
    const region = await screen.findByRole('region', { name: 'Cookie consent' });
    expect(region).toHaveAccessibleDescription(/Global Privacy Control/);
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).toBeNull();
    expect(settings).toHaveFocus();
    expect(document.cookie).not.toContain('vitrine_consent');
  });

  it('has no structural accessibility violations', async () => {
    const { container } = render(<ConsentBanner settings={ON} pages={PAGES} />);
    await screen.findByRole('region', { name: 'Cookie consent' });
    const res = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(res.violations.map((v) => v.id)).toEqual([]);
  });
});
