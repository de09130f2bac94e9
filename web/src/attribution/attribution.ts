// Order attribution (spec sections 3, 4 and 9; protocol-notes section 14).
//
// The storefront keeps, in first-party cookies named like sourcebuster's
// (sbjs_*), where the visitor came from and how the visit went: the current
// and first traffic source with their UTM fields, the entry of the current
// source (start time, entry URL, referrer), the session's page count (a
// session lasts 30 minutes after the last page, sliding), the number of
// sessions and the user agent. Checkout sends them as wc_order_attribution_*
// form fields and as Store API extension data "woocommerce/order-attribution".
//
// This file is client-only (it is never called while rendering). Nothing is
// stored without the shopper's consent where the shop asks for it, nor under
// Global Privacy Control (consent/consent.ts). A new session is also
// counted by the shop (one empty beacon, sendSessionStart), under the same
// rules, for the analytics' conversion rate.

import { nonEssentialAllowed, onConsentChange, type ConsentSettings } from '../consent/consent';

export type SourceType = 'utm' | 'organic' | 'referral' | 'typein' | 'admin' | 'mobile_app';

/** A traffic source, stored in sbjs_current and sbjs_first. */
export interface Source {
  typ: SourceType;
  src: string;
  mdm: string;
  cmp: string;
  cnt: string;
  trm: string;
  id: string;
  plt: string;
  fmt: string;
  tct: string;
}

/** Where the current source's visit entered, stored in sbjs_current_add and sbjs_first_add. */
export interface Entry {
  /** Start time, "YYYY-MM-DD HH:MM:SS" in UTC. */
  fd: string;
  /** Entry URL. */
  ep: string;
  /** Referrer URL or "(none)". */
  rf: string;
}

export const COOKIES = {
  current: 'sbjs_current',
  currentAdd: 'sbjs_current_add',
  first: 'sbjs_first',
  firstAdd: 'sbjs_first_add',
  session: 'sbjs_session',
  udata: 'sbjs_udata',
  migrations: 'sbjs_migrations',
  promo: 'sbjs_promo',
} as const;

export const ALL_COOKIES: string[] = Object.values(COOKIES);

/** Spec section 9: session length. */
export const SESSION_MINUTES = 30;
/** Spec section 9: default cookie lifetime. */
export const DEFAULT_LIFETIME_MONTHS = 6;
/** The lifetime unit is a 30-day month (so fractional settings are meaningful). */
const MONTH_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * Each stored value is capped (the server caps them too; referrers and agents
 * are attacker-controlled); URLs and the user agent get more room, within a
 * cookie's 4 KB once encoded.
 */
export const MAX_VALUE_LENGTH = 200;
const MAX_URL_LENGTH = 600;
const MAX_AGENT_LENGTH = 400;

const NONE = '(none)';

/** The order fields, in the order WooCommerce lists them (spec section 3). */
export const FIELDS = [
  'source_type',
  'referrer',
  'utm_campaign',
  'utm_source',
  'utm_medium',
  'utm_content',
  'utm_id',
  'utm_term',
  'utm_source_platform',
  'utm_creative_format',
  'utm_marketing_tactic',
  'session_entry',
  'session_start_time',
  'session_pages',
  'session_count',
  'user_agent',
] as const;

export type AttributionField = (typeof FIELDS)[number];
export type AttributionData = Record<AttributionField, string>;

/** Search engines whose referrals count as organic: name, host pattern, query parameter of the terms. */
const SEARCH_ENGINES: { name: string; host: RegExp; param: string }[] = [
  { name: 'google', host: /(^|\.)google\.[a-z]{2,3}(\.[a-z]{2})?$/, param: 'q' },
  { name: 'bing', host: /(^|\.)bing\.com$/, param: 'q' },
  { name: 'yahoo', host: /(^|\.)yahoo\.(com|co\.[a-z]{2}|[a-z]{2})$/, param: 'p' },
  { name: 'duckduckgo', host: /(^|\.)duckduckgo\.com$/, param: 'q' },
  { name: 'yandex', host: /(^|\.)yandex\.(ru|com|com\.tr|by|kz|ua)$/, param: 'text' },
  { name: 'baidu', host: /(^|\.)baidu\.com$/, param: 'wd' },
  { name: 'ecosia', host: /(^|\.)ecosia\.org$/, param: 'q' },
  { name: 'qwant', host: /(^|\.)qwant\.com$/, param: 'q' },
];

