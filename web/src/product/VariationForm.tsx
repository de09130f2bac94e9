import { useEffect, useId, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { ProductPage, StoreImage, Variation } from '../types';
import { decodeEntities } from '../lib/format';
import { restFetch } from '../lib/rest';
import { PriceWrap } from '../ui/Price';
import { useCurrencyState } from '../currency/store';
import { pagePriceRefresher, patchVariations } from '../currency/refresh';
import { QuantityField } from './QuantityField';
import { SwatchGroup } from './Swatches';
import {
  addButtonLabel,
  buttonClass,
  buttonReason,
  candidatesFromAvailability,
  candidatesFromRefs,
  candidatesFromVariations,
  choiceKey,
  choose,
  clampQuantity,
  findMatch,
  formatChoiceUrl,
  formatPreOrderDate,
  formState,
  disabledMessage,
  fieldName,
  isComplete,
  labelWithValue,
  MSG_NO_MATCH,
  MSG_RESET,
  optionStates,
  parseChoice,
  partialImage,
  quantityLimits,
  selectable,
  stockHint,
  TIMINGS,
  variationImage,
  variationRequestBody,
  type Chosen,
} from './variations';
import './variations.css';

/** The live region's message after a product form's add. */
export function addedMessage(name: string) {
  return `\u201c${decodeEntities(name)}\u201d has been added to your cart.`;
}

/** What the page around the form shows for the current selection. */
export interface ShownVariation {
  /** The matched variation (complete selection), or null. */
  variation: Variation | null;
  /** The main image to show (a match's, or a colour alone's), or null for the product's own. */
  image: StoreImage | null;
}

/**
 * The variation form (spec section 4). Before scripts it is plain selects and
 * a disabled button; once hydrated, swatches drive the selects, matching uses
 * the embedded variations or get_variation, and the selection follows the
 * URL on product pages (replaceState: choosing options is not navigation, so
 * Back leaves the product page).
 */
export function VariationForm({ data, onShow }: { data: ProductPage; onShow?: (s: ShownVariation) => void }) {
  const p = data.product;
  const swatches = data.swatches;
  const settings = data.settings;
  const embedded = data.variations.length > 0;
  const syncUrl = (data as { page: string }).page === 'product';
  const baseId = useId();
  const form = useRef<HTMLFormElement>(null);
  // Prices in the shopper's currency: the price call's HTML by variation id.
  const converted = useCurrencyState().prices;
  const variationsJson = useMemo(
    () => (embedded ? JSON.stringify(patchVariations(data.variations, converted)) : 'false'),
    [embedded, data.variations, converted],
  );
  // A form mounted after the page's price call (quick view): its variation ids join the next call.
  useEffect(() => {
    void pagePriceRefresher()?.run();
  }, [p.id]);

  const [enhanced, setEnhanced] = useState(false);
  const [ready, setReady] = useState(false); // initial check done: URL follows from now on
  const [chosen, setChosen] = useState<Chosen>({});
  // get_variation answers by selection key (false: no match), and the variations they named by id.
  const [answers, setAnswers] = useState<Record<string, Variation | false>>({});
  const [known, setKnown] = useState<Record<number, Variation>>({});
  const [stockLeft, setStockLeft] = useState<{ id: number; left: number | null } | null>(null);
  const [announce, setAnnounce] = useState('');
  const [noMatchShown, setNoMatchShown] = useState(false);
  const [preOrderText, setPreOrderText] = useState('');

  const availability = data.variation_availability;
  const cands = useMemo(
    () =>
      embedded
        ? candidatesFromVariations(data.variations)
        : availability && availability.length > 0
          ? candidatesFromAvailability(availability, known)
          : candidatesFromRefs(p.variations, swatches, known),
    [embedded, data.variations, availability, p.variations, swatches, known],
  );
  const states = useMemo(() => optionStates(cands, swatches, chosen), [cands, swatches, chosen]);
  const complete = isComplete(swatches, chosen);
  const key = choiceKey(swatches, chosen);
  const match: Variation | null | false | undefined = !complete
    ? null
    : embedded
      ? findMatch(data.variations, swatches, chosen) || false
      : answers[key];
  const state = formState(complete, match);
  const variation = state.kind === 'match' ? state.variation : null;
  const reason = buttonReason(state);
  const fallbackLabel = decodeEntities(p.add_to_cart.single_text) || 'Add to cart';
  const label = addButtonLabel(variation, fallbackLabel);
  const left = variation
    ? variation.variation_stock_left ?? (stockLeft && stockLeft.id === variation.variation_id ? stockLeft.left : null)
    : null;
  const hint = stockHint(variation, left);
  const qty = quantityLimits(variation, p);
  const anyChosen = Object.values(chosen).some(Boolean);
  const opts = { clickableOutOfStock: settings.clickable_out_of_stock, deselectConflicting: settings.deselect_conflicting };

  // After hydration: swatches appear; 100 ms later the selection named by the
  // URL (or restored by the browser in the selects) is applied.
  useEffect(() => {
    setEnhanced(true);
    const t = setTimeout(() => {
      const fromUrl = syncUrl ? parseChoice(window.location.search, swatches) : {};
      const fromForm: Chosen = {};
      for (const sw of swatches) {
        const el = form.current?.querySelector<HTMLSelectElement>(`select[name="${fieldName(sw.key)}"]`);
        if (el && el.value && sw.options.some((o) => o.slug === el.value)) fromForm[sw.key] = el.value;
      }
      const initial = { ...fromForm, ...fromUrl };
      if (Object.keys(initial).length > 0) setChosen(initial);
      setReady(true);
    }, TIMINGS.initialCheck);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The selection in the URL.
  useEffect(() => {
    if (!ready || !syncUrl) return;
    const { pathname, search, hash } = window.location;
    const next = formatChoiceUrl(pathname + search + hash, swatches, chosen);
    if (next !== pathname + search + hash) window.history.replaceState(window.history.state, '', next);
  }, [ready, syncUrl, swatches, chosen]);

  // get_variation, only when every attribute has a value and the answer is not known.
  useEffect(() => {
    if (embedded || !complete || key in answers) return;
    const ctl = new AbortController();
    fetch('/?wc-ajax=get_variation', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8', 'X-Requested-With': 'XMLHttpRequest' },
      body: variationRequestBody(p.id, swatches, chosen),
      signal: ctl.signal,
    })
      .then((r) => (r.ok ? r.text() : ''))
      .then((text) => {
        let v: Variation | false = false;
        try {
          const parsed = text ? JSON.parse(text) : false;
          if (parsed && typeof parsed === 'object' && 'variation_id' in parsed) v = parsed as Variation;
        } catch {
          v = false;
        }
        setAnswers((a) => ({ ...a, [key]: v }));
        if (v) setKnown((k) => ({ ...k, [v.variation_id]: v }));
      })
      .catch(() => {
        // Aborted (the selection changed) or offline: nothing to show.
      });
    return () => ctl.abort();
  }, [embedded, complete, key, answers, p.id, swatches, chosen]);

  // Exact stock for an embedded variation (the cached page has none): the Store API.
  const vid = variation?.variation_id ?? 0;
  const needStock = !!variation && embedded && variation.is_in_stock && variation.variation_stock_left == null;
  useEffect(() => {
    if (!needStock || !vid) return;
    const ctl = new AbortController();
    restFetch(`/wp-json/wc/store/v1/products/${vid}`, { signal: ctl.signal })
      .then((r) => (r.ok ? r.json() : null))
      .then((j: { low_stock_remaining?: number | null } | null) => {
        if (j) setStockLeft({ id: vid, left: typeof j.low_stock_remaining === 'number' ? j.low_stock_remaining : null });
      })
      .catch(() => {});
    return () => ctl.abort();
  }, [needStock, vid]);

  // The no-match notice appears after the display delay (a quick change of mind does not flash it).
  useEffect(() => {
    if (state.kind !== 'no-match') {
      setNoMatchShown(false);
      return;
    }
    const t = setTimeout(() => setNoMatchShown(true), TIMINGS.displayDelay);
    return () => clearTimeout(t);
  }, [state.kind]);

  // Pre-order date in the shopper's locale (Intl: browser only, so in an effect).
  const preDate = variation && variation.is_pre_order === 'yes' ? variation.pre_order_date : '';
  useEffect(() => {
    setPreOrderText(preDate ? formatPreOrderDate(preDate) : '');
  }, [preDate]);

  // Quantity clamped to the variation's limits.
  useEffect(() => {
    const el = form.current?.querySelector<HTMLInputElement>('input.qty');
    if (!el || qty.fixed) return;
    const next = clampQuantity(el.value, qty.min, qty.max);
    if (next !== el.value) {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
      if (setter) setter.call(el, next);
      else el.value = next;
      el.dispatchEvent(new Event('change', { bubbles: true }));
    }
  }, [qty.fixed, qty.min, qty.max]);

  // Tell the page what to show (price, image, SKU...).
  const partial = !variation && embedded ? partialImage(data.variations, chosen) : null;
  const shownImage = variationImage(variation) ?? variationImage(partial);
  const shownKey = `${variation?.variation_id ?? 0}|${shownImage?.src ?? ''}`;
  useEffect(() => {
    onShow?.({ variation, image: shownImage });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shownKey]);

  const pick = (attrKey: string, value: string) => {
    setAnnounce('');
    setChosen((c) => choose(cands, swatches, c, attrKey, value, settings.deselect_conflicting));
  };
  const reset = (e: MouseEvent) => {
    e.preventDefault();
    setChosen({});
    setAnnounce(MSG_RESET);
  };
  // A handler runs only in a hydrated page, so a press on the disabled
  // button always says why, even in the moment between hydration and the
  // enhanced render (a press then used to be refused without a word).
  const refuse = (e: { preventDefault: () => void }) => {
    if (reason === null) return false;
    e.preventDefault();
    window.alert(disabledMessage(reason));
    return true;
  };

  return (
    <form
      ref={form}
      className="variations_form cart"
      method="post"
      action={p.permalink}
      encType="multipart/form-data"
      data-product_id={p.id}
      data-product_variations={variationsJson}
      data-wmc_variation_ids={p.variations.map((v) => v.id).join(',')}
      data-success_message={addedMessage(p.name)}
      onSubmit={(e) => {
        if (enhanced) refuse(e);
      }}
    >
      <table className="variations" role="presentation">
        <tbody>
          {swatches.map((sw, i) => {
            const attr = fieldName(sw.key);
            const id = `${baseId}-${sw.key}`;
            const labelId = `${id}-label`;
            const value = chosen[sw.key] || '';
            const opt = sw.options.find((o) => o.slug === value);
            const name = decodeEntities(sw.name);
            // Swatches are in the server's HTML too, so hydration swaps
            // nothing and nothing moves (CLS). Before scripts run, the
            // stylesheet shows the select instead (html without "js"); the
            // select stays hidden from assistive technology only once the
            // swatches work.
            const withSwatches = sw.type !== 'select';
            const swatchesLive = enhanced && withSwatches;
            return (
              <tr key={sw.key}>
                <th className="label" scope="row">
                  <label htmlFor={id} id={labelId}>
                    {name}
                  </label>
                  {opt && (
                    <span className="variation-selected-value" aria-hidden="true">
                      {labelWithValue('', decodeEntities(opt.name))}
                    </span>
                  )}
                </th>
                <td className="value">
                  {withSwatches && (
                    <SwatchGroup
                      attr={sw}
                      labelId={labelId}
                      value={value}
                      states={states[sw.key] || {}}
                      canChoose={(slug) => selectable(states[sw.key]?.[slug], opts)}
                      clearOnReselect={settings.clear_on_reselect}
                      onChoose={(slug) => pick(sw.key, slug)}
                    />
                  )}
                  <select
                    id={id}
                    name={attr}
                    data-attribute_name={attr}
                    value={value}
                    className={withSwatches ? 'variation-select--swatched' : undefined}
                    aria-hidden={swatchesLive ? true : undefined}
                    tabIndex={swatchesLive ? -1 : undefined}
                    onChange={(e) => pick(sw.key, e.currentTarget.value)}
                  >
                    <option value="">Choose an option</option>
                    {sw.options.map((o) => {
                      const st = states[sw.key]?.[o.slug];
                      return (
                        <option key={o.slug} value={o.slug} disabled={enhanced && !!st && !selectable(st, opts) && o.slug !== value}>
                          {decodeEntities(o.name)}
                        </option>
                      );
                    })}
                  </select>
                  {i === swatches.length - 1 && (
                    <a
                      className="reset_variations"
                      href="#"
                      style={enhanced && !anyChosen ? { visibility: 'hidden' } : undefined}
                      onClick={reset}
                    >
                      Clear
                    </a>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="single_variation_wrap">
        <div
          className={'woocommerce-variation single_variation' + (variation ? ' is-shown' : '')}
          role="alert"
          aria-live="polite"
        >
          <div className="single_variation__inner">
            {variation && (
              <>
                {variation.variation_description && (
                  <div
                    className="woocommerce-variation-description"
                    dangerouslySetInnerHTML={{ __html: variation.variation_description }}
                  />
                )}
                <div className="woocommerce-variation-price">
                  <PriceWrap id={variation.variation_id} html={variation.price_html} />
                </div>
                <div className="woocommerce-variation-availability">
                  {/* A pre-order says when it is available, and only that: not "In stock" beside it. */}
                  {!preDate && variation.availability_html && <div dangerouslySetInnerHTML={{ __html: variation.availability_html }} />}
                  {!preDate && hint && <p className="stock-left-hint">{hint}</p>}
                  {preOrderText && (
                    <p className="pre-order-availability">
                      Available on <time dateTime={variation.pre_order_date}>{preOrderText}</time>
                    </p>
                  )}
                </div>
              </>
            )}
          </div>
        </div>
        {noMatchShown && state.kind === 'no-match' && (
          <p className="wc-no-matching-variations woocommerce-info" role="status">
            {MSG_NO_MATCH}
          </p>
        )}
        <div
          className={
            'woocommerce-variation-add-to-cart variations_button' +
            (reason === null ? ' woocommerce-variation-add-to-cart-enabled' : ' woocommerce-variation-add-to-cart-disabled')
          }
        >
          {qty.fixed ? (
            <input type="hidden" name="quantity" value="1" />
          ) : (
            <QuantityField
              name="quantity"
              label="Quantity"
              defaultValue={qty.min}
              min={qty.min}
              max={qty.max}
              step={p.add_to_cart.multiple_of || 1}
            />
          )}
          <button
            type="submit"
            className={buttonClass(reason)}
            aria-disabled={reason === null ? undefined : true}
            onClick={(e) => {
              refuse(e);
            }}
          >
            {label}
          </button>
          <input type="hidden" name="add-to-cart" value={p.id} />
          <input type="hidden" name="product_id" value={p.id} />
          <input type="hidden" name="variation_id" className="variation_id" value={variation ? variation.variation_id : 0} />
        </div>
      </div>
      <div className="screen-reader-text" role="status" aria-live="polite">
        {announce}
      </div>
    </form>
  );
}
