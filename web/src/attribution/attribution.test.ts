import {
  ALL_COOKIES,
  classify,
  clearAttribution,
  COOKIES,
  decodeRecord,
  documentJar,
  encodeRecord,
  MAX_VALUE_LENGTH,
  readAttribution,
  recordVisit,
  resetPageViewForTests,
  trackPageView,
  type Jar,
  type Visit,
} from './attribution';

const SHOP = 'https://shop.example';

describe('source classification', () => {
  it('UTM parameters win, with every UTM field', () => {
    const s = classify(
      `${SHOP}/product/beanie/?utm_source=newsletter&utm_medium=email&utm_campaign=spring&utm_content=hero&utm_term=hats&utm_id=42&utm_source_platform=mailer&utm_creative_format=banner&utm_marketing_tactic=retention`,
      'https://www.google.com/',
    )!;
    expect(s).toEqual({
      typ: 'utm',
      src: 'newsletter',
      mdm: 'email',
      cmp: 'spring',
      cnt: 'hero',
      trm: 'hats',
      id: '42',
      plt: 'mailer',
      fmt: 'banner',
      tct: 'retention',
    });
    expect(classify(`${SHOP}/?utm_campaign=x`, '')).toMatchObject({ typ: 'utm', src: '(not set)', mdm: '(not set)', cmp: 'x', cnt: '(none)' });
    expect(classify(`${SHOP}/?gclid=abc`, '')).toMatchObject({ typ: 'utm', src: 'google', mdm: 'cpc' });
  });

  it('search engines are organic, with the search terms when the referrer has them', () => {
    expect(classify(`${SHOP}/`, 'https://www.google.co.uk/search?q=wool+beanie')).toMatchObject({
      typ: 'organic',
      src: 'google',
      mdm: 'organic',
      trm: 'wool beanie',
    });
    expect(classify(`${SHOP}/`, 'https://www.bing.com/')).toMatchObject({ typ: 'organic', src: 'bing', trm: '(none)' });
    expect(classify(`${SHOP}/`, 'https://duckduckgo.com/')).toMatchObject({ typ: 'organic', src: 'duckduckgo' });
    expect(classify(`${SHOP}/`, 'https://search.yahoo.com/search?p=hat')).toMatchObject({ typ: 'organic', src: 'yahoo', trm: 'hat' });
  });

  it('other sites are referrals, no referrer is typein, the shop itself says nothing', () => {
    expect(classify(`${SHOP}/`, 'https://www.blog.example/posts/hats')).toMatchObject({
      typ: 'referral',
      src: 'blog.example',
      mdm: 'referral',
      cnt: '/posts/hats',
    });
    // A look-alike is not a search engine.
    expect(classify(`${SHOP}/`, 'https://google.evil.example/')).toMatchObject({ typ: 'referral', src: 'google.evil.example' });
    expect(classify(`${SHOP}/`, '')).toMatchObject({ typ: 'typein', src: '(direct)', mdm: '(none)' });
    expect(classify(`${SHOP}/cart/`, `${SHOP}/shop/`)).toBeNull();
    expect(classify(`https://www.shop.example/cart/`, `${SHOP}/shop/`)).toBeNull();
    expect(classify(`${SHOP}/`, 'android-app://com.example.reader/')).toMatchObject({ typ: 'mobile_app', src: 'com.example.reader' });
  });
});

/** An in-memory cookie jar with expiry against a clock the test moves. */
function memoryJar(clock: { now: number }): Jar & { names(): string[] } {
  const store = new Map<string, { value: string; expires: number }>();
  return {
    get(name) {
      const c = store.get(name);
      return c && c.expires > clock.now ? c.value : undefined;
    },
    set(name, value, expires) {
      store.set(name, { value, expires: expires.getTime() });
    },
    remove(name) {
      store.delete(name);
    },
    names() {
      return [...store.entries()].filter(([, c]) => c.expires > clock.now).map(([n]) => n);
    },
  };
}

const MIN = 60 * 1000;
const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);

function visitor(lifetimeMonths = 6) {
  const clock = { now: T0 };
  const jar = memoryJar(clock);
  const view = (url: string, referrer = '', atMinutes?: number) => {
    if (atMinutes !== undefined) clock.now = T0 + atMinutes * MIN;
    const v: Visit = { now: new Date(clock.now), url: SHOP + url, referrer, userAgent: 'TestAgent/1.0', lifetimeMonths };
    return recordVisit(jar, v);
  };
  return { clock, jar, view };
}

