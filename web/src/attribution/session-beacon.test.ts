// The session beacon: attribution tells the shop once when it starts a new
// session (sbjs_session was absent), for the conversion rate; a page within
// the session sends nothing, and nothing is sent where attribution itself
// does not run (tracking off, no consent where the shop asks, Global
// Privacy Control).

import { resetConsentForTests } from '../consent/consent';
import { ALL_COOKIES, COOKIES, resetPageViewForTests, trackPageView, VISITS_PATH } from './attribution';

const ON = { enabled: true, lifetime_months: 6 };

function wipe() {
  for (const name of [...ALL_COOKIES, 'vitrine_consent']) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
}

/** A new page load: the module's "recorded" state is per page. */
function nextPage() {
  resetPageViewForTests();
  resetConsentForTests();
}

describe('the session beacon', () => {
  let beacon: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    wipe();
    nextPage();
    beacon = vi.fn(() => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true, writable: true });
    Object.defineProperty(navigator, 'globalPrivacyControl', { value: false, configurable: true, writable: true });
  });
  afterEach(() => {
    wipe();
    nextPage();
  });

  it('a new session sends once; a page within the session sends nothing', () => {
    trackPageView(ON);
    expect(beacon).toHaveBeenCalledTimes(1);
    expect(beacon).toHaveBeenCalledWith(VISITS_PATH);
    // The same page asking again (the checkout's inputs) sends nothing more.
    trackPageView(ON);
    expect(beacon).toHaveBeenCalledTimes(1);
    // The next page, within the session's 30 minutes.
    nextPage();
    expect(trackPageView(ON)!.session_pages).toBe('2');
    expect(beacon).toHaveBeenCalledTimes(1);
    // The session cookie gone (30 minutes without a page): a new session, one more beacon.
    document.cookie = `${COOKIES.session}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
    nextPage();
    expect(trackPageView(ON)!.session_count).toBe('2');
    expect(beacon).toHaveBeenCalledTimes(2);
  });

  it('without sendBeacon nothing is sent and the page view is still recorded', () => {
    Object.defineProperty(navigator, 'sendBeacon', { value: undefined, configurable: true, writable: true });
    const fetched = vi.fn();
    vi.stubGlobal('fetch', fetched);
    try {
      expect(trackPageView(ON)!.session_pages).toBe('1');
      expect(fetched).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('no consent sends nothing: the banner without an Accept, a Reject, Global Privacy Control, tracking off', () => {
    trackPageView(ON, { banner: true });
    expect(beacon).not.toHaveBeenCalled();
    expect(document.cookie).not.toContain('sbjs_session=');

    nextPage();
    document.cookie = 'vitrine_consent=denied; path=/';
    trackPageView(ON);
    expect(beacon).not.toHaveBeenCalled();

    wipe();
    nextPage();
    Object.defineProperty(navigator, 'globalPrivacyControl', { value: true, configurable: true, writable: true });
    trackPageView(ON);
    expect(beacon).not.toHaveBeenCalled();

    Object.defineProperty(navigator, 'globalPrivacyControl', { value: false, configurable: true, writable: true });
    nextPage();
    trackPageView({ enabled: false, lifetime_months: 6 });
    expect(beacon).not.toHaveBeenCalled();

    // An Accept: the session starts then, and is counted once.
    nextPage();
    document.cookie = 'vitrine_consent=granted; path=/';
    trackPageView(ON, { banner: true });
    expect(beacon).toHaveBeenCalledTimes(1);
  });
});
