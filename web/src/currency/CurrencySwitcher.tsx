import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { SwitcherCurrency } from '../types';
import { decodeEntities } from '../lib/format';
import { currencyCookieString, currencySwitched, readCurrencyCookie, useCurrencyState } from './store';
import { collectIds, installPriceRefresh, pagePriceRefresher } from './refresh';
import { pageHydrated } from '../lib/page-hydration';
import './currency.css';

/** Pages without the price call: their amounts come from the server in the shopper's currency. */
export const NO_REFRESH_PAGES = new Set(['checkout', 'cart', 'order-received']);
/**
 * Pages a switch does not change: the checkout (its order review is the
 * cart it was opened with, and the order is placed in the cookie's currency:
 * the cookie must not change under it) and the order-received page (the
 * order keeps its currency). The choice is kept for the next page of this
 * tab (PENDING_KEY) and applied there. The cart page follows a switch (its
 * lines and the mini cart are asked for again).
 */
export const NEXT_PAGE_ONLY = new Set(['checkout', 'order-received']);
/** sessionStorage key of a choice made on a NEXT_PAGE_ONLY page. */
export const PENDING_KEY = 'vitrine_currency_next_page';

function keepPending(code: string) {
  try {
    sessionStorage.setItem(PENDING_KEY, code);
  } catch {
    // storage blocked: the choice is lost, the page stays as it is
  }
}

function takePending(): string {
  try {
    const code = sessionStorage.getItem(PENDING_KEY) ?? '';
    sessionStorage.removeItem(PENDING_KEY);
    return code;
  } catch {
    return '';
  }
}

export function announceText(code: string): string {
  return `Prices shown in ${code}`;
}

function optionLabel(c: SwitcherCurrency): string {
  const sym = decodeEntities(c.symbol || '');
  const name = c.name ? decodeEntities(c.name) : '';
  return `${c.code}${sym && sym !== c.code ? ` (${sym})` : ''}${name ? ` – ${name}` : ''}`;
}

/**
 * Sets the cookie, asks for the page's prices in the new currency (one
 * price call for every price on the page) and has the page's followers
 * (the mini cart, the cart page: store.ts onCurrencySwitch) refresh;
 * resolves with the code shown: the price call's, or on a page without it
 * (withPrices false: the cart page) code once the followers are done; null
 * when the price call failed.
 */
export async function chooseCurrency(code: string, doc: Document = document, withPrices = true): Promise<string | null> {
  doc.cookie = currencyCookieString(code, doc.location?.protocol === 'https:');
  const following = currencySwitched(code);
  const r = withPrices ? pagePriceRefresher() : null;
  if (!r) {
    await following;
    return code;
  }
  const a = await r.run();
  return a ? a.current_currency : null;
}

/**
 * The header's native select (hidden under 768 px, where the sidebar takes
 * over). It carries CURCY's classes (`.woo-multi-currency.wmc-shortcode`,
 * `data-layout`: what the plugin's script looks for) besides ours.
 */
