import { FINISH_EVENT, getCurrencyState, readCurrencyCookie, resetCurrencyState, currencyCookieString, setCurrencyState } from './store';
import { collectIds, createRefresher, parsePriceAnswer, patchPrices, patchVariations, priceRequestBody } from './refresh';
import { PRODUCTS_APPENDED_EVENT } from '../listing/infinite-scroll';

function page(html: string) {
  document.body.innerHTML = html;
}

function clearCookie() {
  document.cookie = 'wmc_current_currency=; Path=/; Max-Age=0';
}

const listing = `
  <ul class="products">
    <li><span class="price"><span class="wmc-cache-pid" data-wmc_product_id="15">$18.00</span></span></li>
    <li><span class="price"><span class="wmc-cache-pid" data-wmc_product_id="16">$20.00</span></span></li>
    <li><span class="price"><span class="wmc-cache-pid" data-wmc_product_id="15">$18.00</span></span></li>
    <li><span class="price"><span class="wmc-cache-pid" data-wmc_product_id="x">?</span></span></li>
  </ul>
  <form class="variations_form" data-product_variations='[{"variation_id":60,"price_html":"$17"},{"variation_id":61,"price_html":"$22"}]' data-wmc_variation_ids="60,61,62"></form>
  <form class="variations_form" data-product_variations="false" data-wmc_variation_ids="70, 71"></form>`;

function answer(prices: Record<string, string>, code = 'EUR') {
  return { success: true, data: { prices, current_currency: code, current_country: '', shortcodes: [], exchange: [] } };
}

function fakeFetch(body: unknown, ok = true) {
  const calls: { url: string; body: string }[] = [];
  const f = (async (url: string, init?: RequestInit) => {
    calls.push({ url: String(url), body: String(init?.body ?? '') });
    return { ok, json: async () => body } as Response;
  }) as unknown as typeof fetch;
  return { f, calls };
}

beforeEach(() => {
  resetCurrencyState();
  clearCookie();
});

describe('collectIds', () => {
  it('takes wrapper ids and variation ids once each, in page order, ignoring garbage', () => {
    page(listing);
    expect(collectIds(document)).toEqual([15, 16, 60, 61, 62, 70, 71]);
  });
});

describe('priceRequestBody', () => {
  it('encodes pids[] and shortcodes like jQuery, with the action and URL', () => {
    const body = priceRequestBody([15, 16], 'http://x/shop/', [{ layout: 'sidebar', flag_size: '0', dropdown_icon: 'arrow', custom_format: '' }]);
    const p = new URLSearchParams(body);
    expect(p.get('action')).toBe('wmc_get_products_price');
    expect(p.getAll('pids[]')).toEqual(['15', '16']);
    expect(p.get('shortcodes[0][layout]')).toBe('sidebar');
    expect(p.get('wmc_current_url')).toBe('http://x/shop/');
    expect(body).toContain('pids%5B%5D=15&pids%5B%5D=16');
  });

  it('caps the ids at 200', () => {
    const ids = Array.from({ length: 250 }, (_, i) => i + 1);
    expect(new URLSearchParams(priceRequestBody(ids, '')).getAll('pids[]')).toHaveLength(200);
  });
});

describe('parsePriceAnswer', () => {
  it('keeps numeric ids with string HTML and refuses other shapes', () => {
    expect(parsePriceAnswer(answer({ '15': '€16.60', bad: 'x', '16': 3 as unknown as string }))?.prices).toEqual({ '15': '€16.60' });
    expect(parsePriceAnswer({ success: false, data: 'no' })).toBeNull();
    expect(parsePriceAnswer({ success: true, data: { prices: {}, current_currency: 'euro' } })).toBeNull();
    expect(parsePriceAnswer({ success: true, data: { prices: [], current_currency: 'EUR' } })?.prices).toEqual({});
    expect(parsePriceAnswer('<html>')).toBeNull();
  });
});

describe('patching', () => {
  it('replaces every wrapper of an id and the variation JSON price_html', () => {
    page(listing);
    const n = patchPrices(document, { '15': '<span class="amount">€16.60</span>', '60': '€15.70' });
    expect(n).toBe(2);
    const w = document.querySelectorAll('[data-wmc_product_id="15"]');
    expect([...w].map((e) => e.textContent)).toEqual(['€16.60', '€16.60']);
    expect(document.querySelector('[data-wmc_product_id="16"]')!.textContent).toBe('$20.00');
    const vars = JSON.parse(document.querySelector('form')!.getAttribute('data-product_variations')!);
    expect(vars[0].price_html).toBe('€15.70');
    expect(vars[1].price_html).toBe('$22');
  });

  it('patchVariations returns the same array when nothing changes', () => {
    const list = [{ variation_id: 1, price_html: 'a' }];
    expect(patchVariations(list, { '2': 'b' })).toBe(list);
    expect(patchVariations(list, { '1': 'b' })[0].price_html).toBe('b');
  });
});

describe('cookie', () => {
  it('reads and writes the currency cookie', () => {
    expect(readCurrencyCookie('a=1; wmc_current_currency=eur; b=2')).toBe('EUR');
    expect(readCurrencyCookie('wmc_current_currency=<x>')).toBe('');
    expect(readCurrencyCookie('')).toBe('');
    expect(currencyCookieString('EUR', false)).toBe('wmc_current_currency=EUR; Path=/; Max-Age=31536000; SameSite=Lax');
    expect(currencyCookieString('EUR', true)).toMatch(/; Secure$/);
  });
});

