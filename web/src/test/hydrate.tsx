import { hydrate, render } from 'preact';
import { act } from 'preact/test-utils';
import type { ReactNode } from 'react';
import { expect, vi } from 'vitest';
import { App } from '../App';
import type { PageData } from '../types';

/**
 * What hydration needs: the browser's first render of a page is the server's
 * HTML. Preact adopts the server's nodes without comparing them (a differing
 * attribute would stay as the server wrote it, a differing text would be
 * rewritten), so the comparison is made here: the node is rendered afresh in
 * the browser as hydration renders it, before any effect runs, and compared
 * with the server's HTML node by node (sameMarkup). Then the server's HTML is hydrated, which must
 * adopt its nodes and log no error.
 */
export async function expectHydratesCleanly(html: string, data: PageData, opts: { name?: string; warnings?: boolean } = {}) {
  await expectHydrates(html, <App data={data} />, opts);
}

/** expectHydratesCleanly for any node; resolves to the hydrated root, which the caller removes. */
export async function expectHydrates(html: string, node: ReactNode, opts: { name?: string; warnings?: boolean } = {}) {
  expectSameMarkup(html, node, opts.name);
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.appendChild(root);
  const first = root.firstElementChild;
  const err = vi.spyOn(console, 'error').mockImplementation(() => {});
  const warn = opts.warnings ? vi.spyOn(console, 'warn').mockImplementation(() => {}) : null;
  try {
    await act(async () => {
      hydrate(node as never, root);
    });
    expect(root.firstElementChild, `${opts.name ?? ''}: the server's nodes are adopted`).toBe(first);
    expect(err, opts.name).not.toHaveBeenCalled();
    if (warn) expect(warn, opts.name).not.toHaveBeenCalled();
  } finally {
    err.mockRestore();
    warn?.mockRestore();
    act(() => render(null, root));
    root.remove();
  }
}

/** The browser's first render of node (before effects) is the markup of html. */
export function expectSameMarkup(html: string, node: ReactNode, name = '') {
  const server = document.createElement('div');
  server.innerHTML = html;
  const client = document.createElement('div');
  document.body.appendChild(client);
  try {
    // Hydrating an empty root renders every node anew, as hydration sees
    // them (useSyncExternalStore reads its server snapshot).
    hydrate(node as never, client);
    const diff = sameMarkup(server, client, 'root');
    expect(diff, name).toBe('');
  } finally {
    render(null, client);
    client.remove();
  }
}

// Properties a control's attributes only set the default of: compared as properties.
const CONTROL_ATTRS = new Set(['value', 'checked', 'selected']);
// Attributes whose presence is their value (jsdom writes inert={true} as "true", a browser as "").
const BOOLEAN_ATTRS = new Set(['inert', 'hidden', 'disabled', 'required', 'readonly', 'open', 'multiple', 'novalidate', 'autofocus']);

function attrs(el: Element): string[] {
  const out: string[] = [];
  for (const a of Array.from(el.attributes)) {
    if (CONTROL_ATTRS.has(a.name)) continue;
    if (a.name === 'style') out.push(`style=${(el as HTMLElement).style.cssText}`);
    else out.push(BOOLEAN_ATTRS.has(a.name) ? a.name : `${a.name}=${a.value}`);
  }
  if (el instanceof HTMLInputElement) out.push(`.value=${el.value}`, `.checked=${el.checked}`);
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) out.push(`.value=${el.value}`);
  if (el instanceof HTMLOptionElement) out.push(`.selected=${el.selected}`);
  return out.sort();
}

function kids(n: Node): Node[] {
  const out: Node[] = [];
  let text: string | null = null;
  const flush = () => {
    if (text) out.push(document.createTextNode(text));
    text = null;
  };
  for (const c of Array.from(n.childNodes)) {
    if (c.nodeType === Node.TEXT_NODE) text = (text ?? '') + (c as Text).data;
    else if (c.nodeType === Node.ELEMENT_NODE) {
      flush();
      out.push(c);
    }
  }
  flush();
  return out;
}

/** '' when a and b are the same markup, else where they first differ. */
export function sameMarkup(a: Node, b: Node, path: string): string {
  if (a.nodeType !== b.nodeType) return `${path}: a ${a.nodeName} on the server, a ${b.nodeName} in the browser`;
  if (a.nodeType === Node.TEXT_NODE) {
    return (a as Text).data === (b as Text).data ? '' : `${path}: text "${(a as Text).data}" on the server, "${(b as Text).data}" in the browser`;
  }
  if (a.nodeType === Node.ELEMENT_NODE) {
    const ea = a as Element;
    const eb = b as Element;
    if (ea.tagName !== eb.tagName) return `${path}: <${ea.tagName}> on the server, <${eb.tagName}> in the browser`;
    const [x, y] = [attrs(ea).join(' '), attrs(eb).join(' ')];
    if (x !== y) return `${path}>${ea.tagName.toLowerCase()}: attributes\n  server:  ${x}\n  browser: ${y}`;
    // A noscript's content is text to a browser with scripts; Preact does not render it there.
    if (ea.tagName === 'NOSCRIPT') return '';
  }
  const [ka, kb] = [kids(a), kids(b)];
  const here = a.nodeType === Node.ELEMENT_NODE ? `${path}>${(a as Element).tagName.toLowerCase()}${(a as Element).id ? '#' + (a as Element).id : ''}` : path;
  for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
    if (!ka[i] || !kb[i]) return `${here}: child ${i} only ${ka[i] ? 'on the server' : 'in the browser'}: ${(ka[i] ?? kb[i]).textContent?.slice(0, 80)}`;
    const d = sameMarkup(ka[i], kb[i], `${here}[${i}]`);
    if (d) return d;
  }
  return '';
}
