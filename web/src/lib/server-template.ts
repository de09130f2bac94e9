import { jsxTemplate } from 'preact/jsx-runtime';
import { escapeHtml } from './html';

/**
 * The runtime of the server bundle's precompiled markup
 * (server-templates.mjs, docs/decisions/0136-server-markup-precompiled.md).
 *
 * In the server build, a tree of host elements written in JSX (`<p
 * className="meta"><strong>{name}</strong></p>`) is compiled into one
 * template: its fixed markup as strings, with a hole for each value
 * (`tpl(["<p class=\"meta\"><strong>", "</strong></p>"], text(name))`).
 * preact-render-to-string writes a template by joining its strings and
 * holes, without an element, its props or its children to walk for every
 * tag. Components are untouched: they stay elements in the holes.
 *
 * Each hole writes exactly what the renderer writes for the same prop or
 * child (server-templates.test.ts renders every page both ways), so the
 * HTML, and with it the browser's hydration, is unchanged. The browser
 * build does not use this module: its JSX makes elements as before.
 */

/** A template: its strings, and one hole between each two. */
export const tpl = jsxTemplate;

/**
 * An attribute the compiler could not write itself: `name` is the name the
 * renderer writes (class, for, tabindex…, mapped at build time); `str`
 * marks the names whose true and false are written as strings (aria-*,
 * data-*, draggable, spellcheck). As the renderer: no attribute for null,
 * undefined, false or a function; the bare name for true or an empty
 * string; else the value, escaped, in double quotes.
 */
export function attr(name: string, v: unknown, str: boolean): string {
  if (typeof v === 'function') return '';
  if (str && v != null) v = String(v);
  if (v == null || v === false) return '';
  if (v === true || v === '') return ' ' + name;
  return ' ' + name + '="' + escapeHtml(String(v)) + '"';
}

/**
 * A child written as a value: text escaped, a number as it is, nothing for
 * null, undefined, a boolean or a function; an element or an array is left
 * to the renderer.
 */
export function text(v: unknown): unknown {
  switch (typeof v) {
    case 'string':
      return escapeHtml(v);
    case 'number':
    case 'bigint':
      return String(v);
    case 'object':
      return v;
    default:
      return null;
  }
}

/** An element's dangerouslySetInnerHTML: its HTML as it is (nothing when null). */
export function html(v: { __html?: unknown } | null | undefined): string {
  const h = v && v.__html;
  return h ? String(h) : '';
}
