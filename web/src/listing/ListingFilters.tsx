import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { ListingFilterAttribute, ListingFilterOption, ListingPage } from '../types';
import { decodeEntities } from '../lib/format';
import { escapeHtml } from '../lib/html';
import { parseUrl } from '../lib/url';
import { useCurrencyState } from '../currency/store';
import { clearFilters, filterHref, readFilterState, targetKey, toggleFilter, type FilterState, type FilterTarget } from './filter-url';

/**
 * Asks the listing to show href in place (scripts only). key names the
 * control used, so the focus can go back to it once the listing is in.
 */
export type FilterNavigate = (href: string, key: string, from: HTMLElement) => void;

/** "1 result", "12 results": what the live region says once the listing is in. */
export function resultsText(n: number): string {
  return n === 1 ? '1 result' : `${n} results`;
}

function countText(n: number): string {
  return n === 1 ? '1 product' : `${n} products`;
}

/** The current listing's first page with its filters: where the links lead from. */
function baseOf(data: ListingPage): string {
  return data.base || parseUrl(data.url).path;
}

type Look = 'swatch' | 'chip' | 'check';

function lookOf(a: ListingFilterAttribute): Look {
  return a.display === 'color' ? 'swatch' : a.display === 'label' ? 'chip' : 'check';
}

/**
 * One option's item, written as HTML (lib/html.ts: a listing has a few
 * dozen options, about a third of a filtered page's server render as
 * elements): a link to the listing with it chosen (or, when chosen,
 * without it), its count, and its state in words for screen readers. An
 * option that would leave no product is shown, dimmed, as a link that goes
 * nowhere (aria-disabled, "no products"). Clicks and Space on these links
 * are taken by the panel (panelLinkHandlers).
 */
function optionHtml(option: ListingFilterOption, target: FilterTarget, look: Look, state: FilterState, base: string, counted: boolean): string {
  const key = escapeHtml(targetKey(target));
  // Colours and labels wear the product page's swatch styles (variations.css).
  const state_ = (option.selected ? ' selected' : '') + (option.disabled ? ' disabled' : '');
  const cls =
    `filter-option filter-option--${look}` +
    (look === 'chip' ? ' swatch swatch--label' + state_ : '') +
    (option.selected ? ' is-selected' : '') +
    (option.disabled ? ' is-disabled' : '');
  let body = '';
  if (look === 'swatch') {
    const style = option.color ? ` style="background-color:${escapeHtml(option.color)};"` : '';
    body += `<span class="swatch swatch--color${state_}" aria-hidden="true"><span class="swatch__color"${style}></span></span>`;
  } else if (look === 'check') {
    body += '<span class="filter-option__check" aria-hidden="true"></span>';
  }
  body += `<span class="filter-option__label${look === 'chip' ? ' swatch__label' : ''}">${escapeHtml(decodeEntities(option.label))}</span>`;
  if (counted && !option.disabled) {
    body += ` <span class="count"><span aria-hidden="true">(${option.count})</span><span class="screen-reader-text">, ${countText(option.count)}</span></span>`;
  }
  if (option.selected) body += '<span class="screen-reader-text">, selected</span>';
  if (option.disabled) body += ' <span class="count" aria-hidden="true">(0)</span><span class="screen-reader-text">, no products</span>';
  const link = option.disabled
    ? `<a class="${cls}" role="link" aria-disabled="true" data-filter="${key}">${body}</a>`
    : `<a class="${cls}" href="${escapeHtml(filterHref(base, toggleFilter(state, target)))}" rel="nofollow" data-filter="${key}">${body}</a>`;
  const item = 'woocommerce-widget-layered-nav-list__item wc-layered-nav-term' + (option.selected ? ' chosen' : '') + (option.disabled ? ' is-disabled' : '');
  return `<li class="${item}">${link}</li>`;
}

/** A list of options, its items written as HTML (optionHtml). */
function OptionList({ look, items }: { look: Look; items: string }) {
  return <ul className={`woocommerce-widget-layered-nav-list filter-options filter-options--${look}`} dangerouslySetInnerHTML={{ __html: items }} />;
}

/**
 * The panel's handlers for its links (each with an href and its
 * data-filter key: the options, written as HTML, the chips, Clear all and
 * the price's Clear): a plain click, or Space (a toggle), shows that
 * listing in place; a click with a modifier opens the link as usual.
 */