describe('createRefresher', () => {
  it('does nothing when the cookie names the base (or nothing)', async () => {
    page(listing);
    const { f, calls } = fakeFetch(answer({}));
    const r = createRefresher({ doc: document, fetch: f, base: 'USD', url: () => 'u' });
    expect(await r.run()).toBeNull();
    document.cookie = 'wmc_current_currency=USD; Path=/';
    expect(await r.run()).toBeNull();
    expect(calls).toHaveLength(0);
    r.stop();
  });

  it('posts once for coalesced runs, patches, stores and fires the finish event', async () => {
    page(listing);
    document.cookie = 'wmc_current_currency=EUR; Path=/';
    const { f, calls } = fakeFetch(answer({ '15': '€16.60', '16': '€18.40', '60': '€15.70' }));
    const r = createRefresher({ doc: document, fetch: f, base: 'USD', url: () => 'http://x/shop/' });
    const finished: unknown[] = [];
    document.addEventListener(FINISH_EVENT, (e) => finished.push((e as CustomEvent).detail), { once: true });
    const [a, b] = await Promise.all([r.run(), r.run()]);
    expect(a).toBe(b);
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('/wp-admin/admin-ajax.php');
    expect(new URLSearchParams(calls[0].body).getAll('pids[]')).toEqual(['15', '16', '60', '61', '62', '70', '71']);
    expect(document.querySelector('[data-wmc_product_id="16"]')!.textContent).toBe('€18.40');
    expect(getCurrencyState()).toEqual({ current: 'EUR', prices: { '15': '€16.60', '16': '€18.40', '60': '€15.70' } });
    expect(finished).toHaveLength(1);
    // Nothing new on the page: no second call.
    expect(await r.run()).toBeNull();
    expect(calls).toHaveLength(1);
    r.stop();
  });

  it('asks only for appended ids after an append, once per burst of events', async () => {
    page(listing);
    document.cookie = 'wmc_current_currency=EUR; Path=/';
    setCurrencyState({ current: 'EUR', prices: { '15': '€16.60', '16': '€18.40', '60': '€1', '61': '€2', '62': '€3', '70': '€4', '71': '€5' } });
    const { f, calls } = fakeFetch(answer({ '99': '€9.20' }));
    const r = createRefresher({ doc: document, fetch: f, base: 'USD', url: () => 'u' });
    const li = document.createElement('li');
    li.innerHTML = '<span class="price"><span class="wmc-cache-pid" data-wmc_product_id="99">$10.00</span></span>';
    document.querySelector('ul')!.append(li);
    const done = new Promise((res) => document.addEventListener(FINISH_EVENT, res, { once: true }));
    const ul = document.querySelector('ul')!;
    ul.dispatchEvent(new CustomEvent(PRODUCTS_APPENDED_EVENT, { bubbles: true, detail: { ids: [99] } }));
    ul.dispatchEvent(new CustomEvent(PRODUCTS_APPENDED_EVENT, { bubbles: true, detail: { ids: [99] } }));
    await done;
    expect(calls).toHaveLength(1);
    expect(new URLSearchParams(calls[0].body).getAll('pids[]')).toEqual(['99']);
    expect(li.textContent).toBe('€9.20');
    expect(getCurrencyState().prices['15']).toBe('€16.60');
    r.stop();
  });

  it('a run during a call runs once more after it', async () => {
    page(listing);
    document.cookie = 'wmc_current_currency=EUR; Path=/';
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    const calls: string[] = [];
    const f = (async (_u: string, init?: RequestInit) => {
      calls.push(String(init?.body));
      if (calls.length === 1) await gate;
      const ids = new URLSearchParams(String(init?.body)).getAll('pids[]');
      return { ok: true, json: async () => answer(Object.fromEntries(ids.map((i) => [i, `€${i}`]))) } as Response;
    }) as unknown as typeof fetch;
    const r = createRefresher({ doc: document, fetch: f, base: 'USD', url: () => 'u' });
    const first = r.run();
    await new Promise((res) => setTimeout(res, 0));
    const li = document.createElement('li');
    li.innerHTML = '<span class="wmc-cache-pid" data-wmc_product_id="99">$10.00</span>';
    document.querySelector('ul')!.append(li);
    const second = r.run();
    const third = r.run();
    expect(third).toBe(second);
    release();
    await first;
    await second;
    expect(calls).toHaveLength(2);
    expect(new URLSearchParams(calls[1]).getAll('pids[]')).toEqual(['99']);
    expect(li.textContent).toBe('€99');
    r.stop();
  });

  it('a failed call leaves the base prices and throws nothing', async () => {
    page(listing);
    document.cookie = 'wmc_current_currency=EUR; Path=/';
    const failing = (async () => {
      throw new TypeError('offline');
    }) as unknown as typeof fetch;
    const r = createRefresher({ doc: document, fetch: failing, base: 'USD', url: () => 'u' });
    expect(await r.run()).toBeNull();
    const { f } = fakeFetch({ success: false, data: 'bad' }, true);
    const r2 = createRefresher({ doc: document, fetch: f, base: 'USD', url: () => 'u' });
    expect(await r2.run()).toBeNull();
    const { f: f500 } = fakeFetch(answer({ '15': 'x' }), false);
    const r3 = createRefresher({ doc: document, fetch: f500, base: 'USD', url: () => 'u' });
    expect(await r3.run()).toBeNull();
    expect(document.querySelector('[data-wmc_product_id="15"]')!.textContent).toBe('$18.00');
    expect(getCurrencyState().current).toBe('');
    [r, r2, r3].forEach((x) => x.stop());
  });
});
