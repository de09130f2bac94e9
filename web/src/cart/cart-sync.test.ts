import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeFragments, SYNC_KEY } from './add-to-cart';
import { installCartSync, needsRefresh, tabCartHash } from './cart-sync';

const answer = (count: number, hash: string) =>
  JSON.stringify({
    fragments: { 'span.header-cart-count': `<span class="header-cart-count"><span class="cart-count">${count}</span></span>` },
    cart_hash: hash,
  });

function storage(key: string, newValue: string | null) {
  return new StorageEvent('storage', { key, newValue });
}

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  document.body.innerHTML = '<a class="header-cart"><span class="header-cart-count"><span class="cart-count">1</span></span></a>';
});

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('cross-tab cart sync', () => {
  it('storing fragments keeps the hash for this tab and publishes it for the others', () => {
    storeFragments({ fragments: {}, cart_hash: 'abc' });
    expect(tabCartHash()).toBe('abc');
    expect(localStorage.getItem(SYNC_KEY)).toBe('abc');
    storeFragments({ fragments: {}, cart_hash: '' });
    expect(localStorage.getItem(SYNC_KEY)).toBe('');
  });

  it.each([
    ['another key', { key: 'other', newValue: 'x' }, 'a', false],
    ['the same hash', { key: SYNC_KEY, newValue: 'a' }, 'a', false],
    ['a new hash', { key: SYNC_KEY, newValue: 'b' }, 'a', true],
    ['emptied elsewhere', { key: SYNC_KEY, newValue: '' }, 'a', true],
    ['empty here and there', { key: SYNC_KEY, newValue: '' }, null, false],
    ['filled elsewhere, nothing here', { key: SYNC_KEY, newValue: 'b' }, null, true],
    ['storage cleared', { key: SYNC_KEY, newValue: null }, 'a', false],
  ])('%s: refresh %s', (_name, e, tab, want) => {
    expect(needsRefresh(e, tab)).toBe(want);
  });

  it("refreshes once when another tab's hash differs, and applies the fragments", async () => {
    storeFragments({ fragments: {}, cart_hash: 'h1' });
    const fetcher = vi.fn(async () => new Response(answer(3, 'h3')));
    const synced = vi.fn();
    document.addEventListener('vitrine:cart-synced', synced);
    const stop = installCartSync({ fetcher });
    try {
      window.dispatchEvent(storage(SYNC_KEY, 'h1')); // what this tab shows: nothing to do
      window.dispatchEvent(storage('unrelated', 'h9'));
      expect(fetcher).not.toHaveBeenCalled();
      window.dispatchEvent(storage(SYNC_KEY, 'h3'));
      await vi.waitFor(() => expect(document.querySelector('.cart-count')?.textContent).toBe('3'));
      expect(fetcher).toHaveBeenCalledTimes(1);
      const [url, init] = fetcher.mock.calls[0] as unknown as [string, RequestInit];
      expect(url).toBe('/?wc-ajax=get_refreshed_fragments');
      expect(init.method).toBe('POST');
      expect(tabCartHash()).toBe('h3');
      expect(synced).toHaveBeenCalledTimes(1);
      // The same hash again (e.g. a third tab caught up): no request.
      window.dispatchEvent(storage(SYNC_KEY, 'h3'));
      await Promise.resolve();
      expect(fetcher).toHaveBeenCalledTimes(1);
    } finally {
      stop();
      document.removeEventListener('vitrine:cart-synced', synced);
    }
  });

  it('sends one refresh at a time and one more for changes during it', async () => {
    storeFragments({ fragments: {}, cart_hash: 'h1' });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let n = 0;
    const fetcher = vi.fn(async () => {
      n++;
      if (n === 1) await held;
      return new Response(answer(n + 1, 'h' + (n + 1)));
    });
    const stop = installCartSync({ fetcher });
    try {
      window.dispatchEvent(storage(SYNC_KEY, 'h2'));
      window.dispatchEvent(storage(SYNC_KEY, 'h3'));
      window.dispatchEvent(storage(SYNC_KEY, 'h4'));
      expect(fetcher).toHaveBeenCalledTimes(1);
      release();
      await vi.waitFor(() => expect(fetcher).toHaveBeenCalledTimes(2));
      await vi.waitFor(() => expect(document.querySelector('.cart-count')?.textContent).toBe('3'));
    } finally {
      stop();
    }
  });

  it('a failed refresh leaves the page as it was; after removal no more refreshes', async () => {
    storeFragments({ fragments: {}, cart_hash: 'h1' });
    const fetcher = vi.fn(async () => new Response('', { status: 500 }));
    const stop = installCartSync({ fetcher });
    window.dispatchEvent(storage(SYNC_KEY, 'h2'));
    await vi.waitFor(() => expect(fetcher).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    expect(document.querySelector('.cart-count')?.textContent).toBe('1');
    stop();
    window.dispatchEvent(storage(SYNC_KEY, 'h5'));
    await Promise.resolve();
    expect(fetcher).toHaveBeenCalledTimes(1);
  });
});