function panelLinkHandlers(onNavigate?: FilterNavigate) {
  if (!onNavigate) return {};
  const take = (e: MouseEvent<HTMLDivElement> | KeyboardEvent<HTMLDivElement>) => {
    const a = e.target instanceof Element ? e.target.closest<HTMLAnchorElement>('a[href][data-filter]') : null;
    if (!a) return;
    e.preventDefault();
    onNavigate(a.getAttribute('href')!, a.dataset.filter!, a);
  };
  return {
    onClick: (e: MouseEvent<HTMLDivElement>) => {
      if (!e.defaultPrevented && e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey) take(e);
    },
    onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => {
      if (e.key === ' ' || e.key === 'Spacebar') take(e);
    },
  };
}

/**
 * The price filter: a GET form (min_price, max_price in the currency the
 * prices are shown in, price_currency when it is not the base), and, with
 * scripts and prices in the base currency, two sliders over the range of
 * the current result that move the fields. Submitting (or letting a slider
 * go) shows the listing in place.
 */
function PriceFilter({ data, idBase, state, onNavigate }: { data: ListingPage; idBase: string; state: FilterState; onNavigate?: FilterNavigate }) {
  const base = data.settings?.base_currency || data.site.currency?.currency_code || '';
  const shown = useCurrencyState().current;
  const code = shown || state.currency || base;
  const unit = Math.pow(10, data.site.currency?.currency_minor_unit ?? 2);
  const range = data.filters?.price_range;
  const lo = range?.min != null ? Math.floor(range.min / unit) : null;
  const hi = range?.max != null ? Math.ceil(range.max / unit) : null;
  const slider = lo !== null && hi !== null && hi > lo && code === base;
  const [min, setMin] = useState(state.min);
  const [max, setMax] = useState(state.max);
  // Another listing shown in place: its bounds.
  useEffect(() => {
    setMin(state.min);
    setMax(state.max);
  }, [state.min, state.max]);
  const action = baseOf(data);
  const without = toggleFilter(state, { kind: 'price' });
  const hrefWith = (a: string, b: string) => filterHref(action, { ...without, min: a, max: b, currency: code && code !== base ? code : '' });
  const go = (from: HTMLElement, key: string, a = min, b = max) => onNavigate?.(hrefWith(a.trim(), b.trim()), key, from);
  // A slider moved by arrow keys changes at every press: the listing
  // follows once the presses pause.
  const settle = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(settle.current ?? undefined), []);
  const goSoon = (from: HTMLElement, key: string, a: string, b: string) => {
    clearTimeout(settle.current ?? undefined);
    settle.current = setTimeout(() => go(from, key, a, b), 350);
  };
  const clearHref = filterHref(action, without);
  const hidden = without.rest.map(([k, v]) => [k, v] as const);

  return (
    <section className="widget widget_price_filter" aria-labelledby={`${idBase}-price`}>
      <h2 className="widget-title" id={`${idBase}-price`}>
        Filter by price
      </h2>
      <form
        method="get"
        action={action}
        className="price-filter"
        onSubmit={
          onNavigate
            ? (e) => {
                e.preventDefault();
                const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLElement | null;
                go(submitter || e.currentTarget, 'price-submit');
              }
            : undefined
        }
      >
        {slider && (
          <div className="price-slider">
            <label className="screen-reader-text" htmlFor={`${idBase}-range-min`}>{`Minimum price (${code})`}</label>
            <input
              type="range"
              id={`${idBase}-range-min`}
              data-filter="price-range-min"
              min={lo!}
              max={hi!}
              step={1}
              value={min === '' ? lo! : Math.min(Math.max(Number(min) || lo!, lo!), hi!)}
              onInput={(e) => {
                const v = Number(e.currentTarget.value);
                setMin(String(Math.min(v, max === '' ? hi! : Number(max) || hi!)));
              }}
              onChange={(e) => goSoon(e.currentTarget, 'price-range-min', String(Math.min(Number(e.currentTarget.value), max === '' ? hi! : Number(max) || hi!)), max)}
            />
            <label className="screen-reader-text" htmlFor={`${idBase}-range-max`}>{`Maximum price (${code})`}</label>
            <input
              type="range"
              id={`${idBase}-range-max`}
              data-filter="price-range-max"
              min={lo!}
              max={hi!}
              step={1}
              value={max === '' ? hi! : Math.min(Math.max(Number(max) || hi!, lo!), hi!)}
              onInput={(e) => {
                const v = Number(e.currentTarget.value);
                setMax(String(Math.max(v, min === '' ? lo! : Number(min) || lo!)));
              }}
              onChange={(e) => goSoon(e.currentTarget, 'price-range-max', min, String(Math.max(Number(e.currentTarget.value), min === '' ? lo! : Number(min) || lo!)))}
            />
          </div>
        )}
        <div className="price-filter__fields">
          <PriceBound idBase={idBase} bound="min" code={code} value={min} onValue={setMin} placeholder={lo} />
          <PriceBound idBase={idBase} bound="max" code={code} value={max} onValue={setMax} placeholder={hi} />
        </div>
        {code && (
          <p className="price-filter__currency" id={`${idBase}-currency`}>
            {`Prices in ${code}`}
          </p>
        )}
        {code && code !== base && <input type="hidden" name="price_currency" value={code} />}
        {hidden.map(([k, v], i) => (
          <input key={k + i} type="hidden" name={k} value={v} />
        ))}
        {Array.from(without.attributes.keys())
          .sort()
          .map((slug) => {
            const a = without.attributes.get(slug)!;
            return (
              <span key={slug} hidden>
                <input type="hidden" name={`filter_${slug}`} value={a.terms.join(',')} />
                {a.or && <input type="hidden" name={`query_type_${slug}`} value="or" />}
              </span>
            );
          })}
        {without.ratings.length > 0 && <input type="hidden" name="rating_filter" value={without.ratings.join(',')} />}
        {without.stock.length > 0 && <input type="hidden" name="filter_stock_status" value={without.stock.join(',')} />}
        {without.onSale && <input type="hidden" name="on_sale" value="1" />}
        <div className="price-filter__actions">
          <button type="submit" className="button" data-filter="price-submit">
            Filter
          </button>
          {(state.min || state.max) && (
            <a className="price-filter__clear" href={clearHref} rel="nofollow" data-filter="price-clear">
              Clear<span className="screen-reader-text"> the price filter</span>
            </a>
          )}
        </div>
      </form>
    </section>
  );
}

