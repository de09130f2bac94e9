import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { App } from '../App';
import { listingPage, settings } from '../test/fixtures';
import { FINISH_EVENT, resetCurrencyState } from '../currency/store';
import { expectPageHydration, pageHydrated } from './page-hydration';
import { hydrateInParts } from './hydrate-later';

// A shopper whose cookie names GBP (the fixtures' base is EUR) opens a cached listing (base prices) and
// the price call answers before React has hydrated the page's Suspense
// boundary: the answer must wait for it, else React finds prices it did not
// render and throws the server's HTML away (error #418).
describe('the price refresh and hydration', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    window.fetch = realFetch;
    document.cookie = 'wmc_current_currency=; Path=/; Max-Age=0';
    resetCurrencyState();
  });

  for (const inParts of [false, true]) {
  it(`an early price answer is applied after the page has hydrated, without a mismatch${inParts ? ' (hydrated in parts)' : ''}`, async () => {
    const data = listingPage({
      settings: {
        ...settings,
        currencies: [
          { code: 'EUR', symbol: '€' },
          { code: 'GBP', symbol: '£' },
        ],
      },
    });
    const html = renderToString(<App data={data} />);
    const root = document.createElement('div');
    root.innerHTML = html;
    document.body.appendChild(root);
    document.cookie = 'wmc_current_currency=GBP; Path=/';
    window.fetch = (async (_u: string, init?: RequestInit) => {
      const ids = new URLSearchParams(String(init?.body)).getAll('pids[]');
      return {
        ok: true,
        json: async () => ({
          success: true,
          data: { prices: Object.fromEntries(ids.map((i) => [i, `<span class="amount">GBP ${i}</span>`])), current_currency: 'GBP' },
        }),
      } as Response;
    }) as typeof fetch;
    const finished = new Promise((resolve) => document.addEventListener(FINISH_EVENT, resolve, { once: true }));

    // The browser's scheduler, as in entry-client (no act: React hydrates the
    // boundary in a later task, when the header's effects have run).
    const env = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const wasAct = env.IS_REACT_ACT_ENVIRONMENT;
    env.IS_REACT_ACT_ENVIRONMENT = false;
    const recoverable: unknown[] = [];
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    expectPageHydration();
    let r!: ReturnType<typeof hydrateRoot>;
    const hydrate = () => {
      r = hydrateRoot(root, <App data={data} />, { onRecoverableError: (e) => recoverable.push(e) });
    };
    // In parts (entry-client): the cards wait for their turn after the
    // first pass, and the gate waits for them.
    if (inParts) hydrateInParts(hydrate, root);
    else hydrate();
    try {
      await pageHydrated();
      await finished;
      const first = root.querySelector<HTMLElement>('.wmc-cache-pid[data-wmc_product_id]');
      expect(first?.textContent).toBe(`GBP ${first?.dataset.wmc_product_id}`);
      expect(recoverable).toEqual([]);
      expect(err).not.toHaveBeenCalled();
    } finally {
      err.mockRestore();
      r.unmount();
      root.remove();
      env.IS_REACT_ACT_ENVIRONMENT = wasAct;
    }
  });
  }
});
