// Shared by the admin's Vitest files: page data, the hooks every screen's
// tests register, and a fetch stub that answers the admin API's calls from a
// table of handlers.
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, vi } from 'vitest';
import { setRestNonce } from '../lib/rest';
import type { AdminData } from './data';

export const adminData: AdminData = {
  user: { id: 3, name: 'Mia Manager', role: 'shop_manager' },
  nonce: 'abcdef0123',
  logout_url: '/my-account/customer-logout/?_wpnonce=0123456789',
  site: { name: 'Vitrine', url: 'http://localhost:8080', currency: 'USD' },
};

/**
 * Registers the hooks of an admin test file: the REST nonce set before each
 * test, globals restored after. scroll: jsdom's missing window.scrollTo is
 * stubbed (the router scrolls); path: the address each test starts at.
 */
export function setupAdminTests(opts: { scroll?: boolean; path?: string } = {}) {
  beforeEach(() => {
    setRestNonce(adminData.nonce);
    if (opts.scroll || opts.path) window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
    if (opts.path) window.history.replaceState(null, '', opts.path);
  });
  afterEach(() => vi.unstubAllGlobals());
}

/**
 * For a screen rendered alone: registers setupAdminTests' hooks and returns
 * the props the admin gives the screen at path (no parameters, no query).
 */
export function setupScreenTests(path: string) {
  setupAdminTests();
  return { data: adminData, params: [], location: { path, search: new URLSearchParams() } };
}

export interface Call {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

type Answer = { status?: number; body: unknown; headers?: Record<string, string> };

/** Stubs fetch: route(method, url) answers each call; every call is recorded. */
export function stubFetch(route: (method: string, url: string, body: unknown) => Answer | undefined) {
  const calls: Call[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = (init.method || 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    calls.push({ method, url, body, headers: (init.headers || {}) as Record<string, string> });
    const a = route(method, url, body) ?? { status: 404, body: { code: 'rest_no_route', message: 'No route.', data: { status: 404 } } };
    return new Response(JSON.stringify(a.body), { status: a.status ?? 200, headers: { 'Content-Type': 'application/json', ...a.headers } });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

/**
 * Stubs fetch for a versioned settings document at path: a GET answers doc,
 * a save answers refusal if given, else what was sent with the version after
 * doc's.
 */
export function stubDocument<T extends { version: number }>(path: string, doc: T, refusal?: Answer) {
  return stubFetch((method, url, body) => {
    if (url !== path) return undefined;
    if (method === 'GET') return { body: doc };
    return refusal ?? { body: { ...(body as T), version: doc.version + 1 } };
  });
}

/** A save refused because someone else saved current meanwhile. */
export function staleRefusal(message: string, current: unknown): Answer {
  return { status: 409, body: { code: 'vitrine_settings_stale', message, data: { status: 409, current } } };
}

/** A save refused for one field (its path in the document) with its message. */
export function fieldRefusal(field: string, message: string): Answer {
  return { status: 400, body: { code: 'rest_invalid_param', message: `Invalid parameter(s): ${field}`, data: { status: 400, params: { [field]: message } } } };
}

/** Replaces what a field holds by typing text into it, as a person would. */
export async function retype(field: Element, text: string) {
  await userEvent.clear(field);
  await userEvent.type(field, text);
}