/** One bound of the price filter: its label (naming the currency to screen readers) and its number field. */
function PriceBound({
  idBase,
  bound,
  code,
  value,
  onValue,
  placeholder,
}: {
  idBase: string;
  bound: 'min' | 'max';
  code: string;
  value: string;
  onValue: (v: string) => void;
  placeholder: number | null;
}) {
  const word = bound === 'min' ? 'Min' : 'Max';
  return (
    <>
      <label htmlFor={`${idBase}-${bound}`}>
        {`${word} price`}
        {code && <span className="screen-reader-text"> ({code})</span>}
      </label>
      <input
        type="number"
        id={`${idBase}-${bound}`}
        name={`${bound}_price`}
        min="0"
        step="any"
        inputMode="decimal"
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
        placeholder={placeholder !== null ? String(placeholder) : word}
      />
    </>
  );
}

/** A chosen filter: what its chip says and what removing it does. */
interface Chosen {
  label: string;
  target: FilterTarget;
}

function chosenFilters(data: ListingPage, state: FilterState): Chosen[] {
  const f = data.filters;
  const out: Chosen[] = [];
  for (const a of f.attributes) {
    for (const o of a.options) {
      if (o.selected) out.push({ label: `${decodeEntities(a.name)}: ${decodeEntities(o.label)}`, target: { kind: 'attribute', slug: a.slug, value: o.value, queryType: a.query_type } });
    }
  }
  if (state.min || state.max) {
    const code = state.currency || data.settings?.base_currency || data.site.currency?.currency_code || '';
    const text = state.min && state.max ? `${state.min} – ${state.max}` : state.min ? `from ${state.min}` : `up to ${state.max}`;
    out.push({ label: `Price: ${text}${code ? ' ' + code : ''}`, target: { kind: 'price' } });
  }
  for (const o of f.ratings) if (o.selected) out.push({ label: decodeEntities(o.label), target: { kind: 'rating', value: o.value } });
  for (const o of f.stock_status) if (o.selected) out.push({ label: decodeEntities(o.label), target: { kind: 'stock', value: o.value } });
  if (f.on_sale?.selected) out.push({ label: 'On sale', target: { kind: 'sale', value: '1' } });
  return out;
}

