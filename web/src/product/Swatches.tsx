import { Fragment, useRef, type KeyboardEvent } from 'react';
import type { SwatchAttribute } from '../types';
import { decodeEntities } from '../lib/format';
import { fieldName, type OptionState } from './variations';
import { Tooltip } from '../ui/Tooltip';

/**
 * One attribute's swatches as a WAI-ARIA radio group: one tab stop (the
 * checked swatch, else the first one that can be chosen), arrows move and
 * select (skipping the ones that cannot be chosen, wrapping around), Space
 * selects the focused one. Click selects; clicking the selected one clears
 * it when clearOnReselect is on. The hidden <select> stays the form field:
 * the parent sets it from onChoose.
 */
export function SwatchGroup({
  attr,
  labelId,
  value,
  states,
  canChoose,
  clearOnReselect,
  onChoose,
}: {
  attr: SwatchAttribute;
  labelId: string;
  value: string;
  states: Record<string, OptionState>;
  canChoose: (slug: string) => boolean;
  clearOnReselect: boolean;
  onChoose: (slug: string) => void;
}) {
  const refs = useRef<(HTMLDivElement | null)[]>([]);
  const opts = attr.options;
  const checkedAt = opts.findIndex((o) => o.slug === value);
  const tabStop = checkedAt >= 0 ? checkedAt : Math.max(0, opts.findIndex((o) => canChoose(o.slug)));

  const moveTo = (from: number, dir: 1 | -1) => {
    for (let n = 1; n <= opts.length; n++) {
      const i = (from + dir * n + opts.length * n) % opts.length;
      if (canChoose(opts[i].slug)) {
        refs.current[i]?.focus();
        if (opts[i].slug !== value) onChoose(opts[i].slug);
        return;
      }
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>, i: number) => {
    switch (e.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        e.preventDefault();
        moveTo(i, 1);
        break;
      case 'ArrowLeft':
      case 'ArrowUp':
        e.preventDefault();
        moveTo(i, -1);
        break;
      case ' ':
      case 'Spacebar':
        e.preventDefault();
        if (canChoose(opts[i].slug) && opts[i].slug !== value) onChoose(opts[i].slug);
        break;
    }
  };

  return (
    <div role="radiogroup" aria-labelledby={labelId} className={`variation-swatches variation-swatches--${attr.type}`}>
      {opts.map((o, i) => {
        const st = states[o.slug] || { disabled: false, outOfStock: false };
        const selected = o.slug === value;
        const ok = canChoose(o.slug);
        const name = decodeEntities(o.name);
        const cls =
          `swatch swatch--${attr.type}` +
          (selected ? ' selected' : '') +
          (st.disabled ? ' disabled' : '') +
          (st.outOfStock ? ' no-stock' : '');
        const swatch = (
          <div
            ref={(el) => {
              refs.current[i] = el;
            }}
            role="radio"
            aria-checked={selected}
            aria-disabled={ok ? undefined : true}
            aria-label={attr.type === 'label' ? undefined : name}
            tabIndex={i === tabStop ? 0 : -1}
            className={cls}
            data-value={o.slug}
            data-title={name}
            data-attribute_name={fieldName(attr.key)}
            onClick={() => {
              if (selected) {
                if (clearOnReselect) onChoose('');
                return;
              }
              if (ok) onChoose(o.slug);
            }}
            onKeyDown={(e) => onKeyDown(e, i)}
          >
            {attr.type === 'color' && (
              <span className="swatch__color" style={{ backgroundColor: o.color || undefined }} aria-hidden="true" />
            )}
            {attr.type === 'image' && o.image && <img className="swatch__image" src={o.image} alt="" width={32} height={32} />}
            {attr.type === 'label' ? <span className="swatch__label">{name}</span> : null}
          </div>
        );
        // The product tooltip (spec sections 4 and 9): the name of a colour
        // or image swatch (which has no visible text; it repeats the name, so
        // it describes nothing), and "Out of stock" on the ones out of stock,
        // linked as their description.
        if (st.outOfStock) {
          return (
            <Tooltip key={o.slug} kind="product" content={attr.type === 'label' ? 'Out of stock' : `${name}: Out of stock`}>
              {swatch}
            </Tooltip>
          );
        }
        if (attr.type !== 'label') {
          return (
            <Tooltip key={o.slug} kind="product" content={name} describe={false}>
              {swatch}
            </Tooltip>
          );
        }
        return <Fragment key={o.slug}>{swatch}</Fragment>;
      })}
    </div>
  );
}