const UTM_KEYS: [Exclude<keyof Source, 'typ'>, string][] = [
  ['src', 'utm_source'],
  ['mdm', 'utm_medium'],
  ['cmp', 'utm_campaign'],
  ['cnt', 'utm_content'],
  ['trm', 'utm_term'],
  ['id', 'utm_id'],
  ['plt', 'utm_source_platform'],
  ['fmt', 'utm_creative_format'],
  ['tct', 'utm_marketing_tactic'],
];

function cap(s: string, max = MAX_VALUE_LENGTH): string {
  return s.length > max ? s.slice(0, max) : s;
}

function source(typ: SourceType, fields: Partial<Omit<Source, 'typ'>> = {}): Source {
  const out: Source = { typ, src: NONE, mdm: NONE, cmp: NONE, cnt: NONE, trm: NONE, id: NONE, plt: NONE, fmt: NONE, tct: NONE };
  for (const [k, v] of Object.entries(fields) as [keyof Source, string | undefined][]) {
    if (v) (out as unknown as Record<string, string>)[k] = cap(v);
  }
  return out;
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function bareHost(host: string): string {
  return host.toLowerCase().replace(/^www\./, '');
}

/**
 * What a page view says about where the visitor came from, or null when it
 * says nothing (a page reached from another page of the shop):
 * - utm: the URL has UTM parameters (or a Google Ads gclid);
 * - mobile_app: an android-app:// referrer;
 * - organic: a referrer on a search engine of the list;
 * - referral: any other referrer on another host;
 * - typein: no referrer at all.
 * ("admin" is never derived here: the server sets it for orders made in the admin.)
 */
export function classify(pageUrl: string, referrer: string): Source | null {
  const page = parse(pageUrl);
  const q = page ? page.searchParams : new URLSearchParams();
  if (UTM_KEYS.some(([, p]) => q.get(p))) {
    const f: Partial<Omit<Source, 'typ'>> = {};
    for (const [k, p] of UTM_KEYS) f[k] = q.get(p) || undefined;
    return source('utm', { ...f, src: f.src || '(not set)', mdm: f.mdm || '(not set)' });
  }
  if (q.get('gclid')) return source('utm', { src: 'google', mdm: 'cpc', cmp: q.get('utm_campaign') || '(not set)' });
  if (!referrer) return source('typein', { src: '(direct)' });
  const ref = parse(referrer);
  if (!ref) return source('typein', { src: '(direct)' });
  if (ref.protocol === 'android-app:') return source('mobile_app', { src: ref.hostname || ref.pathname.replace(/^\/+/, '').split('/')[0] });
  const refHost = bareHost(ref.hostname);
  if (page && refHost === bareHost(page.hostname)) return null;
  for (const e of SEARCH_ENGINES) {
    if (e.host.test(refHost)) return source('organic', { src: e.name, mdm: 'organic', trm: ref.searchParams.get(e.param) || undefined });
  }
  return source('referral', { src: refHost, mdm: 'referral', cnt: ref.pathname });
}

/** "k=v|||k=v" with each value URI-encoded (so a value can never break the separators). */
export function encodeRecord(r: object): string {
  return Object.entries(r)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('|||');
}

export function decodeRecord(s: string | undefined): Record<string, string> | null {
  if (!s) return null;
  const out: Record<string, string> = {};
  for (const part of s.split('|||')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    let v = part.slice(eq + 1);
    try {
      v = decodeURIComponent(v);
    } catch {
      // keep the raw text
    }
    out[part.slice(0, eq)] = cap(v, MAX_URL_LENGTH);
  }
  return Object.keys(out).length ? out : null;
}

/** "2026-03-01 09:05:07" (UTC). */
export function formatTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

/** Cookie storage; the browser's is documentJar(), tests may use their own. */
export interface Jar {
  get(name: string): string | undefined;
  set(name: string, value: string, expires: Date): void;
  remove(name: string): void;
}

export function documentJar(doc: Document = document): Jar {
  const secure = doc.location?.protocol === 'https:' ? '; Secure' : '';
  return {
    get(name) {
      for (const part of doc.cookie ? doc.cookie.split('; ') : []) {
        const eq = part.indexOf('=');
        if (eq > 0 && part.slice(0, eq) === name) return part.slice(eq + 1);
      }
      return undefined;
    },
    set(name, value, expires) {
      doc.cookie = `${name}=${value}; expires=${expires.toUTCString()}; path=/; SameSite=Lax${secure}`;
    },
    remove(name) {
      const past = 'Thu, 01 Jan 1970 00:00:00 GMT';
      doc.cookie = `${name}=; expires=${past}; path=/`;
      // sourcebuster itself sets them on the parent domain; remove those too.
      const host = doc.location?.hostname;
      if (host && host.indexOf('.') > 0 && !/^[\d.]+$/.test(host)) {
        doc.cookie = `${name}=; expires=${past}; path=/; domain=.${host}`;
        doc.cookie = `${name}=; expires=${past}; path=/; domain=${host}`;
      }
    },
  };
}

export interface Visit {
  now: Date;
  /** The page's full URL. */
  url: string;
  referrer: string;
  userAgent: string;
  lifetimeMonths: number;
}

function lifetimeMs(months: number): number {
  const m = Number.isFinite(months) && months > 0 ? months : DEFAULT_LIFETIME_MONTHS;
  return m * MONTH_MS;
}

/**
 * Records one page view in the jar and answers the order fields.
 * Rules:
 * - no live session cookie: a new session (session count + 1, page count 1,
 *   a new entry); its source is the page's source, except that a direct visit
 *   (typein or an internal referrer) keeps an earlier source;
 * - a live session: page count + 1; a UTM, organic, referral or app source
 *   in the middle of it replaces the current source and starts a new entry;
 * - the session cookie lives 30 minutes after the last page; the others live
 *   the configured lifetime after the last page;
 * - the first source and entry are written once and then kept.
 */
export function recordVisit(jar: Jar, v: Visit): AttributionData {
  const signal = classify(v.url, v.referrer);
  const session = decodeRecord(jar.get(COOKIES.session));
  const udata = decodeRecord(jar.get(COOKIES.udata));
  const stored = decodeRecord(jar.get(COOKIES.current)) as Source | null;
  const storedAdd = decodeRecord(jar.get(COOKIES.currentAdd)) as Entry | null;

  const newSession = !session;
  const visits = (parseInt(udata?.vst ?? '', 10) || 0) + (newSession ? 1 : 0);
  const pages = newSession ? 1 : (parseInt(session?.pgs ?? '', 10) || 0) + 1;
  const external = signal && signal.typ !== 'typein' ? signal : null;

  let current: Source = stored && stored.typ ? stored : (signal ?? source('typein', { src: '(direct)' }));
  let entry: Entry | null = storedAdd && storedAdd.fd ? storedAdd : null;
  if (external) current = external;
  if (newSession || external || !entry) {
    entry = { fd: formatTime(v.now), ep: cap(v.url, MAX_URL_LENGTH), rf: cap(v.referrer || NONE, MAX_URL_LENGTH) };
  }

  const life = new Date(v.now.getTime() + lifetimeMs(v.lifetimeMonths));
  const sessionEnd = new Date(v.now.getTime() + SESSION_MINUTES * 60 * 1000);
  jar.set(COOKIES.current, encodeRecord(current), life);
  jar.set(COOKIES.currentAdd, encodeRecord(entry), life);
  const first = decodeRecord(jar.get(COOKIES.first));
  const firstAdd = decodeRecord(jar.get(COOKIES.firstAdd));
  jar.set(COOKIES.first, first ? encodeRecord(first) : encodeRecord(current), life);
  jar.set(COOKIES.firstAdd, firstAdd ? encodeRecord(firstAdd) : encodeRecord(entry), life);
  jar.set(COOKIES.udata, encodeRecord({ vst: visits, uip: NONE, uag: cap(v.userAgent, MAX_AGENT_LENGTH) }), life);
  jar.set(COOKIES.session, encodeRecord({ pgs: pages, cpg: cap(v.url, MAX_URL_LENGTH) }), sessionEnd);
  return readAttribution(jar) as AttributionData;
}

/** The order fields as stored in the jar (protocol-notes section 14), or null when there is nothing. */
export function readAttribution(jar: Jar): AttributionData | null {
  const cur = decodeRecord(jar.get(COOKIES.current));
  if (!cur) return null;
  const add = decodeRecord(jar.get(COOKIES.currentAdd)) ?? {};
  const ses = decodeRecord(jar.get(COOKIES.session)) ?? {};
  const ud = decodeRecord(jar.get(COOKIES.udata)) ?? {};
  return {
    source_type: cur.typ ?? '',
    referrer: add.rf ?? '',
    utm_campaign: cur.cmp ?? '',
    utm_source: cur.src ?? '',
    utm_medium: cur.mdm ?? '',
    utm_content: cur.cnt ?? '',
    utm_id: cur.id ?? '',
    utm_term: cur.trm ?? '',
    utm_source_platform: cur.plt ?? '',
    utm_creative_format: cur.fmt ?? '',
    utm_marketing_tactic: cur.tct ?? '',
    session_entry: add.ep ?? '',
    session_start_time: add.fd ?? '',
    session_pages: ses.pgs ?? '',
    session_count: ud.vst ?? '',
    user_agent: ud.uag ?? '',
  };
}

/** Tracking turned off: every attribution cookie goes. */
export function clearAttribution(jar: Jar): void {
  for (const name of ALL_COOKIES) jar.remove(name);
}

export type AttributionSettings = { enabled: boolean; lifetime_months: number } | undefined;

export function trackingEnabled(s: AttributionSettings): boolean {
  return s ? s.enabled !== false : true;
}

let recorded: { data: AttributionData | null } | null = null;

/**
 * Runs once per page load in the browser (the layout and the checkout's
 * inputs both call it; the first call records the page view): records the
 * visit, or deletes the cookies when tracking is off or the shopper's
 * consent does not allow it (consent/consent.ts). Answers the order fields
 * (null when nothing is tracked). A change of consent makes the next call
 * decide again (forgetPageView).
 */
export function trackPageView(settings: AttributionSettings, consent?: ConsentSettings): AttributionData | null {
  if (recorded) return recorded.data;
  const jar = documentJar();
  if (!trackingEnabled(settings) || !nonEssentialAllowed(consent)) {
    clearAttribution(jar);
    recorded = { data: null };
    return null;
  }
  const fresh = !decodeRecord(jar.get(COOKIES.session));
  const data = recordVisit(jar, {
    now: new Date(),
    url: window.location.href,
    referrer: document.referrer,
    userAgent: navigator.userAgent,
    lifetimeMonths: settings?.lifetime_months ?? DEFAULT_LIFETIME_MONTHS,
  });
  recorded = { data };
  // A new session is counted once, for the conversion rate. Where the
  // browser keeps no cookies every page would look new: nothing is sent.
  if (fresh && decodeRecord(jar.get(COOKIES.session))) sendSessionStart();
  return data;
}

/** The route that counts a session start (internal/visitsapi): an empty POST from a page of the shop. */
export const VISITS_PATH = '/wp-json/vitrine/v1/visits';

/**
 * Tells the shop a session started: one beacon, no body, nothing about the
 * visitor (the server keeps a count per hour, decision 0121). Browsers
 * without sendBeacon (none of those the shop supports) send nothing.
 */
export function sendSessionStart(): void {
  try {
    if (typeof navigator.sendBeacon === 'function') navigator.sendBeacon(VISITS_PATH);
  } catch {
    // a count lost is no error for the shopper
  }
}

/** The order fields for a checkout submit: the page view is recorded first if it was not yet. */
export function currentAttribution(settings: AttributionSettings, consent?: ConsentSettings): AttributionData | null {
  if (!trackingEnabled(settings) || !nonEssentialAllowed(consent)) return null;
  trackPageView(settings, consent);
  return readAttribution(documentJar());
}

/** The shopper's consent changed: the next trackPageView records the page (or deletes the cookies) again. */
export function forgetPageView(): void {
  recorded = null;
}
// Subscribed when the module loads, before any component's listener, so
// the components' calls after a choice see it.
onConsentChange(forgetPageView);

/** Tests only: forget that this page view was recorded. */
export function resetPageViewForTests(): void {
  recorded = null;
}