/**
 * The listing's filters (decision 0103 has the URL; this panel its UI):
 * the chosen filters as removable chips with "Clear all", the price, each
 * filterable attribute (colours as swatches, "label" attributes as chips,
 * the others as checkboxes), the ratings, stock status and on sale. Every
 * option is a plain link to the normalized URL, so it works without
 * scripts; with them (onNavigate) the listing changes in place and
 * `announce` is read out by the polite live region here.
 */
export function ListingFilters({
  data,
  idBase,
  onNavigate,
  announce = '',
}: {
  data: ListingPage;
  idBase: string;
  onNavigate?: FilterNavigate;
  announce?: string;
}) {
  const f = data.filters;
  const state = readFilterState(data.url);
  const base = baseOf(data);
  const chosen = f ? chosenFilters(data, state) : [];
  const counted = f?.counted ?? false;
  const clearHref = filterHref(base, clearFilters(state));
  const items = (options: ListingFilterOption[], target: (o: ListingFilterOption) => FilterTarget, look: Look) => {
    let html = '';
    for (const o of options) html += optionHtml(o, target(o), look, state, base, counted);
    return html;
  };
  return (
    <div className="listing-filters" data-filter-root="" {...panelLinkHandlers(onNavigate)}>
      <p className="screen-reader-text filter-status" role="status">
        {announce}
      </p>
      {chosen.length > 0 && (
        <section className="widget widget_layered_nav_filters" aria-labelledby={`${idBase}-chosen`}>
          <h2 className="widget-title" id={`${idBase}-chosen`} tabIndex={-1} data-filter="chosen-heading">
            Active filters
          </h2>
          <ul className="filter-chips">
            {chosen.map((c) => {
              const key = 'chip:' + targetKey(c.target);
              const href = filterHref(base, toggleFilter(state, c.target));
              return (
                <li key={key} className="chosen">
                  <a className="filter-chip" href={href} rel="nofollow" data-filter={key}>
                    <span className="screen-reader-text">Remove filter: </span>
                    {c.label}
                    <span className="filter-chip__x" aria-hidden="true">
                      ×
                    </span>
                  </a>
                </li>
              );
            })}
          </ul>
          <a className="filter-clear-all" href={clearHref} rel="nofollow" data-filter="clear-all">
            Clear all<span className="screen-reader-text"> filters</span>
          </a>
        </section>
      )}
      <PriceFilter data={data} idBase={idBase} state={state} onNavigate={onNavigate} />
      {f?.attributes.map((a) => {
        const look = lookOf(a);
        const id = `${idBase}-attr-${a.slug}`;
        return (
          <section key={a.slug} className="widget woocommerce widget_layered_nav woocommerce-widget-layered-nav" aria-labelledby={id}>
            <h2 className="widget-title" id={id}>
              {decodeEntities(a.name)}
            </h2>
            <p className="filter-query-type">{a.query_type === 'or' ? 'Matches any chosen' : 'Matches all chosen'}</p>
            <OptionList look={look} items={items(a.options, (o) => ({ kind: 'attribute', slug: a.slug, value: o.value, queryType: a.query_type }), look)} />
          </section>
        );
      })}
      {f && f.ratings.length > 0 && (
        <section className="widget widget_rating_filter" aria-labelledby={`${idBase}-rating`}>
          <h2 className="widget-title" id={`${idBase}-rating`}>
            Rating
          </h2>
          <OptionList look="check" items={items(f.ratings, (o) => ({ kind: 'rating', value: o.value }), 'check')} />
        </section>
      )}
      {f && (f.stock_status.length > 0 || f.on_sale) && (
        <section className="widget widget_stock_filter" aria-labelledby={`${idBase}-stock`}>
          <h2 className="widget-title" id={`${idBase}-stock`}>
            Availability
          </h2>
          <OptionList
            look="check"
            items={items(f.stock_status, (o) => ({ kind: 'stock', value: o.value }), 'check') + (f.on_sale ? items([f.on_sale], () => ({ kind: 'sale', value: '1' }), 'check') : '')}
          />
        </section>
      )}
    </div>
  );
}