function HeaderSwitcher({ list, current, onChoose }: { list: SwitcherCurrency[]; current: string; onChoose: (c: string) => void }) {
  // Fixed, not useId: the header is a server fragment (lib/server-fragments.tsx); one switcher per page.
  const id = 'currency-switcher-select';
  return (
    <div className="woo-multi-currency wmc-shortcode currency-switcher currency-switcher--header" data-wmc-layout="default" data-layout="default">
      <label htmlFor={id} className="currency-switcher__label">
        Currency
      </label>
      <select id={id} value={current} onChange={(e) => onChoose(e.target.value)}>
        {list.map((c) => (
          <option key={c.code} value={c.code}>
            {optionLabel(c)}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The spec's sidebar variant under 768 px: a tab opening a list. It sits in
 * the header's bar and the list drops down under it (currency.css): a fixed
 * side tab would cover the page. A press outside or Tab out closes the list.
 */
function SidebarSwitcher({ list, current, onChoose }: { list: SwitcherCurrency[]; current: string; onChoose: (c: string) => void }) {
  const [open, setOpen] = useState(false);
  const id = 'currency-sidebar'; // fixed, as HeaderSwitcher's
  const tab = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  // In the commit that opens the panel: a key pressed right after finds the focus there.
  useLayoutEffect(() => {
    if (!open) return;
    const cur = panel.current?.querySelector<HTMLButtonElement>('button[aria-current="true"]') ?? panel.current?.querySelector('button');
    cur?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    tab.current?.focus();
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    const buttons = Array.from(panel.current?.querySelectorAll<HTMLButtonElement>('.currency-sidebar__option') ?? []);
    if (buttons.length === 0) return;
    e.preventDefault();
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      e.key === 'Home' ? 0 : e.key === 'End' ? buttons.length - 1 : (i + (e.key === 'ArrowDown' ? 1 : -1) + buttons.length) % buttons.length;
    buttons[next].focus();
  };

  return (
    <div
      ref={root}
      className={'woo-multi-currency wmc-sidebar currency-sidebar' + (open ? ' is-open' : '')}
      data-wmc-layout="sidebar"
      onKeyDown={onKey}
      onBlur={(e) => {
        const next = e.relatedTarget as Node | null;
        if (next && !e.currentTarget.contains(next)) setOpen(false);
      }}
    >
      <button
        ref={tab}
        type="button"
        className="currency-sidebar__tab"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        aria-label={`Currency: ${current}`}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {current}
      </button>
      <div ref={panel} id={`${id}-list`} className="currency-sidebar__panel" hidden={!open}>
        <p className="currency-sidebar__title" id={`${id}-title`}>
          Currency
        </p>
        <ul aria-labelledby={`${id}-title`}>
          {list.map((c) => (
            <li key={c.code}>
              <button
                type="button"
                className="currency-sidebar__option"
                aria-current={c.code === current ? 'true' : undefined}
                onClick={() => {
                  onChoose(c.code);
                  close();
                }}
              >
                {optionLabel(c)}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/**
 * The currency switchers (header and sidebar) and the page's price refresh.
 * Renders nothing when the shop sells in one currency. Server and
 * hydration render the base (or shown, the currency of a page rendered for
 * this visitor: the cart and checkout pass their cart's); after hydration the
 * refresh runs when the cookie names another currency, and the switchers
 * mark what is shown: the price call's currency where it runs; on the cart,
 * checkout and order-received pages the shopper's last choice there, else
 * shown, else the cookie's currency.
 */
export function CurrencySwitchers({
  currencies,
  base,
  page,
  shown,
}: {
  currencies?: SwitcherCurrency[];
  base: string;
  page: string;
  shown?: string;
}) {
  const st = useCurrencyState();
  const [note, setNote] = useState('');
  const [picked, setPicked] = useState('');
  const [fromCookie, setFromCookie] = useState('');
  const list = currencies ?? [];
  const refresh = !NO_REFRESH_PAGES.has(page) && list.length > 1;

  // A choice kept from the checkout: set before the price refresh below reads
  // the cookie; the followers run once every component has registered them.
  useEffect(() => {
    if (NEXT_PAGE_ONLY.has(page) || list.length < 2) return;
    const code = takePending();
    if (!list.some((c) => c.code === code) || code === readCurrencyCookie(document.cookie)) return;
    document.cookie = currencyCookieString(code, window.location.protocol === 'https:');
    setPicked(code);
    queueMicrotask(() => void currencySwitched(code));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per page
  }, []);

  useEffect(() => {
    if (!refresh) return;
    const r = installPriceRefresh({
      doc: document,
      fetch: (...a) => window.fetch(...a),
      base,
      url: () => window.location.href,
      ready: pageHydrated,
    });
    void r.run();
  }, [refresh, base]);

  // After hydration (the server render never sees the cookie). A page with
  // no price on it (contact, about, my account, 404, an empty search) makes
  // no price call, so nothing answers which currency is shown: the
  // shopper's choice (the cookie) is.
  const [noPrices, setNoPrices] = useState(false);
  useEffect(() => {
    setFromCookie(readCurrencyCookie(document.cookie));
    setNoPrices(collectIds(document).length === 0);
  }, []);

  if (list.length < 2) return null;
  const known = (code: string | undefined) => (code && list.some((c) => c.code === code) ? code : '');
  // Where the price call runs, the switchers mark what its answer shows (the
  // base until then, or after a failure); on a page without prices, the
  // shopper's choice; elsewhere the amounts are the server's, in the
  // shopper's currency.
  const current = refresh
    ? st.current || (noPrices ? known(picked) || known(fromCookie) : '') || base
    : known(picked) || known(shown) || known(fromCookie) || base;
  const onChoose = (code: string) => {
    if (!list.some((c) => c.code === code)) return;
    setPicked(code);
    if (NEXT_PAGE_ONLY.has(page)) {
      keepPending(code);
      setNote(`Prices will be shown in ${code} on the next page`);
      return;
    }
    void chooseCurrency(code, document, refresh && !noPrices).then((now) => {
      if (now) setNote(announceText(now));
    });
  };
  return (
    <>
      <HeaderSwitcher list={list} current={current} onChoose={onChoose} />
      <SidebarSwitcher list={list} current={current} onChoose={onChoose} />
      <div className="screen-reader-text currency-note" aria-live="polite">
        {note}
      </div>
    </>
  );
}