describe('session rules', () => {
  it('counts pages in a 30-minute sliding session and sessions across them', () => {
    const { view } = visitor();
    let d = view('/', '', 0);
    expect(d).toMatchObject({ source_type: 'typein', session_pages: '1', session_count: '1', session_entry: `${SHOP}/`, referrer: '(none)' });
    expect(d.session_start_time).toBe('2026-03-01 09:00:00');
    expect(d.user_agent).toBe('TestAgent/1.0');
    // Every page within 30 minutes of the last one stays in the session (sliding).
    d = view('/shop/', `${SHOP}/`, 20);
    d = view('/cart/', `${SHOP}/shop/`, 45);
    d = view('/checkout/', `${SHOP}/cart/`, 74);
    expect(d).toMatchObject({ session_pages: '4', session_count: '1', session_start_time: '2026-03-01 09:00:00' });
    // 31 minutes of silence: a new session.
    d = view('/', '', 105);
    expect(d).toMatchObject({ session_pages: '1', session_count: '2', session_start_time: '2026-03-01 10:45:00' });
  });

  it('a campaign in the middle of a session replaces the current source; the first source stays', () => {
    const { view, jar } = visitor();
    view('/', '', 0);
    const d = view('/product/beanie/?utm_source=ig&utm_medium=social', '', 5);
    expect(d).toMatchObject({ source_type: 'utm', utm_source: 'ig', utm_medium: 'social', session_pages: '2', session_count: '1' });
    expect(d.session_entry).toBe(`${SHOP}/product/beanie/?utm_source=ig&utm_medium=social`);
    expect(decodeRecord(jar.get(COOKIES.first))).toMatchObject({ typ: 'typein', src: '(direct)' });
  });

  it('a later direct visit keeps the earlier source (last non-direct), a referral replaces it', () => {
    const { view } = visitor();
    view('/?utm_source=news&utm_medium=email&utm_campaign=spring', '', 0);
    let d = view('/', '', 24 * 60);
    expect(d).toMatchObject({ source_type: 'utm', utm_campaign: 'spring', session_count: '2', session_pages: '1' });
    d = view('/', 'https://www.google.com/search?q=beanie', 3 * 24 * 60);
    expect(d).toMatchObject({ source_type: 'organic', utm_source: 'google', utm_term: 'beanie', session_count: '3', referrer: 'https://www.google.com/search?q=beanie' });
  });

  it('the cookies live the configured lifetime after the last page (a tiny lifetime forgets quickly)', () => {
    // 1e-5 of a 30-day month is about 26 seconds (spec section 9's configuration).
    const { view, jar, clock } = visitor(1e-5);
    view('/?utm_source=ad&utm_medium=cpc', '', 0);
    clock.now = T0 + 20 * 1000;
    expect(readAttribution(jar)?.source_type).toBe('utm');
    clock.now = T0 + 40 * 1000;
    expect(jar.get(COOKIES.current)).toBeUndefined();
    expect(jar.get(COOKIES.first)).toBeUndefined();
    const d = view('/', '');
    expect(d.source_type).toBe('typein');
    expect(decodeRecord(jar.get(COOKIES.first))?.typ).toBe('typein');
  });

  it('caps attacker-controlled values', () => {
    const { view } = visitor();
    const d = view(`/?utm_source=${'x'.repeat(500)}`, '', 0);
    expect(d.utm_source.length).toBe(MAX_VALUE_LENGTH);
  });
});

describe('cookie round trip (document.cookie)', () => {
  const wipe = () => {
    for (const name of ALL_COOKIES) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  };
  beforeEach(() => {
    wipe();
    resetPageViewForTests();
  });
  afterEach(wipe);

  it('values with separators, quotes and non-ASCII come back unchanged', () => {
    const jar = documentJar();
    const rec = { typ: 'utm', src: 'a|||b=c; d', cmp: 'Ünïcødé "quoted" ,comma' };
    jar.set(COOKIES.current, encodeRecord(rec), new Date(Date.now() + 60_000));
    expect(document.cookie).toContain('sbjs_current=');
    expect(decodeRecord(jar.get(COOKIES.current))).toEqual(rec);
  });

  it('a page view writes the sbjs cookies and the order fields read back from them', () => {
    const data = trackPageView({ enabled: true, lifetime_months: 6 })!;
    expect(data.source_type).toBe('typein');
    expect(data.session_pages).toBe('1');
    for (const name of ['sbjs_current', 'sbjs_current_add', 'sbjs_first', 'sbjs_first_add', 'sbjs_session', 'sbjs_udata']) {
      expect(document.cookie).toContain(`${name}=`);
    }
    expect(readAttribution(documentJar())).toEqual(data);
    // Recorded once per page load.
    expect(trackPageView({ enabled: true, lifetime_months: 6 })).toBe(data);
  });

  it('tracking off deletes every attribution cookie', () => {
    trackPageView(undefined); // default: on
    expect(document.cookie).toContain('sbjs_current=');
    document.cookie = 'sbjs_promo=c%3D1; path=/';
    document.cookie = 'unrelated=1; path=/';
    resetPageViewForTests();
    expect(trackPageView({ enabled: false, lifetime_months: 6 })).toBeNull();
    expect(document.cookie).not.toMatch(/sbjs_/);
    expect(document.cookie).toContain('unrelated=1');
    document.cookie = 'unrelated=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });

  it('clearAttribution removes them from a jar', () => {
    const clock = { now: T0 };
    const jar = memoryJar(clock);
    recordVisit(jar, { now: new Date(T0), url: SHOP + '/', referrer: '', userAgent: 'UA', lifetimeMonths: 6 });
    expect(jar.names().length).toBe(6);
    clearAttribution(jar);
    expect(jar.names()).toEqual([]);
  });
});
