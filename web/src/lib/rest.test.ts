import { afterEach, describe, expect, it, vi } from 'vitest';
import { REST_NONCE_URL, currentRestNonce, restFetch, setRestNonce } from './rest';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const invalid = () => json({ code: 'rest_cookie_invalid_nonce', message: 'Cookie check failed', data: { status: 403 } }, 403);

type Call = { url: string; headers: Record<string, string> };

/** A fetch that answers from a script and records what was sent. */
function fake(script: (url: string, nonce: string | undefined, n: number) => Response) {
  const calls: Call[] = [];
  const fetcher = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    calls.push({ url: String(input), headers });
    return script(String(input), headers['X-WP-Nonce'], calls.length);
  });
  return { calls, fetcher: fetcher as unknown as typeof fetch };
}

afterEach(() => setRestNonce(''));

describe('restFetch', () => {
  it('sends the viewer nonce and no retry when it is accepted', async () => {
    setRestNonce('aaaaaaaaaa');
    const { calls, fetcher } = fake(() => json({ ok: true }));
    const res = await restFetch('/wp-json/wc/store/v1/cart', { headers: { Nonce: 'store' } }, { fetcher });
    expect(res.status).toBe(200);
    expect(calls).toHaveLength(1);
    expect(calls[0].headers).toEqual({ Nonce: 'store', 'X-WP-Nonce': 'aaaaaaaaaa' });
  });

  it('sends no X-WP-Nonce for a visitor and never asks for one', async () => {
    const { calls, fetcher } = fake(() => invalid());
    const res = await restFetch('/wp-json/wc/store/v1/cart', {}, { fetcher });
    expect(res.status).toBe(403);
    expect(calls.map((c) => c.url)).toEqual(['/wp-json/wc/store/v1/cart']);
    expect(calls[0].headers['X-WP-Nonce']).toBeUndefined();
  });

  it('on rest_cookie_invalid_nonce fetches a fresh nonce and retries once with it', async () => {
    setRestNonce('aaaaaaaaaa');
    const { calls, fetcher } = fake((url, nonce) => {
      if (url === REST_NONCE_URL) return new Response('bbbbbbbbbb', { status: 200 });
      return nonce === 'bbbbbbbbbb' ? json({ id: 7 }) : invalid();
    });
    const res = await restFetch('/wp-json/wp/v2/users/7', { method: 'POST' }, { fetcher });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 7 });
    expect(calls.map((c) => [c.url, c.headers['X-WP-Nonce']])).toEqual([
      ['/wp-json/wp/v2/users/7', 'aaaaaaaaaa'],
      [REST_NONCE_URL, undefined],
      ['/wp-json/wp/v2/users/7', 'bbbbbbbbbb'],
    ]);
    expect(currentRestNonce()).toBe('bbbbbbbbbb'); // later calls send the new one
  });

  it('retries once, not twice, when the fresh nonce is refused too', async () => {
    setRestNonce('aaaaaaaaaa');
    let n = 0;
    const { calls, fetcher } = fake((url) => (url === REST_NONCE_URL ? new Response(`${++n}`.repeat(10)) : invalid()));
    const res = await restFetch('/wp-json/wp/v2/users/7', { method: 'POST' }, { fetcher });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('rest_cookie_invalid_nonce'); // the caller can still read the body
    expect(calls.filter((c) => c.url === REST_NONCE_URL)).toHaveLength(1);
    expect(calls).toHaveLength(3);
  });

  it('gives up without a retry when the server has no nonce for us (logged out: "0")', async () => {
    setRestNonce('aaaaaaaaaa');
    const { calls, fetcher } = fake((url) => (url === REST_NONCE_URL ? new Response('0', { status: 400 }) : invalid()));
    const res = await restFetch('/wp-json/wp/v2/users/7', { method: 'POST' }, { fetcher });
    expect(res.status).toBe(403);
    expect(calls).toHaveLength(2);
    expect(currentRestNonce()).toBe('');
  });

  it('does not retry other errors, nor the Store API nonce error', async () => {
    setRestNonce('aaaaaaaaaa');
    for (const code of ['woocommerce_rest_invalid_nonce', 'rest_cannot_edit']) {
      const { calls, fetcher } = fake(() => json({ code }, 403));
      await restFetch('/wp-json/x', {}, { fetcher });
      expect(calls).toHaveLength(1);
    }
  });

  it('uses a per-call nonce over the viewer one', async () => {
    setRestNonce('aaaaaaaaaa');
    const { calls, fetcher } = fake(() => json({}));
    await restFetch('/wp-json/x', {}, { fetcher, nonce: 'cccccccccc' });
    expect(calls[0].headers['X-WP-Nonce']).toBe('cccccccccc');
  });
});
